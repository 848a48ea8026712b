import { and, desc, eq, notInArray, sql } from 'drizzle-orm';
import type { Tx } from '../db.ts';
import { documents, projectContexts, projectRevisions, projects, provenance } from '../schema.ts';

export type RevisionRow = typeof projectRevisions.$inferSelect;
export type NewRevisionRow = typeof projectRevisions.$inferInsert;

export async function insertRevision(tx: Tx, row: NewRevisionRow): Promise<RevisionRow> {
  const [created] = await tx.insert(projectRevisions).values(row).returning();
  return created!;
}

export async function findRevision(
  tx: Tx,
  projectId: string,
  revision: number,
): Promise<RevisionRow | undefined> {
  const [row] = await tx
    .select()
    .from(projectRevisions)
    .where(and(eq(projectRevisions.projectId, projectId), eq(projectRevisions.revision, revision)));
  return row;
}

/** A project's revisions after its creation, newest first. */
export async function listRevisions(tx: Tx, projectId: string): Promise<RevisionRow[]> {
  return tx
    .select()
    .from(projectRevisions)
    .where(eq(projectRevisions.projectId, projectId))
    .orderBy(desc(projectRevisions.revision));
}

/** The highest revision number a project has (1 when it was never revised). */
export async function latestRevisionNumber(tx: Tx, projectId: string): Promise<number> {
  const [row] = await tx
    .select({ n: sql<number>`coalesce(max(${projectRevisions.revision}), 1)` })
    .from(projectRevisions)
    .where(eq(projectRevisions.projectId, projectId));
  return Number(row?.n ?? 1);
}

export async function updateRevision(
  tx: Tx,
  projectId: string,
  revision: number,
  values: Partial<Omit<NewRevisionRow, 'projectId' | 'revision'>>,
): Promise<void> {
  await tx
    .update(projectRevisions)
    .set(values)
    .where(and(eq(projectRevisions.projectId, projectId), eq(projectRevisions.revision, revision)));
}

/**
 * Moves an in-progress revision to a final state; false when it was no longer in progress
 * (the guard that makes each final transition, and its credit movement, happen once).
 */
export async function transitionRevision(
  tx: Tx,
  projectId: string,
  revision: number,
  values: Partial<Omit<NewRevisionRow, 'projectId' | 'revision'>> & {
    status: 'completed' | 'failed';
  },
): Promise<boolean> {
  const rows = await tx
    .update(projectRevisions)
    .set(values)
    .where(
      and(
        eq(projectRevisions.projectId, projectId),
        eq(projectRevisions.revision, revision),
        eq(projectRevisions.status, 'in_progress'),
      ),
    )
    .returning({ revision: projectRevisions.revision });
  return rows.length > 0;
}

/**
 * Copies into revision `to` every document of revision `from` whose kind is not in
 * `except`, byte for byte, keeping the revision that wrote it (`written_in`) and its date.
 */
export async function carryOverDocuments(
  tx: Tx,
  projectId: string,
  from: number,
  to: number,
  except: readonly string[],
): Promise<void> {
  const kept = and(
    eq(documents.projectId, projectId),
    eq(documents.revision, from),
    except.length > 0 ? notInArray(documents.type, [...except]) : undefined,
  );
  await tx
    .insert(documents)
    .select(
      tx
        .select({
          projectId: documents.projectId,
          revision: sql<number>`${to}::integer`.as('revision'),
          writtenIn: documents.writtenIn,
          type: documents.type,
          filename: documents.filename,
          content: documents.content,
          stage: documents.stage,
          tokensUsed: documents.tokensUsed,
          generatedAt: documents.generatedAt,
          position: documents.position,
        })
        .from(documents)
        .where(kept),
    )
    .onConflictDoNothing();
}

/**
 * Drops what a revision that did not complete stored (its documents and provenance, and
 * the codebase digest it sent: the next revision reads the one in force before it).
 */
export async function discardRevisionParts(
  tx: Tx,
  projectId: string,
  revision: number,
): Promise<void> {
  await tx
    .delete(documents)
    .where(and(eq(documents.projectId, projectId), eq(documents.revision, revision)));
  await tx
    .delete(provenance)
    .where(and(eq(provenance.projectId, projectId), eq(provenance.revision, revision)));
  await tx
    .delete(projectContexts)
    .where(and(eq(projectContexts.projectId, projectId), eq(projectContexts.revision, revision)));
}

/** Ids of the projects with a revision running, with its number (recovery after a crash). */
export async function listRevising(tx: Tx): Promise<{ projectId: string; revision: number }[]> {
  const rows = await tx
    .select({ projectId: projects.id, revision: projects.revising })
    .from(projects)
    .where(sql`${projects.revising} is not null`);
  return rows.map((row) => ({ projectId: row.projectId, revision: row.revision! }));
}
