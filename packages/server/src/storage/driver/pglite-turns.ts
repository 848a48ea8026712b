import type { PGlite } from '@electric-sql/pglite';

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

export interface TimeSliceOptions {
  /**
   * How long PGlite's work may hold one turn of the event loop before the next transaction
   * waits for the next turn (default 10 ms). 0 leaves a turn after every transaction but a
   * turn's first.
   */
  sliceMs?: number;
}

/**
 * Lets Node serve its sockets while PGlite works through a burst.
 *
 * PGlite runs every statement on this thread, synchronously inside a promise. The
 * transactions of a burst run back to back in one turn of the event loop: those queued
 * for its lock (the one `query`, `exec` and `transaction` take) because the lock is handed
 * over in a microtask, and those of requests read in the same poll phase because each
 * socket's callback runs its request's statements before the next socket is read.
 * Measured, 50 clients creating at once held turns of 150–250 ms, and in each such turn
 * Node accepted one connection: the last clients of a burst waited seconds for theirs.
 *
 * Here the turn's work is sliced by time: the first transaction of a turn opens a slice
 * (closed by a `setImmediate`, i.e. at the turn's check phase); a transaction that gets
 * the lock after the slice has run `sliceMs` waits for the next turn, holding the lock, so
 * the transactions behind it keep their order and nothing runs ahead of them. An idle
 * service never waits: a turn's first transaction runs at once, and so does one that
 * follows it within the slice (a worker's claim after the creating commit).
 *
 * @example
 * const client = await PGlite.create(dataDir);
 * timeSliceTransactions(client);
 */
export function timeSliceTransactions(client: PGlite, options: TimeSliceOptions = {}): void {
  const sliceMs = options.sliceMs ?? 10;
  const run = client._runExclusiveTransaction.bind(client);
  let sliceOpen = false;
  let sliceStart = 0;
  const closeSlice = () => {
    sliceOpen = false;
  };
  /** Opens a slice if none is open; whether the open one has used its time. */
  const sliceSpent = () => {
    if (!sliceOpen) {
      sliceOpen = true;
      sliceStart = performance.now();
      setImmediate(closeSlice);
      return false;
    }
    return performance.now() - sliceStart >= sliceMs;
  };
  client._runExclusiveTransaction = <T>(fn: () => Promise<T>): Promise<T> =>
    run(async () => {
      // The slice's closing immediate was queued before this wait, so it runs first.
      while (sliceSpent()) await nextTurn();
      return await fn();
    });
}
