import { createHash, randomInt, randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedKey } from '../src/accounts/service.ts';
import { backends, bearer, type Harness, startHarness } from './helpers/harness.ts';

/** Seed §5 (authentication), issue 2 items 4 (order of checks) and 5 (keys). */

const REQUEST_ID = /^req_[0-9A-HJKMNP-TV-Z]{26}$/;
const KEY_FORM = /^pgs_(live|test)_[0-9A-Za-z]{32,}$/;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const base62 = (length: number) =>
  Array.from({ length }, () => BASE62[randomInt(BASE62.length)]).join('');

// Small limits, so that exhausting them is cheap: 3 requests per key, 3 failures per address.
const RULES = {
  status: { name: 'status', points: 3, durationSec: 60, window: '1 minute' },
  authFailures: { name: 'auth_failures', points: 3, durationSec: 60, window: '1 minute' },
};

// Failed attempts are counted per client address: each test takes addresses of its own.
let addresses = 0;
const freshAddress = () => {
  addresses += 1;
  return `10.0.${Math.floor(addresses / 250)}.${(addresses % 250) + 1}`;
};

function header(res: LightMyRequestResponse, name: string): string {
  const value = res.headers[name.toLowerCase()];
  expect(value, `header ${name}`).toBeDefined();
  return String(value);
}

function expectAuthFailure(res: LightMyRequestResponse, issue: string): void {
  expect(res.statusCode).toBe(401);
  const body = res.json();
  expect(body.success).toBe(false);
  expect(body.error.code).toBe('AUTHENTICATION_FAILED');
  expect(body.error.details).toEqual({ field: 'authorization', issue });
  expect(header(res, 'WWW-Authenticate')).toMatch(/^Bearer\b/);
  expect(header(res, 'X-Request-ID')).toMatch(REQUEST_ID);
  expect(body.error.request_id).toBe(header(res, 'X-Request-ID'));
  // A failed request is not counted against any key.
  expect(res.headers['x-ratelimit-remaining']).toBeUndefined();
}

describe.each(await backends())('authentication on %s', (backend) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness(backend, { rules: RULES });
  });
  afterAll(async () => h?.close());

  const get = (
    headers: Record<string, string>,
    options: { id?: string; remoteAddress?: string; query?: string } = {},
  ) =>
    h.request({
      method: 'GET',
      url: `/api/v1/projects/${options.id ?? randomUUID()}${options.query ?? ''}`,
      headers,
      remoteAddress: options.remoteAddress ?? freshAddress(),
    });

  describe('401 AUTHENTICATION_FAILED', () => {
    it('no Authorization header (or an empty one) → issue "missing"', async () => {
      expectAuthFailure(await get({}), 'missing');
      expectAuthFailure(await get({ authorization: '' }), 'missing');
    });

    it.each([
      ['another scheme', 'Basic dXNlcjpwYXNzd29yZA=='],
      ['Bearer without a token', 'Bearer'],
      ['a bearer token that is not a PGS key', 'Bearer eyJhbGciOiJIUzI1NiJ9.e30.sig'],
      ['a PGS key whose secret is too short', 'Bearer pgs_test_short'],
      ['an unknown key kind', `Bearer pgs_prod_${base62(40)}`],
      ['a secret with characters outside base62', `Bearer pgs_test_${base62(39)}-`],
    ])('%s → issue "malformed"', async (_case, authorization) => {
      expectAuthFailure(await get({ authorization }), 'malformed');
    });

    it('a valid key under another scheme → issue "malformed"', async () => {
      const key = await h.createKey('test');
      expectAuthFailure(await get({ authorization: `Token ${key.key}` }), 'malformed');
      expectAuthFailure(await get({ authorization: `Basic ${key.key}` }), 'malformed');
    });

    it.each(['test', 'live'])(
      'a well-formed %s key that was never issued → issue "invalid_key"',
      async (mode) => {
        expectAuthFailure(await get(bearer(`pgs_${mode}_${base62(40)}`)), 'invalid_key');
      },
    );

    it('a revoked key → issue "revoked" (it worked before)', async () => {
      const key = await h.createKey('test');
      const before = await get(bearer(key.key));
      expect(before.statusCode).toBe(404);
      expect(before.json().error.code).toBe('RESOURCE_NOT_FOUND');
      // Revoked through the admin API of the same process: refused on the very next request.
      const revoked = await h.request({
        method: 'DELETE',
        url: `/admin/v1/keys/${key.keyId}`,
        headers: bearer(h.adminToken),
      });
      expect(revoked.statusCode).toBe(200);
      expectAuthFailure(await get(bearer(key.key)), 'revoked');
    });

    it('a key revoked by another process is refused here too, though this one had verified it', async () => {
      const key = await h.createKey('test');
      expect((await get(bearer(key.key))).statusCode).toBe(404); // verified and cached here
      // `h.accounts` stands for another process on the same database: the revocation
      // reaches this app by NOTIFY, within moments rather than at the cache's expiry.
      await h.accounts.revokeKey(key.keyId);
      const deadline = Date.now() + 5_000;
      let res = await get(bearer(key.key));
      while (res.statusCode !== 401 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 10));
        res = await get(bearer(key.key));
      }
      expectAuthFailure(res, 'revoked');
    });
  });

  it('a live key and a test key each read their own projects', async () => {
    for (const mode of ['live', 'test'] as const) {
      const key = await h.createKey(mode);
      expect(key.key).toMatch(new RegExp(`^pgs_${mode}_`));
      const id = await h.seedProject(key, { status: 'completed' });
      const res = await get(bearer(key.key), { id });
      expect(res.statusCode).toBe(200);
      expect(res.json().data.projectId).toBe(id);
    }
  });

  describe('keys', () => {
    it('have the form pgs_<mode>_<32+ base62>, differ, and are stored only as a SHA-256 hash', async () => {
      const created: CreatedKey[] = [
        await h.createKey('test'),
        await h.createKey('test'),
        await h.createKey('live'),
      ];
      for (const { key } of created) expect(key).toMatch(KEY_FORM);
      expect(new Set(created.map((k) => k.key)).size).toBe(created.length);

      for (const { key, keyId } of created) {
        const secret = key.slice(key.lastIndexOf('_') + 1);
        const stored = (await h.database.db.execute(
          sql`select * from api_keys where id = ${keyId}`,
        )) as unknown as { rows: Record<string, unknown>[] };
        expect(stored.rows).toHaveLength(1);
        const row = stored.rows[0]!;
        expect(row.key_hash).toBe(createHash('sha256').update(key).digest('hex'));
        // No column holds the key or any 8 consecutive characters of its secret.
        for (const [column, value] of Object.entries(row)) {
          const text = value instanceof Date ? value.toISOString() : String(value);
          for (let i = 0; i + 8 <= secret.length; i++) {
            expect(text, `api_keys.${column}`).not.toContain(secret.slice(i, i + 8));
          }
        }
      }

      // Nor any other table: the secret exists only in the creator's hands.
      const tables = (await h.database.db.execute(
        sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`,
      )) as unknown as { rows: { table_name: string }[] };
      expect(tables.rows.map((t) => t.table_name)).toContain('api_keys');
      for (const { table_name } of tables.rows) {
        const all = (await h.database.db.execute(
          sql`select * from ${sql.identifier(table_name)}`,
        )) as unknown as { rows: Record<string, unknown>[] };
        const dump = JSON.stringify(all.rows);
        for (const { key } of created) {
          expect(dump, table_name).not.toContain(key.slice(key.lastIndexOf('_') + 1));
        }
      }
    });
  });

  describe('failed authentication', () => {
    it('never counts against a key: 5 failures around a key, then it still has its full budget', async () => {
      const key = await h.createKey('test');
      const last = key.key.at(-1) === 'a' ? 'b' : 'a';
      const failures: [string, string][] = [
        [`Bearer ${key.key.slice(0, -1)}${last}`, 'invalid_key'],
        [`Bearer ${key.key}x`, 'invalid_key'],
        [`Basic ${key.key}`, 'malformed'],
        [`Bearer ${key.key.replace('pgs_test_', 'pgs_live_')}`, 'invalid_key'],
        [`Bearer ${key.key.slice(0, 20)}`, 'malformed'],
      ];
      for (const [authorization, issue] of failures) {
        expectAuthFailure(await get({ authorization }), issue);
      }
      const ok = await get(bearer(key.key));
      expect(ok.statusCode).toBe(404);
      expect(header(ok, 'X-RateLimit-Limit')).toBe('3');
      expect(header(ok, 'X-RateLimit-Remaining')).toBe('2');
    });

    it('is limited per client address: the 4th failure → 429; a valid key and other addresses still pass', async () => {
      const address = freshAddress();
      for (let i = 0; i < 3; i++) {
        expectAuthFailure(
          await get(bearer(`pgs_test_${base62(40)}`), { remoteAddress: address }),
          'invalid_key',
        );
      }
      for (let i = 0; i < 2; i++) {
        const refused = await get(bearer(`pgs_test_${base62(40)}`), { remoteAddress: address });
        expect(refused.statusCode).toBe(429);
        const { error } = refused.json();
        expect(error.code).toBe('RATE_LIMIT_EXCEEDED');
        const retryAfter = Number(header(refused, 'Retry-After'));
        expect(Number.isInteger(retryAfter)).toBe(true);
        expect(retryAfter).toBeGreaterThanOrEqual(1);
        expect(retryAfter).toBeLessThanOrEqual(60);
        expect(error.details).toMatchObject({ retry_after: retryAfter, limit: 3 });
        expect(error.request_id).toBe(header(refused, 'X-Request-ID'));
      }
      // Any kind of failure from that address is refused now, a missing header included.
      expect((await get({}, { remoteAddress: address })).statusCode).toBe(429);

      // A valid key from the same address is served, with its own counter.
      const key = await h.createKey('test');
      const id = await h.seedProject(key, { status: 'in_progress' });
      const ok = await get(bearer(key.key), { id, remoteAddress: address });
      expect(ok.statusCode).toBe(200);
      expect(header(ok, 'X-RateLimit-Limit')).toBe('3');
      expect(header(ok, 'X-RateLimit-Remaining')).toBe('2');
      const notFound = await get(bearer(key.key), { remoteAddress: address });
      expect(notFound.statusCode).toBe(404);
      expect(header(notFound, 'X-RateLimit-Remaining')).toBe('1');

      // Another address still gets its own allowance of failures.
      expectAuthFailure(await get(bearer(`pgs_test_${base62(40)}`)), 'invalid_key');
    });
  });

  describe('an API key in the query string', () => {
    it.each([
      ['api_key', (key: string) => key],
      ['api_key (URL-encoded)', (key: string) => encodeURIComponent(key).replace(/_/g, '%5F')],
      ['token', (key: string) => key],
    ])(
      '?%s=<valid key> → 403 SECURITY_VIOLATION, even with a valid header',
      async (name, encode) => {
        const key = await h.createKey('test');
        const id = await h.seedProject(key, { status: 'completed' });
        const param = name.split(' ')[0];
        const res = await get(bearer(key.key), { id, query: `?${param}=${encode(key.key)}` });
        expect(res.statusCode).toBe(403);
        const { error } = res.json();
        expect(error.code).toBe('SECURITY_VIOLATION');
        expect(error.request_id).toBe(header(res, 'X-Request-ID'));
        expect(res.body).not.toContain(key.key);
      },
    );
  });

  describe('order of checks: request id → authentication → rate limit → version → validation → lookup', () => {
    const BAD_VERSION = { 'api-version': 'v9.9' };

    it('a bad key with a bad version and a malformed id → 401', async () => {
      const res = await get(
        { ...bearer(`pgs_test_${base62(40)}`), ...BAD_VERSION },
        { id: 'not-a-uuid' },
      );
      expectAuthFailure(res, 'invalid_key');
      const missing = await get(BAD_VERSION, { id: 'not-a-uuid' });
      expectAuthFailure(missing, 'missing');
    });

    it('a valid key over its limit with a bad version → 429', async () => {
      const key = await h.createKey('test');
      for (let i = 0; i < 3; i++) expect((await get(bearer(key.key))).statusCode).toBe(404);
      const res = await get({ ...bearer(key.key), ...BAD_VERSION }, { id: 'not-a-uuid' });
      expect(res.statusCode).toBe(429);
      expect(res.json().error.code).toBe('RATE_LIMIT_EXCEEDED');
      expect(header(res, 'X-Request-ID')).toMatch(REQUEST_ID);
    });

    it('a valid key with a bad version and a malformed id → 400 about the version', async () => {
      const key = await h.createKey('test');
      const res = await get({ ...bearer(key.key), ...BAD_VERSION }, { id: 'not-a-uuid' });
      expect(res.statusCode).toBe(400);
      const { error } = res.json();
      expect(error.code).toBe('VALIDATION_ERROR');
      expect(error.details.supported_versions).toContain('v1.0');
      expect(error.details.invalid_fields ?? {}).not.toHaveProperty('projectId');
      expect(header(res, 'X-Request-ID')).toMatch(REQUEST_ID);
      // Counted: the rate limit comes before the version check.
      expect(header(res, 'X-RateLimit-Remaining')).toBe('2');
    });

    it('a valid key with a bad version and an unknown id → 400, not 404', async () => {
      const key = await h.createKey('test');
      const res = await get({ ...bearer(key.key), ...BAD_VERSION });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.details.supported_versions).toContain('v1.0');
    });

    it('a valid key with a malformed id → 400 invalid_fields.projectId', async () => {
      const key = await h.createKey('test');
      const res = await get(bearer(key.key), { id: 'not-a-uuid' });
      expect(res.statusCode).toBe(400);
      const { error } = res.json();
      expect(error.code).toBe('VALIDATION_ERROR');
      expect(error.details.invalid_fields).toHaveProperty('projectId');
      expect(header(res, 'X-Request-ID')).toMatch(REQUEST_ID);
    });
  });
});
