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

/** Longer than a sync job may run (pg-boss's expiry, an hour) with room to spare. */
export const STALE_RUN_MS = 2 * 60 * 60 * 1000;

/**
 * Starts a sync unless another sync of the same project and connection is running: two syncs
 * at once could both create the same missing issue. The connection's row is locked first,
 * so two workers claiming at once see each other. A sync already `running` (its worker died)
 * is claimed again by its own retry. Returns the row, or undefined when it must wait, or
 * `'ended'` when it already ended.
 */
export async function claimSync(
  tx: Tx,
  syncId: string,
  at: Date,
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
    .set({ status: 'running', startedAt: sql`coalesce(${projectSyncs.startedAt}, ${at})` })
    .where(eq(projectSyncs.id, syncId))
    .returning();
  return row;
}

/** Ends a sync with its items (and an error when it failed as a whole). */
export async function finishSync(
  tx: Tx,
  syncId: string,
  end: Pick<ProjectSyncRow, 'status' | 'items' | 'error' | 'finishedAt'>,
): Promise<void> {
  await tx.update(projectSyncs).set(end).where(eq(projectSyncs.id, syncId));
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

/**
 * Writes a link (a create just succeeded, or an issue was adopted by its marker): the one
 * row per item and connection is replaced.
 */
export async function saveSyncLink(tx: Tx, row: NewSyncLinkRow): Promise<void> {
  const { connectionId: _c, projectId: _p, itemId: _i, ...rest } = row;
  await tx
    .insert(trackerLinks)
    .values(row)
    .onConflictDoUpdate({
      target: [trackerLinks.connectionId, trackerLinks.projectId, trackerLinks.itemId],
      set: rest,
    });
}

/** A project's task links on every connection, with each connection's provider. */
export async function listTaskLinksOfProject(
  tx: Tx,
  projectId: string,
  taskIds?: readonly string[],
): Promise<
  (Pick<SyncLinkRow, 'connectionId' | 'itemId' | 'externalKey' | 'url'> & {
    provider: string;
  })[]
> {
  return tx
    .select({
      connectionId: trackerLinks.connectionId,
      itemId: trackerLinks.itemId,
      externalKey: trackerLinks.externalKey,
      url: trackerLinks.url,
      provider: trackerConnections.provider,
    })
    .from(trackerLinks)
    .innerJoin(trackerConnections, eq(trackerConnections.id, trackerLinks.connectionId))
    .where(
      and(
        eq(trackerLinks.projectId, projectId),
        taskIds === undefined ? sql`true` : inArray(trackerLinks.itemId, [...taskIds]),
      ),
    )
    .orderBy(trackerLinks.itemId, trackerConnections.createdAt);
}
