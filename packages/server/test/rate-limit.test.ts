import { randomUUID } from 'node:crypto';
import { assertMatchesContract } from '@pgs/contract/testing';
import { sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedKey } from '../src/accounts/service.ts';
import type { RateLimitStore } from '../src/limits/rate-limiter.ts';
import { createLimiters, RATE_LIMIT_RULES } from '../src/limits/rules.ts';
import type { Database } from '../src/storage/db.ts';
import {
  type Backend,
  backends,
  bearer,
  buildTestApp,
  type Harness,
  startHarness,
} from './helpers/harness.ts';
import { createTestDatabase, redisUnavailable, TEST_REDIS_URL } from './helpers/services.ts';

/** Seed §8 (100 requests per minute per API key), issue 2 item 6. */

const available = await backends();
const redisReason = await redisUnavailable();

function header(res: LightMyRequestResponse, name: string): string {
  const value = res.headers[name.toLowerCase()];
  expect(value, `header ${name}`).toBeDefined();
  return String(value);
}

/** Waits until `condition` holds, checking every few milliseconds, or fails at the deadline. */
async function waitUntil(condition: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Checks a 429 of the status limiter; returns its Retry-After. */
function expectRateLimited(res: LightMyRequestResponse, limit: number): number {
  expect(res.statusCode).toBe(429);
  const { error } = res.json();
  expect(error.code).toBe('RATE_LIMIT_EXCEEDED');
  const retryAfter = header(res, 'Retry-After');
  expect(retryAfter).toMatch(/^\d+$/);
  expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
  expect(Number(retryAfter)).toBeLessThanOrEqual(60);
  expect(Number.isInteger(error.details.retry_after)).toBe(true);
  expect(error.details).toEqual({
    retry_after: Number(retryAfter),
    limit,
    window: '1 minute',
  });
  expect(header(res, 'X-RateLimit-Limit')).toBe(String(limit));
  expect(header(res, 'X-RateLimit-Remaining')).toBe('0');
  expect(error.request_id).toBe(header(res, 'X-Request-ID'));
  return Number(retryAfter);
}

/**
 * Uses up a key's window of `limit` requests and checks the count; then, a little over a
 * second later, checks that the refusals did not move the window's end.
 */
async function exhaustAndCheckWindow(
  h: Harness,
  key: CreatedKey,
  limit: number,
  url: () => string,
): Promise<void> {
  const get = () => h.request({ method: 'GET', url: url(), headers: bearer(key.key) });
  const start = Date.now();
  let openedBy = 0;
  let reset = 0;
  for (let i = 1; i <= limit; i++) {
    const res = await get();
    if (i === 1) openedBy = Date.now();
    expect(res.statusCode).toBeLessThan(429);
    expect(header(res, 'X-RateLimit-Limit')).toBe(String(limit));
    expect(header(res, 'X-RateLimit-Remaining')).toBe(String(limit - i));
    const thisReset = Number(header(res, 'X-RateLimit-Reset'));
    if (i === 1) {
      reset = thisReset;
      expect(reset).toBeGreaterThanOrEqual(Math.floor(start / 1000) + 59);
      expect(reset).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + 60);
    } else {
      expect(Math.abs(thisReset - reset)).toBeLessThanOrEqual(1);
    }
  }
  for (let i = 0; i < 3; i++) {
    const refused = await get();
    expectRateLimited(refused, limit);
    expect(Math.abs(Number(header(refused, 'X-RateLimit-Reset')) - reset)).toBeLessThanOrEqual(1);
  }
  // Over a second later, a window extended by the refusals would report a later end and a
  // full minute to wait; the fixed window reports the same end and less than a minute.
  await waitUntil(() => Date.now() - openedBy >= 1_100);
  const later = await get();
  const retryAfter = expectRateLimited(later, limit);
  expect(retryAfter).toBeLessThanOrEqual(59);
  expect(Math.abs(Number(header(later, 'X-RateLimit-Reset')) - reset)).toBeLessThanOrEqual(1);
}

describe.each(available)('rate limit, 100 requests per minute per key, on %s', (backend) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness(backend);
  });
  afterAll(async () => h?.close());

  const get = (key: CreatedKey, id: string) =>
    h.request({ method: 'GET', url: `/api/v1/projects/${id}`, headers: bearer(key.key) });

  it('serves 100 requests counting 99…0, refuses the 101st with 429 and the seed’s details', async () => {
    const key = await h.createKey('test');
    const id = await h.seedProject(key, { status: 'completed' });
    const before = Date.now();
    for (let i = 1; i <= 100; i++) {
      const res = await get(key, id);
      expect(res.statusCode).toBe(200);
      expect(header(res, 'X-RateLimit-Limit')).toBe('100');
      expect(header(res, 'X-RateLimit-Remaining')).toBe(String(100 - i));
    }
    const refused = await get(key, id);
    const retryAfter = expectRateLimited(refused, 100);
    // The window opened moments ago: the wait is (nearly) the whole minute.
    expect(retryAfter).toBeGreaterThanOrEqual(60 - Math.ceil((Date.now() - before) / 1000));
    expect(refused.json().error.details).toEqual({
      retry_after: retryAfter,
      limit: 100,
      window: '1 minute',
    });
  });

  it('rejected requests do not extend the window', async () => {
    const key = await h.createKey('test');
    const id = await h.seedProject(key, { status: 'completed' });
    await exhaustAndCheckWindow(h, key, 100, () => `/api/v1/projects/${id}`);
  });

  it('counts listRevisions with the status (100), not the listing (60)', async () => {
    const key = await h.createKey('test');
    const id = await h.seedProject(key, { status: 'completed' });
    const revisions = () =>
      h.request({
        method: 'GET',
        url: `/api/v1/projects/${id}/revisions`,
        headers: bearer(key.key),
      });
    // One counter: half the window spent polling the status, the other half on the history.
    for (let i = 1; i <= 100; i++) {
      const res = i % 2 === 0 ? await revisions() : await get(key, id);
      expect(res.statusCode, `request ${i}`).toBe(200);
      expect(header(res, 'X-RateLimit-Limit')).toBe('100');
      expect(header(res, 'X-RateLimit-Remaining')).toBe(String(100 - i));
    }
    expectRateLimited(await revisions(), 100);
    expectRateLimited(await get(key, id), 100);
    // The listing keeps its own counter, untouched.
    const listing = await h.request({
      method: 'GET',
      url: '/api/v1/projects',
      headers: bearer(key.key),
    });
    expect(listing.statusCode).toBe(200);
    expect(header(listing, 'X-RateLimit-Remaining')).toBe('59');
  });

  it('counts per API key: two keys of one account have separate counters', async () => {
    const first = await h.createKey('test');
    const second = await h.createKey('test', { accountId: first.accountId });
    const id = await h.seedProject(first, { status: 'completed' });
    for (let i = 0; i < 100; i++) expect((await get(first, id)).statusCode).toBe(200);
    expectRateLimited(await get(first, id), 100);

    const other = await get(second, id);
    expect(other.statusCode).toBe(200);
    expect(header(other, 'X-RateLimit-Remaining')).toBe('99');
    expectRateLimited(await get(first, id), 100);
  });
});

// The same behaviour with the counters in a shared store, through a small rule.
const SMALL_RULES = {
  status: { name: 'status', points: 3, durationSec: 60, window: '1 minute' },
};

function storeSuite(
  name: string,
  backend: Backend,
  store: (database: Database) => RateLimitStore,
  counted: (h: Harness, keyId: string) => Promise<boolean>,
): void {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness(backend, { rules: SMALL_RULES, store });
  });
  afterAll(async () => h?.close());

  it(`counts 2…0, then 429, without extending the window, in ${name}`, async () => {
    const key = await h.createKey('test');
    const id = await h.seedProject(key, { status: 'completed' });
    await exhaustAndCheckWindow(h, key, 3, () => `/api/v1/projects/${id}`);
    expect(await counted(h, key.keyId)).toBe(true);
  });

  it(`shares the count between two apps on ${name} (the scale-out mode)`, async () => {
    const second = await buildTestApp(h.database, {
      limiters: await createLimiters(store(h.database), { ...RATE_LIMIT_RULES, ...SMALL_RULES }),
    });
    try {
      const key = await h.createKey('test');
      const url = `/api/v1/projects/${await h.seedProject(key, { status: 'completed' })}`;
      const viaFirst = () => h.request({ method: 'GET', url, headers: bearer(key.key) });
      const viaSecond = async () => {
        const res = await second.inject({ method: 'GET', url, headers: bearer(key.key) });
        assertMatchesContract('GET', url, res);
        return res;
      };
      expect(header(await viaFirst(), 'X-RateLimit-Remaining')).toBe('2');
      expect(header(await viaSecond(), 'X-RateLimit-Remaining')).toBe('1');
      expect(header(await viaFirst(), 'X-RateLimit-Remaining')).toBe('0');
      expectRateLimited(await viaSecond(), 3);
      expectRateLimited(await viaFirst(), 3);
    } finally {
      await second.close();
    }
  });

  it(`counts per API key in ${name}`, async () => {
    const first = await h.createKey('test');
    const second = await h.createKey('test', { accountId: first.accountId });
    const get = (key: CreatedKey) =>
      h.request({
        method: 'GET',
        url: `/api/v1/projects/${randomUUID()}`,
        headers: bearer(key.key),
      });
    for (let i = 0; i < 3; i++) expect((await get(first)).statusCode).toBe(404);
    expectRateLimited(await get(first), 3);
    const other = await get(second);
    expect(other.statusCode).toBe(404);
    expect(header(other, 'X-RateLimit-Remaining')).toBe('2');
  });
}

describe.skipIf(!available.includes('postgres'))('rate limit with the store on PostgreSQL', () => {
  storeSuite(
    'PostgreSQL',
    'postgres',
    (database) => ({ kind: 'postgres', pool: database.pool! }),
    async (h, keyId) => {
      const result = (await h.database.db.execute(
        sql`select key from rate_limits where key like ${`%${keyId}`}`,
      )) as unknown as { rows: unknown[] };
      return result.rows.length === 1;
    },
  );

  // Every process creates its limiters at start. Creating the store's table from each
  // limiter raced (concurrent CREATE TABLE IF NOT EXISTS fails with 42710/42P07 in
  // PostgreSQL): starting must not fail, whether one process creates its limiters or
  // several processes (the scale-out mode) start together on a fresh database.
  it('limiters on a fresh PostgreSQL store start reliably, also when processes start together', async () => {
    const database = await createTestDatabase();
    const processes = Array.from(
      { length: 6 },
      () => new pg.Pool({ connectionString: database.url, max: 4 }),
    );
    try {
      // The race does not lose every time: try up to 25 fresh starts, stop at the first failure.
      const failures: string[] = [];
      for (let round = 0; round < 25 && failures.length === 0; round++) {
        await processes[0]!.query('drop table if exists rate_limits');
        const starts = await Promise.allSettled(
          processes.map((pool) => createLimiters({ kind: 'postgres', pool })),
        );
        for (const start of starts) {
          if (start.status === 'rejected') failures.push(String(start.reason));
        }
      }
      expect(failures).toEqual([]);
    } finally {
      await Promise.all(processes.map((pool) => pool.end()));
      await database.drop();
    }
  });
});

describe.skipIf(redisReason !== undefined)(
  `rate limit with the store on Redis${redisReason ? ` (skipped: ${redisReason})` : ''}`,
  () => {
    let redis: Redis;
    beforeAll(() => {
      redis = new Redis(TEST_REDIS_URL);
    });
    afterAll(async () => {
      await redis?.quit();
    });
    // PostgreSQL starts much faster than PGlite; the database is not what is under test here.
    storeSuite(
      'Redis',
      available.includes('postgres') ? 'postgres' : 'pglite',
      () => ({ kind: 'redis', client: redis }),
      async (_h, keyId) => (await redis.keys(`*${keyId}`)).length === 1,
    );
  },
);
