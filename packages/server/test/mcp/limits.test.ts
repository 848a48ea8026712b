import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { assertMatchesContract } from '@pgs/contract/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, type Harness, startHarness } from '../helpers/harness.ts';
import { connectMcp, structured, toolErrorOf } from './mcp-client.ts';

/**
 * The per-key limits on /mcp (docs/mcp.md): each JSON-RPC message counts against `mcp` (a
 * batch of n counts n), and each tool call against the limit of the REST operation it stands
 * for, on the same counter. Batches, refused from protocol 2025-06-18 on, are here too.
 */

const IDEA = 'A tool library for a street, with reminders to bring things back.';
const rule = (name: string, points: number) => ({
  name,
  points,
  durationSec: 60,
  window: '1 minute',
});

describe('MCP rate limits', () => {
  let h: Harness;
  let url: string;
  const post = (key: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(new URL('/mcp', url), {
      method: 'POST',
      headers: {
        ...bearer(key),
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...headers,
      },
      body: JSON.stringify(body),
    });
  beforeAll(async () => {
    h = await startHarness('pglite', {
      generation: 'workers',
      rules: { create: rule('create', 1), mcp: rule('mcp', 5) },
    });
    url = await h.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => h?.close());

  it('counts generate_project against createProject: a tool error with retry_after, then a 429 on REST', async () => {
    const key = await h.createKey('test', { credits: 1_000 });
    const client = await connectMcp(url, key.key);
    try {
      const first = structured<{ status: string }>(
        await client.callTool({ name: 'generate_project', arguments: { idea: IDEA } }),
      );
      expect(first.status).toBe('in_progress');
      const error = toolErrorOf(
        await client.callTool({ name: 'generate_project', arguments: { idea: IDEA } }),
      );
      expect(error).toMatchObject({
        code: 'RATE_LIMIT_EXCEEDED',
        details: { limit: 1, window: '1 minute', retry_after: expect.any(Number) },
      });
      const retryAfter = error.details?.retry_after as number;
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      const rest = await h.createProject(key, { idea: IDEA });
      expect(rest.statusCode).toBe(429);
    } finally {
      await client.close();
    }
  });

  it('counts every request to /mcp against the key’s mcp limit: 429 in the envelope past it', async () => {
    const key = await h.createKey('test');
    const send = () => post(key.key, { jsonrpc: '2.0', id: 1, method: 'tools/list' });
    for (let i = 0; i < 5; i++) {
      const res = await send();
      expect(res.status).toBe(200);
      expect(res.headers.get('x-ratelimit-remaining')).toBe(String(4 - i));
      await res.text();
    }
    const refused = await send();
    const body = await refused.text();
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(JSON.parse(body).error).toMatchObject({
      code: 'RATE_LIMIT_EXCEEDED',
      details: { limit: 5, window: '1 minute' },
    });
    assertMatchesContract('POST', '/mcp', {
      statusCode: refused.status,
      headers: Object.fromEntries(refused.headers),
      body,
    });
  });

  const list = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/list' });
  const OLD = { 'mcp-protocol-version': '2025-03-26' };

  it('counts each message of a batch: a batch of n costs n, and one past the limit is a 429', async () => {
    const key = await h.createKey('test');
    const three = await post(key.key, [list(1), list(2), list(3)], OLD);
    const answers = await three.text();
    expect(three.status).toBe(200);
    expect(three.headers.get('x-ratelimit-remaining')).toBe('2');
    for (const id of [1, 2, 3]) expect(answers).toContain(`"id":${id}`);
    // Two left: a batch of three passes the limit and is refused whole.
    const refused = await post(key.key, [list(4), list(5), list(6)], OLD);
    const body = await refused.text();
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(JSON.parse(body).error).toMatchObject({
      code: 'RATE_LIMIT_EXCEEDED',
      message: expect.stringMatching(/^A batch of 3 messages passes the limit of 5 MCP messages/),
      details: { limit: 5, window: '1 minute' },
    });
    assertMatchesContract('POST', '/mcp', {
      statusCode: refused.status,
      headers: Object.fromEntries(refused.headers),
      body,
    });
  });

  it('refuses the issue’s batch of 100 on a limit of 5, which once cost one unit', async () => {
    const key = await h.createKey('test');
    const hundred = Array.from({ length: 100 }, (_, i) => list(i + 1));
    const res = await post(key.key, hundred, OLD);
    await res.text();
    expect(res.status).toBe(429);
  });

  it('refuses batches under 2025-06-18 and later, the revision the client negotiated with the SDK', async () => {
    const key = await h.createKey('test');
    const client = await connectMcp(url, key.key);
    try {
      const negotiated = (client.transport as StreamableHTTPClientTransport).protocolVersion;
      expect(negotiated! >= '2025-06-18').toBe(true);
      for (const version of [negotiated!, '2025-06-18']) {
        const res = await post(key.key, [list(1), list(2)], { 'mcp-protocol-version': version });
        const body = await res.text();
        expect(res.status).toBe(400);
        expect(JSON.parse(body).error).toMatchObject({
          code: 'VALIDATION_ERROR',
          message: `MCP ${version} has no JSON-RPC batches (removed in 2025-06-18): send each message in a POST of its own.`,
          details: {
            invalid_fields: { body: `must be a single JSON-RPC message under MCP ${version}` },
            jsonrpc_error: { code: -32600, message: 'Invalid Request' },
          },
        });
        assertMatchesContract('POST', '/mcp', {
          statusCode: res.status,
          headers: Object.fromEntries(res.headers),
          body,
        });
      }
      // An initialize alone in a batch negotiates its own revision: 2025-06-18 has no batches.
      const initialize = {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: 'pgs-tests', version: '1.0.0' },
        },
      };
      const init = await post(key.key, [initialize]);
      await init.text();
      expect(init.status).toBe(400);
    } finally {
      await client.close();
    }
  });

  it('answers an empty batch with Invalid Request (400), not 202, whatever the revision', async () => {
    const key = await h.createKey('test');
    for (const headers of [{}, OLD]) {
      const res = await post(key.key, [], headers);
      const body = await res.text();
      expect(res.status).toBe(400);
      expect(JSON.parse(body).error).toMatchObject({
        code: 'VALIDATION_ERROR',
        details: {
          invalid_fields: { body: 'must not be an empty array' },
          jsonrpc_error: { code: -32600, message: 'Invalid Request' },
        },
      });
    }
  });
});
