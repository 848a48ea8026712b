import { DomainError } from '../errors.ts';
import type { TaskStatus } from '../storage/sql/tasks.ts';

/**
 * The moves a task's status may make (docs/tasks.md). Work in hand (`todo`, `in_progress`,
 * `blocked`) may go anywhere but back to where it is; finished work is reopened to `todo`
 * before it is worked again, so the reopening is a visible step of its history, and may be
 * retired; a retired task is revived to `todo`. Staying where it is is always allowed (a note,
 * an assignee), so a retried update is harmless.
 */
export const TASK_TRANSITIONS: Readonly<Record<TaskStatus, readonly TaskStatus[]>> = {
  todo: ['in_progress', 'blocked', 'done', 'obsolete'],
  in_progress: ['todo', 'blocked', 'done', 'obsolete'],
  blocked: ['todo', 'in_progress', 'done', 'obsolete'],
  done: ['todo', 'obsolete'],
  obsolete: ['todo'],
};

/**
 * Throws TASK_TRANSITION_NOT_ALLOWED, naming the statuses allowed, unless `from` may move to `to`.
 *
 * @example
 * checkTransition('T-3', 'done', 'in_progress'); // throws: allowed todo, obsolete
 */
export function checkTransition(taskId: string, from: TaskStatus, to: TaskStatus): void {
  if (from === to || TASK_TRANSITIONS[from].includes(to)) return;
  const allowed = TASK_TRANSITIONS[from];
  throw new DomainError(
    'TASK_TRANSITION_NOT_ALLOWED',
    `Task ${taskId} cannot move from ${from} to ${to}; it may move to ${allowed.join(' or ')}.`,
    { resource_type: 'task', resource_id: taskId, from, to, allowed: [...allowed] },
  );
}
