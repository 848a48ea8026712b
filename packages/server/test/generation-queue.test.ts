import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { GenerationQueue } from '../src/queue/generation-queue.ts';
import { type Database, openDatabase } from '../src/storage/db.ts';
import { memoryDatabase } from './helpers/database.ts';
import { backends } from './helpers/harness.ts';
import { createTestDatabase } from './helpers/services.ts';
import { waitFor } from './helpers/wait.ts';

/**
 * How due generations reach workers: each committed job wakes one idle worker of a process
 * (never every worker, whose fetches but one come back empty). Workers here poll once a
 * minute, so a job picked up within the test was picked up because a wake reached a worker.
 */
describe.each(await backends())('generation queue wake-ups on %s', (backend) => {
  let database: Database | undefined;
  let queue: GenerationQueue | undefined;
  let drop: (() => Promise<void>) | undefined;
  let release: () => void = () => {};

  afterEach(async () => {
    release();
    await queue?.stop(5_000);
    await database?.close();
    await drop?.();
    queue = undefined;
    database = undefined;
    drop = undefined;
  });

  /** Four workers holding every job they take until `release()`; `ran` lists their projects. */
  async function start() {
    if (backend === 'postgres') {
      const created = await createTestDatabase();
      drop = created.drop;
      database = await openDatabase({ kind: 'postgres', url: created.url, poolSize: 4 });
    } else {
      database = await memoryDatabase();
    }
    queue = await GenerationQueue.create(database, { concurrency: 4, pollingIntervalSeconds: 60 });
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const ran: string[] = [];
    await queue.start({
      run: async (job) => {
        ran.push(job.projectId);
        await held;
      },
      dead: async () => {},
    });
    // Each worker fetches once as it starts, then waits for a wake (or the minute's poll).
    const q = queue;
    await waitFor(
      async () => (q.workers().every((w) => w.lastFetchedOn !== null) ? true : undefined),
      { what: 'every worker made its first fetch' },
    );
    return { queue: q, db: database.db, ran };
  }

  it('a job committed wakes exactly one idle worker, which runs it', async () => {
    const { queue, db, ran } = await start();
    const before = new Map(queue.workers().map((w) => [w.id, w.lastFetchedOn]));
    expect(before.size).toBe(4);
    const projectId = randomUUID();
    await db.transaction((tx) => queue.enqueue(projectId, tx));
    await waitFor(async () => (ran.includes(projectId) ? true : undefined), {
      what: 'the job reached a worker',
    });
    const fetched = queue.workers().filter((w) => w.lastFetchedOn !== before.get(w.id));
    expect(fetched).toHaveLength(1);
    expect(fetched[0]!.jobs).toBe(1);
  });

  it('a burst of jobs committed together wakes a worker for each', async () => {
    const { queue, db, ran } = await start();
    const ids = Array.from({ length: 4 }, () => randomUUID());
    await db.transaction(async (tx) => {
      for (const id of ids) await queue.enqueue(id, tx);
    });
    await waitFor(async () => (ran.length === 4 ? true : undefined), {
      what: 'all four jobs running at once',
    });
    expect(ran.toSorted()).toEqual(ids.toSorted());
    expect(queue.workers().map((w) => w.jobs)).toEqual([1, 1, 1, 1]);
  });

  it('a job enqueued outside a transaction wakes a worker too', async () => {
    const { queue, ran } = await start();
    const projectId = randomUUID();
    await queue.enqueue(projectId);
    await waitFor(async () => (ran.includes(projectId) ? true : undefined), {
      what: 'the job reached a worker',
    });
  });
});
