import { and, desc, eq } from 'drizzle-orm';
import type { Tx } from '../db.ts';
import { conformanceChecks } from '../schema.ts';

export type ConformanceCheckRow = typeof conformanceChecks.$inferSelect;
export type NewConformanceCheckRow = typeof conformanceChecks.$inferInsert;

/** Stores a check (with its report when it was made before the answer). */
export async function insertConformanceCheck(
  tx: Tx,
  row: NewConformanceCheckRow,
): Promise<ConformanceCheckRow> {
  const [created] = await tx.insert(conformanceChecks).values(row).returning();
  return created!;
}

/** One check of a project; the caller has checked the project is theirs. */
export async function findConformanceCheck(
  tx: Tx,
  projectId: string,
  id: string,
): Promise<ConformanceCheckRow | undefined> {
  const [row] = await tx
    .select()
    .from(conformanceChecks)
    .where(and(eq(conformanceChecks.projectId, projectId), eq(conformanceChecks.id, id)));
  return row;
}

/**
 * A project's checks, latest first (creation time, then id: ULIDs sort by time), at most
 * `limit`; with `revision`, only that revision's, with `status`, only those in it.
 */
export async function listConformanceChecks(
  tx: Tx,
  projectId: string,
  {
    limit,
    revision,
    status,
  }: { limit: number; revision?: number; status?: ConformanceCheckRow['status'] },
): Promise<ConformanceCheckRow[]> {
  return tx
    .select()
    .from(conformanceChecks)
    .where(
      and(
        eq(conformanceChecks.projectId, projectId),
        revision === undefined ? undefined : eq(conformanceChecks.revision, revision),
        status === undefined ? undefined : eq(conformanceChecks.status, status),
      ),
    )
    .orderBy(desc(conformanceChecks.createdAt), desc(conformanceChecks.id))
    .limit(limit);
}
