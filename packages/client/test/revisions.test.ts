import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ConflictError,
  Pgs,
  PgsError,
  type ProjectCompleted,
  type Revision,
  type RevisionSummary,
} from '../src/index.ts';
import { envelope, json, startServer, type TestServer } from './http-server.ts';
import { type RealServer, sharedRealServer } from './pgs-server.ts';

// projects.revisions: first against a small local server (the requests, the caching of ended
// revisions, the errors), then against the real server with its offline engine.

const KEY = 'pgs_test_abcdefghijklmnopqrstuvwxyz0123456789';
const ID = '7d0f2c8e-4a9b-4e43-9a55-0d2b8f1c6e21';
const CHANGE = 'Add SMS reminders two days before each appointment; drop the medical records';

const inProgress = (revision: number): Revision => ({
  projectId: ID,
  revision,
  status: 'in_progress',
  changeRequest: CHANGE,
  deltas: [],
  documentsChanged: [],
  createdAt: '2026-11-27T10:00:00.000Z',
  estimatedCompletionMs: 12_000,
});

const failed = (revision: number): Revision => ({
  projectId: ID,
  revision,
  status: 'failed',
  changeRequest: CHANGE,
  deltas: [],
  documentsChanged: [],
  createdAt: '2026-11-27T10:00:00.000Z',
  completedAt: '2026-11-27T10:00:03.000Z',
  error: {
    code: 'generation_cancelled',
    message: 'The revision was cancelled; its 44 reserved credits were refunded.',
  },
});

describe('projects.revisions against a local server', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => server.close());
  const client = () => new Pgs({ apiKey: KEY, baseUrl: server.url, sleep: async () => {} });

  it('create POSTs the change request with an Idempotency-Key and reads the 202', async () => {
    const { estimatedCompletionMs } = inProgress(2) as { estimatedCompletionMs: number };
    server.reply(
      json(
        202,
        {
          success: true,
          data: { projectId: ID, revision: 2, status: 'in_progress', estimatedCompletionMs },
        },
        { location: `/api/v1/projects/${ID}/revisions/2`, 'retry-after': '3' },
      ),
    );
    const created = await client().projects.revisions.create(ID, {
      changeRequest: CHANGE,
      simulate: { outcome: 'failed' },
    });
    expect(created).toEqual({
      projectId: ID,
      revision: 2,
      status: 'in_progress',
      estimatedCompletionMs,
      location: `${server.url}/api/v1/projects/${ID}/revisions/2`,
      retryAfter: 3,
      replayed: false,
    });
    const [request] = server.requests;
    expect(request).toMatchObject({ method: 'POST', url: `/api/v1/projects/${ID}/revisions` });
    expect(JSON.parse(request?.body ?? '')).toEqual({
      changeRequest: CHANGE,
      simulate: { outcome: 'failed' },
    });
    expect(request?.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('a revision already running is a ConflictError, not retried', async () => {
    server.reply(
      json(
        409,
        envelope('REVISION_IN_PROGRESS', 'Revision 2 of this project is in progress.', undefined, {
          revision: 2,
        }),
      ),
    );
    const error = await client()
      .projects.revisions.create(ID, { changeRequest: CHANGE })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConflictError);
    expect(error).toMatchObject({ code: 'REVISION_IN_PROGRESS', details: { revision: 2 } });
    expect(server.requests).toHaveLength(1);
  });

  it('get long-polls with Prefer: wait, refuses a bad wait before any request, and remembers an ended revision', async () => {
    const pgs = client();
    server.reply(json(200, { success: true, data: inProgress(2) }));
    await expect(pgs.projects.revisions.get(ID, 2, { wait: 61 })).rejects.toBeInstanceOf(PgsError);
    await expect(pgs.projects.revisions.get(ID, 0)).rejects.toBeInstanceOf(PgsError);
    expect(server.requests).toHaveLength(0);

    expect((await pgs.projects.revisions.get(ID, 2, { wait: 5 })).status).toBe('in_progress');
    expect(server.requests[0]?.url).toBe(`/api/v1/projects/${ID}/revisions/2`);
    expect(server.requests[0]?.headers.prefer).toBe('wait=5');

    // In progress: asked again. Ended: kept, and answered from memory from then on.
    server.reply(json(200, { success: true, data: failed(2) }));
    expect(await pgs.projects.revisions.get(ID, 2)).toEqual(failed(2));
    expect(await pgs.projects.revisions.get(ID, 2)).toEqual(failed(2));
    expect(await pgs.projects.revisions.waitForCompletion(ID, 2)).toEqual(failed(2));
    expect(server.requests).toHaveLength(1);
  });

  it('waitForCompletion polls until the revision ends and resolves with a failure as a result', async () => {
    server.reply(
      json(200, { success: true, data: inProgress(3) }),
      json(200, { success: true, data: failed(3) }),
    );
    const result = await client().projects.revisions.waitForCompletion(ID, 3, {
      pollIntervalMs: 100,
    });
    expect(result).toEqual(failed(3));
    expect(server.requests.map((r) => r.url)).toEqual([
      `/api/v1/projects/${ID}/revisions/3`,
      `/api/v1/projects/${ID}/revisions/3`,
    ]);
  });

  it('cancel POSTs to the revision and resolves with it failed; an ended one is a ConflictError', async () => {
    server.reply(json(200, { success: true, data: failed(4) }));
    const cancelled = await client().projects.revisions.cancel(ID, 4);
    expect(cancelled.error.code).toBe('generation_cancelled');
    expect(server.requests[0]).toMatchObject({
      method: 'POST',
      url: `/api/v1/projects/${ID}/revisions/4/cancel`,
    });

    server.reply(
      json(
        409,
        envelope('PROJECT_NOT_IN_PROGRESS', 'Revision 4 has already ended.', undefined, {
          status: 'failed',
        }),
      ),
    );
    await expect(client().projects.revisions.cancel(ID, 4)).rejects.toMatchObject({
      code: 'PROJECT_NOT_IN_PROGRESS',
    });
    expect(server.requests).toHaveLength(1);
  });

  it('diff asks for text/x-diff, or ?format=json, and answers a second read from memory', async () => {
    const patch = '--- a/README.md\n+++ b/README.md\n@@ -1 +1 @@\n-old\n+new\n';
    const pgs = client();
    server.reply((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/x-diff; charset=utf-8' });
      res.end(patch);
    });
    expect(await pgs.projects.revisions.diff(ID, 2)).toBe(patch);
    expect(await pgs.projects.revisions.diff(ID, 2)).toBe(patch);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]?.url).toBe(`/api/v1/projects/${ID}/revisions/2/diff`);
    expect(server.requests[0]?.headers.accept).toBe('text/x-diff');

    const files = [
      { filename: 'README.md', status: 'modified', additions: 1, deletions: 1, patch },
    ] as const;
    server.reply(
      json(200, { success: true, data: { projectId: ID, revision: 2, base: 1, files } }),
    );
    const read = await pgs.projects.revisions.diff(ID, 2, { format: 'json' });
    expect(read.files).toEqual(files);
    expect(server.requests[0]?.url).toBe(`/api/v1/projects/${ID}/revisions/2/diff?format=json`);
  });

  it('reads pinned to a revision send ?revision=n and are kept; unpinned ones are always asked', async () => {
    const pgs = client();
    server.reply((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/markdown; charset=utf-8' });
      res.end('# Requirements, revision 1\n');
    });
    const first = await pgs.projects.document(ID, 'PRODUCT_REQUIREMENTS.md', { revision: 1 });
    const again = await pgs.projects.document(ID, 'PRODUCT_REQUIREMENTS.md', { revision: 1 });
    expect(again).toBe(first);
    expect(server.requests.map((r) => r.url)).toEqual([
      `/api/v1/projects/${ID}/documents/PRODUCT_REQUIREMENTS.md?revision=1`,
    ]);
    await pgs.projects.document(ID, 'PRODUCT_REQUIREMENTS.md');
    await pgs.projects.document(ID, 'PRODUCT_REQUIREMENTS.md');
    expect(server.requests).toHaveLength(3);
    await expect(
      pgs.projects.document(ID, 'PRODUCT_REQUIREMENTS.md', { revision: 1.5 }),
    ).rejects.toBeInstanceOf(PgsError);
  });
});

describe('projects.revisions against the real server', () => {
  let server: RealServer;
  beforeAll(async () => {
    server = await sharedRealServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('revises a completed project: deltas, only the touched documents, a diff, and every revision readable', async () => {
    const pgs = new Pgs({ apiKey: server.apiKey, baseUrl: server.url });
    const { projectId } = await pgs.projects.create({
      idea: 'A booking app for a dental clinic with appointment reminders and medical records',
      type: 'web',
    });
    const created = await pgs.projects.waitForCompletion(projectId, { pollIntervalMs: 200 });
    expect(created.status).toBe('completed');
    const before = (created as ProjectCompleted).project.documents;

    const started = await pgs.projects.revisions.create(projectId, { changeRequest: CHANGE });
    expect(started).toMatchObject({ projectId, revision: 2, status: 'in_progress' });
    const done = await pgs.projects.revisions.waitForCompletion(projectId, 2, {
      pollIntervalMs: 200,
    });
    if (done.status !== 'completed') throw new Error(`revision 2 ${done.status}`);
    expect(done.deltas.map((d) => d.op).sort()).toEqual(['added', 'removed']);

    // The status answers the new revision; carried-over documents are byte-identical.
    const { status, revision } = await pgs.projects.getWithRevision(projectId);
    expect(revision).toBe(2);
    if (status.status !== 'completed') throw new Error('not completed');
    for (const document of status.project.documents) {
      const old = before.find((d) => d.filename === document.filename);
      if (done.documentsChanged.includes(document.filename)) {
        expect(document.content).not.toBe(old?.content);
      } else {
        expect(document.content).toBe(old?.content);
      }
    }

    const history: RevisionSummary[] = await pgs.projects.revisions.list(projectId);
    expect(history.map((r) => [r.revision, r.status])).toEqual([
      [2, 'completed'],
      [1, 'completed'],
    ]);
    expect(history[0]?.deltas).toMatchObject({ added: 1, removed: 1 });

    const patch = await pgs.projects.revisions.diff(projectId, 2);
    for (const filename of done.documentsChanged) expect(patch).toContain(`+++ b/${filename}`);
    const { files } = await pgs.projects.revisions.diff(projectId, 2, { format: 'json' });
    expect(files.map((f) => f.filename).sort()).toEqual([...done.documentsChanged].sort());

    const requirements = 'PRODUCT_REQUIREMENTS.md';
    const oldRequirements = await pgs.projects.document(projectId, requirements, { revision: 1 });
    expect(oldRequirements).toBe(before.find((d) => d.filename === requirements)?.content);
    expect(await pgs.projects.document(projectId, requirements)).not.toBe(oldRequirements);

    // Revising while a revision runs is refused at once.
    const slow = await pgs.projects.revisions.create(projectId, {
      changeRequest: 'Add a waiting list',
      simulate: { outcome: 'completed', durationMs: 600_000 },
    });
    await expect(
      pgs.projects.revisions.create(projectId, { changeRequest: 'Add online payments' }),
    ).rejects.toMatchObject({ code: 'REVISION_IN_PROGRESS' });
    const cancelled = await pgs.projects.revisions.cancel(projectId, slow.revision);
    expect(cancelled.error.code).toBe('generation_cancelled');
    expect((await pgs.projects.getWithRevision(projectId)).revision).toBe(2);
  });

  it('answers open questions later: questions, answer (idempotent) as a revision, closed for good', async () => {
    const pgs = new Pgs({ apiKey: server.apiKey, baseUrl: server.url });
    const { projectId } = await pgs.projects.create({
      idea: 'A booking app for a dental clinic with appointment reminders by SMS',
      type: 'web',
    });
    await pgs.projects.waitForCompletion(projectId, { pollIntervalMs: 200 });
    const questions = await pgs.projects.questions(projectId);
    const [first] = questions;
    expect(first).toMatchObject({ id: expect.stringMatching(/^[QA]-\d+$/) });
    const answers = { [first!.id]: 'Twilio, on the clinic account' };
    const idempotencyKey = `answers-${projectId}`;
    const started = await pgs.projects.answer(projectId, answers, { idempotencyKey });
    expect(started).toMatchObject({ projectId, revision: 2, status: 'in_progress' });
    expect(started.location).toBe(`${server.url}/api/v1/projects/${projectId}/revisions/2`);
    const again = await pgs.projects.answer(projectId, answers, { idempotencyKey });
    expect(again).toMatchObject({ revision: 2, replayed: true });
    const done = await pgs.projects.revisions.waitForCompletion(projectId, 2, {
      pollIntervalMs: 200,
    });
    expect(done.status).toBe('completed');
    expect((await pgs.projects.questions(projectId)).map((q) => q.id)).not.toContain(first!.id);
    await expect(pgs.projects.answer(projectId, answers)).rejects.toMatchObject({
      status: 422,
      code: 'VALIDATION_ERROR',
    });
  });
});
