/**
 * Bringing the tasks up to a plan in the commit that completes a project or a revision
 * (docs/tasks.md): in a savepoint, so a plan that cannot be read never fails the completion.
 * A failure is logged, and the next task request brings the tasks up to the plan (the
 * project's task plan record still names the older revision, so `openProject` syncs again).
 */
import type { Tx } from '../storage/db.ts';
import type { TaskAudience } from './notify.ts';
import { type PlanDocument, syncTasks } from './plan.ts';

/** Where a failed sync is told: the process's logger (pino), or nothing. */
export interface TaskSyncLog {
  warn(obj: object, msg: string): void;
}

/** A log that says nothing: the default where no logger is given (unit tests). */
export const SILENT_TASK_LOG: TaskSyncLog = { warn() {} };

/**
 * `syncTasks` in a savepoint of `tx`; a failure is logged with the project id and revision
 * and the error's class and code (never its message, which may quote a user's plan), and
 * swallowed.
 *
 * @example
 * await syncAtCompletion(tx, projectId, 2, documents, new Date(now), audience, log);
 */
export async function syncAtCompletion(
  tx: Tx,
  projectId: string,
  revision: number,
  documents: readonly PlanDocument[],
  at: Date,
  audience: TaskAudience | undefined,
  log: TaskSyncLog,
): Promise<void> {
  try {
    await tx.transaction((plan) => syncTasks(plan, projectId, revision, documents, at, audience));
  } catch (error) {
    const { name, code } = error as { name?: unknown; code?: unknown };
    log.warn(
      {
        projectId,
        revision,
        error: { name: String(name ?? 'Error'), ...(code === undefined ? {} : { code }) },
      },
      'tasks not brought up to the plan at completion; the next task request retries',
    );
  }
}
