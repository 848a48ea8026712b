import { sql } from 'drizzle-orm';
import type { Tx } from '../db.ts';
import { generationStats } from '../schema.ts';

/** Average measured milliseconds per key (engine and document kind). */
export async function readGenerationStats(tx: Tx): Promise<Map<string, number>> {
  const rows = await tx.select().from(generationStats);
  return new Map(rows.map((row) => [row.kind, row.avgMs]));
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
}
