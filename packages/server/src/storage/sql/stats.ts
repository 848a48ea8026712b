import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../db.ts';
import { generationStats } from '../schema.ts';

/** Average measured milliseconds per key (engine and document kind). */
export async function readGenerationStats(tx: Tx): Promise<Map<string, number>> {
  const rows = await tx.select().from(generationStats);
  return new Map(rows.map((row) => [row.kind, row.avgMs]));
}

/** How long a process serves its copy of the averages before it reads them again. */
export const STATS_MAX_AGE_MS = 5_000;

interface CachedStats {
  value: Promise<Map<string, number>>;
  at: number;
  refreshing: boolean;
}

/** Per database handle (a process has one; tests open several). */
const cached = new WeakMap<object, CachedStats>();

/**
 * The averages as {@link readGenerationStats} reads them, from a copy at most
 * {@link STATS_MAX_AGE_MS} old (then served once more while a fresh read runs). Every
 * creation and every run's start needs them for an estimate, which the API promises only
 * approximately; reading the table each time was a query on each creation's critical path
 * (and, on PGlite, one more statement serialized behind every other). This process's own
 * measurements ({@link recordGenerationTime}) replace the copy at once.
 */
export function cachedGenerationStats(
  db: Db,
  now: () => number = Date.now,
): Promise<Map<string, number>> {
  const entry = cached.get(db);
  if (entry !== undefined) {
    if (now() - entry.at > STATS_MAX_AGE_MS && !entry.refreshing) {
      entry.refreshing = true;
      readGenerationStats(db).then(
        (value) => cached.set(db, { value: Promise.resolve(value), at: now(), refreshing: false }),
        () => {
          entry.refreshing = false;
        },
      );
    }
    return entry.value;
  }
  const value = readGenerationStats(db);
  const fresh: CachedStats = { value, at: now(), refreshing: false };
  cached.set(db, fresh);
  // A failed read is not kept: the next caller reads again.
  value.catch(() => {
    if (cached.get(db) === fresh) cached.delete(db);
  });
  return value;
}

/** Folds one measurement into the key's moving average (the newest counts for `weight`). */
export async function recordGenerationTime(
  tx: Tx,
  kind: string,
  ms: number,
  weight = 0.2,
): Promise<void> {
  await tx
    .insert(generationStats)
    .values({ kind, samples: 1, avgMs: ms })
    .onConflictDoUpdate({
      target: generationStats.kind,
      set: {
        samples: sql`${generationStats.samples} + 1`,
        avgMs: sql`${generationStats.avgMs} * (1 - ${weight}::float8) + ${ms}::float8 * ${weight}::float8`,
        updatedAt: sql`now()`,
      },
    });
  // This process's next estimate sees its own measurement.
  cached.delete(tx);
}
