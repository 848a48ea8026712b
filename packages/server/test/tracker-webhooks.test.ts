/**
 * The pull direction (issue 31, item 3): a tracker's signed webhook delivery closes or reopens
 * the linked task, recorded as the tracker; unsigned, wrongly signed and stale deliveries are
 * 401, a replay changes nothing, an older change loses to a newer one; the periodic
 * reconcile catches what no delivery brought. Each provider's fake speaks its own wire
 * protocol and signs as the provider does; the real adapters read it. Times come from one
 * injected clock shared by the fakes and the app.
 */
import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedKey } from '../src/accounts/service.ts';
import { trackerLinks } from '../src/storage/schema.ts';
import { openConnection } from '../src/trackers/connections.ts';
import { githubAdapter } from '../src/trackers/providers/github.ts';
import { adapterFor } from '../src/trackers/providers/index.ts';
import type { TrackerProvider } from '../src/trackers/providers/provider.ts';
import { reconcileConnection, reconcileDue } from '../src/trackers/reconcile.ts';
import { Sealer } from '../src/trackers/sealed.ts';
import { startFakeGitHub } from './fakes/github.ts';
import { startFakeJira } from './fakes/jira.ts';
import { startFakeLinear } from './fakes/linear.ts';
import type { FakeDelivery, FakeTracker } from './fakes/tracker.ts';
import { type Backend, backends, bearer, type Harness, startHarness } from './helpers/harness.ts';
import { completedWithPlan, planDocument } from './helpers/tasks.ts';

// Well after the tasks were made (by the wall clock): the tracker's changes are newer.
let clock = Date.now() + 3_600_000;
const now = () => clock;
const tick = (ms: number) => {
  clock += ms;
  return new Date(clock);
};
const sealer = Sealer.of({ current: randomBytes(32), previous: [] });
const adapters = (provider: TrackerProvider) =>
  provider === 'github' ? githubAdapter : adapterFor(provider);
const FAKES: Record<TrackerProvider, () => Promise<FakeTracker>> = {
  github: () => startFakeGitHub({ now: () => new Date(clock) }),
  linear: () => startFakeLinear({ now: () => new Date(clock) }),
  jira: () => startFakeJira({ now: () => new Date(clock) }),
};
/** Trackers that date a delivery inside what they sign (GitHub does not: a replay is refused by its id). */
const DATED: readonly TrackerProvider[] = ['linear', 'jira'];

const options = { now, trackers: { sealer, allowPrivate: true, adapters } };
let pglite: Harness;
beforeAll(async () => {
  pglite = await startHarness('pglite', options);
});
afterAll(async () => pglite?.close());

/**
 * Every provider on PGlite; on PostgreSQL (when reachable, always in CI) one provider's
 * deliveries arriving together only: PGlite runs one transaction at a time, so only a real
 * server shows that the link's row lock orders them.
 */
const CASES: [TrackerProvider, Backend][] = [
  ...(Object.keys(FAKES) as TrackerProvider[]).map((p): [TrackerProvider, Backend] => [
    p,
    'pglite',
  ]),
  ...(await backends())
    .filter((b) => b === 'postgres')
    .map((b): [TrackerProvider, Backend] => ['github', b]),
];

describe.each(CASES)('%s on %s', (provider, backend) => {
  /** A test of the deliveries themselves: run on PGlite only (it does not lock). */
  const full = it.runIf(backend === 'pglite');
  let h: Harness;
  let key: CreatedKey;
  let fake: FakeTracker;
  let connectionId: string;
  let secret: string;
  let projectId: string;
  let issueId: string;
  // The fakes listen on loopback (PGS_CONNECTIONS_ALLOW_PRIVATE's setting).
  const deps = () => ({
    db: h.database.db,
    sealer,
    adapters,
    now,
    network: { allowPrivate: true },
  });

  beforeAll(async () => {
    h = backend === 'pglite' ? pglite : await startHarness(backend, options);
    key = await h.createKey('test');
    fake = await FAKES[provider]();
    const res = await h.request({
      method: 'POST',
      url: '/api/v1/connections',
      headers: { ...bearer(key.key), 'content-type': 'application/json' },
      payload: JSON.stringify({
        provider,
        baseUrl: fake.baseUrl,
        credentials: fake.credentials,
        target: fake.target,
      }),
    });
    expect(res.statusCode, res.body).toBe(201);
    connectionId = res.json().data.connection.id;
    secret = res.json().data.webhook.secret;
    projectId = await completedWithPlan(h.database, key, [planDocument(3)]);
    const { client } = await openConnection(deps(), { ...key, connectionId });
    const issue = await client.create({
      itemId: 'T-1',
      title: 'T-1 Task number 1',
      body: 'The first task.',
      labels: ['pgs'],
      blockedBy: [],
    });
    issueId = issue.externalId;
    await h.database.db.insert(trackerLinks).values({
      connectionId,
      projectId,
      itemId: 'T-1',
      externalId: issue.externalId,
      externalKey: issue.key,
      url: issue.url,
      digest: 'seeded',
      state: 'open',
      externalUpdatedAt: new Date(issue.updatedAt),
    });
  });
  afterAll(async () => {
    await fake?.close();
    if (backend !== 'pglite') await h?.close();
  });

  const deliver = (delivery: FakeDelivery, id = connectionId) =>
    h.request({
      method: 'POST',
      url: `/api/v1/connections/${id}/webhook`,
      headers: delivery.headers,
      payload: delivery.body,
    });
  const task = async () => {
    const res = await h.request({
      method: 'GET',
      url: `/api/v1/projects/${projectId}/tasks/T-1`,
      headers: bearer(key.key),
    });
    return res.json().data as {
      status: string;
      history: { agent: string | null; keyId: string | null; to: string; note: string | null }[];
    };
  };
  /** The issue changed on the tracker at the clock's time, and the delivery it sends. */
  const change = (
    state: 'open' | 'closed',
    options: { signature?: 'valid' | 'wrong' | 'missing' } = {},
  ) => {
    const at = tick(1_000);
    fake.setState(issueId, state, at);
    return fake.delivery(issueId, { secret, at, ...options });
  };

  full(
    'refuses a delivery unsigned or signed with another secret (401), changing nothing',
    async () => {
      for (const signature of ['missing', 'wrong'] as const) {
        const res = await deliver(change('closed', { signature }));
        expect(res.statusCode).toBe(401);
        expect(res.json().error).toMatchObject({
          code: 'WEBHOOK_SIGNATURE_INVALID',
          message: 'Signature invalid.',
        });
        expect(res.json().error.details).toBeUndefined();
      }
      expect((await task()).status).toBe('todo');
    },
  );

  it.runIf(backend === 'pglite' && DATED.includes(provider))(
    'refuses a stale delivery (401)',
    async () => {
      const stale = change('closed');
      tick(10 * 60_000);
      const res = await deliver(stale);
      expect(res.statusCode).toBe(401);
      expect(res.json().error.code).toBe('WEBHOOK_SIGNATURE_INVALID');
      expect((await task()).status).toBe('todo');
    },
  );

  full(
    'closes the task on a valid delivery, recorded as the tracker; a replay changes nothing',
    async () => {
      const delivery = change('closed');
      const res = await deliver(delivery);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data).toMatchObject({
        replayed: false,
        moved: [{ taskId: 'T-1', from: 'todo', to: 'done' }],
      });
      const closed = await task();
      expect(closed.status).toBe('done');
      const last = closed.history.at(-1)!;
      expect(last).toMatchObject({ agent: provider, keyId: null, to: 'done' });
      expect(last.note).toContain(`closed on ${provider}`);

      const again = await deliver(delivery);
      expect(again.statusCode).toBe(200);
      expect(again.json().data).toMatchObject({ replayed: true, moved: [] });
      expect((await task()).history).toHaveLength(closed.history.length);

      // The delivery id is an unsigned header: the same signed body under a new id is a replay.
      const ids = ['x-github-delivery', 'linear-delivery', 'x-atlassian-webhook-identifier'];
      const renamed = {
        ...delivery,
        headers: Object.fromEntries(
          Object.entries(delivery.headers).map(([name, value]) => [
            name,
            ids.includes(name.toLowerCase()) ? `${value}-again` : value,
          ]),
        ),
      };
      const replayed = await deliver(renamed);
      expect(replayed.statusCode).toBe(200);
      expect(replayed.json().data).toMatchObject({ replayed: true, moved: [] });
      expect((await task()).history).toHaveLength(closed.history.length);
    },
  );

  full('reopens on a newer delivery and ignores one older than what it saw', async () => {
    const reopened = await deliver(change('open'));
    expect(reopened.json().data.moved).toEqual([{ taskId: 'T-1', from: 'done', to: 'todo' }]);
    const [link] = await h.database.db
      .select()
      .from(trackerLinks)
      .where(and(eq(trackerLinks.connectionId, connectionId), eq(trackerLinks.itemId, 'T-1')));
    expect(link!.state).toBe('open');

    // A close dated before that reopening, arriving after it: the reopening stands.
    const at = new Date(link!.externalUpdatedAt!.getTime() - 500);
    fake.setState(issueId, 'closed', at);
    const late = await deliver(fake.delivery(issueId, { secret, at }));
    expect(late.statusCode).toBe(200);
    expect(late.json().data).toMatchObject({ replayed: false, moved: [], ignored: 1 });
    expect((await task()).status).toBe('todo');
  });

  it('weighs two deliveries for one issue arriving together one after the other: the newest wins', async () => {
    const older = change('open');
    const newer = change('closed');
    // The close's time as the tracker dates it (GitHub's to the second).
    const at = new Date(fake.issues().find((issue) => issue.externalId === issueId)!.updatedAt);
    // Sent at once, the older last: checked before either was recorded, both would pass the
    // newest-wins check, and the older reopening would be recorded last over the close.
    const answers = await Promise.all([deliver(newer), deliver(older)]);
    expect(answers.map((res) => res.statusCode)).toEqual([200, 200]);
    const moved = answers.flatMap((res) => res.json().data.moved);
    expect(moved).toEqual([{ taskId: 'T-1', from: 'todo', to: 'done' }]);
    const [link] = await h.database.db
      .select()
      .from(trackerLinks)
      .where(and(eq(trackerLinks.connectionId, connectionId), eq(trackerLinks.itemId, 'T-1')));
    expect(link).toMatchObject({ state: 'closed', externalUpdatedAt: at });
    expect((await task()).status).toBe('done');
    // Back as the next tests expect it: the issue open, the task todo.
    expect((await deliver(change('open'))).json().data.moved).toHaveLength(1);
  });

  full('answers an unknown connection 404', async () => {
    const res = await deliver(change('open'), 'tc_01JAAAAAAAAAAAAAAAAAAAAAAA');
    expect(res.statusCode).toBe(404);
  });

  full('reconciles a change no delivery brought, the newest change winning', async () => {
    // The issue is open (the last test); it is closed on the tracker and nobody is told.
    fake.setState(issueId, 'closed', tick(1_000));
    const first = await reconcileConnection(deps(), connectionId);
    expect(first.moves).toEqual([{ taskId: 'T-1', from: 'todo', to: 'done' }]);
    expect((await task()).history.at(-1)).toMatchObject({ agent: provider, to: 'done' });
    expect((await reconcileConnection(deps(), connectionId)).moves).toEqual([]);

    // Reopened in PGS; then someone comments on the closed issue. A comment moves the issue's
    // updatedAt, not its state: nothing to apply, however much newer than the task's move.
    const reopenEtag = (
      await h.request({
        method: 'GET',
        url: `/api/v1/projects/${projectId}/tasks/T-1`,
        headers: bearer(key.key),
      })
    ).headers.etag as string;
    const reopenedInPgs = await h.request({
      method: 'PATCH',
      url: `/api/v1/projects/${projectId}/tasks/T-1`,
      headers: { ...bearer(key.key), 'content-type': 'application/json', 'if-match': reopenEtag },
      payload: JSON.stringify({ status: 'todo', note: 'Not finished after all.' }),
    });
    expect(reopenedInPgs.statusCode, reopenedInPgs.body).toBe(200);
    tick(1_000);
    fake.setState(issueId, 'closed', tick(1_000));
    expect((await reconcileConnection(deps(), connectionId)).moves).toEqual([]);
    expect((await task()).status).toBe('todo');

    // Reopened on the tracker, but the task was moved in PGS after that: PGS's move stands.
    fake.setState(issueId, 'open', tick(1_000));
    tick(1_000);
    const etag = (
      await h.request({
        method: 'GET',
        url: `/api/v1/projects/${projectId}/tasks/T-1`,
        headers: bearer(key.key),
      })
    ).headers.etag as string;
    const patched = await h.request({
      method: 'PATCH',
      url: `/api/v1/projects/${projectId}/tasks/T-1`,
      headers: { ...bearer(key.key), 'content-type': 'application/json', 'if-match': etag },
      payload: JSON.stringify({ status: 'obsolete', note: 'Dropped.' }),
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect((await reconcileConnection(deps(), connectionId)).moves).toEqual([]);
    expect((await task()).status).toBe('obsolete');
  });

  full('reconciles each connection once per interval, by the injected clock', async () => {
    const interval = 300_000;
    // Whatever an earlier reconcile claimed (another provider's test) is due again.
    tick(interval + 1_000);
    const due = await reconcileDue(deps(), interval);
    expect(due).toContain(connectionId);
    expect(await reconcileDue(deps(), interval)).not.toContain(connectionId);
    tick(interval + 1_000);
    expect(await reconcileDue(deps(), interval)).toContain(connectionId);
  });
});
