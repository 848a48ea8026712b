import http from 'node:http';
import { CONTEXT_BODY_LIMIT_BYTES } from '@pgs/contract/repository';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_STREAMS_PER_KEY } from '../../src/api/routes/projects/events.ts';
import { MAX_WEBHOOK_ENDPOINTS } from '../../src/api/routes/webhooks.ts';
import { answerProblems } from '../fuzz/check.ts';
import { type FuzzApp, startFuzzApp } from '../fuzz/fuzz-app.ts';
import { bearer } from '../helpers/harness.ts';
import { waitFor } from '../helpers/wait.ts';

/**
 * Issue 11 item 5, OWASP API4 (unrestricted resource consumption): every route that takes a
 * body refuses one over the limit with 413 in the envelope, storing nothing; list pages are
 * capped; strings and webhook endpoints are counted; open event streams are capped per key.
 */

const LIMIT = 2_048;
const DIGEST_ROUTES = new Set(['createProject', 'createRevision', 'createConformanceCheck']);
const IDEA = 'A web dashboard where community gardeners share compost schedules and seed swaps.';

describe('size and count limits', () => {
  let fuzz: FuzzApp;
  beforeAll(async () => {
    fuzz = await startFuzzApp({ bodyLimitBytes: LIMIT });
  });
  afterAll(async () => fuzz?.close());

  const credential = (url: string) =>
    url.startsWith('/admin/') || url === '/metrics' ? fuzz.adminToken : fuzz.keys.test.key;

  it('refuses a body one byte over the limit with 413 on every route that reads one', async () => {
    const before = await fuzz.snapshot();
    const bodied = fuzz.routes.filter((r) => !['GET', 'HEAD'].includes(r.method));
    expect(bodied.length).toBeGreaterThan(5);
    for (const route of bodied) {
      const url = route.url
        .replace(/:projectId/, fuzz.targets.ownProjects[0]!)
        .replace(/:\w+/g, 'x');
      // The routes that take a codebase digest have a limit of their own, and name it.
      const limit = DIGEST_ROUTES.has(route.operationId ?? '') ? CONTEXT_BODY_LIMIT_BYTES : LIMIT;
      const payload = `{"idea":"${'a'.repeat(limit - 11 + 1)}"}`;
      expect(Buffer.byteLength(payload)).toBe(limit + 1);
      const res = await fuzz.app.inject({
        method: route.method as 'POST',
        url,
        headers: { ...bearer(credential(route.url)), 'content-type': 'application/json' },
        payload,
      });
      expect(res.statusCode, `${route.method} ${route.url}: ${res.body}`).toBe(413);
      expect(res.json().error.details).toMatchObject({ max_bytes: limit });
      expect(answerProblems({ method: route.method, url }, res, route.operationId)).toEqual([]);
    }
    expect(await fuzz.snapshot()).toBe(before);
    // Exactly at the limit is read (and judged on its merits, never as too large).
    const atLimit = await fuzz.app.inject({
      method: 'POST',
      url: '/api/v1/projects',
      headers: { ...bearer(fuzz.keys.test.key), 'content-type': 'application/json' },
      payload: `{"idea":"${'a'.repeat(LIMIT - 11)}"}`,
    });
    expect(atLimit.statusCode).toBe(202);
  });

  it('caps list pages at 100 and strings at their documented lengths', async () => {
    const key = fuzz.keys.test.key;
    const list = (limit: string) =>
      fuzz.app.inject({
        method: 'GET',
        url: `/api/v1/projects?limit=${limit}`,
        headers: bearer(key),
      });
    expect((await list('100')).statusCode).toBe(200);
    for (const limit of ['101', '100000', '0', '-1']) {
      const res = await list(limit);
      expect(res.statusCode, limit).toBe(400);
      expect(res.json().error.details.invalid_fields).toHaveProperty('limit');
    }
    const long = await fuzz.app.inject({
      method: 'POST',
      url: '/api/v1/projects',
      headers: { ...bearer(key), 'content-type': 'application/json' },
      payload: JSON.stringify({ idea: 'x'.repeat(5_001) }),
    });
    // 413 here: 5,001 characters are over this app's small body limit; checked as a field below.
    expect([400, 413]).toContain(long.statusCode);
    const name = await fuzz.app.inject({
      method: 'POST',
      url: '/api/v1/projects',
      headers: { ...bearer(key), 'content-type': 'application/json' },
      payload: JSON.stringify({ idea: IDEA, name: 'n'.repeat(81) }),
    });
    expect(name.statusCode).toBe(400);
    expect(name.json().error.details.invalid_fields).toHaveProperty('name');
  });

  it(`allows at most ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints per account and mode`, async () => {
    const key = fuzz.keys.live.key;
    const create = (n: number) =>
      fuzz.app.inject({
        method: 'POST',
        url: '/api/v1/webhook-endpoints',
        headers: { ...bearer(key), 'content-type': 'application/json' },
        payload: JSON.stringify({ url: `https://93.184.215.${100 + n}/pgs` }),
      });
    for (let n = 0; n < MAX_WEBHOOK_ENDPOINTS; n++) expect((await create(n)).statusCode).toBe(201);
    const over = await create(MAX_WEBHOOK_ENDPOINTS);
    expect(over.statusCode).toBe(400);
    expect(over.json().error.details).toMatchObject({ limit: MAX_WEBHOOK_ENDPOINTS });
  });

  it(`holds at most ${MAX_STREAMS_PER_KEY} open event streams per key, and frees a slot on close`, async () => {
    const port = Number(new URL(await fuzz.app.listen({ port: 0, host: '127.0.0.1' })).port);
    const created = await fuzz.app.inject({
      method: 'POST',
      url: '/api/v1/projects',
      headers: { ...bearer(fuzz.keys.test.key), 'content-type': 'application/json' },
      payload: JSON.stringify({ idea: IDEA }),
    });
    const id = created.json().data.projectId as string;
    const streams: http.ClientRequest[] = [];
    /** Opens the project's stream; resolves with the status (the request stays open on 200). */
    const open = () =>
      new Promise<{ status: number; body: Promise<string> }>((resolve, reject) => {
        const req = http.get(
          {
            host: '127.0.0.1',
            port,
            path: `/api/v1/projects/${id}/events`,
            headers: bearer(fuzz.keys.test.key),
          },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            const body = new Promise<string>((done) =>
              res.on('end', () => done(Buffer.concat(chunks).toString('utf8'))),
            );
            res.on('error', () => {});
            resolve({ status: res.statusCode ?? 0, body });
          },
        );
        req.on('error', (error) => (req.destroyed ? undefined : reject(error)));
        streams.push(req);
      });
    try {
      for (let i = 0; i < MAX_STREAMS_PER_KEY; i++) expect((await open()).status).toBe(200);
      const refused = await open();
      expect(refused.status).toBe(429);
      const envelope = JSON.parse(await refused.body);
      expect(envelope.error).toMatchObject({
        code: 'RATE_LIMIT_EXCEEDED',
        details: { limit: MAX_STREAMS_PER_KEY, window: 'open streams' },
      });
      // Closing one lets the next in once the server has seen the close.
      streams[0]!.destroy();
      await waitFor(async () => ((await open()).status === 200 ? true : undefined), {
        what: 'a freed stream slot',
        intervalMs: 50,
      });
    } finally {
      for (const req of streams) req.destroy();
    }
  });
});
