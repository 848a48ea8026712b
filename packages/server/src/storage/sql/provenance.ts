import { and, asc, eq } from 'drizzle-orm';
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
