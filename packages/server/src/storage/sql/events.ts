import { and, asc, eq, gt, sql } from 'drizzle-orm';
import type { Tx } from '../db.ts';
import { projectEvents, projects } from '../schema.ts';

export type ProjectEventRow = typeof projectEvents.$inferSelect;

/** The project is no longer in progress (cancelled, failed, deleted): nothing more is recorded for its run. */
export class ProjectEndedError extends Error {
  override name = 'ProjectEndedError';
}

/**
 * Appends an event to a project's log. The `seq` is taken from the project row under its
 * lock (held to the end of `tx`), so events commit in `seq` order. With `whileInProgress`
 * it throws {@link ProjectEndedError} (rolling `tx` back) when the project has ended: a
 * document finished after a cancel is not stored. `whileRevising: n` does the same for
 * revision n: it throws once that revision is no longer the one running.
 */
export async function appendProjectEvent(
  tx: Tx,
  projectId: string,
  type: string,
  data: unknown,
  {
    whileInProgress = false,
    whileRevising,
  }: { whileInProgress?: boolean; whileRevising?: number | undefined } = {},
): Promise<number> {
  const [row] = await tx
    .update(projects)
    .set({ eventSeq: sql`${projects.eventSeq} + 1` })
    .where(
      and(
        eq(projects.id, projectId),
        whileInProgress ? eq(projects.status, 'in_progress') : undefined,
        whileRevising !== undefined ? eq(projects.revising, whileRevising) : undefined,
      ),
    )
    .returning({ seq: projects.eventSeq });
  if (row === undefined) {
    throw new ProjectEndedError(`project ${projectId} is not in progress; ${type} not recorded`);
  }
  await tx.insert(projectEvents).values({ projectId, seq: row.seq, type, data });
  return row.seq;
}

/**
 * Appends events of one type to a project's log in two statements, whatever their number:
 * one moves the project's `seq` on by their count (under its row lock, as
 * {@link appendProjectEvent}), one inserts them numbered in order. Returns their `seq`s.
 *
 * @example
 * await appendProjectEvents(tx, projectId, 'task.updated', [a, b]); // [41, 42]
 */
export async function appendProjectEvents(
  tx: Tx,
  projectId: string,
  type: string,
  data: readonly unknown[],
): Promise<number[]> {
  if (data.length === 0) return [];
  const [row] = await tx
    .update(projects)
    .set({ eventSeq: sql`${projects.eventSeq} + ${data.length}` })
    .where(eq(projects.id, projectId))
    .returning({ seq: projects.eventSeq });
  if (row === undefined)
    throw new ProjectEndedError(`project ${projectId} is gone; ${type} not recorded`);
  const first = row.seq - data.length + 1;
  const rows = data.map((item, i) => ({ projectId, seq: first + i, type, data: item }));
  await tx.insert(projectEvents).values(rows);
  return rows.map((r) => r.seq);
}

/** A project's events after `afterSeq`, in order. */
export async function listProjectEvents(
  tx: Tx,
  projectId: string,
  afterSeq = 0,
): Promise<ProjectEventRow[]> {
  return tx
    .select()
    .from(projectEvents)
    .where(and(eq(projectEvents.projectId, projectId), gt(projectEvents.seq, afterSeq)))
    .orderBy(asc(projectEvents.seq));
}
