import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedKey } from '../src/accounts/service.ts';
import { ProjectEventHub } from '../src/events/hub.ts';
import { ProjectStatusReader } from '../src/projects/status.ts';
import { backends, bearer, type Harness, startHarness } from './helpers/harness.ts';
import { waitFor } from './helpers/wait.ts';

/**
 * Issue 10 item 1: status reads of projects in progress and of unknown ids are answered
 * from memory. A second reader with its own hub (its own listening connection on
 * PostgreSQL) stands for another API process on the same database; the app's writes go
 * through HTTP (inject) as a client's do.
 */
describe.each(await backends())('the live view of project status on %s', (backend) => {
  let h: Harness;
  let hub: ProjectEventHub;
  let reader: ProjectStatusReader;
  let key: CreatedKey;
  const principal = () => ({ keyId: key.keyId, accountId: key.accountId, mode: key.mode });
  const hold = { outcome: 'completed', durationMs: 600_000 } as const;

  beforeAll(async () => {
    h = await startHarness(backend, { generation: 'workers' });
    hub = await ProjectEventHub.start(h.database);
    reader = new ProjectStatusReader(h.database.db, {
      hub,
      live: { maxEntries: 5, estimateMaxAgeMs: 60_000 },
    });
    await reader.live!.settled();
    key = await h.createKey('test', { credits: 100_000 });
  });
  afterAll(async () => {
    reader?.close();
    await hub?.stop();
    await h?.close();
  });

  const create = async (body: Record<string, unknown> = {}) => {
    const res = await h.createProject(key, { idea: 'A seed library for a village', ...body });
    expect(res.statusCode).toBe(202);
    return res.json().data.projectId as string;
  };
  const cancel = (id: string) =>
    h.request({ method: 'POST', url: `/api/v1/projects/${id}/cancel`, headers: bearer(key.key) });
  const delta = async (work: () => Promise<void>) => {
    const before = reader.counts;
    await work();
    const after = reader.counts;
    return { memory: after.memory - before.memory, database: after.database - before.database };
  };

  it('shares an in-progress body within a millisecond, and rebuilds it as time passes', async () => {
    const id = await create({ simulate: hold });
    let clock = Date.now();
    const timed = new ProjectStatusReader(h.database.db, {
      hub,
      now: () => clock,
      live: { estimateMaxAgeMs: 600_000 },
    });
    try {
      await timed.live!.settled();
      const first = await timed.read(principal(), id);
      const again = await timed.read(principal(), id);
      expect(first?.status).toBe('in_progress');
      // Same estimate, same millisecond: the very same bytes, not rebuilt.
      expect(again?.body).toBe(first?.body);
      clock += 1_000;
      const later = await timed.read(principal(), id);
      expect(later?.estimatedCompletionMs).toBe(first!.estimatedCompletionMs! - 1_000);
      expect(JSON.parse(later!.body.toString()).data.estimatedCompletionMs).toBe(
        later?.estimatedCompletionMs,
      );
      expect(later?.etag).not.toBe(first?.etag);
    } finally {
      timed.close();
      await cancel(id);
    }
  });

  it('reads a project in progress from the database once, then from memory', async () => {
    const id = await create({ simulate: hold });
    // The worker announces the run's first stage meanwhile: each announcement costs the
    // next read one trip to the database, nothing else does. Counted from before the first
    // read, so an announcement between it and the loop is not missed.
    let announced = 0;
    const stop = hub.subscribe(id, () => announced++);
    const first = await reader.read(principal(), id);
    expect(first?.status).toBe('in_progress');
    const counted = await delta(async () => {
      for (let i = 0; i < 50; i++) {
        const view = await reader.read(principal(), id);
        expect(view?.status).toBe('in_progress');
        expect(view?.estimatedCompletionMs).toBeGreaterThan(0);
      }
    });
    stop();
    expect(counted.memory + counted.database).toBe(50);
    expect(counted.database).toBeLessThanOrEqual(announced);
    // Another account, or the same account in the other mode, still gets nothing.
    const other = await h.createKey('test');
    expect(
      await reader.read({ keyId: other.keyId, accountId: other.accountId, mode: 'test' }, id),
    ).toBeUndefined();
    expect(await reader.read({ ...principal(), mode: 'live' }, id)).toBeUndefined();
    await cancel(id);
  });

  it('answers ids that never existed from memory, and finds a project created a moment ago', async () => {
    const counted = await delta(async () => {
      for (let i = 0; i < 50; i++)
        expect(await reader.read(principal(), randomUUID())).toBeUndefined();
    });
    // About one in a hundred unknown ids passes the filter and is asked of the database.
    expect(counted.memory).toBeGreaterThanOrEqual(45);
    const id = await create({ simulate: hold });
    expect((await reader.read(principal(), id))?.status).toBe('in_progress');
    await cancel(id);
  });

  it('a cancel evicts: the next read is the failed status, never the remembered in_progress', async () => {
    const id = await create({ simulate: hold });
    expect((await reader.read(principal(), id))?.status).toBe('in_progress');
    expect((await reader.read(principal(), id))?.status).toBe('in_progress');
    const cancelled = await cancel(id);
    expect(cancelled.statusCode).toBe(200);
    const view = await reader.read(principal(), id);
    expect(view?.status).toBe('failed');
    expect(JSON.parse(view!.body.toString()).data.error.code).toBe('generation_cancelled');
  });

  it('a deletion evicts, in progress or final, and the deleted id stays a 404 without the database', async () => {
    for (const body of [{ simulate: hold }, {}]) {
      const id = await create(body);
      if (body.simulate === undefined) {
        await waitFor(async () =>
          (await reader.read(principal(), id))?.status === 'completed' ? true : undefined,
        );
      }
      expect(await reader.read(principal(), id)).toBeDefined();
      const deleted = await h.request({
        method: 'DELETE',
        url: `/api/v1/projects/${id}`,
        headers: bearer(key.key),
      });
      expect(deleted.statusCode).toBe(204);
      const counted = await delta(async () => {
        expect(await reader.read(principal(), id)).toBeUndefined();
        expect(await reader.read(principal(), id)).toBeUndefined();
      });
      expect(counted).toEqual({ memory: 2, database: 0 });
    }
  });

  it('a completion is seen as soon as it is announced', async () => {
    const id = await create({ simulate: { outcome: 'completed', durationMs: 300 } });
    expect((await reader.read(principal(), id))?.status).toBe('in_progress');
    // Woken by the project's own announcements: the read after the final one is final.
    const view = await waitFor(
      async () => {
        const v = await reader.read(principal(), id);
        return v?.status === 'in_progress' ? undefined : v;
      },
      { what: 'the completion', timeoutMs: 30_000 },
    );
    expect(view?.status).toBe('completed');
  });

  it('keeps at most maxEntries projects in progress in memory', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 8; i++) ids.push(await create({ simulate: hold }));
    for (const id of ids) expect((await reader.read(principal(), id))?.status).toBe('in_progress');
    expect(reader.live!.size.entries).toBeLessThanOrEqual(5);
    // The oldest were dropped from memory and are read again from the database, correctly.
    const counted = await delta(async () => {
      expect((await reader.read(principal(), ids[0]!))?.status).toBe('in_progress');
    });
    expect(counted.database).toBe(1);
    for (const id of ids) {
      await cancel(id);
    }
  });

  it('walks the table in pages into the filter of ids, and grows it past its capacity', async () => {
    const seeded: string[] = [];
    for (let i = 0; i < 7; i++) seeded.push(await h.seedProject(key, { status: 'in_progress' }));
    // A reader started now walks the existing projects three at a time into a filter sized
    // for four ids; creations after that outgrow it and it is rebuilt, twice as large.
    const small = new ProjectStatusReader(h.database.db, {
      hub,
      live: { idCapacity: 4, scanPageSize: 3 },
    });
    try {
      await small.live!.settled();
      const walked = small.live!.size.ids;
      expect(walked).toBeGreaterThanOrEqual(7);
      for (let i = 0; i < 3; i++) seeded.push(await h.seedProject(key, { status: 'completed' }));
      await small.live!.settled();
      expect(small.live!.size.ids).toBeGreaterThan(walked);
      // An id the walk or the announcements missed would be a 404 from memory.
      for (const id of seeded) expect(await small.read(principal(), id)).toBeDefined();
    } finally {
      small.close();
    }
  });

  it.runIf(backend === 'postgres')(
    'a lost listening connection sends reads to the database until it is back, then memory serves again',
    async () => {
      const id = await create({ simulate: hold });
      expect((await reader.read(principal(), id))?.status).toBe('in_progress');
      // The hub's connection is the one that listens on its private barrier channel.
      const admin = h.database.pool!;
      const killed = await admin.query(
        `select pg_terminate_backend(pid) from pg_stat_activity
          where datname = current_database() and query like '%pgs_sync_%' and pid <> pg_backend_pid()`,
      );
      expect(killed.rowCount).toBeGreaterThanOrEqual(1);
      // While it is down nothing is answered from memory; the answers stay right.
      await waitFor(async () => (reader.live!.size.entries === 0 ? true : undefined), {
        what: 'the view to be emptied',
      });
      const down = await delta(async () => {
        expect((await reader.read(principal(), id))?.status).toBe('in_progress');
      });
      expect(down.database).toBe(1);
      await cancel(id);
      // Back: a cancel made meanwhile is seen, and reads come from memory again.
      await waitFor(
        async () => {
          await reader.live!.settled();
          const before = reader.counts.memory;
          const view = await reader.read(principal(), randomUUID());
          return view === undefined && reader.counts.memory > before ? true : undefined;
        },
        { what: 'memory to answer again', timeoutMs: 15_000 },
      );
      expect((await reader.read(principal(), id))?.status).toBe('failed');
    },
  );
});
