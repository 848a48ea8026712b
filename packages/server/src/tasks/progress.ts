/**
 * Delivery of a plan (issue 30, item 5; docs/tasks.md): per requirement, its tasks done of
 * its tasks and the criteria whose tasks are all done; per project, the share delivered.
 * Pure: task rows (as much of them as delivery needs) and the requirements to report in.
 */
import type { components } from '@pgs/contract';
import type { TaskStatus } from '../storage/sql/tasks.ts';

export type TraceProgress = components['schemas']['TraceProgress'];
export type ProjectProgress = components['schemas']['ProjectProgress'];
export type RequirementProgress = components['schemas']['RequirementProgress'];

/** What delivery reads of a task. */
export interface DeliveredTask {
  status: TaskStatus;
  requirements: readonly string[];
  criteria: readonly string[];
}

/** A requirement to report on, with the criteria its document defines. */
export interface RequirementCriteria {
  id: string;
  criteria: readonly string[];
}

/** `done / total` to three decimals; 0 when nothing counts. */
export const shareOf = (done: number, total: number) =>
  total === 0 ? 0 : Math.round((done / total) * 1000) / 1000;

/**
 * The project-wide figures: obsolete tasks count nowhere (a revision retired their work).
 *
 * @example
 * projectProgress([{ status: 'done', … }, { status: 'todo', … }]); // { tasks: { done: 1, total: 2 }, share: 0.5 }
 */
export function projectProgress(tasks: readonly Pick<DeliveredTask, 'status'>[]): ProjectProgress {
  const counted = tasks.filter((task) => task.status !== 'obsolete');
  const done = counted.filter((task) => task.status === 'done').length;
  return { tasks: { done, total: counted.length }, share: shareOf(done, counted.length) };
}

/**
 * Delivery per requirement and for the project. A criterion is delivered when at least one
 * task implements it and every task implementing it is done; a requirement when it has tasks
 * and all are done. `requirements` come first, in their order (the trace's coverage, so a
 * requirement no task serves shows 0 of 0); then each other requirement a task names (the
 * NFRs), in plan order.
 *
 * @example
 * traceProgress(rows, [{ id: 'FR-1', criteria: ['FR-1.1', 'FR-1.2'] }]).requirements[0];
 * // { id: 'FR-1', tasks: { done: 1, total: 2 }, criteria: { delivered: ['FR-1.1'], total: 2 }, delivered: false }
 */
export function traceProgress(
  tasks: readonly DeliveredTask[],
  requirements: readonly RequirementCriteria[],
): TraceProgress {
  const counted = tasks.filter((task) => task.status !== 'obsolete');
  const known = new Map(requirements.map((r) => [r.id, r.criteria] as const));
  for (const task of counted) {
    for (const id of task.requirements) {
      if (!known.has(id)) known.set(id, criteriaNamed(counted, id));
    }
  }
  const delivered = (criterion: string) => {
    const implementing = counted.filter((task) => task.criteria.includes(criterion));
    return implementing.length > 0 && implementing.every((task) => task.status === 'done');
  };
  const rows: RequirementProgress[] = [...known].map(([id, criteria]) => {
    const serving = counted.filter((task) => task.requirements.includes(id));
    const done = serving.filter((task) => task.status === 'done').length;
    return {
      id,
      tasks: { done, total: serving.length },
      criteria: { delivered: criteria.filter(delivered), total: criteria.length },
      delivered: serving.length > 0 && done === serving.length,
    };
  });
  const criteria = [...new Set([...known.values()].flat())];
  return {
    ...projectProgress(counted),
    criteria: { delivered: criteria.filter(delivered).length, total: criteria.length },
    requirements: rows,
  };
}

/** The criteria of `requirement` the tasks name, for one the trace did not list. */
function criteriaNamed(tasks: readonly DeliveredTask[], requirement: string): string[] {
  const prefix = `${requirement}.`;
  return [...new Set(tasks.flatMap((task) => task.criteria.filter((id) => id.startsWith(prefix))))];
}
