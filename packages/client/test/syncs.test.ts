import { describe, expect, it } from 'vitest';
import { PgsError } from '../src/index.ts';
import { json } from './http-server.ts';
import { client, ID, server, usePollingServer } from './polling-helpers.ts';

// projects.syncs against a stub server: the body sent, and a wait driven by the sync's status
// on a virtual clock (never the wall clock). The whole push is packages/server/test/tracker-sync.test.ts.

usePollingServer();

const SYNC = 'sync_01JD3Q2V8Y7K6M5N4P3R2S1T0V';
const sync = (status: string, items: unknown[] = []) => ({
  id: SYNC,
  projectId: ID,
  connectionId: 'con_1',
  status,
  scope: 'tasks',
  dryRun: false,
  items,
  error: null,
  createdAt: '2026-11-28T10:00:00.000Z',
  startedAt: null,
  finishedAt: null,
});
const answer = (status: string, items: unknown[] = []) =>
  json(200, { success: true, data: sync(status, items) });
const item = { id: 'T-1', action: 'created', externalId: '12', url: 'https://t/12' };

describe('projects.syncs', () => {
  it('posts the sync, then reads it every interval until it ends', async () => {
    server.requests.length = 0;
    server.reply(
      json(
        202,
        { success: true, data: sync('queued') },
        { location: `/api/v1/projects/${ID}/syncs/${SYNC}` },
      ),
      answer('queued'),
      answer('running'),
      answer('succeeded', [item]),
    );
    const { pgs, clock } = client();
    const done = await pgs.projects.syncs.createAndWait(ID, {
      connectionId: 'con_1',
      scope: 'all',
      dryRun: true,
    });
    expect(done.status).toBe('succeeded');
    expect(done.items).toEqual([item]);
    const [post, ...reads] = server.requests;
    expect(post).toMatchObject({ method: 'POST', url: `/api/v1/projects/${ID}/syncs` });
    expect(JSON.parse(post!.body)).toEqual({ connectionId: 'con_1', scope: 'all', dryRun: true });
    expect(post!.headers['idempotency-key']).toBeTruthy();
    expect(reads.map((r) => r.url)).toEqual(Array(3).fill(`/api/v1/projects/${ID}/syncs/${SYNC}`));
    expect(clock.sleeps).toEqual([2_000, 2_000]);
  });

  it('gives up at maxWaitMs with the sync still running', async () => {
    server.reply(answer('running'));
    const { pgs } = client();
    await expect(
      pgs.projects.syncs.waitForCompletion(ID, SYNC, { intervalMs: 1_000, maxWaitMs: 3_000 }),
    ).rejects.toThrow(PgsError);
  });

  it('stops waiting when the signal aborts', async () => {
    server.reply(answer('running'));
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    const { pgs } = client();
    await expect(
      pgs.projects.syncs.waitForCompletion(ID, SYNC, { signal: controller.signal }),
    ).rejects.toThrow();
  });
});
