/**
 * Who owns a project and how its life cycle reaches the queue: the types projects.ts and
 * revisions.ts share (so neither imports the other for them).
 */
import type { Tx } from '../storage/db.ts';
import type { Mode } from '../storage/sql/accounts.ts';
import type { TaskDispatcher } from '../tasks/notify.ts';

/**
 * Whose project: a caller's account and mode.
 *
 * @example
 * const owner: ProjectOwner = { accountId: principal.accountId, mode: principal.mode };
 */
export interface ProjectOwner {
  accountId: string;
  mode: Mode;
}

/** Puts a project's generation on the queue, inside the creating transaction. */
export interface Dispatcher extends TaskDispatcher {
  enqueue(projectId: string, tx: Tx): Promise<void>;
  /**
   * Told, inside the transaction that records it, of a project's final event (webhook
   * deliveries are enqueued there, so they exist exactly when the event commits).
   */
  projectEnded?(tx: Tx, event: ProjectEnded): Promise<void>;
  /** Puts a revision's run on the queue, inside the creating transaction. */
  enqueueRevision?(projectId: string, revision: number, tx: Tx): Promise<void>;
}

/** A project's final event, as {@link Dispatcher.projectEnded} is told of it. */
export interface ProjectEnded {
  projectId: string;
  accountId: string;
  mode: Mode;
  type: 'project.completed' | 'project.failed' | 'project.revised';
  status: 'completed' | 'failed';
  at: Date;
  /** `project.revised`: the revision that completed. */
  revision?: number;
}
