import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { CreatedKey } from '../src/accounts/service.ts';
import { bearer, harnessFor, roomy } from './helpers/harness.ts';

/**
 * Issue 27 items 8 and 10: what a read does with its query string, and the caching headers
 * of every body docs/revisions.md describes (an ETag of its own revision, `private,
 * no-cache` for the current one, `immutable` when pinned, `Vary: Authorization`). Seeded
 * projects only: no generation runs here (revisions.test.ts follows an ETag across a real
 * revision).
 */

const PINNED = 'private, max-age=86400, immutable';

describe('reads: query parameters and caching headers', () => {
  const harness = harnessFor('pglite', { rules: roomy('status', 'downloads') });
  const get = (key: CreatedKey, url: string, headers: Record<string, string> = {}) =>
    harness().request({
      method: 'GET',
      url: `/api/v1${url}`,
      headers: { ...bearer(key.key), ...headers },
    });

  /** 200 with an ETag, Vary and the Cache-Control given; then 304 for that ETag. */
  async function expectCacheable(
    key: CreatedKey,
    url: string,
    cacheControl: string,
  ): Promise<LightMyRequestResponse> {
    const res = await get(key, url);
    expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
    const etag = res.headers.etag;
    expect(etag, `${url} ETag`).toMatch(/^"[^"]+"$/);
    expect(res.headers.vary, `${url} Vary`).toBe('Authorization');
    expect(res.headers['cache-control'], `${url} Cache-Control`).toBe(cacheControl);
    const again = await get(key, url, { 'if-none-match': String(etag) });
    expect(again.statusCode, `${url} conditional`).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers.etag).toBe(etag);
    expect(again.headers.vary).toBe('Authorization');
    // Another validator is not a match: the body comes back.
    expect((await get(key, url, { 'if-none-match': '"stale"' })).statusCode).toBe(200);
    return res;
  }

  it('getProjectStatus refuses revision, and ignores a cache-buster', async () => {
    const key = await harness().createKey('test');
    const id = await harness().seedProject(key, { status: 'completed' });
    const plain = await get(key, `/projects/${id}`);
    for (const query of [
      'revision=1',
      'revision=2',
      'revision=',
      'revision=x',
      'revision=1&revision=2',
    ]) {
      const res = await get(key, `/projects/${id}?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().error).toMatchObject({
        code: 'VALIDATION_ERROR',
        details: { invalid_fields: { revision: expect.stringContaining('getRevision') } },
      });
      expect(res.json().error.message).toContain(`/api/v1/projects/${id}/revisions/{n}`);
    }
    // Seed clients poll with cache-busting parameters: same answer, same validator.
    const busted = await get(key, `/projects/${id}?_=1732000000000&utm_source=x`);
    expect(busted.statusCode).toBe(200);
    expect(busted.body).toBe(plain.body);
    expect(busted.headers.etag).toBe(plain.headers.etag);
  });

  it('refuses unknown parameters, and revision, on the events, revisions and revision reads', async () => {
    const key = await harness().createKey('test');
    const id = await harness().seedProject(key, { status: 'completed' });
    for (const path of [
      `/projects/${id}/events`,
      `/projects/${id}/revisions`,
      `/projects/${id}/revisions/1`,
    ]) {
      for (const name of ['revision', 'page', '_']) {
        const res = await get(key, `${path}?${name}=1`);
        expect(res.statusCode, `${path}?${name}`).toBe(400);
        expect(res.json().error).toMatchObject({
          code: 'VALIDATION_ERROR',
          details: { invalid_fields: { [name]: 'is not allowed' } },
        });
      }
    }
  });

  it('provenance: an ETag, Vary and the cache of its state, current or pinned', async () => {
    const key = await harness().createKey('test');
    const done = await harness().seedProject(key, { status: 'completed' });
    const current = await expectCacheable(key, `/projects/${done}/provenance`, 'private, no-cache');
    const pinned = await expectCacheable(key, `/projects/${done}/provenance?revision=1`, PINNED);
    // Revision 1 is the current one: the same body, the same validator.
    expect(pinned.headers.etag).toBe(current.headers.etag);
    // Parts are still being added while it runs.
    const running = await harness().seedProject(key, { status: 'in_progress' });
    await expectCacheable(key, `/projects/${running}/provenance`, 'no-cache');
  });

  it('archive: an ETag per revision and layout, and 304', async () => {
    const key = await harness().createKey('test');
    const id = await harness().seedProject(key, { status: 'completed' });
    const plain = await expectCacheable(key, `/projects/${id}/archive`, 'private, no-cache');
    const pinned = await expectCacheable(key, `/projects/${id}/archive?revision=1`, PINNED);
    const kiro = await expectCacheable(
      key,
      `/projects/${id}/archive?layout=kiro`,
      'private, no-cache',
    );
    // Other bytes, another validator; the same bytes, the same one.
    expect(kiro.headers.etag).not.toBe(plain.headers.etag);
    expect(pinned.headers.etag).toBe(plain.headers.etag);
    expect(Buffer.compare(pinned.rawPayload, plain.rawPayload)).toBe(0);
  });

  it('the revision list: an ETag, Vary, revalidated', async () => {
    const key = await harness().createKey('test');
    const id = await harness().seedProject(key, { status: 'completed' });
    await expectCacheable(key, `/projects/${id}/revisions`, 'private, no-cache');
    // Another key of another account sees nothing of it (Vary is not a formality).
    const stranger = await harness().createKey('test');
    expect((await get(stranger, `/projects/${id}/revisions`)).statusCode).toBe(404);
  });
});
