import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedKey } from '../../src/accounts/service.ts';
import { requestHash } from '../../src/api/idempotency.ts';
import { bearer, type Harness, startHarness } from '../helpers/harness.ts';
import { answerProblems } from './check.ts';
import { exchange } from './raw.ts';

/**
 * Cases the route fuzz (routes.test.ts) found, shrunk and kept as plain tests: each failed
 * once, and stays fixed. docs/security.md lists them.
 */

const IDEA = 'A web dashboard where community gardeners share compost schedules and seed swaps.';

describe('cases found by the fuzz', () => {
  let h: Harness;
  let key: CreatedKey;
  let port: number;
  beforeAll(async () => {
    h = await startHarness('pglite', { generation: 'workers' });
    key = await h.createKey('test', { credits: 100 });
    port = Number(new URL(await h.app.listen({ port: 0, host: '127.0.0.1' })).port);
  });
  afterAll(async () => h?.close());

  const deep = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

  it('a body nested 3,000 levels deep with an Idempotency-Key is no 500 (it overflowed the request hash)', async () => {
    const res = await h.request({
      method: 'POST',
      url: '/api/v1/projects/48483228-916e-4f55-9230-58ec8d0b25be/cancel',
      headers: {
        ...bearer(key.key),
        'content-type': 'application/json',
        'idempotency-key': '00000000-0000-1000-8000-000000000000',
      },
      payload: deep(3_000),
    });
    expect(res.statusCode).toBe(404);
    expect(
      answerProblems({ method: 'POST', url: '/api/v1/projects/x/cancel' }, res, 'cancelProject'),
    ).toEqual([]);
    // The hash itself, deeper still, and the same for the same body in another key order.
    let nested: unknown = { b: 1, a: 2 };
    for (let i = 0; i < 50_000; i++) nested = [nested];
    expect(requestHash('op', nested)).toMatch(/^[0-9a-f]{64}$/);
    expect(requestHash('op', { a: [1, { y: 2, x: 1 }], b: null })).toBe(
      requestHash('op', { b: null, a: [1, { x: 1, y: 2 }] }),
    );
  });

  it('resuming the event stream of an ended project after its final event closes at once (it hung)', async () => {
    // Held in progress for ten minutes: only the cancel ends it.
    const created = await h.createProject(key, {
      idea: IDEA,
      simulate: { outcome: 'completed', durationMs: 600_000 },
    });
    expect(created.statusCode).toBe(202);
    const id = created.json().data.projectId;
    expect(
      (
        await h.request({
          method: 'POST',
          url: `/api/v1/projects/${id}/cancel`,
          headers: bearer(key.key),
        })
      ).statusCode,
    ).toBe(200);
    const resume = (last: string) =>
      h.request({
        method: 'GET',
        url: `/api/v1/projects/${id}/events`,
        headers: { ...bearer(key.key), 'last-event-id': last },
      });
    const all = await resume('0');
    const finalId = Number(/id: (\d+)\nevent: project\.failed/.exec(all.body)?.[1]);
    expect(finalId).toBeGreaterThan(0);
    const after = await resume(String(finalId));
    expect(after.statusCode).toBe(200);
    expect(after.body).toBe('');
    // An id no event has yet would be waited for forever: refused.
    const beyond = await resume(String(finalId + 1));
    expect(beyond.statusCode).toBe(400);
    expect(beyond.json().error.details.invalid_fields).toHaveProperty('last-event-id');
  });

  it('an HTTP/1.1 request without Host gets the envelope, not Node’s bare 400', async () => {
    const answer = await exchange(
      port,
      Buffer.from('GET /api/v1/credits HTTP/1.1\r\nConnection: close\r\n\r\n'),
      false,
    );
    expect(answer.statusCode).toBe(400);
    expect(JSON.parse(answer.body).error).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: { missing_fields: ['Host'] },
    });
    expect(answerProblems({ method: 'GET', url: '/api/v1/credits' }, answer, undefined)).toEqual(
      [],
    );
    // HTTP/1.0 has no Host requirement.
    const old = await exchange(port, Buffer.from('GET /health HTTP/1.0\r\n\r\n'), false);
    expect(old.statusCode).toBe(200);
  });

  it('a form body on a bodiless route is 415 in the envelope', async () => {
    const res = await h.app.inject({
      method: 'DELETE',
      url: '/admin/v1/keys/A',
      headers: { ...bearer(h.adminToken), 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'false',
    });
    expect(res.statusCode).toBe(415);
    expect(
      answerProblems({ method: 'DELETE', url: '/admin/v1/keys/A' }, res, 'adminRevokeKey'),
    ).toEqual([]);
  });

  it('a path starting with // is a 404 in the envelope', async () => {
    // (The contract checker reads `//x` as a host: checked here as the fuzz checks it.)
    const res = await h.app.inject({
      method: 'POST',
      url: '//?limit=1',
      headers: { ...bearer(key.key), 'content-type': 'application/json' },
      payload: JSON.stringify({ idea: IDEA }),
    });
    expect(res.statusCode).toBe(404);
    expect(answerProblems({ method: 'POST', url: '//?limit=1' }, res, undefined)).toEqual([]);
  });

  it('a refused HEAD has no body but its X-Request-ID', async () => {
    const res = await h.app.inject({ method: 'HEAD', url: '/api/v1/projects//documents/%00' });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.body).toBe('');
    expect(answerProblems({ method: 'HEAD', url: '/api/v1/x' }, res, undefined)).toEqual([]);
  });
});
