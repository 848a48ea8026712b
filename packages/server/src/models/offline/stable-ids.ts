/**
 * Stable story and task IDs across revisions. A story or task is known by a key: the
 * requirement groups it cites and its rank among the items citing the same groups (`FR-2#0`,
 * `FR-2#1`; `NFR-1#0` or `R-1#0` for a task that cites no FR; `#0` for one that cites
 * nothing). Both sides can compute it: the previous revision from its markdown, the fresh
 * offline documents from their stories and tasks. A key seen before keeps its ID; anything
 * new takes a number above every ID used or retired, so an ID is never renumbered or reused.
 */
import type { StableIds } from '../context.ts';

/** A story or task and the text of what it cites (its criteria, its Implements cell…). */
export interface Cited {
  id: string;
  cites: string;
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

const CITATION = /\b(FR|NFR|R)-(\d+)(?:\.\d+)?\b/g;
const PREFIXES = ['FR', 'NFR', 'R'] as const;

/**
 * The requirement groups a text cites, sorted by number: its `FR-n` (criteria `FR-n.m` count
 * as `FR-n`), or, when it cites none, its `NFR-n` then `R-n`.
 *
 * @example
 * citedGroups('FR-3.1, FR-3.2 and FR-1'); // ['FR-1', 'FR-3']
 */
export function citedGroups(text: string): string[] {
  const found = new Map<string, Set<number>>(PREFIXES.map((p) => [p, new Set()]));
  for (const match of text.matchAll(CITATION)) found.get(match[1]!)!.add(Number(match[2]));
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
 * storyTaskKeys([{ id: 'US-1', cites: 'FR-1.1, FR-1.2 FR-1' }], [{ id: 'T-1', cites: 'Set up' }]);
 * // { stories: [{ id: 'US-1', key: 'FR-1#0' }], tasks: [{ id: 'T-1', key: '#0' }] }
 */
export function storyTaskKeys(stories: readonly Cited[], tasks: readonly Cited[]): KeyedItems {
  return { stories: keysOf(stories), tasks: keysOf(tasks) };
}

/**
 * The stories of a user-stories document: each `### US-n …` heading with what its body cites
 * (its criteria, and the requirement it changes with); the heading's title is left out.
 */
function storiesIn(markdown: string): Cited[] {
  const stories: Cited[] = [];
  let current: Cited | undefined;
  for (const line of markdown.split('\n')) {
    if (/^#/.test(line)) {
      const heading = /^#{2,6}\s+(US-\d+)\b/.exec(line);
      current = heading ? { id: heading[1]!, cites: '' } : undefined;
      if (current) stories.push(current);
    } else if (current) current.cites += `${line}\n`;
  }
  return stories;
}

/** The tasks of an implementation plan: each table row whose first cell is `T-n`, with its other cells. */
function tasksIn(markdown: string): Cited[] {
  const tasks: Cited[] = [];
  for (const line of markdown.split('\n')) {
    if (!line.trimStart().startsWith('|')) continue;
    const cells = line
      .trim()
      .replace(/^\||\|$/g, '')
      .split('|');
    const id = /^\s*(T-\d+)\s*$/.exec(cells[0] ?? '')?.[1];
    if (id) tasks.push({ id, cites: cells.slice(1).join(' | ') });
  }
  return tasks;
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

/**
 * A markdown text with every `US-n` and `T-n` the map knows replaced in one pass, so a
 * replaced ID is never replaced again.
 *
 * @example
 * applyIds('T-4 depends on T-2', new Map([['T-4', 'T-12'], ['T-2', 'T-4']])); // 'T-12 depends on T-4'
 */
export function applyIds(markdown: string, map: ReadonlyMap<string, string>): string {
  return markdown.replace(/\b(?:US|T)-\d+\b/g, (id) => map.get(id) ?? id);
}
