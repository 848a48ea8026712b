import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Accounts, type CreatedKey } from '../src/accounts/service.ts';
import { type Database, openDatabase } from '../src/storage/db.ts';
import { bearer, buildTestApp } from './helpers/harness.ts';
import { callApi, LISTENING, type Proc, startServerProcess } from './helpers/process.ts';
import { createTestDatabase, postgresUnavailable } from './helpers/services.ts';
import { completedWithPlan, planDocument } from './helpers/tasks.ts';

const skip = await postgresUnavailable();

/**
 * Issue 30, item 2, on the real PostgreSQL: claims racing over two API processes never hand
 * one task to two agents, and an expired lease returns its task to todo by the app's clock.
 */
describe.skipIf(skip !== undefined)('claiming tasks on PostgreSQL', () => {
  const processes: Proc[] = [];
  let drop: () => Promise<void> = async () => {};
  let database: Database;
  let key: CreatedKey;
  let apis: [string, string] = ['', ''];

  beforeAll(async () => {
    const created = await createTestDatabase();
    drop = created.drop;
    // Migrated here first: the processes then start on a database that has every table.
    database = await openDatabase({ kind: 'postgres', url: created.url, poolSize: 4 });
    key = await new Accounts(database.db).createKey({ mode: 'test' });
    const env = {
      DATABASE_URL: created.url,
      PGS_ROLE: 'api',
      PGS_ADMIN_TOKEN: `admin-${randomBytes(16).toString('hex')}`,
    };
    const started = [startServerProcess(env), startServerProcess(env)];
    processes.push(...started);
    const [a, b] = await Promise.all(started.map((p) => p.waitForOutput(LISTENING, 60_000)));
    apis = [`http://127.0.0.1:${a![1]}`, `http://127.0.0.1:${b![1]}`];
  }, 90_000);

  afterAll(async () => {
    await Promise.all(processes.map((p) => p.kill('SIGTERM')));
    await database?.close();
    await drop();
  });

  /** `count` claims at once, by agents named `prefix-n`, alternating between the processes. */
  const race = (project: string, prefix: string, count: number) =>
    Promise.all(
      Array.from({ length: count }, (_, n) =>
        callApi(
          apis[n % 2]!,
          'POST',
          `/api/v1/projects/${project}/tasks/next`,
          key.key,
          { agent: `${prefix}-${n}` },
          { contract: true },
        ),
      ),
    );

  it('gives 20 claims racing over two processes 20 different tasks, then what is left and 204s', async () => {
    // Completed before tasks existed: the racing claims also race to read the plan.
    const project = await completedWithPlan(database, key, [planDocument(25)], {
      materialise: false,
    });
    const first = await race(project, 'first', 20);
    expect(first.map((res) => res.status)).toEqual(Array(20).fill(200));
    const taken = first.map((res) => res.json.data.task.id as string);
    expect(new Set(taken).size).toBe(20);
    for (const [n, res] of first.entries()) {
      expect(res.json.data.task).toMatchObject({ status: 'in_progress', assignee: `first-${n}` });
    }

    const second = await race(project, 'second', 20);
    const more = second.filter((res) => res.status === 200).map((res) => res.json.data.task.id);
    expect(more).toHaveLength(5);
    expect(second.filter((res) => res.status === 204)).toHaveLength(15);
    expect(new Set([...taken, ...more]).size).toBe(25);

    // Each task was moved to in_progress once: one claim entry in its history.
    const listed = await callApi(apis[0], 'GET', `/api/v1/projects/${project}/tasks`, key.key);
    expect(listed.json.data).toHaveLength(25);
    for (const id of ['T-1', 'T-13', 'T-25']) {
      const task = await callApi(
        apis[1],
        'GET',
        `/api/v1/projects/${project}/tasks/${id}`,
        key.key,
      );
      const claims = task.json.data.history.filter((e: { to: string }) => e.to === 'in_progress');
      expect(claims).toHaveLength(1);
      expect(task.json.data.history.filter((e: { from: null }) => e.from === null)).toHaveLength(1);
    }
  }, 60_000);

  it('returns a task whose lease expired to todo, by the clock of the app that reads it', async () => {
    const project = await completedWithPlan(database, key, [
      planDocument(2, (n) => (n === 2 ? ['T-1'] : [])),
    ]);
    let clock = Date.now();
    const app = await buildTestApp(database, { now: () => clock });
    try {
      const call = (method: 'GET' | 'POST', path: string, body?: unknown) =>
        app.inject({
          method,
          url: `/api/v1/projects/${project}/tasks${path}`,
          headers: { ...bearer(key.key), ...(body ? { 'content-type': 'application/json' } : {}) },
          ...(body ? { payload: JSON.stringify(body) } : {}),
        });
      const claimed = await call('POST', '/next', { agent: 'slow', leaseSeconds: 30 });
      expect(claimed.json().data.task.id).toBe('T-1');
      expect((await call('POST', '/next', { agent: 'other' })).statusCode).toBe(204);
      clock += 29_000;
      expect((await call('GET', '/T-1')).json().data.status).toBe('in_progress');
      clock += 1_000;
      const expired = (await call('GET', '/T-1')).json().data;
      expect(expired).toMatchObject({ status: 'todo', assignee: null, lease: null });
      expect(expired.history.at(-1)).toMatchObject({
        agent: 'slow',
        from: 'in_progress',
        to: 'todo',
      });
      // Exactly one expiry entry, however many reads see it.
      await call('GET', '');
      const history = (await call('GET', '/T-1')).json().data.history;
      expect(
        history.filter((e: { note: string | null }) => e.note?.includes('expired')),
      ).toHaveLength(1);
      expect((await call('POST', '/next', { agent: 'other' })).json().data.task.id).toBe('T-1');
    } finally {
      await app.close();
    }
  });
});
