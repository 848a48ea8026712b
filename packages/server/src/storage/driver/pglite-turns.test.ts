import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { timeSliceTransactions } from './pglite-turns.ts';

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

const insert = (client: PGlite, n: number) =>
  client.transaction(async (tx) => {
    await tx.query('insert into t (n) values ($1)', [n]);
    await tx.query('select count(*) from t');
  });

/** `n` transactions called at once: all but the first queue for PGlite's lock. */
const queued = (client: PGlite, n: number) => () =>
  Promise.all(Array.from({ length: n }, (_, i) => insert(client, i)));

/**
 * `n` transactions each called from its own callback, all run in one phase of the event
 * loop (immediates queued together run in the same check phase), as the requests of
 * sockets read in one poll phase: each callback finds the lock free.
 */
const fromCallbacks = (client: PGlite, n: number, finished: number[]) => () =>
  Promise.all(
    Array.from(
      { length: n },
      (_, i) =>
        new Promise<void>((resolve, reject) =>
          setImmediate(() => {
            insert(client, i).then(() => {
              finished.push(i);
              resolve();
            }, reject);
          }),
        ),
    ),
  );

/** Whether a turn passes between calling `work` and its end. */
async function waitsForATurn(work: () => Promise<unknown>): Promise<boolean> {
  const order: string[] = [];
  setImmediate(() => order.push('turn'));
  await work();
  order.push('work');
  return order[0] === 'turn';
}

describe('PGlite transactions in a burst', () => {
  let plain: PGlite;
  let sliced: PGlite;
  let unsliced: PGlite;
  beforeAll(async () => {
    plain = await PGlite.create();
    sliced = await PGlite.create();
    unsliced = await PGlite.create();
    // A slice of 0 ms leaves a turn after every transaction but a turn's first; one of a
    // minute never does: neither depends on how fast this machine runs.
    timeSliceTransactions(sliced, { sliceMs: 0 });
    timeSliceTransactions(unsliced, { sliceMs: 60_000 });
    for (const client of [plain, sliced, unsliced]) await client.exec('create table t (n int)');
  });
  afterAll(async () => {
    await plain?.close();
    await sliced?.close();
    await unsliced?.close();
  });

  it('run in one turn of the event loop as PGlite ships, queued or from separate callbacks', async () => {
    expect(await turnsDuring(queued(plain, 20))).toBeLessThanOrEqual(2);
    expect(await turnsDuring(fromCallbacks(plain, 20, []))).toBeLessThanOrEqual(2);
  });

  it('leave a turn between each other once the slice is spent, in the order they were called', async () => {
    expect(await turnsDuring(queued(sliced, 20))).toBeGreaterThanOrEqual(19);
    const finished: number[] = [];
    expect(await turnsDuring(fromCallbacks(sliced, 20, finished))).toBeGreaterThanOrEqual(19);
    expect(finished).toEqual(Array.from({ length: 20 }, (_, i) => i));
    const { rows } = await sliced.query<{ count: number }>('select count(*)::int as count from t');
    expect(rows[0]!.count).toBe(40);
  });

  it('run back to back within the slice', async () => {
    expect(await turnsDuring(queued(unsliced, 20))).toBeLessThanOrEqual(2);
    expect(await turnsDuring(fromCallbacks(unsliced, 20, []))).toBeLessThanOrEqual(2);
  });

  it("a turn's first transaction does not wait for a turn", async () => {
    await new Promise((resolve) => setImmediate(resolve));
    expect(await waitsForATurn(() => sliced.query('select 1'))).toBe(false);
    // The slice it opened is spent (0 ms), so the next one in this turn waits.
    expect(await waitsForATurn(() => sliced.query('select 1'))).toBe(true);
  });

  it('a failing transaction does not hold up the ones behind it', async () => {
    const failing = sliced.transaction(async (tx) => {
      await tx.query('select nope');
    });
    const behind = Promise.all([sliced.query('select 1'), sliced.query('select 2')]);
    await expect(failing).rejects.toThrow();
    await expect(behind).resolves.toHaveLength(2);
  });
});
