/**
 * The Jira adapter through jira.js against the fake Jira Cloud site (test/fakes/jira.ts):
 * verification, issues with labels, parents and blockers, transitions, the paged marker
 * search, and webhook verification (failures: trackers-jira-failures.test.ts). jira.js runs
 * with `onSchemaMismatch: 'throw'`, so an answer of the fake that Jira's schemas do not describe
 * fails the test.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { adapterFor } from '../src/trackers/providers/index.ts';
import { jiraAdapter } from '../src/trackers/providers/jira.ts';
import type { TrackerClient } from '../src/trackers/providers/provider.ts';
import { type FakeJira, jiraDelivery } from './fakes/jira.ts';
import { draft, jiraSites, refusal } from './helpers/trackers-jira.ts';

let now = new Date('2026-11-28T10:00:00.000Z');
const clock = () => now;
const tick = (ms = 60_000) => {
  now = new Date(now.getTime() + ms);
  return now;
};

const { fakeJira, clientFor } = jiraSites(clock);

let fake: FakeJira;
let client: TrackerClient;
const project = randomUUID();

beforeAll(async () => {
  fake = await fakeJira({ pageSize: 2 });
  client = clientFor(fake);
});

describe('the Jira adapter: connection', () => {
  it('is the registry’s adapter for jira', () => {
    expect(adapterFor('jira')).toBe(jiraAdapter);
  });

  it('validates credentials, the project key and the site', () => {
    const credentials = { email: 'robot@example.com', apiToken: 't' };
    expect(jiraAdapter.validate(credentials, { projectKey: 'PGS' })).toBeUndefined();
    expect(jiraAdapter.validate({ token: 't' }, { projectKey: 'PGS' })).toMatch(/email/);
    expect(jiraAdapter.validate({ email: 'a@b.c' }, { projectKey: 'PGS' })).toMatch(/API token/);
    expect(jiraAdapter.validate(credentials, { team: 'ENG' })).toMatch(/projectKey/);
    expect(jiraAdapter.validate(credentials, { projectKey: 'pgs' })).toMatch(/projectKey/);
    const withSite = jiraAdapter.validate as (c: unknown, t: unknown, b?: string | null) => unknown;
    expect(withSite(credentials, { projectKey: 'PGS' }, null)).toMatch(/baseUrl/);
    expect(
      withSite(credentials, { projectKey: 'PGS' }, 'https://acme.atlassian.net'),
    ).toBeUndefined();
  });

  it('verifies the account and the project, and returns what later calls need', async () => {
    expect(await client.verify()).toEqual({
      projectKey: 'PGS',
      projectId: '10000',
      issueTypeId: '10001',
      parentIssueTypeId: '10000',
      subtaskIssueTypeId: '',
    });
  });

  it('refuses wrong credentials in words, without the token', async () => {
    const apiToken = 'not-the-token-1234';
    const wrong = clientFor(fake, { credentials: { email: 'robot@example.com', apiToken } });
    const error = await refusal(wrong.verify());
    expect(error).toMatchObject({ status: 401, retryable: false });
    expect(error.reason).toBe('Jira refused the email and API token');
    expect(JSON.stringify({ ...error, message: error.message })).not.toContain(apiToken);
  });

  it('refuses an unknown project with Jira’s reason', async () => {
    const error = await refusal(clientFor(fake, { target: { projectKey: 'NOPE' } }).verify());
    expect(error).toMatchObject({ status: 404, retryable: false });
    expect(error.reason).toContain("No project could be found with key 'NOPE'");
  });

  it('refuses a project the account may not create issues in', async () => {
    const locked = await fakeJira({ canCreate: false });
    const error = await refusal(clientFor(locked).verify());
    expect(error).toMatchObject({ status: 403, retryable: false });
    expect(error.reason).toMatch(/may not create issues in project PGS/);
  });

  it('says a Jira connection needs its site', async () => {
    const error = await refusal(clientFor(fake, { baseUrl: null }).verify());
    expect(error).toMatchObject({ status: 400, retryable: false });
    expect(error.reason).toMatch(/baseUrl/);
  });
});

describe('the Jira adapter: issues', () => {
  it('creates an Epic per FR group and Tasks under it, with labels, blockers and the marker', async () => {
    const epic = await client.create(draft(project, 'FR-1', { labels: ['pgs', 'FR-1'] }));
    const first = await client.create(draft(project, 'T-1', { parent: epic.externalId }));
    tick();
    const second = await client.create(
      draft(project, 'T-2', { parent: epic.externalId, blockedBy: [first.externalId] }),
    );
    expect(second).toEqual({
      externalId: expect.any(String),
      key: expect.stringMatching(/^PGS-\d+$/),
      url: `${fake.baseUrl}/browse/${second.key}`,
      state: 'open',
      updatedAt: now.toISOString(),
      marker: { projectId: project, itemId: 'T-2' },
    });
    const held = fake.issues().find((issue) => issue.externalId === second.externalId)!;
    expect(held).toMatchObject({
      title: 'T-2 Build the booking form',
      labels: ['pgs', 'FR-1'],
      parent: epic.externalId,
      blockedBy: [first.externalId],
    });
    // The markdown arrives as ADF: a heading, a task list, and the marker as plain text.
    expect(held.body).toContain('FR-1.1 a slot is chosen');
    expect(held.body).toContain(`pgs:project=${project} item=T-2`);
    expect(held.body).not.toContain('<!--');
  });

  it('makes FR groups Tasks and their tasks Sub-tasks where the project has no Epic', async () => {
    const flat = await fakeJira({ epics: false });
    const flatClient = clientFor(flat);
    expect(await flatClient.verify()).toMatchObject({
      issueTypeId: '10001',
      parentIssueTypeId: '10001',
      subtaskIssueTypeId: '10002',
    });
    const group = await flatClient.create(draft(project, 'FR-2'));
    const task = await flatClient.create(draft(project, 'T-9', { parent: group.externalId }));
    const held = (id: string) => flat.issues().find((issue) => issue.externalId === id)!;
    expect(held(task.externalId).parent).toBe(group.externalId);
    // A sub-task cannot lose its parent, and a Task synced before its group cannot gain one:
    // both updates go through without the hierarchy error Jira would give.
    await flatClient.update(task.externalId, draft(project, 'T-9'));
    expect(held(task.externalId).parent).toBe(group.externalId);
    const early = await flatClient.create(draft(project, 'T-10'));
    await flatClient.update(early.externalId, draft(project, 'T-10', { parent: group.externalId }));
    expect(held(early.externalId).parent).toBeUndefined();
  });

  it('updates title, body, labels, parent and blockers, and leaves the state alone', async () => {
    const epic = await client.create(draft(project, 'FR-3'));
    const a = await client.create(draft(project, 'T-3'));
    const b = await client.create(draft(project, 'T-4'));
    const c = await client.create(
      draft(project, 'T-5', { parent: epic.externalId, blockedBy: [a.externalId] }),
    );
    tick();
    const updated = await client.update(
      c.externalId,
      draft(project, 'T-5', {
        title: 'T-5 Take payments',
        labels: ['pgs', 'FR-3'],
        blockedBy: [b.externalId],
      }),
    );
    expect(updated).toMatchObject({ state: 'open', updatedAt: now.toISOString() });
    const held = fake.issues().find((issue) => issue.externalId === c.externalId)!;
    expect(held).toMatchObject({
      title: 'T-5 Take payments',
      labels: ['pgs', 'FR-3'],
      blockedBy: [b.externalId],
    });
    expect(held.parent).toBeUndefined();
  });

  it('closes through a transition to Done with a comment first, and reopens to To Do', async () => {
    const issue = await client.create(draft(project, 'T-6'));
    tick();
    const closed = await client.setState(issue.externalId, 'closed', 'Obsolete after revision 2.');
    expect(closed).toMatchObject({ state: 'closed', updatedAt: now.toISOString() });
    const held = () => fake.issues().find((each) => each.externalId === issue.externalId)!;
    expect(held()).toMatchObject({ state: 'closed', comments: ['Obsolete after revision 2.'] });
    // Closing a closed issue changes nothing.
    expect((await client.setState(issue.externalId, 'closed', undefined)).state).toBe('closed');
    tick();
    const reopened = await client.setState(issue.externalId, 'open', undefined);
    expect(reopened).toMatchObject({ state: 'open', updatedAt: now.toISOString() });
    expect(held().state).toBe('open');
  });

  it('finds every marked issue of a project across pages', async () => {
    const other = randomUUID();
    const site = await fakeJira({ pageSize: 2 });
    const paged = clientFor(site);
    const mine = [];
    for (let n = 1; n <= 5; n += 1) mine.push(await paged.create(draft(project, `T-${n}`)));
    await paged.create(draft(other, 'T-1'));
    await paged.create(draft(project, 'T-77', { labels: ['FR-1'] }));
    const found = await paged.findMarked(project);
    expect(found.map((issue) => issue.externalId)).toEqual(mine.map((issue) => issue.externalId));
    expect(found.map((issue) => issue.marker?.itemId)).toEqual(['T-1', 'T-2', 'T-3', 'T-4', 'T-5']);
    const searches = site
      .requests()
      .filter((line) => line.startsWith('GET /rest/api/3/search/jql'));
    expect(searches).toHaveLength(3); // six labelled issues, two a page
    expect(searches.slice(1).every((line) => line.includes('nextPageToken='))).toBe(true);
  });
});

describe('the Jira adapter: webhooks', () => {
  const secret = 'whsec-jira-test';
  const verify = (delivery: { headers: Record<string, string>; body: string }, at = now) =>
    jiraAdapter.verifyWebhook({
      headers: delivery.headers,
      rawBody: Buffer.from(delivery.body),
      secret,
      now: at,
    });

  it('reads a status change from a signed jira:issue_updated', async () => {
    const issue = await client.create(draft(project, 'T-20'));
    const at = tick();
    fake.setState(issue.externalId, 'closed', at);
    const delivery = fake.delivery(issue.externalId, { secret, at });
    const verdict = await verify(delivery, new Date(at.getTime() + 30_000));
    expect(verdict).toEqual({
      ok: true,
      delivery: {
        deliveryId: delivery.headers['x-atlassian-webhook-identifier'],
        changes: [{ externalId: issue.externalId, state: 'closed', updatedAt: at.toISOString() }],
      },
    });
    fake.setState(issue.externalId, 'open', at);
    const reopened = await verify(fake.delivery(issue.externalId, { secret, at }));
    expect(reopened.ok && reopened.delivery.changes[0]?.state).toBe('open');
  });

  it('refuses a wrong or missing signature, and a stale delivery', async () => {
    const issue = await client.create(draft(project, 'T-21'));
    const wrong = await verify(
      fake.delivery(issue.externalId, { secret, at: now, signature: 'wrong' }),
    );
    expect(wrong).toEqual({ ok: false, reason: expect.stringMatching(/does not match/) });
    const missing = await verify(
      fake.delivery(issue.externalId, { secret, at: now, signature: 'missing' }),
    );
    expect(missing).toEqual({ ok: false, reason: expect.stringMatching(/unsigned/) });
    const old = new Date(now.getTime() - 6 * 60_000);
    const stale = await verify(fake.delivery(issue.externalId, { secret, at: old }));
    expect(stale).toEqual({ ok: false, reason: expect.stringMatching(/stale/) });
    const ahead = new Date(now.getTime() + 6 * 60_000);
    expect((await verify(fake.delivery(issue.externalId, { secret, at: ahead }))).ok).toBe(false);
  });

  it('acknowledges other events with no change, and names an unnamed delivery by its body', async () => {
    const summaryEdit = jiraDelivery(
      {
        timestamp: now.getTime(),
        webhookEvent: 'jira:issue_updated',
        issue: { id: '10001', fields: { status: { statusCategory: { key: 'done' } } } },
        changelog: { items: [{ field: 'summary', fieldId: 'summary' }] },
      },
      { secret, identifier: 'a-1' },
    );
    expect(await verify(summaryEdit)).toEqual({
      ok: true,
      delivery: { deliveryId: 'a-1', changes: [] },
    });
    const comment = jiraDelivery(
      { timestamp: now.getTime(), webhookEvent: 'comment_created' },
      { secret },
    );
    const first = await verify(comment);
    const again = await verify(comment);
    expect(first).toMatchObject({ ok: true, delivery: { changes: [] } });
    expect(first.ok && first.delivery.deliveryId).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(again).toEqual(first);
  });
});
