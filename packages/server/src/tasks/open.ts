/**
 * Opening a project for task work (docs/tasks.md): the caller's completed project, its task
 * rows brought up to date in the caller's transaction before anything reads or writes them:
 * read from the plan if they never were (a project completed before tasks existed, or a
 * revision completed since), and expired leases returned to `todo` by the injected clock.
 */
import { DomainError } from '../errors.ts';
import type { Tx } from '../storage/db.ts';
import type { Mode } from '../storage/sql/accounts.ts';
import { listDocuments } from '../storage/sql/projects.ts';
import { expireLeases, findTaskProject, hasExpiredLease } from '../storage/sql/tasks.ts';
import { recordTaskHistory, type TaskAudience, type TaskDispatcher } from './notify.ts';
import { syncTasks } from './plan.ts';

/** Who asks: an API key of an account in one mode. */
export interface TaskCaller {
  keyId: string;
  accountId: string;
  mode: Mode;
}

/** A project open for task work: its canonical id and the revision its tasks reflect. */
export interface OpenProject {
  id: string;
  revision: number;
}

/**
 * The caller's completed project, its tasks brought up to date: its id in canonical form and
 * the revision its tasks now reflect. 404 for a project the key cannot see, 409 before it is
 * completed. With `write`, the project row stays locked to the end of `tx`.
 *
 * @example
 * const { id } = await openProject(tx, caller, projectId, new Date(now), dispatcher, { write: true });
 */
export async function openProject(
  tx: Tx,
  caller: TaskCaller,
  projectId: string,
  at: Date,
  dispatcher: TaskDispatcher | undefined,
  { write = false }: { write?: boolean } = {},
): Promise<OpenProject> {
  const id = projectId.toLowerCase();
  // A change of status records an event, numbered on the project row: whoever may change
  // a task locks that row first, then task rows, as a revision completing does (the
  // other order could deadlock with it). A read locks it only when it has work to do.
  let project = await findTaskProject(tx, id, caller, { lock: write });
  let locked = write;
  if (
    !locked &&
    project?.status === 'completed' &&
    (project.plannedRevision !== project.currentRevision || (await hasExpiredLease(tx, id, at)))
  ) {
    project = await findTaskProject(tx, id, caller, { lock: true });
    locked = true;
  }
  if (project === undefined) {
    throw new DomainError('RESOURCE_NOT_FOUND', 'No project with this identifier exists.', {
      resource_type: 'project',
      resource_id: projectId,
    });
  }
  if (project.status !== 'completed') {
    throw new DomainError(
      'PROJECT_NOT_COMPLETED',
      project.status === 'in_progress'
        ? 'The project is still being generated; its tasks exist once it is completed.'
        : 'The project failed, so it has no plan to work through.',
      { resource_type: 'project', resource_id: projectId, status: project.status },
    );
  }
  // Only under the project row's lock does anything here write a task row: a read that
  // found nothing to do returns without touching one, so no writer ever locks a task row
  // before its project's (a lease that expires between the check and now waits for the
  // next request; a writer always takes the lock, and so expires it).
  if (!locked) return { id, revision: project.currentRevision };
  const audience: TaskAudience = { ...caller, dispatcher };
  if (project.plannedRevision !== project.currentRevision) {
    const documents = await listDocuments(tx, id, project.currentRevision);
    await syncTasks(tx, id, project.currentRevision, documents, at, audience);
  }
  const expired = await expireLeases(tx, id, at);
  await recordTaskHistory(
    tx,
    id,
    expired.map((task) => ({
      projectId: id,
      taskId: task.taskId,
      at,
      keyId: null,
      agent: task.agent,
      fromStatus: 'in_progress',
      toStatus: 'todo',
      assignee: task.assignee === task.agent ? null : task.assignee,
      note: `The lease of ${task.agent} expired at ${task.expiredAt?.toISOString()}; the task is back in todo.`,
    })),
    audience,
  );
  return { id, revision: project.currentRevision };
}
