import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { CreatedKey } from '../src/accounts/service.ts';
import { bearer, harnessFor } from './helpers/harness.ts';

/**
 * Issue 32, item 7: the limits of its new routes, each reached per key with a small limit
 * given to the harness (the documented numbers are docs/api.md's): PUT /conventions counts
 * against `conventions`, GET …/questions against `status` (the reads polled beside a
 * project's status), POST …/answers against `create` (it starts a revision).
 */

const LIMIT = 2;
const small = <N extends string>(name: N) => ({
  name,
  points: LIMIT,
  durationSec: 60,
  window: '1 minute',
});

describe('the limits of the conventions, questions and answers routes', () => {
  const harness = harnessFor('pglite', {
    rules: { conventions: small('conventions'), status: small('status'), create: small('create') },
  });
  const send = (key: CreatedKey, method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown) =>
    harness().request({
      method,
      url: `/api/v1${url}`,
      headers: bearer(key.key),
      ...(body === undefined ? {} : { payload: body as Record<string, unknown> }),
    });
  /** The statuses of LIMIT + 1 requests: the last is refused in the envelope, with its wait. */
  const exhaust = async (request: () => Promise<LightMyRequestResponse>) => {
    const codes: number[] = [];
    let last: LightMyRequestResponse | undefined;
    for (let i = 0; i <= LIMIT; i++) {
      last = await request();
      codes.push(last.statusCode);
    }
    expect(last!.json().error).toMatchObject({
      code: 'RATE_LIMIT_EXCEEDED',
      details: { limit: LIMIT, window: '1 minute' },
    });
    expect(Number(last!.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    return codes;
  };

  it('limits each key on PUT /conventions, and another key not at all', async () => {
    const key = await harness().createKey('test');
    const put = (k: CreatedKey) => send(k, 'PUT', '/conventions', { language: 'de' });
    expect(await exhaust(() => put(key))).toEqual([200, 200, 429]);
    expect((await put(await harness().createKey('test'))).statusCode).toBe(200);
  });

  it('limits each key on GET /projects/{id}/questions', async () => {
    const key = await harness().createKey('test');
    const id = await harness().seedProject(key, { status: 'completed' });
    const get = () => send(key, 'GET', `/projects/${id}/questions`);
    expect(await exhaust(get)).toEqual([200, 200, 429]);
  });

  it('limits each key on POST /projects/{id}/answers, counting the answers it refuses', async () => {
    const key = await harness().createKey('test');
    const id = await harness().seedProject(key, { status: 'completed' });
    const post = () => send(key, 'POST', `/projects/${id}/answers`, { answers: { 'Q-1': 'Yes' } });
    // The seeded brief has no Q-1: each refusal still counts, as a creation's does.
    expect(await exhaust(post)).toEqual([422, 422, 429]);
  });
});
