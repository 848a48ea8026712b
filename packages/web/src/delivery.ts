import type { Task, Trace, TraceCoverage } from '@pgs/client';

// Delivery of the plan as the coverage matrix and the board show it: per requirement, its
// tasks done of its tasks and the criteria whose tasks are all done (docs/tasks.md).

/** The trace's delivery figures (`progress`, on the current revision's trace). */
export type TraceProgress = NonNullable<Trace['progress']>;
/** One requirement's delivery, as the trace's `progress` gives it. */
export type RequirementDelivery = TraceProgress['requirements'][number];

/**
 * Delivery of the coverage's requirements computed from the task list, as the server
 * computes the trace's `progress`: obsolete tasks count nowhere; a requirement's tasks are
 * those naming it; a criterion is delivered when it has tasks and all are done; a
 * requirement when it has tasks and all are done.
 *
 * @example
 * deliveryFromTasks(trace.coverage, tasks)[0]; // { id: 'FR-1', tasks: { done: 1, total: 2 }, … }
 */
export function deliveryFromTasks(
  coverage: TraceCoverage,
  tasks: readonly Pick<Task, 'status' | 'requirements' | 'criteria'>[],
): RequirementDelivery[] {
  const counted = tasks.filter((task) => task.status !== 'obsolete');
  const delivered = (criterion: string) => {
    const implementing = counted.filter((task) => task.criteria.includes(criterion));
    return implementing.length > 0 && implementing.every((task) => task.status === 'done');
  };
  return coverage.requirements.map((requirement) => {
    const serving = counted.filter((task) => task.requirements.includes(requirement.id));
    const done = serving.filter((task) => task.status === 'done').length;
    return {
      id: requirement.id,
      tasks: { done, total: serving.length },
      criteria: {
        delivered: requirement.criteria.filter(delivered),
        total: requirement.criteria.length,
      },
      delivered: serving.length > 0 && done === serving.length,
    };
  });
}

/**
 * Each requirement's delivery by its ID: the trace's `progress` when the server sent it
 * (the current revision's trace), else computed from `tasks`; undefined when neither is
 * there (a pinned revision, or the tasks not read yet).
 *
 * @example
 * deliveryByRequirement(trace, tasks)?.get('FR-2')?.tasks; // { done: 1, total: 3 }
 */
export function deliveryByRequirement(
  trace: Trace,
  tasks: readonly Task[] | undefined,
): Map<string, RequirementDelivery> | undefined {
  const rows =
    trace.progress?.requirements ??
    (tasks === undefined ? undefined : deliveryFromTasks(trace.coverage, tasks));
  return rows && new Map(rows.map((row) => [row.id, row]));
}

/** What a Delivery cell reads: its main line, the criteria line, and whether it is complete. */
export interface DeliveryCell {
  text: string;
  criteria: string | undefined;
  delivered: boolean;
}

/**
 * A requirement's Delivery cell.
 *
 * @example
 * deliveryCell({ id: 'FR-1', tasks: { done: 1, total: 3 }, criteria: { delivered: ['FR-1.1'], total: 2 }, delivered: false });
 * // { text: '1 of 3 tasks done', criteria: '1 of 2 criteria delivered', delivered: false }
 */
export function deliveryCell(row: RequirementDelivery | undefined): DeliveryCell {
  if (row === undefined || row.tasks.total === 0) {
    return { text: 'No tasks', criteria: undefined, delivered: false };
  }
  const { done, total } = row.tasks;
  const noun = total === 1 ? 'task' : 'tasks';
  const criteria =
    row.criteria.total === 0
      ? undefined
      : `${row.criteria.delivered.length} of ${row.criteria.total} ${row.criteria.total === 1 ? 'criterion' : 'criteria'} delivered`;
  return row.delivered
    ? { text: `Delivered: ${done} of ${total} ${noun} done`, criteria, delivered: true }
    : { text: `${done} of ${total} ${noun} done`, criteria, delivered: false };
}

/**
 * The project's delivery in one sentence, from its tasks (obsolete ones count nowhere).
 *
 * @example
 * planSummary(tasks); // 'Delivery: 3 of 20 tasks done (15 %).'
 */
export function planSummary(tasks: readonly Pick<Task, 'status'>[]): string {
  const counted = tasks.filter((task) => task.status !== 'obsolete');
  const done = counted.filter((task) => task.status === 'done').length;
  if (counted.length === 0) return 'Delivery: no tasks to do.';
  const percent = Math.floor((done / counted.length) * 100);
  return `Delivery: ${done} of ${counted.length} tasks done (${percent} %).`;
}
