/**
 * A sync never stays stuck (review of issue 31): one whose turn never came ends `failed` on its
 * job's last attempt, and one left `running` by a worker that died on its last attempt stops
 * blocking the project and connection once it has outlived any job. Each claim is an attempt
 * with a token of its own: an earlier attempt still alive after a retry took over may write
 * nothing more, and stops.
 */
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { projectSyncs, trackerConnections, trackerLinks } from '../src/storage/schema.ts';
import {
  claimSync,
  finishSync,
  STALE_RUN_MS,
  saveSyncLink,
} from '../src/storage/sql/tracker-syncs.ts';
import { recordLinkObserved } from '../src/storage/sql/trackers.ts';
import { Tasks } from '../src/tasks/service.ts';
import type { IssueDraft, TrackerClient } from '../src/trackers/providers/provider.ts';
import { ProjectSyncs } from '../src/trackers/syncs.ts';
import { harnessFor } from './helpers/harness.ts';
import { completedWithPlan, planDocument } from './helpers/tasks.ts';

describe('claiming a sync', () => {
  const harness = harnessFor('pglite');
  let n = 0;
  const seeded = async (plan = false) => {
    const h = harness();
    const key = await h.createKey('test');
    const projectId = plan
      ? await completedWithPlan(h.database, key, [planDocument(2)])
      : await h.seedProject(key, { status: 'completed' });
    const connectionId = `tc_01JD6WQ8V4Z9K3M2N5P7R8T${String(++n).padStart(3, '0')}`;
    await h.database.db.insert(trackerConnections).values({
      id: connectionId,
      accountId: key.accountId,
      mode: key.mode,
      provider: 'github',
      name: 'o/r',
      target: { owner: 'o', repo: 'r' },
      credentials: 'sealed',
      webhookSecret: 'sealed',
    });
    const sync = async (id: string, status: 'queued' | 'running', startedAt: Date | null) => {
      await h.database.db.insert(projectSyncs).values({
        id,
        projectId,
        connectionId,
        scope: 'tasks',
        status,
        startedAt,
      });
      return id;
    };
    return { sync, projectId, connectionId };
  };
  const read = async (id: string) =>
    (await harness().database.db.select().from(projectSyncs).where(eq(projectSyncs.id, id)))[0]!;

  it('waits behind a running sync, and takes over from one that outlived any job', async () => {
    const { sync } = await seeded();
    const t0 = new Date('2026-11-28T10:00:00Z');
    const running = await sync(`sync_${'A'.repeat(26)}`, 'running', t0);
    const queued = await sync(`sync_${'B'.repeat(26)}`, 'queued', null);
    const claim = (at: number) =>
      harness().database.db.transaction((tx) => claimSync(tx, queued, new Date(at), 'att_1'));

    expect(await claim(t0.getTime() + 60 * 60 * 1000)).toBeUndefined();
    expect((await read(running)).status).toBe('running');

    const taken = await claim(t0.getTime() + STALE_RUN_MS + 1);
    expect(taken).toMatchObject({ id: queued, status: 'running' });
    expect(await read(running)).toMatchObject({
      status: 'failed',
      error: { code: 'SYNC_ABANDONED' },
    });
  });

  it("keeps a webhook's newer state when a sync saves its older copy of the link", async () => {
    const { projectId, connectionId } = await seeded();
    const db = harness().database.db;
    const t0 = new Date('2026-11-28T10:00:00Z');
    const t1 = new Date('2026-11-28T10:05:00Z');
    const link = {
      connectionId,
      projectId,
      itemId: 'T-1',
      externalId: '7',
      externalKey: '#7',
      url: 'https://tracker.test/7',
      digest: 'old',
      state: 'open' as const,
      externalUpdatedAt: t0,
      updatedAt: t0,
    };
    await db.transaction((tx) => saveSyncLink(tx, link));
    // A close delivered while the sync runs, then the sync's digest save from its own copy.
    await db.transaction((tx) =>
      recordLinkObserved(tx, link, { state: 'closed', externalUpdatedAt: t1 }, t1),
    );
    const later = new Date('2026-11-28T10:06:00Z');
    await db.transaction((tx) => saveSyncLink(tx, { ...link, digest: 'new', updatedAt: later }));
    const [row] = await db.select().from(trackerLinks).where(eq(trackerLinks.projectId, projectId));
    // The digest is not shown on the task: the link's time (its task's ETag) stays.
    expect(row).toMatchObject({
      digest: 'new',
      state: 'closed',
      externalUpdatedAt: t1,
      updatedAt: t1,
    });
    // A newer state (the sync reopened it) is taken.
    const t2 = new Date('2026-11-28T10:07:00Z');
    await db.transaction((tx) =>
      saveSyncLink(tx, { ...link, digest: 'new', externalUpdatedAt: t2, updatedAt: t2 }),
    );
    const [reopened] = await db
      .select()
      .from(trackerLinks)
      .where(eq(trackerLinks.projectId, projectId));
    expect(reopened).toMatchObject({ state: 'open', externalUpdatedAt: t2, updatedAt: t2 });
  });

  it("ends a sync failed on its job's last attempt when its turn never came", async () => {
    const { sync } = await seeded();
    await sync(`sync_${'C'.repeat(26)}`, 'running', new Date());
    const waiting = await sync(`sync_${'D'.repeat(26)}`, 'queued', null);
    const syncs = new ProjectSyncs(harness().database.db, {} as Tasks, undefined, {
      open: async () => {
        throw new Error('never opened: the sync never runs');
      },
    });
    const job = { syncId: waiting, signal: new AbortController().signal };
    await expect(syncs.run({ ...job, lastAttempt: false })).rejects.toThrow(/running/);
    expect((await read(waiting)).status).toBe('queued');
    await syncs.run({ ...job, lastAttempt: true });
    expect(await read(waiting)).toMatchObject({ status: 'failed', error: { code: 'SYNC_BUSY' } });
  });

  it('refuses every write of an attempt a retry took over, and that attempt stops', async () => {
    const { sync, projectId } = await seeded(true);
    const db = harness().database.db;
    const syncId = await sync(`sync_${'E'.repeat(26)}`, 'queued', null);
    const drafts: string[] = [];
    const issue = (n: number) => ({
      externalId: String(n),
      key: `#${n}`,
      url: `https://tracker.test/${n}`,
      state: 'open' as const,
      updatedAt: '2026-11-28T10:00:00.000Z',
    });
    const client = {
      findMarked: async () => [],
      create: async (draft: IssueDraft) => {
        drafts.push(draft.itemId);
        // While this attempt waits on the tracker, its job is given up for dead and the
        // queue's retry claims the sync again.
        await db.transaction((tx) => claimSync(tx, syncId, new Date(), 'att_retry'));
        return issue(drafts.length);
      },
    } as unknown as TrackerClient;
    const syncs = new ProjectSyncs(db, new Tasks(db), undefined, {
      open: async () => ({ connection: { id: 'tc', provider: 'github' }, client }),
      sleep: async () => {},
    });
    await syncs.run({ syncId, lastAttempt: true, signal: new AbortController().signal });
    // The first create's link was refused, and the attempt made no second create.
    expect(drafts).toEqual(['T-1']);
    expect(
      await db.select().from(trackerLinks).where(eq(trackerLinks.projectId, projectId)),
    ).toEqual([]);
    // The sync is the retry's: still running, its end not written by the stale attempt.
    expect(await read(syncId)).toMatchObject({ status: 'running', items: [], finishedAt: null });
    const end = { status: 'succeeded' as const, items: [], error: null, finishedAt: new Date() };
    expect(await db.transaction((tx) => finishSync(tx, syncId, 'att_stale', end))).toBe(false);
    expect(await db.transaction((tx) => finishSync(tx, syncId, 'att_retry', end))).toBe(true);
    expect(await read(syncId)).toMatchObject({ status: 'succeeded', error: null });
  });
});
