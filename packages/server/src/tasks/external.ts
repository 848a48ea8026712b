/**
 * A task moved by someone outside PGS: an issue tracker whose linked issue was closed or
 * reopened (docs/trackers.md). The tracker speaks of open and closed, PGS of statuses:
 * closed makes the task `done`, reopened makes a done task `todo`; anything else (an open
 * issue of work in hand, a closed issue of an obsolete task) changes nothing.
 */

import type { Tx } from '../storage/db.ts';
import {
  findTaskRow,
  lastTaskChangeAt,
  type TaskRow,
  type TaskStatus,
  updateTaskRow,
} from '../storage/sql/tasks.ts';
import { recordTaskHistory, type TaskAudience } from './notify.ts';
import { TASK_TRANSITIONS } from './transitions.ts';

/** What a tracker says of a task's issue. */
export interface ExternalChange {
  state: 'open' | 'closed';
  /** Who made the change, as history shows it: the tracker (`github`, `linear`, `jira`). */
  agent: string;
  /** Names the issue: `Closed on github: owner/repo#12`. */
  note: string;
  /**
   * When given, a task moved in PGS at or after this time keeps its status: the newest change
   * wins (the tracker's time of its change, from a delivery or the reconcile's read).
   */
  notAfterTaskChange?: Date | undefined;
}

/** A move a tracker made of a task. */
export interface ExternalMove {
  taskId: string;
  from: TaskStatus;
  to: TaskStatus;
}

/** The status a tracker's state asks of a task in `from`, if it asks a move at all. */
export function statusFor(state: 'open' | 'closed', from: TaskStatus): TaskStatus | undefined {
  const to: TaskStatus | undefined =
    state === 'closed'
      ? from === 'done'
        ? undefined
        : 'done'
      : from === 'done'
        ? 'todo'
        : undefined;
  return to !== undefined && TASK_TRANSITIONS[from].includes(to) ? to : undefined;
}

/**
 * Applies a tracker's change to a task of a project whose row the caller holds locked (as
 * every task writer does, before task rows), with a history entry by the tracker, the
 * `task.updated` event and webhook. Undefined when nothing moved.
 *
 * @example
 * await applyExternalChange(tx, projectId, 'T-3', change, at, audience);
 */
export async function applyExternalChange(
  tx: Tx,
  projectId: string,
  taskId: string,
  change: ExternalChange,
  at: Date,
  audience: TaskAudience,
): Promise<ExternalMove | undefined> {
  const row: TaskRow | undefined = await findTaskRow(tx, projectId, taskId);
  if (row === undefined) return undefined;
  const to = statusFor(change.state, row.status);
  if (to === undefined) return undefined;
  // Weighed against the task's last move (its newest history entry), not its updatedAt,
  // which a lease renewal moves too: a close on the tracker while an agent renews still lands.
  if (change.notAfterTaskChange !== undefined) {
    const moved = await lastTaskChangeAt(tx, projectId, taskId);
    if (moved !== undefined && moved >= change.notAfterTaskChange) return undefined;
  }
  // Leaving in_progress ends the lease, as an update does.
  const updated = await updateTaskRow(tx, projectId, taskId, row.version, {
    status: to,
    leaseAgent: null,
    leaseExpiresAt: null,
    updatedAt: at,
  });
  if (updated === undefined) return undefined;
  await recordTaskHistory(
    tx,
    projectId,
    [
      {
        projectId,
        taskId,
        at,
        keyId: null,
        agent: change.agent,
        fromStatus: row.status,
        toStatus: to,
        assignee: row.assignee,
        note: change.note,
      },
    ],
    audience,
  );
  return { taskId, from: row.status, to };
}
