import { assertMatchesContract } from '@pgs/contract/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, type Harness, startHarness } from '../helpers/harness.ts';
import { connectMcp, structured, toolErrorOf } from './mcp-client.ts';

/**
 * The per-key limits on /mcp (docs/mcp.md): each request counts against `mcp`, and each tool
 * call against the limit of the REST operation it stands for, on the same counter.
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
    const send = () =>
      fetch(new URL('/mcp', url), {
        method: 'POST',
        headers: {
          ...bearer(key.key),
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
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
});
