import { and, asc, eq } from 'drizzle-orm';
import type { Tx } from '../db.ts';
import { documents, projects } from '../schema.ts';
import type { Mode } from './accounts.ts';
import type { ProjectRow } from './projects.ts';

/** A project as the document endpoint sees it: its state and, if stored, the document. */
export interface OwnedDocumentRow {
  status: ProjectRow['status'];
  /** The document's markdown; null when the project has no document of that filename. */
  content: string | null;
}

/**
 * One document of a project, only if the project belongs to this account and mode: one
 * query, so "no such project" (undefined) and "no such document" (content null) are told
 * apart without a second round trip.
 *
 * @example
 * const row = await findOwnedDocument(db, id, principal.accountId, principal.mode, 'README.md');
 */
export async function findOwnedDocument(
  tx: Tx,
  projectId: string,
  accountId: string,
  mode: Mode,
  filename: string,
  /** The revision to read; the project's current one when absent. */
  revision?: number,
): Promise<OwnedDocumentRow | undefined> {
  const [row] = await tx
    .select({ status: projects.status, content: documents.content })
    .from(projects)
    .leftJoin(
      documents,
      and(
        eq(documents.projectId, projects.id),
        eq(documents.filename, filename),
        revision === undefined
          ? eq(documents.revision, projects.currentRevision)
          : eq(documents.revision, revision),
      ),
    )
    .where(
      and(eq(projects.id, projectId), eq(projects.accountId, accountId), eq(projects.mode, mode)),
    )
    // A filename belongs to one kind; the order only makes the answer deterministic.
    .orderBy(asc(documents.position))
    .limit(1);
  return row;
}
