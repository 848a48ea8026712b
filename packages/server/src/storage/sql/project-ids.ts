import { asc, gt } from 'drizzle-orm';
import type { Tx } from '../db.ts';
import { projects } from '../schema.ts';

/**
 * Project ids in id order after `after` (all from the start when `null`), at most `limit`:
 * a whole-table walk in pages, each a short index range scan.
 */
export async function listProjectIdsAfter(
  tx: Tx,
  after: string | null,
  limit: number,
): Promise<string[]> {
  const rows = await tx
    .select({ id: projects.id })
    .from(projects)
    .where(after === null ? undefined : gt(projects.id, after))
    .orderBy(asc(projects.id))
    .limit(limit);
  return rows.map((row) => row.id);
}
