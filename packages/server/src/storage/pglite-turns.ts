import type { PGlite } from '@electric-sql/pglite';

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Lets Node serve its sockets between PGlite's transactions when they queue.
 *
 * PGlite runs every statement on this thread and hands its lock (the one `query`, `exec`
 * and `transaction` take) from one waiter to the next in a microtask, so a queue of waiting
 * work runs in a single turn of the event loop: measured, 50 creations at once held the loop
 * for about 250 ms at a time, and in each such turn Node read no request and accepted one
 * connection (libuv accepts one per turn while other work is pending), so a few clients of
 * a burst waited seconds for their connection. Here a caller that found a queue (the lock
 * held and someone else already waiting) waits for the next turn once it holds the lock,
 * so sockets are served between transactions of a burst. A call that finds the lock free,
 * or only held, runs at once as before: nothing is added to an idle path, nor to a single
 * hand-over such as a worker's claim that follows the creating transaction's commit.
 *
 * @example
 * const client = await PGlite.create(dataDir);
 * yieldBetweenQueuedTransactions(client);
 */
export function yieldBetweenQueuedTransactions(client: PGlite): void {
  const run = client._runExclusiveTransaction.bind(client);
  /** Calls holding the lock or queued for it. */
  let inLine = 0;
  client._runExclusiveTransaction = <T>(fn: () => Promise<T>): Promise<T> => {
    const queued = inLine > 1;
    inLine++;
    return run(async () => {
      if (queued) await nextTurn();
      return await fn();
    }).finally(() => {
      inLine--;
    });
  };
}
