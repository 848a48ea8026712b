/**
 * What one sync writes and to what end (docs/trackers.md, "Pushing a project"): the items in
 * the order they are written and the state each item's issue should be in.
 */
import {
  type DraftContext,
  type DraftTask,
  parentOf,
  type RequirementText,
  withParents,
} from './drafts.ts';
import type { IssueState } from './providers/provider.ts';

/** One item of a sync: an FR parent (gone from the spec when `requirement` is absent) or a task. */
export type Work =
  | { kind: 'parent'; id: string; requirement: RequirementText | undefined; tasks: DraftTask[] }
  | { kind: 'task'; id: string; task: DraftTask };

/**
 * The wanted state of an item's issue, and the comment a change to it carries.
 *
 * @example
 * wanted({ kind: 'task', id: 'T-1', task }, 2); // { state: 'closed', comment: 'T-1 is done in PGS.' } for a done task
 */
export function wanted(work: Work, revision: number): { state: IssueState; comment?: string } {
  if (work.kind === 'parent') {
    if (work.requirement === undefined) {
      const comment = `${work.id} is no longer in the spec after revision ${revision}; closed by PGS.`;
      return { state: 'closed', comment };
    }
    const live = work.tasks.filter((t) => t.status !== 'obsolete');
    const delivered = live.length > 0 && live.every((t) => t.status === 'done');
    return delivered
      ? { state: 'closed', comment: `Every task of ${work.id} is done in PGS.` }
      : { state: 'open', comment: `${work.id} has work to do again after revision ${revision}.` };
  }
  const { status } = work.task;
  if (status === 'obsolete') {
    const comment = `${work.id} is obsolete after revision ${revision} of the spec: the plan no longer needs it. Closed by PGS.`;
    return { state: 'closed', comment };
  }
  if (status === 'done') return { state: 'closed', comment: `${work.id} is done in PGS.` };
  return {
    state: 'open',
    comment: `${work.id} is to do again after revision ${revision} of the spec. Reopened by PGS.`,
  };
}

/** Whether an item is a task the plan no longer needs (its issue is closed as it stands). */
export const isObsolete = (work: Work): boolean =>
  work.kind === 'task' && work.task.status === 'obsolete';

/**
 * The items of one sync in the order they are written: FR parents (spec order, then parents
 * of requirements a revision removed, named by the ids already linked), then tasks in plan order.
 *
 * @example
 * plan({ scope: 'tasks', spec, tasks }, []); // one task item per task
 */
export function plan(
  input: Pick<DraftContext, 'scope' | 'spec'> & { tasks: readonly DraftTask[] },
  linked: Iterable<string>,
): Work[] {
  const works: Work[] = [];
  if (withParents(input.scope)) {
    const children = new Map<string, DraftTask[]>();
    for (const task of input.tasks) {
      const parent = parentOf(task, input);
      if (parent !== undefined) children.set(parent, [...(children.get(parent) ?? []), task]);
    }
    for (const requirement of input.spec.requirements) {
      const tasks = children.get(requirement.id) ?? [];
      works.push({ kind: 'parent', id: requirement.id, requirement, tasks });
    }
    const inSpec = new Set(input.spec.requirements.map((r) => r.id));
    for (const id of [...linked].sort()) {
      if (id.startsWith('FR-') && !inSpec.has(id)) {
        works.push({ kind: 'parent', id, requirement: undefined, tasks: [] });
      }
    }
  }
  for (const task of input.tasks) works.push({ kind: 'task', id: task.id, task });
  return works;
}
