/**
 * A sync never stays stuck (review of issue 31): one whose turn never came ends `failed` on its
 * job's last attempt, and one left `running` by a worker that died on its last attempt stops
 * blocking the project and connection once it has outlived any job.
 */
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { projectSyncs, trackerConnections } from '../src/storage/schema.ts';
import { claimSync, STALE_RUN_MS } from '../src/storage/sql/tracker-syncs.ts';
import type { Tasks } from '../src/tasks/service.ts';
import { ProjectSyncs } from '../src/trackers/syncs.ts';
import { harnessFor } from './helpers/harness.ts';

describe('claiming a sync', () => {
  const harness = harnessFor('pglite');
  let n = 0;
  const seeded = async () => {
    const h = harness();
    const key = await h.createKey('test');
    const projectId = await h.seedProject(key, { status: 'completed' });
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
    return { sync };
  };
  const read = async (id: string) =>
    (await harness().database.db.select().from(projectSyncs).where(eq(projectSyncs.id, id)))[0]!;

  it('waits behind a running sync, and takes over from one that outlived any job', async () => {
    const { sync } = await seeded();
    const t0 = new Date('2026-11-28T10:00:00Z');
    const running = await sync(`sync_${'A'.repeat(26)}`, 'running', t0);
    const queued = await sync(`sync_${'B'.repeat(26)}`, 'queued', null);
    const claim = (at: number) =>
      harness().database.db.transaction((tx) => claimSync(tx, queued, new Date(at)));

    expect(await claim(t0.getTime() + 60 * 60 * 1000)).toBeUndefined();
    expect((await read(running)).status).toBe('running');

    const taken = await claim(t0.getTime() + STALE_RUN_MS + 1);
    expect(taken).toMatchObject({ id: queued, status: 'running' });
    expect(await read(running)).toMatchObject({
      status: 'failed',
      error: { code: 'SYNC_ABANDONED' },
    });
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
});
