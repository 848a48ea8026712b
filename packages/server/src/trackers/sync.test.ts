import { describe, expect, it } from 'vitest';
import { REQUIREMENTS } from '../../test/fixtures/trace-documents.ts';
import { type DraftTask, readSpec, type SyncScope } from './drafts.ts';
import {
  type ExternalIssue,
  type IssueDraft,
  type IssueState,
  readMarker,
  type TrackerClient,
  TrackerRequestError,
} from './providers/provider.ts';
import { type ItemLink, type LinkStore, runSync, SyncRecoveryError } from './sync.ts';

/**
 * The engine against a tracker in memory: what it creates, updates, closes and reopens, and
 * that it never makes a duplicate. The real adapters and fakes are exercised in
 * test/tracker-sync.test.ts.
 */

const PROJECT = '0b7d1c1e-6f0a-4d7e-9a51-3f1f2b0c9d11';
const spec = readSpec([{ filename: 'PRODUCT_REQUIREMENTS.md', content: REQUIREMENTS }]);

interface Issue extends IssueDraft {
  externalId: string;
  state: IssueState;
  comments: string[];
}

class MemoryTracker implements TrackerClient {
  readonly issues: Issue[] = [];
  writes = 0;
  /** Errors thrown by the next write calls, in turn. */
  failures: Error[] = [];
  /** Errors thrown by the next creates after making their issue (an answer lost), in turn. */
  lost: Error[] = [];
  searches = 0;
  async verify() {
    return {};
  }
  #issue(issue: Issue): ExternalIssue {
    const marker = readMarker(issue.body);
    return {
      externalId: issue.externalId,
      key: `#${issue.externalId}`,
      url: `https://tracker.test/${issue.externalId}`,
      state: issue.state,
      updatedAt: new Date(0).toISOString(),
      ...(marker ? { marker } : {}),
    };
  }
  #write() {
    this.writes++;
    const failure = this.failures.shift();
    if (failure) throw failure;
  }
  async findMarked(projectId: string) {
    this.searches++;
    return this.issues
      .filter((i) => readMarker(i.body)?.projectId === projectId)
      .map((i) => this.#issue(i));
  }
  async get(externalId: string) {
    return this.#issue(this.#find(externalId));
  }
  async create(draft: IssueDraft) {
    this.#write();
    const issue = {
      ...draft,
      externalId: String(this.issues.length + 1),
      state: 'open' as const,
      comments: [],
    };
    this.issues.push(issue);
    const lost = this.lost.shift();
    if (lost) throw lost;
    return this.#issue(issue);
  }
  async update(externalId: string, draft: IssueDraft) {
    this.#write();
    const issue = this.#find(externalId);
    Object.assign(issue, draft);
    return this.#issue(issue);
  }
  async setState(externalId: string, state: IssueState, comment: string | undefined) {
    this.#write();
    const issue = this.#find(externalId);
    issue.state = state;
    if (comment) issue.comments.push(comment);
    return this.#issue(issue);
  }
  #find(externalId: string) {
    const issue = this.issues.find((i) => i.externalId === externalId);
    if (!issue) throw new TrackerRequestError('Not Found', { status: 404, retryable: false });
    return issue;
  }
}

class MemoryLinks implements LinkStore {
  readonly rows = new Map<string, ItemLink>();
  async list() {
    return [...this.rows.values()];
  }
  async save(link: ItemLink) {
    this.rows.set(link.itemId, link);
  }
}

const task = (n: number, over: Partial<DraftTask> = {}): DraftTask => ({
  id: `T-${n}`,
  title: `Task ${n}`,
  phase: 'M1',
  requirements: [n % 2 === 0 ? 'FR-2' : 'FR-1'],
  criteria: [n % 2 === 0 ? 'FR-2.1' : 'FR-1.1'],
  dependsOn: n > 1 ? [`T-${n - 1}`] : [],
  files: [],
  status: 'todo',
  ...over,
});

function setup() {
  const tracker = new MemoryTracker();
  const links = new MemoryLinks();
  const pauses: number[] = [];
  const sync = (
    tasks: DraftTask[],
    over: { scope?: SyncScope; dryRun?: boolean; revision?: number } = {},
  ) =>
    runSync({
      projectId: PROJECT,
      revision: over.revision ?? 1,
      scope: over.scope ?? 'tasks',
      dryRun: over.dryRun ?? false,
      tasks,
      spec,
      projectUrl: 'https://pgs.test/p',
      client: tracker,
      links,
      sleep: async (ms) => void pauses.push(ms),
      random: () => 1,
    });
  return { tracker, links, pauses, sync };
}

const actions = (items: { id: string; action: string }[]) =>
  Object.fromEntries(items.map((i) => [i.id, i.action]));

describe('the sync engine', () => {
  it('creates every task once, then finds them all unchanged', async () => {
    const { tracker, sync } = setup();
    const tasks = [1, 2, 3].map((n) => task(n));
    const first = await sync(tasks);
    expect(first.status).toBe('succeeded');
    expect(actions(first.items)).toEqual({ 'T-1': 'created', 'T-2': 'created', 'T-3': 'created' });
    expect(tracker.issues).toHaveLength(3);
    // T-3 is blocked by T-2's issue.
    expect(tracker.issues[2]!.blockedBy).toEqual(['2']);
    const writes = tracker.writes;
    const second = await sync(tasks);
    expect(actions(second.items)).toEqual({
      'T-1': 'unchanged',
      'T-2': 'unchanged',
      'T-3': 'unchanged',
    });
    expect(tracker.writes).toBe(writes);
  });

  it('fills in a blocker created after the task that names it, in the same sync', async () => {
    const { tracker, sync } = setup();
    const outcome = await sync([task(1, { dependsOn: ['T-2'] }), task(2, { dependsOn: [] })]);
    expect(actions(outcome.items)).toEqual({ 'T-1': 'created', 'T-2': 'created' });
    expect(tracker.issues[0]!.blockedBy).toEqual(['2']);
    expect(
      actions((await sync([task(1, { dependsOn: ['T-2'] }), task(2, { dependsOn: [] })])).items),
    ).toEqual({
      'T-1': 'unchanged',
      'T-2': 'unchanged',
    });
  });

  it('puts tasks under FR parents, closes done work and reopens what a revision reopened', async () => {
    const { tracker, sync } = setup();
    const tasks = [task(1), task(2, { dependsOn: [] })];
    const first = await sync(tasks, { scope: 'all' });
    expect(actions(first.items)).toEqual({
      'FR-1': 'created',
      'FR-2': 'created',
      'FR-3': 'created',
      'T-1': 'created',
      'T-2': 'created',
    });
    const parentOf = (id: string) => tracker.issues.find((i) => i.itemId === id)!;
    expect(parentOf('T-1').parent).toBe(parentOf('FR-1').externalId);
    expect(parentOf('T-2').parent).toBe(parentOf('FR-2').externalId);

    const done = [task(1, { status: 'done' }), task(2, { dependsOn: [] })];
    const second = await sync(done, { scope: 'all' });
    // T-1's checklist is ticked and its issue closed; its FR, all done, closes too.
    expect(actions(second.items)).toMatchObject({
      'T-1': 'closed',
      'FR-1': 'closed',
      'T-2': 'unchanged',
    });
    expect(parentOf('T-1').state).toBe('closed');
    expect(parentOf('T-1').body).toContain('- [x]');

    const reopened = await sync(tasks, { scope: 'all', revision: 2 });
    expect(actions(reopened.items)).toMatchObject({ 'T-1': 'reopened', 'FR-1': 'reopened' });
    expect(parentOf('T-1').comments.at(-1)).toContain('revision 2');
  });

  it('closes an obsolete task with a comment and leaves an obsolete one never pushed alone', async () => {
    const { tracker, sync } = setup();
    await sync([task(1), task(2, { dependsOn: [] })]);
    const outcome = await sync(
      [
        task(1, { status: 'obsolete' }),
        task(2, { dependsOn: [] }),
        task(3, { status: 'obsolete', dependsOn: [] }),
      ],
      { revision: 2 },
    );
    expect(outcome.items.map((i) => [i.id, i.action])).toEqual([
      ['T-1', 'closed'],
      ['T-2', 'unchanged'],
    ]);
    expect(tracker.issues[0]!.comments[0]).toMatch(/T-1 is obsolete after revision 2/);
    expect(tracker.issues).toHaveLength(2);
  });

  it('adopts marked issues whose links were lost instead of creating duplicates', async () => {
    const { tracker, links, sync } = setup();
    const tasks = [1, 2, 3].map((n) => task(n));
    await sync(tasks);
    links.rows.clear();
    const outcome = await sync(tasks);
    expect(outcome.status).toBe('succeeded');
    expect(tracker.issues).toHaveLength(3);
    // An adopted issue is written once, since what it says is not known.
    expect(outcome.items.every((i) => i.action === 'updated')).toBe(true);
    expect(links.rows.size).toBe(3);
    expect((await sync(tasks)).items.every((i) => i.action === 'unchanged')).toBe(true);
  });

  it('lists in a dry run what it would do, and writes nothing', async () => {
    const { tracker, links, sync } = setup();
    const preview = await sync([task(1), task(2)], { dryRun: true });
    expect(actions(preview.items)).toEqual({ 'T-1': 'created', 'T-2': 'created' });
    expect(preview.items[0]).toMatchObject({ externalId: null, url: null });
    expect(tracker.writes).toBe(0);
    expect(links.rows.size).toBe(0);
    await sync([task(1), task(2)]);
    const writes = tracker.writes;
    const changed = await sync([task(1, { title: 'Renamed' }), task(2, { status: 'done' })], {
      dryRun: true,
    });
    expect(actions(changed.items)).toEqual({ 'T-1': 'updated', 'T-2': 'closed' });
    expect(tracker.writes).toBe(writes);
  });

  it('retries transient failures with backoff and honours the rate limit hint', async () => {
    const { tracker, pauses, sync } = setup();
    const limited = new TrackerRequestError('API rate limit exceeded', {
      status: 403,
      retryable: true,
      retryAfterMs: 60_000,
    });
    const broken = new TrackerRequestError('Bad Gateway', { status: 502, retryable: true });
    tracker.failures = [broken, limited, broken];
    const outcome = await sync([task(1), task(2)]);
    expect(outcome.status).toBe('succeeded');
    expect(tracker.issues).toHaveLength(2);
    expect(pauses).toEqual([500, 60_000, 2_000]);
  });

  it('finds the issue of a create whose answer was lost instead of making it again', async () => {
    const { tracker, sync } = setup();
    tracker.lost = [new TrackerRequestError('Jira did not answer in time', { retryable: true })];
    const outcome = await sync([task(1), task(2)]);
    expect(actions(outcome.items)).toEqual({ 'T-1': 'created', 'T-2': 'created' });
    expect(tracker.issues.map((issue) => issue.itemId)).toEqual(['T-1', 'T-2']);
    // Once before any create, once before T-1's second create, which it made needless.
    expect(tracker.searches).toBe(2);
    // A refusal is a certain no: the create is retried without a search.
    const again = setup();
    again.tracker.failures = [
      new TrackerRequestError('rate limited', { status: 429, retryable: true }),
    ];
    await again.sync([task(1)]);
    expect(again.tracker.searches).toBe(1);
    expect(again.tracker.issues).toHaveLength(1);
  });

  it('reports a permanent failure on its item and fails the sync, the rest done', async () => {
    const { tracker, sync } = setup();
    tracker.failures = [
      new TrackerRequestError('Validation Failed', { status: 422, retryable: false }),
    ];
    const outcome = await sync([task(1), task(2, { dependsOn: [] })]);
    expect(outcome.status).toBe('failed');
    expect(outcome.items[0]).toMatchObject({
      id: 'T-1',
      action: 'failed',
      error: 'Validation Failed (HTTP 422)',
    });
    expect(outcome.items[1]).toMatchObject({ id: 'T-2', action: 'created' });
    // The next sync makes the missing one.
    expect(actions((await sync([task(1), task(2, { dependsOn: [] })])).items)).toEqual({
      'T-1': 'created',
      'T-2': 'unchanged',
    });
  });

  it('writes nothing when the tracker cannot be searched before a create', async () => {
    const { tracker, sync } = setup();
    tracker.findMarked = async () => {
      throw new TrackerRequestError('Bad credentials', { status: 401, retryable: false });
    };
    await expect(sync([task(1)])).rejects.toBeInstanceOf(SyncRecoveryError);
    expect(tracker.writes).toBe(0);
  });
});
