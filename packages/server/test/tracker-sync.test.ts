/**
 * Pushing a project to a tracker (issue 31, item 2) through the real app, the queue's sync
 * worker, the real GitHub adapter (Octokit) and the GitHub fake on loopback: the first sync
 * creates every issue, the next changes nothing, a revision updates what changed and closes
 * what it made obsolete, lost links are recovered by marker without a duplicate, a dry run
 * writes nothing, transient failures and a rate limit are retried through an injected sleep,
 * and a permanent failure is reported on its item.
 */
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedKey } from '../src/accounts/service.ts';
import type { RequirementDelta } from '../src/models/deltas.ts';
import { trackerLinks } from '../src/storage/schema.ts';
import { insertDocument, updateProject } from '../src/storage/sql/projects.ts';
import { insertRevision } from '../src/storage/sql/revisions.ts';
import { githubAdapter } from '../src/trackers/providers/github.ts';
import { adapterFor } from '../src/trackers/providers/index.ts';
import type { TrackerProvider } from '../src/trackers/providers/provider.ts';
import { Sealer } from '../src/trackers/sealed.ts';
import { type FakeGitHub, startFakeGitHub } from './fakes/github.ts';
import { bearer, type Harness, roomy, startHarness } from './helpers/harness.ts';
import { completedWithPlan, type SeedDocument } from './helpers/tasks.ts';
import { waitFor } from './helpers/wait.ts';

const sealer = Sealer.of({ current: randomBytes(32), previous: [] });
const adapters = (provider: TrackerProvider) =>
  provider === 'github' ? githubAdapter : adapterFor(provider);
/** Every pause the sync's retry policy asked for (never slept: tests stay off the clock). */
const pauses: number[] = [];

function requirements(groups: number[]): SeedDocument {
  const sections = groups.map(
    (n) =>
      `### FR-${n} Feature ${n} (Must)\n\n**FR-${n}.1** WHEN a user asks for feature ${n} THE SYSTEM SHALL answer within 2 seconds.\n\n**FR-${n}.2** IF feature ${n} fails THEN THE SYSTEM SHALL say why.\n`,
  );
  return {
    kind: 'product-requirements',
    filename: 'PRODUCT_REQUIREMENTS.md',
    stage: 'requirements',
    content: `# Product Requirements: Demo\n\n## Functional requirements\n\n${sections.join('\n')}`,
  };
}

function plan(
  rows: [id: string, title: string, requirement: string, dependsOn: string][],
): SeedDocument {
  const lines = rows.map(
    ([id, title, fr, deps]) => `| ${id} | ${title} | ${fr} | ${deps || 'none'} | 1 d |`,
  );
  return {
    kind: 'implementation-plan',
    filename: 'IMPLEMENTATION_PLAN.md',
    stage: 'planning',
    content: `# Implementation Plan: Demo\n\n## Tasks\n\n### M1 All at once\n\n| ID | Task | Implements | Depends on | Estimate |\n| --- | --- | --- | --- | --- |\n${lines.join('\n')}\n`,
  };
}

const FIRST = [
  requirements([1, 2]),
  plan([
    ['T-1', 'Store features', 'FR-1', ''],
    ['T-2', 'Show features', 'FR-1', 'T-1'],
    ['T-3', 'Search features', 'FR-2', ''],
    ['T-4', 'Rank results', 'FR-2', 'T-3'],
  ]),
];

let h: Harness;
let key: CreatedKey;
let fake: FakeGitHub;
let connectionId: string;

beforeAll(async () => {
  fake = await startFakeGitHub();
  h = await startHarness('pglite', {
    generation: 'workers',
    rules: roomy('manage', 'status', 'list', 'tasks'),
    trackers: { sealer, allowPrivate: true, adapters },
    syncs: {
      sleep: async (ms) => void pauses.push(ms),
      projectUrl: (id) => `https://pgs.test/#/projects/${id}`,
    },
  });
  key = await h.createKey('test');
  const res = await api('POST', '/connections', {
    provider: 'github',
    baseUrl: fake.baseUrl,
    credentials: fake.credentials,
    target: fake.target,
  });
  expect(res.statusCode, res.body).toBe(201);
  connectionId = res.json().data.connection.id;
});
afterAll(async () => {
  await h?.close();
  await fake?.close();
});

function api(method: 'GET' | 'POST', url: string, body?: unknown, as: CreatedKey = key) {
  return h.request({
    method,
    url: `/api/v1${url}`,
    headers: {
      ...bearer(as.key),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
}

interface Item {
  id: string;
  action: string;
  externalId: string | null;
  url: string | null;
  error?: string;
}

/** Posts a sync and waits for its end (the queue's worker runs it). */
async function sync(projectId: string, body: object = {}) {
  const res = await api('POST', `/projects/${projectId}/syncs`, {
    connectionId,
    scope: 'all',
    ...body,
  });
  expect(res.statusCode, res.body).toBe(202);
  const location = res.headers.location as string;
  expect(location).toBe(`/api/v1/projects/${projectId}/syncs/${res.json().data.id}`);
  return waitFor(
    async () => {
      const read = await h.request({ method: 'GET', url: location, headers: bearer(key.key) });
      expect(read.statusCode, read.body).toBe(200);
      const data = read.json().data as { status: string; items: Item[]; error: unknown };
      return data.status === 'queued' || data.status === 'running' ? undefined : data;
    },
    { timeoutMs: 30_000, what: 'the sync to end' },
  );
}

const actions = (items: Item[]) => Object.fromEntries(items.map((i) => [i.id, i.action]));
const writes = (from: number) =>
  fake
    .requests()
    .slice(from)
    .filter((r) => !r.startsWith('GET'));

describe('pushing a project to GitHub', () => {
  let projectId: string;
  let created: Item[];

  it('creates one issue per FR group and per task, tasks under their FR, blocked by their dependencies', async () => {
    projectId = await completedWithPlan(h.database, key, FIRST);
    const done = await sync(projectId);
    expect(done.status, JSON.stringify(done)).toBe('succeeded');
    created = done.items;
    expect(actions(created)).toEqual({
      'FR-1': 'created',
      'FR-2': 'created',
      'T-1': 'created',
      'T-2': 'created',
      'T-3': 'created',
      'T-4': 'created',
    });
    const issues = fake.issues();
    expect(issues).toHaveLength(6);
    const of = (id: string) => issues.find((i) => i.title.startsWith(`${id} `))!;
    expect(of('T-2').parent).toBe(of('FR-1').externalId);
    expect(of('T-4').parent).toBe(of('FR-2').externalId);
    expect(of('T-4').blockedBy).toEqual([of('T-3').externalId]);
    expect(of('T-1').labels).toEqual(expect.arrayContaining(['pgs', 'FR-1']));
    expect(of('T-1').body).toContain('- [ ] **FR-1.1** WHEN a user asks for feature 1');
    expect(of('T-1').body).toContain(`https://pgs.test/#/projects/${projectId}`);
    expect(created.find((i) => i.id === 'T-1')?.url).toBe(of('T-1').url);
  });

  it('changes nothing on a second sync', async () => {
    const before = fake.requests().length;
    const again = await sync(projectId);
    expect(again.status).toBe('succeeded');
    expect(new Set(again.items.map((i) => i.action))).toEqual(new Set(['unchanged']));
    expect(writes(before)).toEqual([]);
    expect(fake.issues()).toHaveLength(6);
  });

  it("shows each task's issue on the task, in the list and on its own; its ETag moves with the links, If-Match does not", async () => {
    const list = await api('GET', `/projects/${projectId}/tasks`);
    const t1 = created.find((i) => i.id === 'T-1')!;
    const link = { provider: 'github', connectionId, externalId: t1.externalId, url: t1.url };
    expect(list.json().data[0]).toMatchObject({
      id: 'T-1',
      links: [{ ...link, key: `#${t1.externalId}`, state: 'open' }],
    });
    expect(list.json().data.every((t: { links: unknown[] }) => t.links.length === 1)).toBe(true);
    const one = await api('GET', `/projects/${projectId}/tasks/T-1`);
    expect(one.json().data.links).toEqual(list.json().data[0].links);
    // The ETag names the links too: a copy read before the sync (the version alone) is
    // answered in full, the copy read after it is still current (304).
    const read = (etag: string) =>
      h.request({
        method: 'GET',
        url: `/api/v1/projects/${projectId}/tasks/T-1`,
        headers: { ...bearer(key.key), 'if-none-match': etag },
      });
    const etag = one.headers.etag as string;
    const version = etag.replace(/\.l\d+\.\d+"$/, '"');
    expect(etag).not.toBe(version);
    const before = await read(version);
    expect(before.statusCode).toBe(200);
    expect(before.json().data.links).toHaveLength(1);
    expect((await read(etag)).statusCode).toBe(304);
    // If-Match stays tied to the version: the read ETag is accepted by a write.
    const patch = await h.request({
      method: 'PATCH',
      url: `/api/v1/projects/${projectId}/tasks/T-1`,
      headers: { ...bearer(key.key), 'if-match': etag },
      payload: { status: one.json().data.status },
    });
    expect(patch.statusCode).toBe(200);
    expect(patch.headers.etag).toBe(etag);
  });

  it('previews a revision in a dry run without writing, then pushes it: updated, created, obsolete closed', async () => {
    const delta: RequirementDelta = {
      op: 'removed',
      id: 'FR-2',
      title: 'Feature 2',
      reason: 'Dropped.',
    };
    await revise(
      projectId,
      2,
      [
        requirements([1]),
        plan([
          ['T-1', 'Store features', 'FR-1', ''],
          ['T-2', 'Show features as cards', 'FR-1', 'T-1'],
          ['T-5', 'Export features', 'FR-1', 'T-2'],
        ]),
      ],
      [delta],
    );
    const before = fake.requests().length;
    const snapshot = JSON.stringify(fake.issues());
    const preview = await sync(projectId, { dryRun: true });
    expect(actions(preview.items)).toEqual({
      'FR-1': 'unchanged',
      'FR-2': 'closed',
      'T-1': 'unchanged',
      'T-2': 'updated',
      'T-3': 'closed',
      'T-4': 'closed',
      'T-5': 'created',
    });
    expect(preview.items.find((i) => i.id === 'T-5')).toMatchObject({
      externalId: null,
      url: null,
    });
    expect(writes(before)).toEqual([]);
    expect(JSON.stringify(fake.issues())).toBe(snapshot);

    const pushed = await sync(projectId);
    expect(pushed.status).toBe('succeeded');
    expect(actions(pushed.items)).toEqual(actions(preview.items));
    const of = (id: string) => fake.issues().find((i) => i.title.startsWith(`${id} `))!;
    expect(of('T-2').title).toBe('T-2 Show features as cards');
    expect(of('T-3').state).toBe('closed');
    expect(of('T-3').comments.join('\n')).toMatch(/T-3 is obsolete after revision 2/);
    expect(of('FR-2').state).toBe('closed');
    expect(of('T-5').parent).toBe(of('FR-1').externalId);
    expect(fake.issues()).toHaveLength(7);
  });

  it('recovers lost links by marker and makes no duplicate', async () => {
    await h.database.db.delete(trackerLinks).where(eq(trackerLinks.projectId, projectId));
    const recovered = await sync(projectId);
    expect(recovered.status).toBe('succeeded');
    expect(fake.issues()).toHaveLength(7);
    expect(recovered.items.some((i) => i.action === 'created')).toBe(false);
    const links = await h.database.db
      .select()
      .from(trackerLinks)
      .where(eq(trackerLinks.projectId, projectId));
    expect(links.map((l) => l.itemId).sort()).toEqual([
      'FR-1',
      'FR-2',
      'T-1',
      'T-2',
      'T-3',
      'T-4',
      'T-5',
    ]);
    const after = await sync(projectId);
    expect(new Set(after.items.map((i) => i.action))).toEqual(new Set(['unchanged']));
  });

  it('retries transient failures and honours the rate limit, then succeeds', async () => {
    const other = await completedWithPlan(h.database, key, FIRST);
    pauses.length = 0;
    fake.failWrites(2, 503);
    fake.rateLimit(1, 30);
    const done = await sync(other, { scope: 'tasks' });
    expect(done.status, JSON.stringify(done)).toBe('succeeded');
    expect(actions(done.items)).toEqual({
      'T-1': 'created',
      'T-2': 'created',
      'T-3': 'created',
      'T-4': 'created',
    });
    expect(pauses.length).toBeGreaterThanOrEqual(3);
    expect(pauses).toContain(30_000);
    expect(fake.issues().filter((i) => i.body.includes(other))).toHaveLength(4);
  });

  it('reports a permanent failure on its item and fails the sync', async () => {
    const other = await completedWithPlan(h.database, key, FIRST);
    fake.configure({ permissions: { admin: false, maintain: false, push: false, triage: false } });
    try {
      const done = await sync(other, { scope: 'tasks' });
      expect(done.status).toBe('failed');
      for (const item of done.items) {
        expect(item.action).toBe('failed');
        expect(item.error).toMatch(/HTTP 403/);
      }
      expect(fake.issues().filter((i) => i.body.includes(other))).toHaveLength(0);
    } finally {
      fake.configure({ permissions: { admin: true, maintain: true, push: true, triage: true } });
    }
  });

  it("answers 404 for another account's connection, and 409 for a project not completed", async () => {
    const stranger = await h.createKey('test');
    const theirs = await completedWithPlan(h.database, stranger, FIRST);
    const res = await api(
      'POST',
      `/projects/${theirs}/syncs`,
      { connectionId, scope: 'tasks' },
      stranger,
    );
    expect(res.statusCode, res.body).toBe(404);
    expect(res.json().error.details.resource_type).toBe('connection');
    const running = await h.seedProject(key, { status: 'in_progress' });
    const refused = await api('POST', `/projects/${running}/syncs`, {
      connectionId,
      scope: 'tasks',
    });
    expect(refused.statusCode, refused.body).toBe(409);
    const list = await api('GET', `/projects/${projectId}/syncs`);
    expect(list.statusCode).toBe(200);
    expect(list.json().data.length).toBeGreaterThanOrEqual(5);
  });
});

/** Lays down revision `revision` as a completed revision leaves it (the tasks follow on read). */
async function revise(
  projectId: string,
  revision: number,
  documents: SeedDocument[],
  deltas: RequirementDelta[],
) {
  await insertRevision(h.database.db, {
    projectId,
    revision,
    status: 'completed',
    changeRequest: `Change ${revision}`,
    deltas,
    completedAt: new Date(),
  });
  for (const [position, doc] of documents.entries()) {
    await insertDocument(h.database.db, {
      projectId,
      revision,
      writtenIn: revision,
      type: doc.kind,
      filename: doc.filename,
      content: doc.content,
      stage: doc.stage,
      tokensUsed: 100,
      generatedAt: new Date(),
      position,
    });
  }
  await updateProject(h.database.db, projectId, { currentRevision: revision });
}
