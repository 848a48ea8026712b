import { and, desc, eq, lte, type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../db.ts';
import { projectContexts } from '../schema.ts';

/** One file of a stored digest: its text redacted, `bytes` that text's UTF-8 size. */
export interface StoredContextFile {
  path: string;
  content: string;
  bytes: number;
  redactions: number;
}

/** A codebase digest as stored for one revision of a grounded project. */
export interface StoredRepositoryContext {
  name: string;
  commit: string | null;
  /** The revision that sent it (1: the creation). */
  revision: number;
  files: StoredContextFile[];
  totalBytes: number;
  redactions: number;
}

/**
 * Stores the digest a creation (revision 1) or a revision sent, in the transaction that
 * creates it, so a project or revision never exists without the context it was asked with.
 *
 * @example await insertRepositoryContext(tx, { projectId, revision: 1, ...prepared })
 */
export async function insertRepositoryContext(
  tx: Tx,
  row: {
    projectId: string;
    revision: number;
    name: string;
    commit: string | null;
    files: StoredContextFile[];
    totalBytes: number;
    redactions: number;
  },
): Promise<void> {
  await tx.insert(projectContexts).values(row);
}

/** A stored digest without any file's text: what provenance shows. */
export type RepositoryContextSummary = Omit<StoredRepositoryContext, 'files'> & {
  files: Omit<StoredContextFile, 'content'>[];
};

const inForce = (projectId: string, atRevision: number | undefined): SQL | undefined =>
  atRevision === undefined
    ? eq(projectContexts.projectId, projectId)
    : and(eq(projectContexts.projectId, projectId), lte(projectContexts.revision, atRevision));

/**
 * The digest in force at a revision, like {@link findRepositoryContext}, with its file list
 * only: the text stays in the database (provenance reads this on every call).
 *
 * @example const summary = await findRepositoryContextSummary(db, projectId, 2)
 */
export async function findRepositoryContextSummary(
  q: Tx,
  projectId: string,
  atRevision?: number,
): Promise<RepositoryContextSummary | undefined> {
  const [row] = await q
    .select({
      name: projectContexts.name,
      commit: projectContexts.commit,
      revision: projectContexts.revision,
      totalBytes: projectContexts.totalBytes,
      redactions: projectContexts.redactions,
      files: sql<Omit<StoredContextFile, 'content'>[]>`(
        select coalesce(jsonb_agg(
          jsonb_build_object('path', f->'path', 'bytes', f->'bytes', 'redactions', f->'redactions')
          order by n), '[]'::jsonb)
        from jsonb_array_elements(${projectContexts.files}) with ordinality as t(f, n))`,
    })
    .from(projectContexts)
    .where(inForce(projectId, atRevision))
    .orderBy(desc(projectContexts.revision))
    .limit(1);
  return row;
}

/**
 * The digest in force at a revision: the latest sent at or before it (any revision when
 * `atRevision` is absent); undefined for a project created without one.
 *
 * @example const context = await findRepositoryContext(db, projectId, 3)
 */
export async function findRepositoryContext(
  q: Tx,
  projectId: string,
  atRevision?: number,
): Promise<StoredRepositoryContext | undefined> {
  const [row] = await q
    .select({
      name: projectContexts.name,
      commit: projectContexts.commit,
      revision: projectContexts.revision,
      files: projectContexts.files,
      totalBytes: projectContexts.totalBytes,
      redactions: projectContexts.redactions,
    })
    .from(projectContexts)
    .where(inForce(projectId, atRevision))
    .orderBy(desc(projectContexts.revision))
    .limit(1);
  return row;
}
