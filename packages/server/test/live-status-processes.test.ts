import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, LISTENING, type Proc, startServerProcess } from './helpers/process.ts';
import { createTestDatabase, postgresUnavailable } from './helpers/services.ts';

const WORKER_RUNNING = /PGS worker running/;
const skip = await postgresUnavailable();

/**
 * The guarantee of docs/performance.md across real processes: a state a writer committed
 * before answering its client is what a read on the other API process shows, however soon
 * it comes (each read is sent the moment the write's answer arrives, which is the window
 * in which the writer's NOTIFY may still be on its way to the other process).
 */
describe.skipIf(skip !== undefined)(
  'status reads across two API processes and a worker on PostgreSQL',
  () => {
    const adminToken = `admin-${randomBytes(16).toString('hex')}`;
    const processes: Proc[] = [];
    let drop: () => Promise<void> = async () => {};
    let a = '';
    let b = '';

    /** A key of its own per batch: creation and cancel allow 30 a minute per key. */
    const newKey = async () => {
      const created = await callApi(a, 'POST', '/admin/v1/keys', adminToken, {
        mode: 'test',
        credits: 10_000,
      });
      expect(created.status).toBe(201);
      return created.json.data.key as string;
    };
    const hold = { outcome: 'completed', durationMs: 600_000 };

    beforeAll(async () => {
      const database = await createTestDatabase();
      drop = database.drop;
      const env = {
        DATABASE_URL: database.url,
        PGS_ADMIN_TOKEN: adminToken,
        PGS_STATUS_RATE_LIMIT: '1000000',
      };
      const api1 = startServerProcess({ ...env, PGS_ROLE: 'api' });
      const api2 = startServerProcess({ ...env, PGS_ROLE: 'api' });
      const worker = startServerProcess({ ...env, PGS_ROLE: 'worker' });
      processes.push(api1, api2, worker);
      const [m1, m2] = await Promise.all([
        api1.waitForOutput(LISTENING, 120_000),
        api2.waitForOutput(LISTENING, 120_000),
        worker.waitForOutput(WORKER_RUNNING, 60_000),
      ]);
      a = `http://127.0.0.1:${m1[1]}`;
      b = `http://127.0.0.1:${m2[1]}`;
    }, 90_000);

    afterAll(async () => {
      await Promise.all(processes.map((p) => p.kill('SIGTERM')));
      await drop();
    });

    it('a project created on one process is found at once on the other (never a 404)', async () => {
      const key = await newKey();
      // B has answered 404 for ids before: its view of which ids exist is built.
      const unknown = await callApi(b, 'GET', `/api/v1/projects/${crypto.randomUUID()}`, key);
      expect(unknown.status).toBe(404);
      for (let i = 0; i < 10; i++) {
        const created = await callApi(a, 'POST', '/api/v1/projects', key, {
          idea: `A tool library for a street, number ${i}`,
          simulate: hold,
        });
        expect(created.status).toBe(202);
        const id = created.json.data.projectId as string;
        const read = await callApi(b, 'GET', `/api/v1/projects/${id}`, key);
        expect(read.status, `read ${i} on the other process`).toBe(200);
        expect(read.json.data.status).toBe('in_progress');
        await callApi(a, 'POST', `/api/v1/projects/${id}/cancel`, key);
      }
    }, 60_000);

    it('a cancel answered by one process is what the other shows next, though it remembered in_progress', async () => {
      const key = await newKey();
      for (let i = 0; i < 10; i++) {
        const created = await callApi(a, 'POST', '/api/v1/projects', key, {
          idea: `A rota for a shared kitchen, number ${i}`,
          simulate: hold,
        });
        const id = created.json.data.projectId as string;
        // B holds the project in memory as in progress.
        for (let r = 0; r < 3; r++) {
          expect((await callApi(b, 'GET', `/api/v1/projects/${id}`, key)).json.data.status).toBe(
            'in_progress',
          );
        }
        const cancelled = await callApi(a, 'POST', `/api/v1/projects/${id}/cancel`, key);
        expect(cancelled.status).toBe(200);
        const read = await callApi(b, 'GET', `/api/v1/projects/${id}`, key);
        expect(read.json.data.status, `read ${i} on the other process`).toBe('failed');
        expect(read.json.data.error.code).toBe('generation_cancelled');
      }
    }, 60_000);

    it('a deletion answered by one process is a 404 on the other, though it cached the body', async () => {
      const key = await newKey();
      for (let i = 0; i < 5; i++) {
        const created = await callApi(a, 'POST', '/api/v1/projects', key, {
          idea: `A noticeboard for a block of flats, number ${i}`,
          simulate: { outcome: 'failed', durationMs: 0 },
        });
        const id = created.json.data.projectId as string;
        // Long-poll on A until the end, then B reads (and caches) the final body.
        const ended = await callApi(a, 'GET', `/api/v1/projects/${id}`, key);
        const final =
          ended.json.data.status === 'in_progress'
            ? await fetch(`${a}/api/v1/projects/${id}`, {
                headers: { authorization: `Bearer ${key}`, prefer: 'wait=30' },
              }).then((r) => r.json())
            : ended.json;
        expect(final.data.status).toBe('failed');
        expect((await callApi(b, 'GET', `/api/v1/projects/${id}`, key)).json.data.status).toBe(
          'failed',
        );
        expect((await callApi(a, 'DELETE', `/api/v1/projects/${id}`, key)).status).toBe(204);
        const read = await callApi(b, 'GET', `/api/v1/projects/${id}`, key);
        expect(read.status, `read ${i} on the other process`).toBe(404);
      }
    }, 60_000);

    it('a completion one process announced to its watcher is what the other shows next', async () => {
      const key = await newKey();
      for (let i = 0; i < 5; i++) {
        const created = await callApi(a, 'POST', '/api/v1/projects', key, {
          idea: `A seed swap for allotments, number ${i}`,
          simulate: { outcome: 'completed', durationMs: 400 },
        });
        const id = created.json.data.projectId as string;
        expect((await callApi(b, 'GET', `/api/v1/projects/${id}`, key)).status).toBe(200);
        // A's long-poll answers the moment A learns of the completion; B is asked right then.
        const waited = await fetch(`${a}/api/v1/projects/${id}`, {
          headers: { authorization: `Bearer ${key}`, prefer: 'wait=30' },
        }).then((r) => r.json());
        expect(waited.data.status).toBe('completed');
        const read = await callApi(b, 'GET', `/api/v1/projects/${id}`, key);
        expect(read.json.data.status, `read ${i} on the other process`).toBe('completed');
      }
    }, 90_000);
  },
);
