/**
 * What a revision's requirement deltas do to the work already done on a plan (issue 30, item
 * 4; docs/tasks.md): a task keeps its status by its stable ID unless a requirement it serves
 * was modified (finished work is reopened) or removed (the work is obsolete). Pure: the rows
 * and deltas in, a decision per task out.
 */
import type { RequirementDelta } from '../models/deltas.ts';
import type { TaskStatus } from '../storage/sql/tasks.ts';

/** The deltas of one completed revision, as stored with it. */
export interface RevisionDeltas {
  revision: number;
  deltas: readonly RequirementDelta[];
}

/** Which revision last modified, and which removed, each requirement group. */
export interface RequirementImpact {
  modified: ReadonlyMap<string, number>;
  removed: ReadonlyMap<string, number>;
}

/**
 * The requirement groups the revisions modified or removed, each with the last revision that
 * did: a group removed after it was modified counts as removed only. A rename keeps the
 * meaning (docs/revisions.md) and an addition touches no existing task, so neither counts.
 *
 * @example
 * impactOf([{ revision: 2, deltas: [{ op: 'modified', id: 'FR-2', title: 'Book', text: '…' }] }]).modified;
 * // Map { 'FR-2' => 2 }
 */
export function impactOf(revisions: readonly RevisionDeltas[]): RequirementImpact {
  const modified = new Map<string, number>();
  const removed = new Map<string, number>();
  for (const { revision, deltas } of [...revisions].sort((a, b) => a.revision - b.revision)) {
    for (const delta of deltas) {
      if (delta.op === 'modified') modified.set(delta.id, revision);
      if (delta.op === 'removed') {
        removed.set(delta.id, revision);
        modified.delete(delta.id);
      }
    }
  }
  return { modified, removed };
}

/** What happens to one task the new plan still has. */
export type TaskVerdict =
  | { kind: 'keep' }
  /** Done work whose requirement changed: back to `todo`. */
  | { kind: 'reopen'; revision: number; requirements: string[]; note: string }
  /** Work in hand whose requirement changed: its status stays, its history says why to look again. */
  | { kind: 'notify'; revision: number; requirements: string[]; note: string }
  /** Every requirement it served was removed. */
  | { kind: 'obsolete'; revision: number; requirements: string[]; note: string };

const listed = (ids: readonly string[]) =>
  ids.length === 1 ? ids[0]! : `${ids.slice(0, -1).join(', ')} and ${ids.at(-1)}`;

/**
 * The verdict on a task the new plan keeps. `before` are the requirements the stored row
 * served, `after` those the new plan gives it: a task is obsolete when it served requirements
 * and every one of them, then and now, was removed; it is reopened when it is `done` and one
 * of them was modified. An obsolete task stays as it is (reviving is a person's call).
 *
 * @example
 * verdictOf('done', ['FR-2'], ['FR-2'], impact); // { kind: 'reopen', revision: 2, requirements: ['FR-2'], note: '…' }
 */
export function verdictOf(
  status: TaskStatus,
  before: readonly string[],
  after: readonly string[],
  impact: RequirementImpact,
): TaskVerdict {
  if (status === 'obsolete') return { kind: 'keep' };
  const served = [...new Set([...before, ...after])];
  const removed = served.filter((id) => impact.removed.has(id));
  if (served.length > 0 && removed.length === served.length) {
    const revision = Math.max(...removed.map((id) => impact.removed.get(id)!));
    return {
      kind: 'obsolete',
      revision,
      requirements: removed,
      note: `Obsolete: revision ${revision} removed ${listed(removed)}, which this task implemented.`,
    };
  }
  const modified = served.filter((id) => impact.modified.has(id));
  if (modified.length === 0 || status === 'todo') return { kind: 'keep' };
  const revision = Math.max(...modified.map((id) => impact.modified.get(id)!));
  if (status === 'done') {
    return {
      kind: 'reopen',
      revision,
      requirements: modified,
      note: `Reopened by revision ${revision}, which modified ${listed(modified)}: check the work against the new text.`,
    };
  }
  return {
    kind: 'notify',
    revision,
    requirements: modified,
    note: `Revision ${revision} modified ${listed(modified)} while this task was ${status === 'blocked' ? 'blocked' : 'in progress'}: check the work against the new text.`,
  };
}

/** A task the new plan no longer has: obsolete, saying which removal retired it when one did. */
export function droppedNote(
  before: readonly string[],
  impact: RequirementImpact,
  revision: number,
): { revision: number; note: string } {
  const removed = before.filter((id) => impact.removed.has(id));
  if (removed.length === 0) return { revision, note: `Not in the plan of revision ${revision}.` };
  const by = Math.max(...removed.map((id) => impact.removed.get(id)!));
  return {
    revision: by,
    note: `Obsolete: revision ${by} removed ${listed(removed)}, which this task implemented.`,
  };
}
