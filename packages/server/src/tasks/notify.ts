/**
 * A task's change of status told to whoever follows the project (issue 30, item 5): a
 * `task.updated` event in the project's stream and a `task.updated` webhook, both in the
 * transaction that makes the change, so they exist exactly when it commits.
 */
import type { components } from '@pgs/contract';
import { recordEvents } from '../events/hub.ts';
import type { Tx } from '../storage/db.ts';
import type { Mode } from '../storage/sql/accounts.ts';
import { insertTaskHistory, listTaskRows, type NewTaskHistoryRow } from '../storage/sql/tasks.ts';
import { projectProgress } from './progress.ts';

/** The `data` of a `task.updated` event, the same in the stream and the webhook. */
export type TaskUpdatedData = components['schemas']['TaskUpdatedEventData'];

/** A task's change of status, as the webhook queue is told of it. */
export interface TaskUpdatedEvent {
  projectId: string;
  accountId: string;
  mode: Mode;
  at: Date;
  data: TaskUpdatedData;
}

/** Told, inside the transaction that makes it, of each task's change of status (webhooks). */
export interface TaskDispatcher {
  taskUpdated?(tx: Tx, event: TaskUpdatedEvent): Promise<void>;
  /**
   * Told of a batch of changes at once, in a fixed number of statements (preferred over
   * `taskUpdated` when given: the caller holds the project's lock while a revision may move
   * a whole plan).
   */
  tasksUpdated?(tx: Tx, events: readonly TaskUpdatedEvent[]): Promise<void>;
}

/** Whose project the tasks are, and who hears of their changes. */
export interface TaskAudience {
  accountId: string;
  mode: Mode;
  dispatcher?: TaskDispatcher | undefined;
  /** The revision whose completion makes the changes, if one does. */
  revision?: number | undefined;
}

/**
 * Writes history entries and tells of each change of status among them: a task that enters
 * the plan (no `from`) or stays where it is (a note, an assignee) is no `task.updated`. Each
 * event carries the project's delivery after the whole batch. The caller holds the project
 * row locked before any task row (event numbers come from it; the other order could deadlock
 * with a revision completing).
 *
 * @example
 * await recordTaskHistory(tx, projectId, [entry], { accountId, mode, dispatcher });
 */
export async function recordTaskHistory(
  tx: Tx,
  projectId: string,
  entries: readonly NewTaskHistoryRow[],
  audience?: TaskAudience,
): Promise<void> {
  await insertTaskHistory(tx, [...entries]);
  const moves = entries.filter((e) => e.fromStatus != null && e.fromStatus !== e.toStatus);
  if (moves.length === 0) return;
  const progress = projectProgress(await listTaskRows(tx, projectId));
  // A fixed number of statements however many tasks moved: the project row is locked.
  const events = moves.map((entry) => {
    const data: TaskUpdatedData = {
      projectId,
      taskId: entry.taskId,
      from: entry.fromStatus!,
      to: entry.toStatus,
      assignee: entry.assignee ?? null,
      agent: entry.agent ?? null,
      keyId: entry.keyId ?? null,
      note: entry.note ?? null,
      at: entry.at.toISOString(),
      ...(audience?.revision === undefined ? {} : { revision: audience.revision }),
      progress,
    };
    return data;
  });
  await recordEvents(tx, projectId, 'task.updated', events);
  const dispatcher = audience?.dispatcher;
  if (audience === undefined || dispatcher === undefined) return;
  const told = events.map((data, n) => ({
    projectId,
    accountId: audience.accountId,
    mode: audience.mode,
    at: moves[n]!.at,
    data,
  }));
  if (dispatcher.tasksUpdated !== undefined) await dispatcher.tasksUpdated(tx, told);
  else for (const event of told) await dispatcher.taskUpdated?.(tx, event);
}
