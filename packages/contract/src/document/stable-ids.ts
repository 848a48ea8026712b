/**
 * Stable story and task IDs across revisions. A story or task is known by a key: the
 * requirement groups it cites and its rank among the items citing the same groups (`FR-2#0`,
 * `FR-2#1`; `NFR-1#0` or `R-1#0` for a task that cites no FR; `#0` for one that cites
 * nothing). Both sides can compute it: the previous revision from its documents' trees
 * (`@pgs/contract/document`), the fresh offline documents from their stories and tasks. A key
 * seen before keeps its ID; anything new takes a number above every ID used or retired, so an
 * ID is never renumbered or reused.
 */
import type { StableIds } from '../generation.ts';
import { prefixOf, requirementOf } from './ids.ts';
import { parseDocument } from './parse.ts';
import type { Definition } from './types.ts';
import { definitionsOf, visit } from './walk.ts';

/** A story or task and the IDs it cites (its criteria, its Implements cell…). */
export interface Cited {
  id: string;
  cites: readonly string[];
}

/** A story or task with its key. */
export interface Keyed {
  id: string;
  key: string;
}

/** The stories and tasks of one revision, keyed. */
export interface KeyedItems {
  stories: Keyed[];
  tasks: Keyed[];
}

const PREFIXES = ['FR', 'NFR', 'R'] as const;

/**
 * The requirement groups a list of IDs cites, sorted by number: its `FR-n` (criteria `FR-n.m`
 * count as `FR-n`), or, when it cites none, its `NFR-n` then `R-n`.
 *
 * @example
 * citedGroups(['FR-3.1', 'FR-3.2', 'FR-1', 'T-2']); // ['FR-1', 'FR-3']
 */
export function citedGroups(ids: readonly string[]): string[] {
  const found = new Map<string, Set<number>>(PREFIXES.map((p) => [p, new Set()]));
  for (const id of ids) {
    const group = requirementOf(id) ?? id;
    found.get(prefixOf(group))?.add(Number(group.slice(group.indexOf('-') + 1)));
  }
  const sorted = (prefix: string) =>
    [...found.get(prefix)!].sort((a, b) => a - b).map((n) => `${prefix}-${n}`);
  const fr = sorted('FR');
  return fr.length > 0 ? fr : [...sorted('NFR'), ...sorted('R')];
}

/** Each item's key: its cited groups and its rank among the items (in order) citing the same. */
function keysOf(items: readonly Cited[]): Keyed[] {
  const seen = new Map<string, number>();
  return items.map((item) => {
    const groups = citedGroups(item.cites).join(',');
    const rank = seen.get(groups) ?? 0;
    seen.set(groups, rank + 1);
    return { id: item.id, key: `${groups}#${rank}` };
  });
}

/**
 * The keys of a revision's stories and tasks, each list in document order.
 *
 * @example
 * storyTaskKeys([{ id: 'US-1', cites: ['FR-1.1', 'FR-1.2', 'FR-1'] }], [{ id: 'T-1', cites: [] }]);
 * // { stories: [{ id: 'US-1', key: 'FR-1#0' }], tasks: [{ id: 'T-1', key: '#0' }] }
 */
export function storyTaskKeys(stories: readonly Cited[], tasks: readonly Cited[]): KeyedItems {
  return { stories: keysOf(stories), tasks: keysOf(tasks) };
}

/** The IDs cited in some of a definition's children, each once, in order. */
function citedIn(children: readonly Definition['children'][number][]): string[] {
  const found = new Set<string>();
  for (const child of children)
    visit(child, (node) => {
      if (node.type === 'idRef') found.add(node.value);
    });
  return [...found];
}

/**
 * The stories of a user-stories document: each `US-n` it defines with what its body cites
 * (its criteria, and the requirement it changes with); a heading's title is left out.
 */
function storiesIn(markdown: string): Cited[] {
  return definitionsOf(parseDocument(markdown, { defines: ['US'] }), 'story').map((story) => ({
    id: story.id,
    cites: story.form === 'section' ? citedIn(story.children.slice(1)) : story.cites,
  }));
}

/** The tasks of an implementation plan: each `T-n` it defines, with what its other cells cite. */
function tasksIn(markdown: string): Cited[] {
  return definitionsOf(parseDocument(markdown, { defines: ['T'] }), 'task').map((task) => ({
    id: task.id,
    cites: task.cites,
  }));
}

/**
 * What a revision must keep: the previous revision's stories and tasks with their keys, read
 * from its `USER_STORIES.md` and `IMPLEMENTATION_PLAN.md` (either may be absent), and every
 * ID retired so far.
 *
 * @example
 * stableIdsOf(storiesMarkdown, planMarkdown, ['FR-2', 'US-2']).stories[0]; // { id: 'US-1', key: 'FR-1#0' }
 */
export function stableIdsOf(
  stories: string | undefined,
  plan: string | undefined,
  retired: readonly string[],
): StableIds {
  const keyed = storyTaskKeys(storiesIn(stories ?? ''), tasksIn(plan ?? ''));
  return { ...keyed, retired: [...retired] };
}

const numberOf = (prefix: string, id: string): number => {
  const match = /^([A-Z]+)-(\d+)$/.exec(id);
  return match && match[1] === prefix ? Number(match[2]) : 0;
};

/** The final ID of each fresh item of one prefix, added to `map`. */
function renumberOne(
  prefix: 'US' | 'T',
  fresh: readonly Keyed[],
  before: readonly Keyed[],
  retired: ReadonlySet<string>,
  map: Map<string, string>,
): void {
  const kept = new Map<string, string>();
  for (const item of before) {
    if (!retired.has(item.id) && !kept.has(item.key)) kept.set(item.key, item.id);
  }
  let next = Math.max(
    0,
    ...[...before.map((b) => b.id), ...retired].map((id) => numberOf(prefix, id)),
  );
  for (const item of fresh) map.set(item.id, kept.get(item.key) ?? `${prefix}-${++next}`);
}

/**
 * Fresh (sequential) story and task IDs → their final IDs: an item whose key the previous
 * revision had keeps that item's ID; a new one takes the next number above every previous and
 * retired ID of its prefix, in document order.
 *
 * @example
 * renumber({ stories: [{ id: 'US-2', key: 'FR-3#0' }], tasks: [] },
 *   { stories: [{ id: 'US-3', key: 'FR-3#0' }], tasks: [], retired: [] }).get('US-2'); // 'US-3'
 */
export function renumber(fresh: KeyedItems, ids: StableIds): Map<string, string> {
  const retired = new Set(ids.retired);
  const map = new Map<string, string>();
  renumberOne('US', fresh.stories, ids.stories, retired, map);
  renumberOne('T', fresh.tasks, ids.tasks, retired, map);
  return map;
}

/**
 * The previous revision's story and task IDs that the revised documents no longer define:
 * the ones a revision drops, to be retired with it (so no later revision hands them out
 * again, and the trace check reads their numbers as gaps on purpose).
 *
 * @example
 * droppedIds(stableIdsOf(oldStories, oldPlan, retired), stableIdsOf(newStories, newPlan, retired));
 * // ['US-2', 'T-6', 'T-7']
 */
export function droppedIds(before: KeyedItems, after: KeyedItems): string[] {
  const now = new Set([...after.stories, ...after.tasks].map((item) => item.id));
  return [...before.stories, ...before.tasks].map((item) => item.id).filter((id) => !now.has(id));
}

/** The prefixes a revision renumbers. */
const RENUMBERED = new Set(['US', 'T']);

/**
 * A markdown text with every `US-n` and `T-n` the map knows replaced in one pass, so a
 * replaced ID is never replaced again. Only IDs the document tree reads as IDs change: one
 * in code, or in user text (written escaped, `US\-1`), is left as written.
 *
 * @example
 * applyIds('T-4 depends on T-2', new Map([['T-4', 'T-12'], ['T-2', 'T-4']])); // 'T-12 depends on T-4'
 */
export function applyIds(markdown: string, map: ReadonlyMap<string, string>): string {
  const edits: { start: number; end: number; id: string }[] = [];
  visit(parseDocument(markdown, { defines: [] }), (node) => {
    const start = node.position?.start.offset;
    const end = node.position?.end.offset;
    if (node.type !== 'idRef' || start === undefined || end === undefined) return;
    const id = map.get(node.value);
    if (id !== undefined && RENUMBERED.has(prefixOf(node.value))) edits.push({ start, end, id });
  });
  let out = markdown;
  for (const edit of edits.sort((a, b) => b.start - a.start))
    out = `${out.slice(0, edit.start)}${edit.id}${out.slice(edit.end)}`;
  return out;
}
