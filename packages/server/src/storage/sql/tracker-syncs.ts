/**
 * The pushes of a project to a tracker (`project_syncs`) and the links they write
 * (`tracker_links`): the sync engine's SQL (docs/trackers.md, "Pushing a project"). The
 * connections' own SQL, and the reads of links by the webhook and the reconcile, are in
 * `trackers.ts`; this file holds what only the sync writes, so neither passes 400 lines.
 */
import { and, desc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { Tx } from '../db.ts';
import { projectSyncs, trackerConnections, trackerLinks } from '../schema.ts';

export type ProjectSyncRow = typeof projectSyncs.$inferSelect;
export type NewProjectSyncRow = typeof projectSyncs.$inferInsert;
export type SyncLinkRow = typeof trackerLinks.$inferSelect;
export type NewSyncLinkRow = typeof trackerLinks.$inferInsert;

/** Records a new sync (`queued`). */
export async function insertSync(tx: Tx, row: NewProjectSyncRow): Promise<ProjectSyncRow> {
  const [created] = await tx.insert(projectSyncs).values(row).returning();
  return created!;
}

/** A project's sync by id (the project was checked as the caller's before). */
export async function findSync(
  tx: Tx,
  projectId: string,
  syncId: string,
): Promise<ProjectSyncRow | undefined> {
  const [row] = await tx
    .select()
    .from(projectSyncs)
    .where(and(eq(projectSyncs.id, syncId), eq(projectSyncs.projectId, projectId)));
  return row;
}

/** A sync by id alone (the worker). */
export async function findSyncById(tx: Tx, syncId: string): Promise<ProjectSyncRow | undefined> {
  const [row] = await tx.select().from(projectSyncs).where(eq(projectSyncs.id, syncId));
  return row;
}

/** A project's syncs, newest first, at most `limit`. */
export async function listSyncs(
  tx: Tx,
  projectId: string,
  limit: number,
): Promise<ProjectSyncRow[]> {
  return tx
    .select()
    .from(projectSyncs)
    .where(eq(projectSyncs.projectId, projectId))
    .orderBy(desc(projectSyncs.createdAt), desc(projectSyncs.id))
    .limit(limit);
}

/** Whether `attempt` (the token a claim gave) still holds the running sync. */
const holds = (attempt: string) =>
  and(eq(projectSyncs.status, 'running'), eq(projectSyncs.attempt, attempt));

/** Longer than a sync job may run (pg-boss's expiry, an hour) with room to spare. */
export const STALE_RUN_MS = 2 * 60 * 60 * 1000;

/**
 * Starts a sync under the attempt token `attempt`, unless another sync of the same project
 * and connection is running: two syncs at once could both create the same missing issue. The
 * connection's row is locked first, so two workers claiming at once see each other. A sync
 * already `running` (its worker died, or its job expired) is claimed again by its own retry,
 * under the new token: the earlier attempt's writes are refused from then on. Returns the
 * row, or undefined when it must wait, or `'ended'` when it already ended.
 */
export async function claimSync(
  tx: Tx,
  syncId: string,
  at: Date,
  attempt: string,
): Promise<ProjectSyncRow | 'ended' | undefined> {
  const sync = await findSyncById(tx, syncId);
  if (sync === undefined || sync.status === 'succeeded' || sync.status === 'failed') return 'ended';
  await tx
    .select({ id: trackerConnections.id })
    .from(trackerConnections)
    .where(eq(trackerConnections.id, sync.connectionId))
    .for('update');
  const [busy] = await tx
    .select({ id: projectSyncs.id, startedAt: projectSyncs.startedAt })
    .from(projectSyncs)
    .where(
      and(
        eq(projectSyncs.projectId, sync.projectId),
        eq(projectSyncs.connectionId, sync.connectionId),
        eq(projectSyncs.status, 'running'),
        ne(projectSyncs.id, syncId),
      ),
    )
    .limit(1);
  if (busy !== undefined) {
    // A sync `running` for longer than its job can live lost its worker on its last attempt
    // (pg-boss expires a job after an hour): it ends `failed` rather than block every later sync.
    const stale = busy.startedAt !== null && at.getTime() - busy.startedAt.getTime() > STALE_RUN_MS;
    if (!stale) return undefined;
    await tx
      .update(projectSyncs)
      .set({
        status: 'failed',
        finishedAt: at,
        error: {
          code: 'SYNC_ABANDONED',
          message: 'Its worker stopped before it ended; run the sync again.',
        },
      })
      .where(and(eq(projectSyncs.id, busy.id), eq(projectSyncs.status, 'running')));
  }
  const [row] = await tx
    .update(projectSyncs)
    .set({
      status: 'running',
      startedAt: sql`coalesce(${projectSyncs.startedAt}, ${at})`,
      attempt,
      error: null,
    })
    .where(eq(projectSyncs.id, syncId))
    .returning();
  return row;
}

/**
 * Whether `attempt` still holds the running sync, its row share-locked to the end of `tx`: a
 * write made in `tx` after a true answer cannot cross a claim that takes the sync over.
 */
export async function holdsSync(tx: Tx, syncId: string, attempt: string): Promise<boolean> {
  const rows = await tx
    .select({ id: projectSyncs.id })
    .from(projectSyncs)
    .where(and(eq(projectSyncs.id, syncId), holds(attempt)))
    .for('share');
  return rows.length > 0;
}

/**
 * Ends a sync with its items (and an error when it failed as a whole), only while `attempt`
 * holds it; `null` ends a sync no attempt claimed (still `queued`). False when refused: a
 * later claim took the sync over, or it already ended.
 */
export async function finishSync(
  tx: Tx,
  syncId: string,
  attempt: string | null,
  end: Pick<ProjectSyncRow, 'status' | 'items' | 'error' | 'finishedAt'>,
): Promise<boolean> {
  const rows = await tx
    .update(projectSyncs)
    .set({ ...end, attempt: null })
    .where(
      and(
        eq(projectSyncs.id, syncId),
        attempt === null ? eq(projectSyncs.status, 'queued') : holds(attempt),
      ),
    )
    .returning({ id: projectSyncs.id });
  return rows.length > 0;
}

/** Every link of a project on a connection. */
export async function listSyncLinks(
  tx: Tx,
  connectionId: string,
  projectId: string,
): Promise<SyncLinkRow[]> {
  return tx
    .select()
    .from(trackerLinks)
    .where(and(eq(trackerLinks.connectionId, connectionId), eq(trackerLinks.projectId, projectId)));
}

/** The stored link's state is older than the one being written (newest wins; none: take it). */
const incomingNewer = sql`(tracker_links.external_updated_at is null
  or excluded.external_updated_at > tracker_links.external_updated_at)`;
/** What a task's link shows (its `TaskLink`) changes: only then does its `updated_at` move. */
const shownChanges = sql`((tracker_links.external_id, tracker_links.external_key, tracker_links.url)
  is distinct from (excluded.external_id, excluded.external_key, excluded.url)
  or (${incomingNewer} and tracker_links.state is distinct from excluded.state))`;

/**
 * Writes a link (a create just succeeded, an issue was adopted by its marker, its words or
 * state were pushed): the one row per item and connection is updated. Its `state` and
 * `external_updated_at` are taken only when the written time is newer than the stored one: a
 * webhook's close delivered during the sync is not overwritten by the sync's older copy.
 */
export async function saveSyncLink(tx: Tx, row: NewSyncLinkRow): Promise<void> {
  const { externalId, externalKey, url, digest } = row;
  await tx
    .insert(trackerLinks)
    .values(row)
    .onConflictDoUpdate({
      target: [trackerLinks.connectionId, trackerLinks.projectId, trackerLinks.itemId],
      set: {
        externalId,
        externalKey,
        url,
        digest,
        state: sql`case when ${incomingNewer} then excluded.state else tracker_links.state end`,
        externalUpdatedAt: sql`case when ${incomingNewer} then excluded.external_updated_at
          else tracker_links.external_updated_at end`,
        updatedAt: sql`case when ${shownChanges} then excluded.updated_at
          else tracker_links.updated_at end`,
      },
    });
}

/** One link of a task to an issue, with its connection's provider (the task representation). */
export type TaskLinkRow = Pick<
  SyncLinkRow,
  'connectionId' | 'itemId' | 'externalId' | 'externalKey' | 'url' | 'state' | 'updatedAt'
> & { provider: 'github' | 'linear' | 'jira' };

/**
 * A project's task links on every connection, with each connection's provider, in one query
 * (of `taskIds` only, when given): by task, then the connections' age.
 */
export async function listTaskLinksOfProject(
  tx: Tx,
  projectId: string,
  taskIds?: readonly string[],
): Promise<TaskLinkRow[]> {
  return tx
    .select({
      connectionId: trackerLinks.connectionId,
      itemId: trackerLinks.itemId,
      externalId: trackerLinks.externalId,
      externalKey: trackerLinks.externalKey,
      url: trackerLinks.url,
      state: trackerLinks.state,
      updatedAt: trackerLinks.updatedAt,
      provider: trackerConnections.provider,
    })
    .from(trackerLinks)
    .innerJoin(trackerConnections, eq(trackerConnections.id, trackerLinks.connectionId))
    .where(
      and(
        eq(trackerLinks.projectId, projectId),
        taskIds === undefined
          ? sql`${trackerLinks.itemId} like 'T-%'`
          : inArray(trackerLinks.itemId, [...taskIds]),
      ),
    )
    .orderBy(trackerLinks.itemId, trackerConnections.createdAt, trackerConnections.id);
}
