import { and, asc, eq, gt, inArray, isNotNull, lte, sql } from 'drizzle-orm';
import type { Tx } from '../db.ts';
import {
  projectRevisions,
  projects,
  projectTaskHistory,
  projectTaskPlans,
  projectTasks,
} from '../schema.ts';
import type { Mode } from './accounts.ts';

export type TaskRow = typeof projectTasks.$inferSelect;
export type NewTaskRow = typeof projectTasks.$inferInsert;
export type TaskStatus = TaskRow['status'];
export type TaskHistoryRow = typeof projectTaskHistory.$inferSelect;
export type NewTaskHistoryRow = typeof projectTaskHistory.$inferInsert;

/** What the task routes need of a project: whose it is, its state, and its tasks' plan. */
export interface TaskProjectRow {
  status: 'in_progress' | 'completed' | 'failed';
  currentRevision: number;
  /** The revision whose plan the task rows reflect; null before they were materialised. */
  plannedRevision: number | null;
}

/**
 * The project, only if it belongs to this account and mode, with the revision its task rows
 * were read from (one query: a foreign project and a missing one are the same 404). With
 * `lock`, the project row is locked to the end of `tx` (see `recordTaskHistory`).
 *
 * @example
 * const project = await findTaskProject(db, id, { accountId, mode }, { lock: true });
 */
export async function findTaskProject(
  tx: Tx,
  projectId: string,
  owner: { accountId: string; mode: Mode },
  { lock = false }: { lock?: boolean } = {},
): Promise<TaskProjectRow | undefined> {
  const query = tx
    .select({
      status: projects.status,
      currentRevision: projects.currentRevision,
      plannedRevision: projectTaskPlans.revision,
    })
    .from(projects)
    .leftJoin(projectTaskPlans, eq(projectTaskPlans.projectId, projects.id))
    .where(
      and(
        eq(projects.id, projectId),
        eq(projects.accountId, owner.accountId),
        eq(projects.mode, owner.mode),
      ),
    );
  // Only the project's row: the plan's side of the outer join may be missing.
  const [row] = lock ? await query.for('update', { of: projects }) : await query;
  return row;
}

/** Whether a task of the project holds a lease that ended at or before `now`. */
export async function hasExpiredLease(tx: Tx, projectId: string, now: Date): Promise<boolean> {
  const [row] = await tx
    .select({ taskId: projectTasks.taskId })
    .from(projectTasks)
    .where(
      and(
        eq(projectTasks.projectId, projectId),
        eq(projectTasks.status, 'in_progress'),
        isNotNull(projectTasks.leaseExpiresAt),
        lte(projectTasks.leaseExpiresAt, now),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/** The revision a project's task rows reflect, read under the project row's lock. */
export async function lockedTaskPlan(tx: Tx, projectId: string): Promise<number | null> {
  await tx
    .select({ id: projects.id })
    .from(projects)
    .where(eq(projects.id, projectId))
    .for('update');
  const [row] = await tx
    .select({ revision: projectTaskPlans.revision })
    .from(projectTaskPlans)
    .where(eq(projectTaskPlans.projectId, projectId));
  return row?.revision ?? null;
}

/** Records that the task rows now reflect `revision`'s plan. */
export async function saveTaskPlan(
  tx: Tx,
  projectId: string,
  revision: number,
  at: Date,
): Promise<void> {
  await tx
    .insert(projectTaskPlans)
    .values({ projectId, revision, syncedAt: at })
    .onConflictDoUpdate({ target: projectTaskPlans.projectId, set: { revision, syncedAt: at } });
}

/** What a listing may be narrowed to. */
export interface TaskFilter {
  status?: TaskStatus | undefined;
  /** A requirement (`FR-3`, `NFR-1`) or criterion (`FR-3.1`) the task implements. */
  requirement?: string | undefined;
  assignee?: string | undefined;
}

/** A project's tasks in plan order, narrowed by `filter`. Uses `project_tasks_order_idx`. */
export async function listTaskRows(
  tx: Tx,
  projectId: string,
  filter: TaskFilter = {},
): Promise<TaskRow[]> {
  const conditions = [eq(projectTasks.projectId, projectId)];
  if (filter.status !== undefined) conditions.push(eq(projectTasks.status, filter.status));
  if (filter.assignee !== undefined) conditions.push(eq(projectTasks.assignee, filter.assignee));
  if (filter.requirement !== undefined) {
    conditions.push(
      sql`(${filter.requirement} = any(${projectTasks.requirements}) or ${filter.requirement} = any(${projectTasks.criteria}))`,
    );
  }
  return tx
    .select()
    .from(projectTasks)
    .where(and(...conditions))
    .orderBy(asc(projectTasks.position));
}

export async function findTaskRow(
  tx: Tx,
  projectId: string,
  taskId: string,
): Promise<TaskRow | undefined> {
  const [row] = await tx
    .select()
    .from(projectTasks)
    .where(and(eq(projectTasks.projectId, projectId), eq(projectTasks.taskId, taskId)));
  return row;
}

export async function insertTaskRows(tx: Tx, rows: NewTaskRow[]): Promise<void> {
  if (rows.length > 0) await tx.insert(projectTasks).values(rows);
}

/**
 * Changes a task only if it is still at `version` (the ETag its writer read), and moves the
 * version on; undefined when another change came first.
 */
export async function updateTaskRow(
  tx: Tx,
  projectId: string,
  taskId: string,
  version: number,
  values: Partial<Omit<NewTaskRow, 'projectId' | 'taskId' | 'version'>> & { updatedAt: Date },
): Promise<TaskRow | undefined> {
  const [row] = await tx
    .update(projectTasks)
    .set({ ...values, version: sql`${projectTasks.version} + 1` })
    .where(
      and(
        eq(projectTasks.projectId, projectId),
        eq(projectTasks.taskId, taskId),
        eq(projectTasks.version, version),
      ),
    )
    .returning();
  return row;
}

/**
 * Locks the first task in plan order that is `todo` and whose dependencies are all `done`
 * (or `obsolete`: work no longer needed holds nothing up). The caller holds the project row
 * locked (every task writer takes it first), so claims on one project run one at a time and
 * each sees the task the one before it took as `in_progress`: no `SKIP LOCKED`, which could
 * never skip a row under that lock. The lock lasts to the end of `tx`; the caller moves the
 * task on in it.
 *
 * @example
 * const next = await lockNextReadyTask(tx, projectId);
 */
export async function lockNextReadyTask(tx: Tx, projectId: string): Promise<TaskRow | undefined> {
  const [row] = await tx
    .select()
    .from(projectTasks)
    .where(
      and(
        eq(projectTasks.projectId, projectId),
        eq(projectTasks.status, 'todo'),
        sql`not exists (select 1 from project_tasks dep
          where dep.project_id = ${projectTasks.projectId}
            and dep.task_id = any(${projectTasks.dependsOn})
            and dep.status not in ('done', 'obsolete'))`,
      ),
    )
    .orderBy(asc(projectTasks.position))
    .limit(1)
    .for('update');
  return row;
}

/**
 * Returns to `todo` every task of the project whose lease ended at or before `now`, moving
 * their versions on; the tasks as they were (with their agent) for the history. The caller
 * holds the project row locked, as every task writer does.
 */
export async function expireLeases(
  tx: Tx,
  projectId: string,
  now: Date,
): Promise<
  { taskId: string; agent: string | null; assignee: string | null; expiredAt: Date | null }[]
> {
  const expired = await tx
    .select({
      taskId: projectTasks.taskId,
      agent: projectTasks.leaseAgent,
      assignee: projectTasks.assignee,
      expiredAt: projectTasks.leaseExpiresAt,
    })
    .from(projectTasks)
    .where(
      and(
        eq(projectTasks.projectId, projectId),
        eq(projectTasks.status, 'in_progress'),
        isNotNull(projectTasks.leaseExpiresAt),
        lte(projectTasks.leaseExpiresAt, now),
      ),
    )
    .for('update');
  if (expired.length === 0) return [];
  await tx
    .update(projectTasks)
    .set({
      status: 'todo',
      // The agent's claim made it the assignee; the task goes back to the pool unassigned.
      assignee: sql`case when ${projectTasks.assignee} = ${projectTasks.leaseAgent} then null else ${projectTasks.assignee} end`,
      leaseAgent: null,
      leaseExpiresAt: null,
      version: sql`${projectTasks.version} + 1`,
      updatedAt: now,
    })
    .where(
      and(
        eq(projectTasks.projectId, projectId),
        inArray(
          projectTasks.taskId,
          expired.map((task) => task.taskId),
        ),
      ),
    );
  return expired;
}

/** The task `agent` holds a lease on in the project, if any (one at a time: see `next`). */
export async function findLeasedTask(
  tx: Tx,
  projectId: string,
  agent: string,
): Promise<TaskRow | undefined> {
  const [row] = await tx
    .select()
    .from(projectTasks)
    .where(
      and(
        eq(projectTasks.projectId, projectId),
        eq(projectTasks.status, 'in_progress'),
        eq(projectTasks.leaseAgent, agent),
      ),
    )
    .orderBy(asc(projectTasks.position))
    .limit(1)
    .for('update');
  return row;
}

export async function insertTaskHistory(tx: Tx, entries: NewTaskHistoryRow[]): Promise<void> {
  if (entries.length > 0) await tx.insert(projectTaskHistory).values(entries);
}

/** The history of tasks, oldest first: of one task, or of the ones named. */
export async function listTaskHistory(
  tx: Tx,
  projectId: string,
  taskIds: readonly string[],
): Promise<TaskHistoryRow[]> {
  if (taskIds.length === 0) return [];
  return tx
    .select()
    .from(projectTaskHistory)
    .where(
      and(
        eq(projectTaskHistory.projectId, projectId),
        inArray(projectTaskHistory.taskId, [...taskIds]),
      ),
    )
    .orderBy(asc(projectTaskHistory.id));
}

/**
 * The requirement deltas of the project's completed revisions after `after` up to `upTo`,
 * oldest first: what happened to the requirements since the task rows were last read.
 * `deltas` is the stored JSON (`RequirementDelta[]`, models/deltas.ts), null before analysis.
 */
export async function completedRevisionDeltas(
  tx: Tx,
  projectId: string,
  after: number,
  upTo: number,
): Promise<{ revision: number; deltas: unknown }[]> {
  return tx
    .select({ revision: projectRevisions.revision, deltas: projectRevisions.deltas })
    .from(projectRevisions)
    .where(
      and(
        eq(projectRevisions.projectId, projectId),
        eq(projectRevisions.status, 'completed'),
        gt(projectRevisions.revision, after),
        lte(projectRevisions.revision, upTo),
      ),
    )
    .orderBy(asc(projectRevisions.revision));
}

/** Records what bringing the tasks up to a revision's plan did to them (its `tasks` on reads). */
export async function saveRevisionTaskChanges(
  tx: Tx,
  projectId: string,
  revision: number,
  changes: { added: string[]; reopened: string[]; obsoleted: string[] },
): Promise<void> {
  await tx
    .update(projectRevisions)
    .set({ taskChanges: changes })
    .where(and(eq(projectRevisions.projectId, projectId), eq(projectRevisions.revision, revision)));
}

/**
 * Tasks done and tasks that count (all but obsolete) per project, for the projects among
 * `projectIds` whose tasks were read (one with a plan record; a plan without tasks is 0 of 0).
 *
 * @example
 * (await taskCounts(db, [id])).get(id); // { done: 3, total: 11 }
 */
export async function taskCounts(
  tx: Tx,
  projectIds: readonly string[],
): Promise<Map<string, { done: number; total: number }>> {
  if (projectIds.length === 0) return new Map();
  const rows = await tx
    .select({
      projectId: projectTaskPlans.projectId,
      done: sql<number>`count(${projectTasks.taskId}) filter (where ${projectTasks.status} = 'done')`,
      total: sql<number>`count(${projectTasks.taskId}) filter (where ${projectTasks.status} <> 'obsolete')`,
    })
    .from(projectTaskPlans)
    .leftJoin(projectTasks, eq(projectTasks.projectId, projectTaskPlans.projectId))
    .where(inArray(projectTaskPlans.projectId, [...projectIds]))
    .groupBy(projectTaskPlans.projectId);
  return new Map(
    rows.map((row) => [row.projectId, { done: Number(row.done), total: Number(row.total) }]),
  );
}

/**
 * When a task's status or assignee last changed (its newest history entry), or undefined when
 * it never has: what a tracker's change is weighed against (a lease renewal is no change).
 */
export async function lastTaskChangeAt(
  tx: Tx,
  projectId: string,
  taskId: string,
): Promise<Date | undefined> {
  const [row] = await tx
    .select({ at: sql<Date | string | null>`max(${projectTaskHistory.at})` })
    .from(projectTaskHistory)
    .where(and(eq(projectTaskHistory.projectId, projectId), eq(projectTaskHistory.taskId, taskId)));
  return row?.at == null ? undefined : new Date(row.at);
}
