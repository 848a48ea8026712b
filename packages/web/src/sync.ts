import type { ProjectSync, ProjectSyncItem, TrackerProvider } from '@pgs/client';
import { PROVIDER_LABELS } from './connections.ts';

/** What a sync pushes, as the server names it. */
export type SyncScope = ProjectSync['scope'];
/** What a sync did (or, in a dry run, would do) to one item's issue. */
export type SyncAction = ProjectSyncItem['action'];

/** The scopes as the Sync screen offers them, each with its line. */
export const SYNC_SCOPES: readonly { value: SyncScope; label: string; hint: string }[] = [
  { value: 'tasks', label: 'Tasks', hint: 'One issue per task of the implementation plan.' },
  {
    value: 'requirements',
    label: 'Requirements and tasks',
    hint: 'Also one parent issue per functional requirement, its tasks as sub-issues.',
  },
  {
    value: 'all',
    label: 'All',
    hint: 'Everything PGS can push; today the same as requirements and tasks.',
  },
];

/** The actions in the order a summary names them. */
const ACTIONS: readonly SyncAction[] = [
  'created',
  'updated',
  'closed',
  'reopened',
  'unchanged',
  'failed',
];

const DONE: Readonly<Record<SyncAction, string>> = {
  created: 'Created',
  updated: 'Updated',
  closed: 'Closed',
  reopened: 'Reopened',
  unchanged: 'Unchanged',
  failed: 'Failed',
};

const WOULD: Readonly<Record<SyncAction, string>> = {
  created: 'Would create',
  updated: 'Would update',
  closed: 'Would close',
  reopened: 'Would reopen',
  unchanged: 'Unchanged',
  failed: 'Failed',
};

/**
 * An item's action as a word; a dry run says what it would do.
 *
 * @example
 * actionLabel('created', true); // 'Would create'
 */
export function actionLabel(action: SyncAction, dryRun: boolean): string {
  return (dryRun ? WOULD : DONE)[action];
}

/**
 * How many items of each action a sync has, every action present (0 when none).
 *
 * @example
 * countActions([{ id: 'T-1', action: 'created', externalId: null, url: null }]).created; // 1
 */
export function countActions(items: readonly Pick<ProjectSyncItem, 'action'>[]) {
  const counts = Object.fromEntries(ACTIONS.map((action) => [action, 0])) as Record<
    SyncAction,
    number
  >;
  for (const item of items) counts[item.action] += 1;
  return counts;
}

/**
 * A sync in one sentence: what it did (or would do), then what it left as it was and what
 * failed. Actions with no item are left out.
 *
 * @example
 * syncSummary({ dryRun: true, items }); // 'Would create 5, update 2 and close 1; 3 unchanged.'
 */
export function syncSummary(sync: Pick<ProjectSync, 'dryRun' | 'items'>): string {
  if (sync.items.length === 0) return sync.dryRun ? 'Nothing to push.' : 'Nothing was pushed.';
  const counts = countActions(sync.items);
  const verbs = (['created', 'updated', 'closed', 'reopened'] as const)
    .filter((action) => counts[action] > 0)
    .map((action, index) => {
      const word = actionLabel(action, sync.dryRun);
      // "Would create 5, update 2": the auxiliary once, at the start.
      const verb = index === 0 ? word : word.replace(/^Would /, '').toLowerCase();
      return `${verb} ${counts[action]}`;
    });
  const parts: string[] = [];
  if (verbs.length > 0) parts.push(joinWords(verbs));
  else parts.push(sync.dryRun ? 'Nothing would change' : 'Nothing changed');
  if (counts.unchanged > 0) parts.push(`${counts.unchanged} unchanged`);
  if (counts.failed > 0) parts.push(`${counts.failed} failed`);
  return `${parts.join('; ')}.`;
}

/** What the screen says while a sync is out, by its status. */
export function pendingText(status: ProjectSync['status'], dryRun: boolean): string {
  const what = dryRun ? 'preview' : 'sync';
  return status === 'queued' ? `The ${what} is queued…` : `The ${what} is running…`;
}

/** One external link of a task, as the task JSON carries it (`links`). */
export interface TaskLink {
  provider: TrackerProvider;
  connectionId: string;
  externalId: string;
  url: string;
  state?: string | undefined;
}

const isProvider = (value: unknown): value is TrackerProvider =>
  typeof value === 'string' && value in PROVIDER_LABELS;

/**
 * A task's external links, read defensively from its JSON: only well-formed links whose URL is
 * http or https (a tracker's answer is not trusted to be one). None when the field is absent.
 *
 * @example
 * taskLinks({ links: [{ provider: 'github', connectionId: 'tc_…', externalId: '12', url: 'https://github.com/acme/booking/issues/12' }] });
 */
export function taskLinks(task: object): TaskLink[] {
  const links = (task as { links?: unknown }).links;
  if (!Array.isArray(links)) return [];
  return links.flatMap((link: unknown): TaskLink[] => {
    if (typeof link !== 'object' || link === null) return [];
    const { provider, connectionId, externalId, url, state } = link as Record<string, unknown>;
    if (!isProvider(provider) || typeof externalId !== 'string') return [];
    const safe = safeUrl(url);
    if (safe === undefined) return [];
    return [
      {
        provider,
        connectionId: typeof connectionId === 'string' ? connectionId : '',
        externalId,
        url: safe,
        ...(typeof state === 'string' && state !== '' ? { state } : {}),
      },
    ];
  });
}

/**
 * A link's text: the tracker and its id of the issue, and its state when known.
 *
 * @example
 * linkText({ provider: 'github', externalId: '12', state: 'closed', … }); // 'GitHub #12 (closed)'
 */
export function linkText(link: Pick<TaskLink, 'provider' | 'externalId' | 'state'>): string {
  const id = link.provider === 'github' && /^\d+$/.test(link.externalId) ? '#' : '';
  const state = link.state ? ` (${link.state})` : '';
  return `${PROVIDER_LABELS[link.provider]} ${id}${link.externalId}${state}`;
}

/**
 * `url` when it is an absolute http or https URL, else undefined: a tracker's URL is shown
 * as a link only then (never `javascript:`).
 *
 * @example
 * safeUrl('javascript:alert(1)'); // undefined
 */
export function safeUrl(url: unknown): string | undefined {
  if (typeof url !== 'string') return undefined;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : undefined;
  } catch {
    return undefined;
  }
}

/** "a", "a and b", "a, b and c". */
function joinWords(words: readonly string[]): string {
  if (words.length <= 1) return words.join('');
  return `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;
}
