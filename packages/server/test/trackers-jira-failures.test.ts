/**
 * The Jira adapter's failures through jira.js against the fake Jira Cloud site
 * (test/fakes/jira.ts): rate limits, 5xx and unreachable sites as retryable errors, retried
 * writes never made twice, and a sync whose create got no answer (Jira slower than the
 * client waits, a connection dropped after the create) finding the issue by its marker
 * instead of making a second one. jira.js runs with `onSchemaMismatch: 'throw'`.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { DraftTask } from '../src/trackers/drafts.ts';
import { connectJira } from '../src/trackers/providers/jira/client.ts';
import type { TrackerClient } from '../src/trackers/providers/provider.ts';
import { type ItemLink, runSync } from '../src/trackers/sync.ts';
import { type FakeJira, startFakeJira } from './fakes/jira.ts';
import { draft, jiraSites, refusal } from './helpers/trackers-jira.ts';

const now = new Date('2026-11-28T10:00:00.000Z');

const { fakeJira, clientFor } = jiraSites(() => now);

let fake: FakeJira;
let client: TrackerClient;
const project = randomUUID();

beforeAll(async () => {
  fake = await fakeJira();
  client = clientFor(fake);
});

describe('the Jira adapter: failures', () => {
  it('gives a 429 back as retryable with Retry-After, and never waits itself', async () => {
    const issue = await client.create(draft(project, 'T-10'));
    fake.rateLimit(1, 7);
    const before = fake.calls();
    const error = await refusal(client.get(issue.externalId));
    expect(error).toMatchObject({ status: 429, retryable: true, retryAfterMs: 7000 });
    expect(fake.calls() - before).toBe(1);
    expect((await client.get(issue.externalId)).externalId).toBe(issue.externalId);
  });

  it('gives a 5xx back as retryable and creates nothing', async () => {
    const count = fake.issues().length;
    fake.failWrites(1, 503);
    const error = await refusal(client.create(draft(project, 'T-11')));
    expect(error).toMatchObject({ status: 503, retryable: true });
    expect(fake.issues()).toHaveLength(count);
  });

  it('never makes an issue twice when a create is retried', async () => {
    const site = await fakeJira();
    const retried = clientFor(site);
    // The answer to the create is lost: Jira made the issue, the client heard 502.
    site.faultOn('POST /rest/api/3/issue', 1, 'lose');
    expect(await refusal(retried.create(draft(project, 'T-30')))).toMatchObject({
      status: 502,
      retryable: true,
    });
    const again = await retried.create(draft(project, 'T-30', { title: 'T-30 Retried' }));
    expect(site.issues().map((issue) => [issue.externalId, issue.title])).toEqual([
      [again.externalId, 'T-30 Retried'],
    ]);
    // The create succeeded but a blocker's link failed: the retry links, and makes nothing.
    site.faultOn('POST /rest/api/3/issueLink', 1, 'fail');
    const linked = draft(project, 'T-31', { blockedBy: [again.externalId] });
    expect((await refusal(retried.create(linked))).retryable).toBe(true);
    const made = await retried.create(linked);
    expect(site.issues()).toHaveLength(2);
    expect(site.issues()[1]).toMatchObject({
      externalId: made.externalId,
      blockedBy: [again.externalId],
    });
  });

  it('comments once when a close is retried after its transition failed', async () => {
    const site = await fakeJira();
    const retried = clientFor(site);
    const issue = await retried.create(draft(project, 'T-32'));
    site.faultOn(`POST /rest/api/3/issue/${issue.externalId}/transitions`, 1, 'fail');
    expect(
      (await refusal(retried.setState(issue.externalId, 'closed', 'Obsolete.'))).retryable,
    ).toBe(true);
    expect((await retried.setState(issue.externalId, 'closed', 'Obsolete.')).state).toBe('closed');
    expect(site.issues()[0]).toMatchObject({ state: 'closed', comments: ['Obsolete.'] });
  });

  it('gives Jira’s field errors back as the reason of a 400', async () => {
    const error = await refusal(client.update('999999', draft(project, 'T-12')));
    expect(error).toMatchObject({ status: 404, retryable: false });
    const bad = await refusal(client.create(draft(project, 'T-13', { parent: '999999' })));
    expect(bad).toMatchObject({ status: 400, retryable: false });
    expect(bad.reason).toBe('parent: Could not find issue by id or key.');
  });

  it('gives an unreachable site back as retryable', async () => {
    const gone = await startFakeJira();
    await gone.close();
    const error = await refusal(clientFor(gone).verify());
    expect(error).toMatchObject({ retryable: true });
  });

  it('stops waiting when the caller aborts', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(client.verify(controller.signal)).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('a sync to Jira after a create without an answer', () => {
  const task = (n: number): DraftTask => ({
    id: `T-${n}`,
    title: `Task ${n}`,
    phase: 'M1',
    requirements: ['FR-1'],
    criteria: [],
    dependsOn: [],
    files: [],
    status: 'todo',
  });
  /** One sync of two tasks through `client`, its links in memory, every pause skipped. */
  const sync = (client: TrackerClient) => {
    const links = new Map<string, ItemLink>();
    return runSync({
      projectId: project,
      revision: 1,
      scope: 'tasks',
      dryRun: false,
      tasks: [task(1), task(2)],
      spec: { requirements: [], criteria: new Map() },
      projectUrl: undefined,
      client,
      links: {
        list: async () => [...links.values()],
        save: async (link) => void links.set(link.itemId, link),
      },
      sleep: async () => {},
    });
  };
  const creates = (site: FakeJira) =>
    site.requests().filter((line) => line === 'POST /rest/api/3/issue').length;

  it('finds the issue a timed-out create made, and makes no second one', async () => {
    const site = await fakeJira();
    // Each call's timeout is a signal the test ends: no wall clock.
    const waits: AbortController[] = [];
    const timeout = () => {
      waits.push(new AbortController());
      return waits.at(-1)!.signal;
    };
    const timing = connectJira(
      { baseUrl: site.baseUrl, credentials: site.credentials, target: site.target },
      { onSchemaMismatch: 'throw', timeout },
    );
    // Jira makes T-1's issue but answers after the client stopped waiting: its timeout.
    site.faultOn('POST /rest/api/3/issue', 1, 'hold');
    void site.whenHeld().then(() => {
      waits.at(-1)!.abort(new DOMException('The operation timed out.', 'TimeoutError'));
    });
    const outcome = await sync(timing);
    expect(outcome.status).toBe('succeeded');
    expect(outcome.items.map((item) => [item.id, item.action])).toEqual([
      ['T-1', 'created'],
      ['T-2', 'created'],
    ]);
    expect(site.issues().map((issue) => issue.title)).toEqual(['T-1 Task 1', 'T-2 Task 2']);
    expect(creates(site)).toBe(2);
    expect(site.release()).toBe(1);
  });

  it('finds the issue a create made before its connection dropped', async () => {
    const site = await fakeJira();
    site.faultOn('POST /rest/api/3/issue', 1, 'drop');
    const outcome = await sync(clientFor(site));
    expect(outcome.status).toBe('succeeded');
    expect(site.issues().map((issue) => issue.title)).toEqual(['T-1 Task 1', 'T-2 Task 2']);
    expect(outcome.items[0]).toMatchObject({
      id: 'T-1',
      action: 'created',
      externalId: site.issues()[0]!.externalId,
    });
  });
});
