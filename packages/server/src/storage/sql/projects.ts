import { and, asc, desc, eq, sql } from 'drizzle-orm';
import type { Tx } from '../db.ts';
import { documents, projects, provenance } from '../schema.ts';
import type { Mode } from './accounts.ts';

export type ProjectRow = typeof projects.$inferSelect;
export type NewProjectRow = typeof projects.$inferInsert;
export type DocumentRow = typeof documents.$inferSelect;
export type NewDocumentRow = typeof documents.$inferInsert;

export async function insertProject(tx: Tx, row: NewProjectRow): Promise<ProjectRow> {
  const [created] = await tx.insert(projects).values(row).returning();
  return created!;
}

/** What the status endpoint reads of a project: few columns, as it runs on every poll. */
const statusColumns = {
  accountId: projects.accountId,
  currentRevision: projects.currentRevision,
  mode: projects.mode,
  status: projects.status,
  estimatedCompletionAt: projects.estimatedCompletionAt,
  errorCode: projects.errorCode,
  errorMessage: projects.errorMessage,
  resultEtag: projects.resultEtag,
};
export type ProjectStatusRow = { [K in keyof typeof statusColumns]: ProjectRow[K] };

/** The status query, prepared once per database: it runs on every poll (2x the throughput). */
const statusQueries = new WeakMap<Tx, ReturnType<typeof prepareStatusQuery>>();
function prepareStatusQuery(tx: Tx) {
  return tx
    .select(statusColumns)
    .from(projects)
    .where(
      and(
        eq(projects.id, sql.placeholder('id')),
        eq(projects.accountId, sql.placeholder('accountId')),
        eq(projects.mode, sql.placeholder('mode')),
      ),
    )
    .prepare('pgs_project_status');
}

/** The status of the project with this id, only if it belongs to this account and mode. */
export async function findOwnedProjectStatus(
  tx: Tx,
  id: string,
  accountId: string,
  mode: Mode,
): Promise<ProjectStatusRow | undefined> {
  let query = statusQueries.get(tx);
  if (query === undefined) {
    query = prepareStatusQuery(tx);
    statusQueries.set(tx, query);
  }
  const [row] = await query.execute({ id, accountId, mode });
  return row as ProjectStatusRow | undefined;
}

/**
 * The settings a project was created with, its detail level and requirement style (its
 * provenance says them; not a status read's).
 */
export async function findProjectSettings(
  tx: Tx,
  id: string,
): Promise<
  Pick<ProjectRow, 'detail' | 'requirementStyle' | 'conventionsVersion' | 'language'> | undefined
> {
  const [row] = await tx
    .select({
      detail: projects.detail,
      requirementStyle: projects.requirementStyle,
      conventionsVersion: projects.conventionsVersion,
      language: projects.language,
    })
    .from(projects)
    .where(eq(projects.id, id));
  return row;
}

/** The serialized body of a completed project. */
export async function findProjectResultBody(
  tx: Tx,
  id: string,
): Promise<string | null | undefined> {
  const [row] = await tx
    .select({ body: projects.resultBody })
    .from(projects)
    .where(eq(projects.id, id));
  return row?.body;
}

export async function findProject(tx: Tx, id: string): Promise<ProjectRow | undefined> {
  const [row] = await tx.select().from(projects).where(eq(projects.id, id));
  return row;
}

export async function updateProject(
  tx: Tx,
  id: string,
  values: Partial<Omit<NewProjectRow, 'id'>>,
): Promise<ProjectRow | undefined> {
  const [row] = await tx
    .update(projects)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(projects.id, id))
    .returning();
  return row;
}

/** Stores a document once; a second store of the same kind changes nothing. */
export async function insertDocument(tx: Tx, row: NewDocumentRow): Promise<boolean> {
  const inserted = await tx
    .insert(documents)
    .values(row)
    .onConflictDoNothing({ target: [documents.projectId, documents.revision, documents.type] })
    .returning({ type: documents.type });
  return inserted.length > 0;
}

/** The documents of one revision of a project (revision 1, its creation, by default). */
export async function listDocuments(
  tx: Tx,
  projectId: string,
  revision = 1,
): Promise<DocumentRow[]> {
  return tx
    .select()
    .from(documents)
    .where(and(eq(documents.projectId, projectId), eq(documents.revision, revision)))
    .orderBy(asc(documents.position), asc(documents.type));
}

/**
 * Moves an in-progress project to a final state; false when it was no longer in progress
 * (the guard that makes each final transition, and its credit movement, happen once).
 */
export async function transitionProject(
  tx: Tx,
  id: string,
  values: Partial<Omit<NewProjectRow, 'id'>> & { status: 'completed' | 'failed' },
): Promise<boolean> {
  const rows = await tx
    .update(projects)
    .set({ ...values, updatedAt: new Date() })
    .where(and(eq(projects.id, id), eq(projects.status, 'in_progress')))
    .returning({ id: projects.id });
  return rows.length > 0;
}

/** Ids of the projects still generating. */
export async function listInProgressProjectIds(tx: Tx): Promise<string[]> {
  const rows = await tx
    .select({ id: projects.id })
    .from(projects)
    .where(eq(projects.status, 'in_progress'));
  return rows.map((row) => row.id);
}

/**
 * The project, only if it belongs to this account and mode (any, without `owner`), its row
 * locked to the end of `tx`: a concurrent cancel, delete or final transition waits, and a
 * document stored meanwhile (its event locks the row too) is either seen or not stored.
 */
export async function lockProject(
  tx: Tx,
  id: string,
  owner?: { accountId: string; mode: Mode },
): Promise<ProjectRow | undefined> {
  const [row] = await tx
    .select()
    .from(projects)
    .where(
      owner === undefined
        ? eq(projects.id, id)
        : and(
            eq(projects.id, id),
            eq(projects.accountId, owner.accountId),
            eq(projects.mode, owner.mode),
          ),
    )
    .for('update');
  return row;
}

/**
 * Deletes a project with its documents and provenance (its events, revisions and codebase
 * digests, `project_contexts`, go with it by cascade).
 * The credit ledger is not touched: its rows name the project without a foreign key, and
 * money history is never deleted. False when there was no such project.
 */
export async function deleteProjectRows(tx: Tx, id: string): Promise<boolean> {
  await tx.delete(provenance).where(eq(provenance.projectId, id));
  await tx.delete(documents).where(eq(documents.projectId, id));
  const rows = await tx.delete(projects).where(eq(projects.id, id)).returning({ id: projects.id });
  return rows.length > 0;
}

/** What a listing shows of a project: a few columns, never the documents or the result. */
const summaryColumns = {
  id: projects.id,
  status: projects.status,
  name: projects.name,
  idea: projects.idea,
  type: projects.type,
  typeRequested: projects.typeRequested,
  createdAt: projects.createdAt,
  completedAt: projects.completedAt,
  creditsConsumed: projects.creditsConsumed,
  errorCode: projects.errorCode,
};
/**
 * What the project's model calls cost so far, every run included, in micro-dollars: 0 before
 * any, null when one of them has no known cost (docs/cost.md). Uses provenance's primary key.
 */
const costColumn = sql<number | null>`(
  select case when bool_or(p.cost_micro_usd is null) then null
              else coalesce(sum(p.cost_micro_usd), 0)::float8 end
  from provenance p where p.project_id = ${projects.id})`.mapWith((value) =>
  value === null ? null : Number(value),
);
export type ProjectSummaryRow = { [K in keyof typeof summaryColumns]: ProjectRow[K] } & {
  costMicroUsd: number | null;
};

/** Whether the project exists and belongs to this account and mode (a listing cursor). */
export async function ownsProject(
  tx: Tx,
  id: string,
  accountId: string,
  mode: Mode,
): Promise<boolean> {
  const rows = await tx
    .select({ id: projects.id })
    .from(projects)
    .where(and(eq(projects.id, id), eq(projects.accountId, accountId), eq(projects.mode, mode)));
  return rows.length > 0;
}

/**
 * Up to `limit` projects of an account in one mode, newest first (`created_at`, then `id`,
 * both descending: a total order, so pages never overlap or skip), optionally in one state
 * and after the project `startingAfter` in that order. The cursor's position is read in SQL,
 * so its timestamp keeps the database's microseconds. Uses `projects_account_idx`.
 */
export async function listOwnedProjects(
  tx: Tx,
  query: {
    accountId: string;
    mode: Mode;
    limit: number;
    status?: ProjectRow['status'] | undefined;
    startingAfter?: string | undefined;
  },
): Promise<ProjectSummaryRow[]> {
  const conditions = [eq(projects.accountId, query.accountId), eq(projects.mode, query.mode)];
  if (query.status !== undefined) conditions.push(eq(projects.status, query.status));
  if (query.startingAfter !== undefined) {
    conditions.push(
      sql`(${projects.createdAt}, ${projects.id}) < (select after_row.created_at, after_row.id from projects after_row where after_row.id = ${query.startingAfter})`,
    );
  }
  return tx
    .select({ ...summaryColumns, costMicroUsd: costColumn })
    .from(projects)
    .where(and(...conditions))
    .orderBy(desc(projects.createdAt), desc(projects.id))
    .limit(query.limit);
}
