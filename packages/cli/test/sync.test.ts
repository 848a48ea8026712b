import type { ProjectSync, ProjectSyncItem } from '@pgs/client';
import { describe, expect, it } from 'vitest';
import { json } from '../../client/test/http-server.ts';
import { EXIT } from '../src/index.ts';
import { pgs, server, useFakeApi } from './fake-api.ts';

// pgs sync in-process against the small fake API (the server's own sync is tested in
// packages/server): what it sends, what it prints, and its exit codes.

const PROJECT = '7d0f2c8e-4a9b-4e43-9a55-0d2b8f1c6e21';
const CONNECTION = 'tc_01JD6WQ8V4Z9K3M2N5P7R8S0TA';
const SYNC = 'sync_01JD6WQ8V4Z9K3M2N5P7R8S0TB';

const sync = (extra: Partial<ProjectSync>): ProjectSync => ({
  id: SYNC,
  projectId: PROJECT,
  connectionId: CONNECTION,
  status: 'queued',
  scope: 'tasks',
  dryRun: false,
  items: [],
  error: null,
  createdAt: '2026-11-28T15:00:00.000Z',
  startedAt: null,
  finishedAt: null,
  ...extra,
});
const item = (id: string, action: ProjectSyncItem['action'], error?: string): ProjectSyncItem => ({
  id,
  action,
  externalId: action === 'failed' ? null : '12',
  url: action === 'failed' ? null : 'https://github.com/acme/booking/issues/12',
  ...(error === undefined ? {} : { error }),
});

/** The 202 of the POST, then the sync as it ended. */
function replies(ended: Partial<ProjectSync>, dryRun = false) {
  server.reply(
    json(
      202,
      { success: true, data: sync({ dryRun }) },
      {
        location: `/api/v1/projects/${PROJECT}/syncs/${SYNC}`,
      },
    ),
    json(200, { success: true, data: sync({ dryRun, ...ended }) }),
  );
}

useFakeApi();

describe('pgs sync', () => {
  it('--dry-run sends dryRun, prints the preview and says nothing changed', async () => {
    replies(
      { status: 'succeeded', items: [item('T-1', 'created'), item('T-2', 'unchanged')] },
      true,
    );
    const r = await pgs(['sync', PROJECT, '--connection', CONNECTION, '--dry-run']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(EXIT.OK);
    expect(r.stdout).toContain(
      `Sync ${SYNC} (dry run: nothing changed): succeeded, 1 created, 1 unchanged`,
    );
    expect(r.stdout).toMatch(/^T-1\s+created\s+https:\/\/github\.com/m);
    const [post, ...reads] = server.requests;
    expect(post).toMatchObject({ method: 'POST', url: `/api/v1/projects/${PROJECT}/syncs` });
    expect(JSON.parse(post!.body)).toEqual({
      connectionId: CONNECTION,
      scope: 'tasks',
      dryRun: true,
    });
    // Only reads of the sync follow: the CLI itself writes nothing else.
    for (const read of reads) expect(read).toMatchObject({ method: 'GET' });
  });

  it('refuses an unknown --scope before calling the server (exit 2)', async () => {
    const r = await pgs(['sync', PROJECT, '--connection', CONNECTION, '--scope', 'epics']);
    expect(r.code).toBe(EXIT.USAGE);
    expect(r.stderr).toContain('--scope must be one of tasks, requirements, all');
    expect(server.requests).toEqual([]);
  });

  it('exits 16 when an item failed, printing why', async () => {
    replies({
      status: 'failed',
      scope: 'all',
      items: [item('T-1', 'created'), item('T-2', 'failed', 'Validation Failed (HTTP 422)')],
    });
    const r = await pgs(['sync', PROJECT, '--connection', CONNECTION, '--scope', 'all']);
    expect(r.code).toBe(EXIT.SYNC_FAILED);
    expect(r.code).toBe(16);
    expect(r.stdout).toContain('failed, 1 created, 1 failed');
    expect(r.stdout).toMatch(/^T-2\s+failed\s+-\s+Validation Failed \(HTTP 422\)/m);
    expect(JSON.parse(server.requests[0]!.body)).toMatchObject({ scope: 'all' });
  });
});
