/**
 * The Linear adapter through the official `@linear/sdk` against the fake Linear GraphQL API
 * (test/fakes/linear.ts): verification, issues with labels, parents and blockers, closing and
 * reopening, marker recovery across pages, Linear's failures, and signed webhooks.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linearAdapter } from '../src/trackers/providers/linear.ts';
import {
  type IssueDraft,
  itemMarker,
  type TrackerClient,
  TrackerRequestError,
} from '../src/trackers/providers/provider.ts';
import { type FakeLinear, startFakeLinear } from './fakes/linear.ts';

let clock = new Date('2026-03-02T10:00:00.000Z');
let fake: FakeLinear;
let client: TrackerClient;
const projectId = randomUUID();

function connect(overrides: { token?: string; team?: string } = {}): TrackerClient {
  return linearAdapter.connect({
    baseUrl: fake.baseUrl,
    credentials: { token: overrides.token ?? (fake.credentials as { token: string }).token },
    target: { team: overrides.team ?? 'ENG' },
  });
}

function draft(itemId: string, extra: Partial<IssueDraft> = {}): IssueDraft {
  return {
    itemId,
    title: `${itemId} Build the booking form`,
    body: `The task.\n\n- [ ] a criterion\n\n${itemMarker(projectId, itemId)}`,
    labels: ['pgs', 'FR-1'],
    blockedBy: [],
    ...extra,
  };
}

async function failure(promise: Promise<unknown>): Promise<TrackerRequestError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(TrackerRequestError);
  return error as TrackerRequestError;
}

beforeAll(async () => {
  fake = await startFakeLinear({ now: () => clock, pageSize: 4 });
  client = connect();
});

afterAll(async () => {
  await fake.close();
});

describe('validate and verify', () => {
  it('checks the shape of credentials and target', () => {
    expect(linearAdapter.validate({ token: 'lin_api_x' }, { team: 'ENG' })).toBeUndefined();
    expect(linearAdapter.validate({ apiToken: 'x' }, { team: 'ENG' })).toMatch(/token/);
    expect(linearAdapter.validate({ token: 'lin_api_x' }, { projectKey: 'ENG' })).toMatch(/team/);
  });

  it('finds the team by key or by id', async () => {
    const byKey = await client.verify();
    expect(byKey).toMatchObject({ team: 'ENG', teamId: fake.teamId, teamKey: 'ENG' });
    expect(await connect({ team: fake.teamId }).verify()).toMatchObject({ teamKey: 'ENG' });
    expect(await connect({ team: 'eng' }).verify()).toMatchObject({ teamId: fake.teamId });
  });

  it('takes a stored target as it is, but verifies a claimed one', async () => {
    const stored = await client.verify();
    const again = linearAdapter.connect({
      baseUrl: fake.baseUrl,
      credentials: fake.credentials,
      target: stored as { team: string },
    });
    const before = fake.operations().length;
    await again.findMarked(randomUUID());
    expect(fake.operations().slice(before)).toEqual(['issues']);
    const claimed = linearAdapter.connect({
      baseUrl: fake.baseUrl,
      credentials: fake.credentials,
      target: { team: 'OPS', teamId: fake.teamId, teamKey: 'OPS' } as { team: string },
    });
    expect((await failure(claimed.verify())).reason).toMatch(/no Linear team "OPS"/);
  });

  it('says the key was refused, without the key, and does not retry', async () => {
    const token = 'lin_api_wrongwrongwrong';
    const error = await failure(connect({ token }).verify());
    expect(error.retryable).toBe(false);
    expect(error.status).toBe(401);
    expect(error.reason).toMatch(/^the Linear API key was refused: Authentication required/);
    expect(error.reason).not.toContain(token);
  });

  it('names a team the key cannot see', async () => {
    const error = await failure(connect({ team: 'OPS' }).verify());
    expect(error).toMatchObject({ retryable: false, status: 404 });
    expect(error.reason).toBe('no Linear team "OPS" is visible to this API key');
  });
});

describe('issues', () => {
  let parent: string;
  let first: string;

  it('creates an issue with labels, the missing ones created once on the team', async () => {
    const created = await client.create(draft('FR-1', { title: 'FR-1 Bookings', labels: ['pgs'] }));
    parent = created.externalId;
    expect(created).toMatchObject({
      key: 'ENG-1',
      state: 'open',
      updatedAt: clock.toISOString(),
      marker: { projectId, itemId: 'FR-1' },
    });
    expect(created.url).toMatch(/\/issue\/ENG-1$/);
    expect(fake.issues()[0]).toMatchObject({ title: 'FR-1 Bookings', labels: ['pgs'] });
  });

  it('creates a sub-issue of its FR parent, blocked by another issue', async () => {
    first = (await client.create(draft('T-1', { parent }))).externalId;
    const before = fake.operations().filter((name) => name === 'createIssueLabel').length;
    const second = await client.create(draft('T-2', { parent, blockedBy: [first] }));
    const after = fake.operations().filter((name) => name === 'createIssueLabel').length;
    expect(after).toBe(before);
    const stored = fake.issues().find((one) => one.externalId === second.externalId);
    expect(stored).toMatchObject({
      key: 'ENG-3',
      parent,
      blockedBy: [first],
      labels: ['pgs', 'FR-1'],
    });
    expect(stored?.body).toContain(itemMarker(projectId, 'T-2'));
  });

  it("updates title, body and labels, keeping people's labels, without duplicating a blocker", async () => {
    const [, , second] = fake.issues();
    fake.label(second!.externalId, 'frontend');
    clock = new Date('2026-03-02T11:00:00.000Z');
    // A fresh client: the labels are found on Linear, not in a cache.
    const fresh = connect();
    const updated = await fresh.update(
      second!.externalId,
      draft('T-2', { title: 'T-2 Renamed', labels: ['pgs', 'FR-2', 'Bug'], blockedBy: [first] }),
    );
    expect(updated.updatedAt).toBe('2026-03-02T11:00:00.000Z');
    const stored = fake.issues()[2]!;
    expect(stored).toMatchObject({ title: 'T-2 Renamed', blockedBy: [first], parent });
    // FR-1 is gone (the task moved to FR-2); the person's label stays.
    expect(stored.labels).toEqual(['pgs', 'FR-2', 'Bug', 'frontend']);
    expect(fake.operations().filter((name) => name === 'createIssueRelation')).toHaveLength(1);
  });

  it('closes with a comment, once, then reopens', async () => {
    const closed = await client.setState(first, 'closed', 'T-1 is obsolete since revision 2.');
    expect(closed.state).toBe('closed');
    const again = await client.setState(first, 'closed', 'T-1 is obsolete since revision 2.');
    expect(again.state).toBe('closed');
    expect(fake.issues()[1]).toMatchObject({
      state: 'closed',
      comments: ['T-1 is obsolete since revision 2.'],
    });
    const reopened = await client.setState(first, 'open', undefined);
    expect(reopened.state).toBe('open');
    expect((await client.get(first)).state).toBe('open');
  });

  it('reads a state a person set on Linear', async () => {
    fake.setState(parent, 'closed', new Date('2026-03-02T12:00:00.000Z'));
    expect(await client.get(parent)).toMatchObject({
      state: 'closed',
      updatedAt: '2026-03-02T12:00:00.000Z',
    });
  });

  it('finds every marked issue of a project, across pages', async () => {
    const other = randomUUID();
    const seeded = Array.from({ length: 9 }, (_, index) =>
      fake.seed({ title: `T-${index + 10}`, body: itemMarker(other, `T-${index + 10}`) }),
    );
    fake.seed({ title: 'unrelated', body: 'no marker here' });
    const pagesBefore = fake.operations().filter((name) => name === 'issues').length;
    const found = await client.findMarked(other);
    expect(fake.operations().filter((name) => name === 'issues').length - pagesBefore).toBe(3);
    expect(found.map((one) => one.externalId)).toEqual(seeded);
    expect(found.map((one) => one.marker?.itemId)).toEqual(seeded.map((_, i) => `T-${i + 10}`));
    const ours = await client.findMarked(projectId);
    expect(ours.map((one) => one.marker?.itemId).sort()).toEqual(['FR-1', 'T-1', 'T-2']);
  });
});

describe("Linear's failures", () => {
  it('a rate-limit answer is retryable after the reset Linear gives', async () => {
    fake.rateLimit(1, 30);
    const error = await failure(client.get(fake.issues()[0]!.externalId));
    expect(error).toMatchObject({ retryable: true, status: 429 });
    expect(error.reason).toMatch(/rate limit/i);
    expect(error.retryAfterMs).toBeGreaterThan(25_000);
    expect(error.retryAfterMs).toBeLessThanOrEqual(30_000);
    // The window is over: the next call goes through.
    expect((await client.get(fake.issues()[0]!.externalId)).key).toBe('ENG-1');
  });

  it('5xx answers are retryable, a refused input is not', async () => {
    fake.failWrites(1, 502);
    const gateway = await failure(client.create(draft('T-3')));
    expect(gateway).toMatchObject({ retryable: true, status: 502 });
    fake.failWrites(1, 500);
    const internal = await failure(client.create(draft('T-3')));
    expect(internal).toMatchObject({ retryable: true, status: 500 });
    const count = fake.issues().length;
    expect((await client.create(draft('T-3'))).key).toBe(`ENG-${count + 1}`);
    const refused = await failure(client.get(randomUUID()));
    expect(refused.retryable).toBe(false);
    expect(refused.reason).toMatch(/Could not find referenced Issue/);
  });

  it('a create retried after its answer was lost makes no second issue', async () => {
    const count = fake.issues().length;
    fake.failOperation('createIssue', { after: true, status: 502 });
    const lost = await failure(client.create(draft('T-4')));
    expect(lost.retryable).toBe(true);
    expect(fake.issues()).toHaveLength(count + 1);
    const retried = await client.create(draft('T-4', { title: 'T-4 Retried' }));
    expect(fake.issues()).toHaveLength(count + 1);
    expect(retried.externalId).toBe(fake.issues()[count]!.externalId);
    expect(fake.issues()[count]!.title).toBe('T-4 Retried');
  });

  it('a create that failed after its issue, at a blocker, finishes on retry', async () => {
    const count = fake.issues().length;
    const blocker = fake.issues()[0]!.externalId;
    fake.failOperation('createIssueRelation', { after: true, status: 500 });
    await failure(client.create(draft('T-5', { blockedBy: [blocker] })));
    const retried = await client.create(draft('T-5', { blockedBy: [blocker] }));
    expect(fake.issues()).toHaveLength(count + 1);
    expect(fake.issues()[count]).toMatchObject({
      externalId: retried.externalId,
      blockedBy: [blocker],
    });
  });

  it('a state change retried after its comment comments once', async () => {
    const id = fake.issues()[0]!.externalId;
    fake.setState(id, 'open');
    const before = fake.issues()[0]!.comments.length;
    fake.failOperation('updateIssue', { after: false, status: 503 });
    expect(
      (await failure(client.setState(id, 'closed', 'Obsolete in revision 3.'))).retryable,
    ).toBe(true);
    expect((await client.setState(id, 'closed', 'Obsolete in revision 3.')).state).toBe('closed');
    expect(fake.issues()[0]!.comments.slice(before)).toEqual(['Obsolete in revision 3.']);
    // The reopen's comment lands but its answer is lost: the retry finds it on the issue.
    fake.failOperation('createComment', { after: true, status: 502 });
    expect((await failure(client.setState(id, 'open', 'Back in revision 4.'))).retryable).toBe(
      true,
    );
    expect((await client.setState(id, 'open', 'Back in revision 4.')).state).toBe('open');
    expect(fake.issues()[0]!.comments.slice(before)).toEqual([
      'Obsolete in revision 3.',
      'Back in revision 4.',
    ]);
  });

  it('an unreachable Linear is retryable', async () => {
    const closed = await startFakeLinear();
    const { baseUrl } = closed;
    await closed.close();
    const unreachable = linearAdapter.connect({
      baseUrl,
      credentials: closed.credentials,
      target: closed.target,
    });
    const error = await failure(unreachable.verify());
    expect(error.retryable).toBe(true);
  });
});

describe('webhooks', () => {
  const secret = 'whsec-linear-test';

  function input(delivery: { headers: Record<string, string>; body: string }, now: Date) {
    return { headers: delivery.headers, rawBody: Buffer.from(delivery.body), secret, now };
  }

  it('reads a signed state change', async () => {
    const issue = fake.issues()[0]!;
    const at = new Date('2026-03-03T09:00:00.000Z');
    const delivery = fake.delivery(issue.externalId, { secret, at });
    const verdict = await linearAdapter.verifyWebhook(
      input(delivery, new Date(at.getTime() + 5000)),
    );
    expect(verdict).toEqual({
      ok: true,
      delivery: {
        deliveryId: delivery.headers['linear-delivery'],
        changes: [
          { externalId: issue.externalId, state: issue.state, updatedAt: at.toISOString() },
        ],
      },
    });
  });

  it('refuses wrong, missing and stale signatures', async () => {
    const id = fake.issues()[0]!.externalId;
    const at = new Date('2026-03-03T09:00:00.000Z');
    for (const signature of ['wrong', 'missing'] as const) {
      const verdict = await linearAdapter.verifyWebhook(
        input(fake.delivery(id, { secret, at, signature }), at),
      );
      expect(verdict.ok).toBe(false);
    }
    const stale = await linearAdapter.verifyWebhook(
      input(fake.delivery(id, { secret, at }), new Date(at.getTime() + 61_000)),
    );
    expect(stale).toEqual({ ok: false, reason: expect.stringMatching(/stale/) });
    const tampered = fake.delivery(id, { secret, at });
    tampered.body = `${tampered.body} `;
    expect((await linearAdapter.verifyWebhook(input(tampered, at))).ok).toBe(false);
  });

  it('acknowledges other events with no change', async () => {
    const id = fake.issues()[0]!.externalId;
    const at = new Date('2026-03-03T09:00:00.000Z');
    const events = [
      { action: 'create', type: 'Comment', data: { id: randomUUID(), issueId: id, body: 'hi' } },
      {
        action: 'update',
        type: 'Issue',
        data: { id, state: { type: 'completed' } },
        updatedFrom: { title: 'old' },
      },
      { action: 'create', type: 'Issue', data: { id, state: { type: 'unstarted' } } },
    ];
    for (const event of events) {
      const delivery = fake.signed({ ...event, webhookTimestamp: at.getTime() }, secret);
      const verdict = await linearAdapter.verifyWebhook(input(delivery, at));
      expect(verdict).toEqual({
        ok: true,
        delivery: { deliveryId: expect.any(String), changes: [] },
      });
    }
    expect(linearAdapter.webhookHelp).toMatch(/webhookCreate.*Settings → API → Webhooks/);
  });
});
