import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import pg from 'pg';

/**
 * Real PostgreSQL and Redis for tests. They run whenever reachable; with CI=true they are
 * required, so a CI machine without them fails instead of silently skipping.
 */
export const TEST_DATABASE_URL =
  process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const required = process.env.CI === 'true';

async function probePostgres(): Promise<string | undefined> {
  const client = new pg.Client({
    connectionString: TEST_DATABASE_URL,
    connectionTimeoutMillis: 2000,
  });
  try {
    await client.connect();
    await client.query('select 1');
    return undefined;
  } catch (error) {
    return `PostgreSQL at ${TEST_DATABASE_URL} is not reachable (${(error as Error).message})`;
  } finally {
    await client.end().catch(() => {});
  }
}

async function probeRedis(): Promise<string | undefined> {
  const client = new Redis(TEST_REDIS_URL, {
    lazyConnect: true,
    connectTimeout: 2000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.ping();
    return undefined;
  } catch (error) {
    return `Redis at ${TEST_REDIS_URL} is not reachable (${(error as Error).message})`;
  } finally {
    client.disconnect();
  }
}

function decide(reason: string | undefined): string | undefined {
  if (reason !== undefined && required) throw new Error(`${reason}; it is required when CI=true`);
  if (reason !== undefined) console.warn(`skipping: ${reason}`);
  return reason;
}

let postgres: Promise<string | undefined> | undefined;
let redis: Promise<string | undefined> | undefined;

/** `undefined` when PostgreSQL is usable, else the one-line reason to skip. */
export const postgresUnavailable = () => {
  postgres ??= probePostgres().then(decide);
  return postgres;
};
/** `undefined` when Redis is usable, else the one-line reason to skip. */
export const redisUnavailable = () => {
  redis ??= probeRedis().then(decide);
  return redis;
};

/**
 * A fresh database on the test server, dropped by the returned function: test files
 * running in parallel never see each other's rows.
 */
export async function createTestDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `pgs_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}
