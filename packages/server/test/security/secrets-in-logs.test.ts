import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateAdminToken } from '../../src/accounts/api-keys.ts';
import { createLogger } from '../../src/api/logging.ts';
import { loadConfig } from '../../src/config.ts';
import { type Runtime, startRuntime } from '../../src/runtime.ts';
import { seedDataDir } from '../helpers/database.ts';
import { type FakeAi, startFakeAi } from '../helpers/fake-ai.ts';
import { bearer } from '../helpers/harness.ts';
import { waitFor } from '../helpers/wait.ts';

/**
 * Issue 11 item 5, OWASP API8 (security misconfiguration: secrets in logs): the real
 * runtime (config, logger, app and workers, as `npm start` builds them) at level trace,
 * every line captured, over a flow with failures: a good key, a wrong one, keys in the query
 * and in the body, a revoked key, a bad admin token, and a live project whose provider
 * answers 401 echoing its key. No API key, admin token or provider key appears in any line.
 */

const PROVIDER_KEY = `sk-proj-${'S3cr3tPr0v1d3rK3y'.repeat(3)}`;
const IDEA = 'A web dashboard where community gardeners share compost schedules and seed swaps.';

describe('secrets never reach the logs', () => {
  let dir: string;
  let fake: FakeAi;
  let runtime: Runtime;
  const lines: string[] = [];
  const adminToken = generateAdminToken();

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'pgs-logs-'));
    await seedDataDir(dir);
    // The provider refuses the key and, as real ones do, quotes it back.
    fake = await startFakeAi(() => ({
      kind: 'error',
      status: 401,
      message: `Incorrect API key provided: ${PROVIDER_KEY}. Bearer ${PROVIDER_KEY}`,
    }));
    const config = loadConfig(
      {
        PGS_DATA_DIR: dir,
        PGS_ADMIN_TOKEN: adminToken,
        PGS_LOG_LEVEL: 'trace',
        PGS_MODELS: 'openai:gpt-4.1-mini',
        OPENAI_API_KEY: PROVIDER_KEY,
        OPENAI_BASE_URL: fake.baseURL,
      },
      dir,
    );
    runtime = await startRuntime(
      config,
      createLogger('trace', { write: (line) => lines.push(line) }),
    );
  });
  afterAll(async () => {
    await runtime?.stop();
    await fake?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('logs a flow with failures without a single secret', async () => {
    const app = runtime.app!;
    const admin = (method: 'POST' | 'DELETE', url: string, body?: unknown, token = adminToken) =>
      app.inject({
        method,
        url,
        headers: { ...bearer(token), ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { payload: JSON.stringify(body) } : {}),
      });
    const live = (await admin('POST', '/admin/v1/keys', { mode: 'live', credits: 100 })).json()
      .data;
    const test = (await admin('POST', '/admin/v1/keys', { mode: 'test', credits: 100 })).json()
      .data;
    const spare = (await admin('POST', '/admin/v1/keys', { mode: 'test' })).json().data;
    const secrets = [
      adminToken,
      PROVIDER_KEY,
      live.key,
      test.key,
      spare.key,
      runtime.devKey,
    ].filter((s): s is string => typeof s === 'string');

    // Successes and failures of every kind.
    expect(
      (await app.inject({ method: 'GET', url: '/api/v1/credits', headers: bearer(test.key) }))
        .statusCode,
    ).toBe(200);
    expect(
      (await app.inject({ method: 'GET', url: '/api/v1/credits', headers: bearer(`${test.key}x`) }))
        .statusCode,
    ).toBe(401);
    expect(
      (await app.inject({ method: 'GET', url: `/api/v1/credits?key=${test.key}` })).statusCode,
    ).toBe(403);
    expect(
      (
        await app.inject({
          method: 'POST',
          url: '/api/v1/projects',
          headers: { ...bearer(test.key), 'content-type': 'application/json' },
          payload: JSON.stringify({ idea: `${IDEA} ${test.key}` }),
        })
      ).statusCode,
    ).toBe(403);
    // Keys percent-encoded in URLs (issue 22, finding 1): the redaction used to need a
    // literal `pgs_test_`, so these reached the log in clear.
    const hex = (c: string) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`;
    const adminSecret = adminToken.slice('pgs_admin_'.length);
    for (const url of [
      `/api/v1/credits?x=${test.key.replaceAll('_', '%5F')}`,
      `/api/v1/credits?x=${test.key.replaceAll('_', '%255F')}`,
      `/api/v1/credits?x=pgs_test_${hex(test.key[9]!)}${test.key.slice(10)}`,
      `/x/${adminToken.replaceAll('_', '%5F')}`,
      `/x/pgs_admin_${hex(adminSecret[0]!)}${adminSecret.slice(1)}`,
    ]) {
      const res = await app.inject({ method: 'GET', url, headers: bearer(test.key) });
      expect(res.statusCode, url).toBe(403);
      expect(res.body).not.toContain(adminSecret.slice(1));
    }
    expect((await admin('POST', '/admin/v1/accounts', {}, `${adminToken}x`)).statusCode).toBe(401);
    expect((await admin('DELETE', `/admin/v1/keys/${spare.keyId}`)).statusCode).toBe(200);
    expect(
      (await app.inject({ method: 'GET', url: '/api/v1/credits', headers: bearer(spare.key) }))
        .statusCode,
    ).toBe(401);

    // A live project through the provider, which refuses the key: it fails and is refunded.
    const created = await app.inject({
      method: 'POST',
      url: '/api/v1/projects',
      headers: { ...bearer(live.key), 'content-type': 'application/json' },
      payload: JSON.stringify({ idea: IDEA, type: 'web' }),
    });
    expect(created.statusCode, created.body).toBe(202);
    const id = created.json().data.projectId;
    await waitFor(
      async () => {
        const res = await app.inject({
          method: 'GET',
          url: `/api/v1/projects/${id}`,
          headers: bearer(live.key),
        });
        return res.json().data.status === 'failed' ? true : undefined;
      },
      { what: 'the live project to fail', timeoutMs: 60_000, intervalMs: 100 },
    );
    expect(fake.calls.length).toBeGreaterThan(0);

    // MCP (docs/mcp.md): each request is logged like the others, each tool call by its name
    // and outcome; arguments never (the marker below is an argument's text).
    const mcp = (key: string, id: number, name: string, args: unknown) =>
      app.inject({
        method: 'POST',
        url: '/mcp',
        headers: {
          ...bearer(key),
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        payload: JSON.stringify({
          jsonrpc: '2.0',
          id,
          method: 'tools/call',
          params: { name, arguments: args },
        }),
      });
    expect((await mcp(test.key, 1, 'get_credits', {})).statusCode).toBe(200);
    const marker = 'ARGUMENT-TEXT-NOT-TO-BE-LOGGED';
    expect((await mcp(test.key, 2, 'get_project', { projectId: marker })).statusCode).toBe(200);
    expect((await mcp(`${test.key}x`, 3, 'get_credits', {})).statusCode).toBe(401);
    expect((await mcp(test.key, 4, 'generate_project', { idea: test.key })).statusCode).toBe(403);
    const logged = (...parts: string[]) => lines.some((l) => parts.every((p) => l.includes(p)));
    expect(logged('"tool":"get_credits"', '"outcome":"ok"')).toBe(true);
    expect(logged('"tool":"get_project"', '"outcome":"VALIDATION_ERROR"')).toBe(true);
    expect(logged('"method":"POST"', '"url":"/mcp"')).toBe(true);
    expect(lines.filter((line) => line.includes(marker))).toEqual([]);

    // The flow was logged (requests and the model's failures), and no line holds a secret.
    expect(lines.length).toBeGreaterThan(10);
    expect(lines.some((line) => line.includes('"component":"models"'))).toBe(true);
    for (const secret of secrets) {
      const leaks = lines.filter((line) => line.includes(secret));
      expect(leaks, `a log line holds a secret (${secret.slice(0, 9)}…)`).toEqual([]);
    }
    // Nor the random part of any key or token on its own, nor its tail (a first character
    // percent-encoded leaves the rest in clear).
    for (const key of [live.key, test.key, spare.key, adminToken]) {
      const random = key.replace(/^pgs_(live|test|admin)_/, '');
      expect(lines.filter((line) => line.includes(random.slice(1)))).toEqual([]);
    }
  }, 120_000);
});
