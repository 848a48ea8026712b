import { and, asc, eq, sql } from 'drizzle-orm';
import type { Tx } from '../db.ts';
import { provenance } from '../schema.ts';

export type ProvenanceRow = typeof provenance.$inferSelect;
export type NewProvenanceRow = typeof provenance.$inferInsert;

/** Records how a part was generated, once: a resumed run that stores it again changes nothing. */
export async function insertProvenance(tx: Tx, row: NewProvenanceRow): Promise<void> {
  await tx
    .insert(provenance)
    .values(row)
    .onConflictDoNothing({ target: [provenance.projectId, provenance.revision, provenance.kind] });
}

/** A project's provenance rows of one revision, in the order they were written. */
export async function listProvenance(
  tx: Tx,
  projectId: string,
  revision = 1,
): Promise<ProvenanceRow[]> {
  return tx
    .select()
    .from(provenance)
    .where(and(eq(provenance.projectId, projectId), eq(provenance.revision, revision)))
    .orderBy(asc(provenance.createdAt), asc(provenance.kind));
}

/**
 * What the stored parts of one revision cost, in micro-dollars; a part of unknown cost
 * (null) counts as 0. Where a resumed run's budget starts from.
 */
export async function spentMicroUsd(tx: Tx, projectId: string, revision = 1): Promise<number> {
  const [row] = await tx
    .select({ spent: sql<string | null>`sum(${provenance.costMicroUsd})` })
    .from(provenance)
    .where(and(eq(provenance.projectId, projectId), eq(provenance.revision, revision)));
  return Number(row?.spent ?? 0);
}
