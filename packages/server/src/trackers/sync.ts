/**
 * The sync engine (docs/trackers.md, "Pushing a project"): makes a tracker hold one issue per
 * task (and, with parents, one per FR group), idempotently. It sees the tracker through a
 * {@link TrackerClient} and the mapping through a {@link LinkStore}, so it runs the same
 * against an adapter and a fake, on the database and in memory.
 *
 * Order of work: (1) when an item has no link, the tracker is searched for the project's
 * marked issues first and any it finds is adopted (a crash after a create, before its link
 * row): never a duplicate; and searched again before a create is retried after one whose
 * outcome is unknown (a timeout, a dropped connection, a 5xx); (2) parents, then tasks in
 * plan order: create, update when the draft's digest changed, close or reopen when the
 * wanted state differs from the issue's; (3) a second look at what this sync wrote, for blockers and parents created after the
 * item that names them. Every link row is written right after the call that makes it true.
 */
import {
  type DraftContext,
  type DraftTask,
  draftDigest,
  type ProjectSpec,
  requirementDraft,
  type SyncScope,
  taskDraft,
} from './drafts.ts';
import {
  type ExternalIssue,
  type IssueDraft,
  type IssueState,
  type TrackerClient,
  TrackerRequestError,
} from './providers/provider.ts';
import { failureReason, type RetryPolicy, type Sleep, withRetries } from './retry.ts';
import { isObsolete, plan, type Work, wanted } from './sync-plan.ts';

/** What a sync did (or, in a dry run, would do) to one item. */
export type SyncAction = 'created' | 'updated' | 'closed' | 'reopened' | 'unchanged' | 'failed';

/** One item of a sync's result (the contract's `SyncItem`). */
export interface SyncItem {
  id: string;
  action: SyncAction;
  externalId: string | null;
  url: string | null;
  /** The provider's reason, when `failed`. */
  error?: string;
}

/** The mapping of one item to its issue, as stored. */
export interface ItemLink {
  itemId: string;
  externalId: string;
  key: string;
  url: string;
  /** The digest of the draft last written; `''` for an adopted issue (rewritten once). */
  digest: string;
  state: IssueState;
  externalUpdatedAt: Date | null;
}

/**
 * Where the engine keeps links (tracker_links, or memory in tests). A store bound to one
 * attempt at a sync throws {@link SyncSuperseded} from `save` and `check` once another attempt
 * took the sync over; the engine then stops at once.
 */
export interface LinkStore {
  list(): Promise<ItemLink[]>;
  save(link: ItemLink): Promise<void>;
  /** Called before each item's writes to the tracker: throws when this attempt may not write. */
  check?(): Promise<void>;
}

/** What one sync pushes, and with what. */
export interface SyncInput {
  projectId: string;
  /** The revision the tasks reflect (named in close and reopen comments). */
  revision: number;
  scope: SyncScope;
  dryRun: boolean;
  /** The project's tasks in plan order. */
  tasks: readonly DraftTask[];
  spec: ProjectSpec;
  projectUrl: string | undefined;
  client: TrackerClient;
  links: LinkStore;
  sleep: Sleep;
  signal?: AbortSignal | undefined;
  policy?: RetryPolicy;
  random?: () => number;
}

/** A sync's end: `failed` as soon as one item failed (never a silent partial success). */
export interface SyncOutcome {
  status: 'succeeded' | 'failed';
  items: SyncItem[];
}

/** The tracker could not be searched for marked issues: nothing was written. */
export class SyncRecoveryError extends Error {
  readonly reason: string;
  constructor(reason: string) {
    super(`The tracker could not be searched for issues PGS made before: ${reason}`);
    this.reason = reason;
    this.name = 'SyncRecoveryError';
  }
}

/** Another attempt at the sync took it over (a retry after this one was given up for dead). */
export class SyncSuperseded extends Error {
  constructor(syncId: string) {
    super(`Sync ${syncId} was taken over by a later attempt; this one stops.`);
    this.name = 'SyncSuperseded';
  }
}

/** One sync under way: its input, the links as they now stand, and how it calls and saves. */
interface Run {
  input: SyncInput;
  links: Map<string, ItemLink>;
  retry: <T>(call: () => Promise<T>) => Promise<T>;
  /** Records a link, and stores it unless the sync is a dry run. */
  save: (link: ItemLink) => Promise<void>;
  /** The item's draft as the links now make it (`undefined` for a parent gone from the spec). */
  draftOf: (work: Work) => IssueDraft | undefined;
}

function openRun(input: SyncInput, stored: ItemLink[]): Run {
  const links = new Map(stored.map((link) => [link.itemId, link] as const));
  const retry = <T>(call: () => Promise<T>) =>
    withRetries(call, {
      sleep: input.sleep,
      signal: input.signal,
      ...(input.policy ? { policy: input.policy } : {}),
      ...(input.random ? { random: input.random } : {}),
    });
  const save = async (link: ItemLink) => {
    links.set(link.itemId, link);
    if (!input.dryRun) await input.links.save(link);
  };
  const context: DraftContext = {
    projectId: input.projectId,
    scope: input.scope,
    spec: input.spec,
    projectUrl: input.projectUrl,
    externalIdOf: (id) => links.get(id)?.externalId,
    keyOf: (id) => links.get(id)?.key,
  };
  const draftOf = (work: Work): IssueDraft | undefined =>
    work.kind === 'task'
      ? taskDraft(work.task, context)
      : work.requirement && requirementDraft(work.requirement, context);
  return { input, links, retry, save, draftOf };
}

/**
 * Runs one sync to its end and says what it did per item. Throws {@link SyncRecoveryError}
 * when the tracker cannot be searched before a create (nothing is written then), the
 * signal's reason when aborted (a retry of the sync resumes safely: links are kept per item),
 * and {@link SyncSuperseded} as soon as the link store refuses this attempt.
 *
 * @example
 * const outcome = await runSync({ projectId, revision: 1, scope: 'tasks', dryRun: false, tasks, spec, projectUrl, client, links, sleep });
 */
export async function runSync(input: SyncInput): Promise<SyncOutcome> {
  const run = openRun(input, await input.links.list());
  const works = plan(input, run.links.keys());
  await adoptMarked(run, works);
  const items = await writeAll(run, works);
  if (!input.dryRun) await lookAgain(run, works, items);
  const list = works.flatMap((w) => items.get(w.id) ?? []);
  return { status: list.some((i) => i.action === 'failed') ? 'failed' : 'succeeded', items: list };
}

/**
 * Links the project's marked issues to the items without a link (a crash after a create,
 * before its link row), so none is made twice. Searching costs a listing of the tracker:
 * only done when something would be created.
 */
async function adoptMarked({ input, links, retry, save }: Run, works: Work[]): Promise<void> {
  if (!works.some((w) => !links.has(w.id) && !isObsolete(w))) return;
  let marked: ExternalIssue[];
  try {
    marked = await retry(() => input.client.findMarked(input.projectId, input.signal));
  } catch (error) {
    input.signal?.throwIfAborted();
    throw new SyncRecoveryError(failureReason(error));
  }
  for (const issue of marked) {
    const itemId = issue.marker?.projectId === input.projectId ? issue.marker.itemId : undefined;
    if (itemId === undefined || links.has(itemId)) continue;
    await save({ ...linkOf(itemId, issue, ''), state: issue.state });
  }
}

/** An abort or a takeover ends the sync; any other failure is the item's alone. */
function rethrowIfFatal(input: SyncInput, error: unknown): void {
  input.signal?.throwIfAborted();
  if (error instanceof SyncSuperseded) throw error;
}

/** The first pass, in plan order: each item written as its link and draft say. */
async function writeAll(run: Run, works: Work[]): Promise<Map<string, SyncItem>> {
  const { input, links } = run;
  const items = new Map<string, SyncItem>();
  for (const work of works) {
    input.signal?.throwIfAborted();
    if (!input.dryRun) await input.links.check?.();
    try {
      const item = await step(run, work);
      if (item !== undefined) items.set(work.id, item);
    } catch (error) {
      rethrowIfFatal(input, error);
      const link = links.get(work.id);
      items.set(work.id, {
        id: work.id,
        action: 'failed',
        externalId: link?.externalId ?? null,
        url: link?.url ?? null,
        error: failureReason(error),
      });
    }
  }
  return items;
}

/** The second look: blockers and parents made after the item naming them, whose draft now says more. */
async function lookAgain(run: Run, works: Work[], items: Map<string, SyncItem>): Promise<void> {
  const { input, links, retry, save } = run;
  for (const work of works) {
    const item = items.get(work.id);
    const link = links.get(work.id);
    const draft = run.draftOf(work);
    if (item === undefined || item.action === 'failed' || !link || !draft) continue;
    if (isObsolete(work)) continue;
    const digest = draftDigest(draft);
    if (digest === link.digest) continue;
    await input.links.check?.();
    try {
      await retry(() => input.client.update(link.externalId, draft, input.signal));
      await save({ ...link, digest });
      if (item.action === 'unchanged') item.action = 'updated';
    } catch (error) {
      rethrowIfFatal(input, error);
      items.set(work.id, { ...item, action: 'failed', error: failureReason(error) });
    }
  }
}

/** Writes one item: created when it has no link, else updated, closed or reopened as needed. */
async function step(run: Run, work: Work): Promise<SyncItem | undefined> {
  const { input, retry, save } = run;
  const draft = run.draftOf(work);
  const target = wanted(work, input.revision);
  let link = run.links.get(work.id);
  const obsolete = isObsolete(work);
  if (link === undefined) {
    // Nothing on the tracker for an item the plan no longer needs: nothing to do.
    if (obsolete || draft === undefined) return undefined;
    if (input.dryRun) return { id: work.id, action: 'created', externalId: null, url: null };
    return create(run, work.id, draft, target.state);
  }
  let action: SyncAction = 'unchanged';
  // An obsolete task's issue is closed as it stands: its words are the plan's old ones.
  if (draft !== undefined && !obsolete) {
    const digest = draftDigest(draft);
    if (digest !== link.digest) {
      if (!input.dryRun) {
        const externalId = link.externalId;
        await retry(() => input.client.update(externalId, draft, input.signal));
        link = { ...link, digest };
        await save(link);
      }
      action = 'updated';
    }
  }
  if (target.state !== link.state) {
    if (!input.dryRun) {
      const externalId = link.externalId;
      const changed = await retry(() =>
        input.client.setState(externalId, target.state, target.comment, input.signal),
      );
      link = { ...link, state: target.state, externalUpdatedAt: dateOf(changed.updatedAt) };
      await save(link);
    }
    action = target.state === 'closed' ? 'closed' : 'reopened';
  }
  return done(link, action);
}

/** Makes an item's issue, linked at once, and closes it when the item wants it closed. */
async function create(
  run: Run,
  itemId: string,
  draft: IssueDraft,
  state: IssueState,
): Promise<SyncItem> {
  const { input, retry, save } = run;
  const { issue, found } = await createOnce(run, itemId, draft);
  // An issue found after a create without an answer is rewritten by the second look (its
  // digest is unknown): the create may have stopped half-way, before its blockers.
  let link = linkOf(itemId, issue, found ? '' : draftDigest(draft));
  await save(link);
  if (state === 'closed' && issue.state !== 'closed') {
    const closed = await retry(() =>
      input.client.setState(issue.externalId, 'closed', undefined, input.signal),
    );
    link = { ...link, state: 'closed', externalUpdatedAt: dateOf(closed.updatedAt) };
    await save(link);
  }
  return done(link, 'created');
}

/**
 * Creates an item's issue, retried as any call. After a failure that leaves it unknown
 * whether the tracker made the issue ({@link mayHaveWritten}: no answer in time, a dropped
 * connection, a 5xx), the tracker is searched for the item's marker before the next create,
 * as a crash's retry does before any: an issue found is the item's, never made twice.
 */
async function createOnce(
  { input, retry }: Run,
  itemId: string,
  draft: IssueDraft,
): Promise<{ issue: ExternalIssue; found: boolean }> {
  let unsure = false;
  return retry(async () => {
    if (unsure) {
      const marked = await input.client.findMarked(input.projectId, input.signal);
      const issue = marked.find(
        (each) => each.marker?.projectId === input.projectId && each.marker.itemId === itemId,
      );
      if (issue !== undefined) return { issue, found: true };
    }
    try {
      return { issue: await input.client.create(draft, input.signal), found: false };
    } catch (error) {
      if (mayHaveWritten(error)) unsure = true;
      throw error;
    }
  });
}

/**
 * Whether a failed write may have been done all the same: the request went out and its answer
 * was lost (no answer in time, a connection dropped: no HTTP status) or the tracker failed
 * while doing it (408, 5xx). A refusal (4xx, a rate limit) is a certain no.
 *
 * @example
 * mayHaveWritten(new TrackerRequestError('Jira did not answer in time', { retryable: true })); // true
 */
export function mayHaveWritten(error: unknown): boolean {
  if (!(error instanceof TrackerRequestError) || !error.retryable) return false;
  const { status } = error;
  return status === undefined || status === 408 || status >= 500;
}

const done = (link: ItemLink, action: SyncAction): SyncItem => ({
  id: link.itemId,
  action,
  externalId: link.externalId,
  url: link.url,
});

const dateOf = (iso: string) => {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : date;
};

function linkOf(itemId: string, issue: ExternalIssue, digest: string): ItemLink {
  return {
    itemId,
    externalId: issue.externalId,
    key: issue.key,
    url: issue.url,
    digest,
    state: issue.state,
    externalUpdatedAt: dateOf(issue.updatedAt),
  };
}
