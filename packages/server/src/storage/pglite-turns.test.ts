import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { yieldBetweenQueuedTransactions } from './pglite-turns.ts';

/**
 * Counts the event-loop turns (setImmediate callbacks, which run once per turn) that pass
 * while `work` runs: the turns in which Node could read sockets meanwhile.
 */
async function turnsDuring(work: () => Promise<unknown>): Promise<number> {
  let turns = 0;
  let done = false;
  const tick = () => {
    if (done) return;
    turns++;
    setImmediate(tick);
  };
  setImmediate(tick);
  await work();
  done = true;
  return turns;
}

const queuedWork = (client: PGlite, n: number) => () =>
  Promise.all(
    Array.from({ length: n }, (_, i) =>
      client.transaction(async (tx) => {
        await tx.query('insert into t (n) values ($1)', [i]);
        await tx.query('select count(*) from t');
      }),
    ),
  );

describe('PGlite transactions queued behind each other', () => {
  let plain: PGlite;
  let fair: PGlite;
  beforeAll(async () => {
    plain = await PGlite.create();
    fair = await PGlite.create();
    yieldBetweenQueuedTransactions(fair);
    for (const client of [plain, fair]) await client.exec('create table t (n int)');
  });
  afterAll(async () => {
    await plain?.close();
    await fair?.close();
  });

  it('run in one turn of the event loop as PGlite ships', async () => {
    expect(await turnsDuring(queuedWork(plain, 20))).toBeLessThanOrEqual(2);
  });

  it('leave a turn between each other once each waits for the next turn', async () => {
    // The first two found the lock free or only held; the 18 behind them found a queue.
    expect(await turnsDuring(queuedWork(fair, 20))).toBeGreaterThanOrEqual(18);
    expect(
      (await fair.query<{ count: number }>('select count(*)::int as count from t')).rows[0]!.count,
    ).toBe(20);
  });

  it('an uncontended query does not wait for a turn', async () => {
    const order: string[] = [];
    setImmediate(() => order.push('turn'));
    await fair.query('select 1');
    order.push('query');
    expect(order).toEqual(['query']);
  });

  it('a query behind one running transaction (no queue) does not wait for a turn', async () => {
    const order: string[] = [];
    setImmediate(() => order.push('turn'));
    const running = fair.transaction(async (tx) => {
      await tx.query('insert into t (n) values (0)');
    });
    await fair.query('select 1');
    order.push('query');
    await running;
    expect(order).toEqual(['query']);
  });

  it('a failing transaction releases its place in line', async () => {
    await expect(
      fair.transaction(async (tx) => {
        await tx.query('select nope');
      }),
    ).rejects.toThrow();
    const order: string[] = [];
    setImmediate(() => order.push('turn'));
    await fair.query('select 1');
    order.push('query');
    expect(order).toEqual(['query']);
  });
});
