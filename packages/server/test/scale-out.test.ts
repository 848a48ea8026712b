import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, LISTENING, type Proc, startServerProcess } from './helpers/process.ts';
import {
  createTestDatabase,
  postgresUnavailable,
  redisUnavailable,
  TEST_REDIS_URL,
} from './helpers/services.ts';

const WORKER_RUNNING = /PGS worker running/;
const skip = (await postgresUnavailable()) ?? (await redisUnavailable());

/**
 * The scale-out mode as the README describes it: API processes and worker processes,
 * separate, sharing one PostgreSQL database and one Redis.
 */
describe.skipIf(skip !== undefined)(
  'scale-out: two API processes and a worker on PostgreSQL and Redis',
  () => {
    const adminToken = `admin-${randomBytes(16).toString('hex')}`;
    const processes: Proc[] = [];
    let drop: () => Promise<void> = async () => {};
    let apis: string[] = [];

    /** Every request and answer is checked against the API contract. */
    const call = (base: string, method: string, path: string, token: string, body?: unknown) =>
      callApi(base, method, path, token, body, { contract: true });

    beforeAll(async () => {
      const database = await createTestDatabase();
      drop = database.drop;
      const env = {
        DATABASE_URL: database.url,
        REDIS_URL: TEST_REDIS_URL,
        PGS_ADMIN_TOKEN: adminToken,
      };
      // Two API processes and a worker start together: migrations serialize themselves.
      const api1 = startServerProcess({ ...env, PGS_ROLE: 'api' });
      const api2 = startServerProcess({ ...env, PGS_ROLE: 'api' });
      const worker = startServerProcess({ ...env, PGS_ROLE: 'worker' });
      processes.push(api1, api2, worker);
      const [m1, m2] = await Promise.all([
        api1.waitForOutput(LISTENING, 120_000),
        api2.waitForOutput(LISTENING, 120_000),
        worker.waitForOutput(WORKER_RUNNING, 60_000),
      ]);
      apis = [`http://127.0.0.1:${m1[1]}`, `http://127.0.0.1:${m2[1]}`];
    }, 90_000);

    afterAll(async () => {
      await Promise.all(processes.map((p) => p.kill('SIGTERM')));
      await drop();
    });

    it('creates on one API process, generates on the worker, reads on the other', async () => {
      const [first, second] = apis as [string, string];
      const created = await call(first, 'POST', '/admin/v1/keys', adminToken, {
        mode: 'test',
        credits: 100,
      });
      expect(created.status).toBe(201);
      const key = created.json.data.key as string;

      const accepted = await call(first, 'POST', '/api/v1/projects', key, {
        idea: 'A shared shopping list for flatmates with budgets and receipts',
      });
      expect(accepted.status).toBe(202);
      const projectId = accepted.json.data.projectId as string;

      const deadline = Date.now() + 60_000;
      let status = 'in_progress';
      let body: { data: Record<string, unknown> } = { data: {} };
      while (status === 'in_progress') {
        expect(Date.now(), 'the worker did not finish the project in time').toBeLessThan(deadline);
        const res = await call(second, 'GET', `/api/v1/projects/${projectId}`, key);
        expect(res.status).toBe(200);
        body = res.json;
        status = body.data.status as string;
        if (status === 'in_progress') await new Promise((r) => setTimeout(r, 100));
      }
      expect(status).toBe('completed');
      const project = body.data.project as { documents: unknown[] };
      expect(project.documents.length).toBeGreaterThanOrEqual(5);

      const credits = await call(second, 'GET', '/api/v1/credits', key);
      expect(credits.json.data).toEqual({
        mode: 'test',
        balance: 100 - (body.data.metadata as { creditsConsumed: number }).creditsConsumed,
        reserved: 0,
      });
    }, 90_000);

    it('counts one rate limit across API processes (the counters live in Redis)', async () => {
      const [first, second] = apis as [string, string];
      const created = await call(first, 'POST', '/admin/v1/keys', adminToken, { mode: 'test' });
      const key = created.json.data.key as string;
      const url = '/api/v1/credits';
      const a = await call(first, 'GET', url, key);
      const b = await call(second, 'GET', url, key);
      const limit = Number(a.headers['x-ratelimit-limit']);
      expect(Number(a.headers['x-ratelimit-remaining'])).toBe(limit - 1);
      expect(Number(b.headers['x-ratelimit-remaining'])).toBe(limit - 2);
    });
  },
);
