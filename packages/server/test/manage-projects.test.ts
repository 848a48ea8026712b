import { randomUUID } from 'node:crypto';
import { asc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { CreatedKey } from '../src/accounts/service.ts';
import { Projects } from '../src/projects/projects.ts';
import { runStore } from '../src/projects/run-store.ts';
import { documentPlan } from '../src/runs/catalogue.ts';
import { engineOf, offlineModels } from '../src/runs/models.ts';
import { priceOf } from '../src/runs/pricing.ts';
import { GenerationWorkflow } from '../src/runs/workflow.ts';
import {
  creditLedger,
  documents,
  projectEvents,
  projects,
  provenance,
} from '../src/storage/schema.ts';
import { insertDocument } from '../src/storage/sql/projects.ts';
import { insertProvenance } from '../src/storage/sql/provenance.ts';
import { backends, bearer, buildTestApp, harnessFor, roomy } from './helpers/harness.ts';
import { waitFor } from './helpers/wait.ts';

/**
 * Issue 8 items 5 and 7: POST /projects/{id}/cancel and DELETE /projects/{id}, with the
 * real queue and workers (docs/api.md "Cancelling and deleting"; listing:
 * list-projects.test.ts).
 */

const IDEA = 'A web dashboard where community gardeners share compost schedules and seed swaps.';
/** Held in progress for ten minutes: long past any test, so only a cancel ends it. */
const HELD = { outcome: 'completed', durationMs: 600_000 } as const;

describe.each(await backends())('cancelling and deleting projects on %s', (backend) => {
  // list and manage keep their documented limits: their headers are checked below.
  const harness = harnessFor(backend, {
    generation: 'workers',
    // list and manage keep their documented limits: their headers are checked below.
    rules: roomy('status', 'create', 'credits'),
  });

  const list = (key: CreatedKey, query = '') =>
    harness().request({ method: 'GET', url: `/api/v1/projects${query}`, headers: bearer(key.key) });
  const cancel = (key: CreatedKey, id: string, headers: Record<string, string> = {}) =>
    harness().request({
      method: 'POST',
      url: `/api/v1/projects/${id}/cancel`,
      headers: { ...bearer(key.key), ...headers },
    });
  const remove = (key: CreatedKey, id: string) =>
    harness().request({
      method: 'DELETE',
      url: `/api/v1/projects/${id}`,
      headers: bearer(key.key),
    });
  const provenanceOf = (key: CreatedKey, id: string) =>
    harness().request({
      method: 'GET',
      url: `/api/v1/projects/${id}/provenance`,
      headers: bearer(key.key),
    });
  const ledgerOf = (projectId: string) =>
    harness()
      .database.db.select()
      .from(creditLedger)
      .where(eq(creditLedger.projectId, projectId))
      .orderBy(asc(creditLedger.id));
  /** A real project (reserved, enqueued, its worker running) that stays in progress. */
  async function held(key: CreatedKey): Promise<string> {
    const res = await harness().createProject(key, { idea: IDEA, type: 'web', simulate: HELD });
    expect(res.statusCode).toBe(202);
    return res.json().data.projectId;
  }
  /** Stores documents of the web plan as the workflow would (the worker is still far off). */
  async function storeDocuments(projectId: string, kinds: string[]): Promise<void> {
    const plan = documentPlan('web');
    for (const kind of kinds) {
      const doc = plan.find((d) => d.kind === kind)!;
      await insertDocument(harness().database.db, {
        projectId,
        type: kind,
        filename: doc.filename,
        content: `# ${doc.title}\n\nCompost schedules.\n`,
        stage: doc.stage,
        tokensUsed: 100,
        generatedAt: new Date(),
        position: plan.indexOf(doc),
      });
      await insertProvenance(harness().database.db, {
        projectId,
        kind,
        engine: 'offline',
        promptVersion: `${kind}@1+system@1`,
        inputTokens: 60,
        outputTokens: 40,
        attempts: 1,
        durationMs: 5,
        repairs: 0,
        initialFindings: [],
        findings: [],
        trimmed: [],
      });
    }
  }

  describe('POST /projects/{id}/cancel', () => {
    it('stops a project in progress: 200 failed generation_cancelled; the stored documents charged, the rest released, once', async () => {
      const key = await harness().createKey('test', { credits: 100 });
      const id = await held(key);
      expect(await harness().credits(key)).toMatchObject({ balance: 100 - 47, reserved: 47 });
      await storeDocuments(id, ['project-brief', 'product-requirements']);

      const res = await cancel(key, id);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        success: true,
        data: {
          projectId: id,
          status: 'failed',
          error: {
            code: 'generation_cancelled',
            message:
              'The project was cancelled. 13 credits were charged for the 2 documents already generated; the remaining 34 were released.',
          },
        },
      });
      // Exactly what the status endpoint answers from now on, byte for byte.
      const status = await harness().getProject(key, id);
      expect(status.statusCode).toBe(200);
      expect(status.body).toBe(res.body);

      expect(await harness().credits(key)).toEqual({
        mode: 'test',
        balance: 100 - 13,
        reserved: 0,
      });
      const ledger = await ledgerOf(id);
      expect(ledger.map((m) => [m.kind, m.amount])).toEqual([
        ['reserve', -47],
        ['consume', 0],
        ['release', 34],
      ]);
      const [row] = await harness().database.db.select().from(projects).where(eq(projects.id, id));
      expect(row).toMatchObject({ status: 'failed', creditsConsumed: 13 });
      expect(row?.completedAt).toBeInstanceOf(Date);
      // Watchers (and the worker running it) learn from the event.
      const events = await harness()
        .database.db.select()
        .from(projectEvents)
        .where(eq(projectEvents.projectId, id));
      expect(events.filter((e) => e.type === 'project.failed').map((e) => e.data)).toEqual([
        { status: 'failed', error: res.json().data.error },
      ]);

      // The worker that later tries to end it changes nothing.
      const worker = new Projects(
        harness().database.db,
        { enqueue: async () => {} },
        () => 'offline',
      );
      expect(await worker.complete(id)).toBe(false);
      expect(await worker.fail(id, 'late')).toBe(false);
      expect((await ledgerOf(id)).length).toBe(3);
      expect((await harness().getProject(key, id)).body).toBe(res.body);
      expect(await harness().credits(key)).toEqual({ mode: 'test', balance: 87, reserved: 0 });

      // And cancelling again is a conflict.
      const again = await cancel(key, id);
      expect(again.statusCode).toBe(409);
      expect(again.json().error).toMatchObject({
        code: 'PROJECT_NOT_IN_PROGRESS',
        details: { resource_type: 'project', resource_id: id, status: 'failed' },
      });
    });

    it('before any document: nothing charged, the whole reservation released', async () => {
      const key = await harness().createKey('test', { credits: 60 });
      const id = await held(key);
      const res = await cancel(key, id);
      expect(res.statusCode).toBe(200);
      expect(res.json().data.error).toEqual({
        code: 'generation_cancelled',
        message:
          'The project was cancelled before any document was generated; nothing was charged.',
      });
      expect(await harness().credits(key)).toEqual({ mode: 'test', balance: 60, reserved: 0 });
      expect((await ledgerOf(id)).map((m) => [m.kind, m.amount])).toEqual([
        ['reserve', -priceOf('web')],
        ['consume', 0],
        ['release', priceOf('web')],
      ]);
    });

    it('sent twice at once: one 200, one 409, one settlement', async () => {
      const key = await harness().createKey('test', { credits: 100 });
      const id = await held(key);
      await storeDocuments(id, ['project-brief']);
      const answers = await Promise.all([cancel(key, id), cancel(key, id)]);
      expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409]);
      expect((await ledgerOf(id)).map((m) => [m.kind, m.amount])).toEqual([
        ['reserve', -47],
        ['consume', 0],
        ['release', 42],
      ]);
      expect(await harness().credits(key)).toEqual({ mode: 'test', balance: 95, reserved: 0 });
    });

    it('with an Idempotency-Key: a retry replays the 200; the key on another project → 422', async () => {
      const key = await harness().createKey('test', { credits: 200 });
      const id = await held(key);
      const first = await cancel(key, id, { 'idempotency-key': 'cancel-1' });
      expect(first.statusCode).toBe(200);
      const replay = await cancel(key, id, { 'idempotency-key': 'cancel-1' });
      expect(replay.statusCode).toBe(200);
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect(replay.body).toBe(first.body);
      const otherId = await held(key);
      const reused = await cancel(key, otherId, { 'idempotency-key': 'cancel-1' });
      expect(reused.statusCode).toBe(422);
      expect(reused.json().error.code).toBe('IDEMPOTENCY_KEY_REUSED');
      expect((await cancel(key, otherId)).statusCode).toBe(200);
    });

    it('a finished project → 409 PROJECT_NOT_IN_PROGRESS with its status', async () => {
      const key = await harness().createKey('test');
      for (const status of ['completed', 'failed'] as const) {
        const id = await harness().seedProject(key, { status });
        const res = await cancel(key, id);
        expect(res.statusCode).toBe(409);
        expect(res.json().error).toMatchObject({
          code: 'PROJECT_NOT_IN_PROGRESS',
          details: { status },
        });
        expect((await harness().getProject(key, id)).json().data.status).toBe(status);
      }
    });

    it("another account's or the other mode's project → 404, and it keeps running", async () => {
      const key = await harness().createKey('test', { credits: 100 });
      const id = await held(key);
      const other = await harness().createKey('test');
      const live = await harness().createKey('live', { accountId: key.accountId });
      for (const stranger of [other, live]) {
        const res = await cancel(stranger, id);
        expect(res.statusCode).toBe(404);
        expect(res.json().error).toMatchObject({
          code: 'RESOURCE_NOT_FOUND',
          details: { resource_type: 'project', resource_id: id },
        });
        expect((await remove(stranger, id)).statusCode).toBe(404);
      }
      expect((await harness().getProject(key, id)).json().data.status).toBe('in_progress');
      expect((await cancel(key, randomUUID())).statusCode).toBe(404);
      expect((await cancel(key, 'not-a-uuid')).statusCode).toBe(400);
      expect((await cancel(key, id)).statusCode).toBe(200);
    });

    it('cancel and delete share the manage limit, 30 per minute', async () => {
      const key = await harness().createKey('test');
      const first = await cancel(key, randomUUID());
      const second = await remove(key, randomUUID());
      expect(first.headers['x-ratelimit-limit']).toBe('30');
      expect(Number(second.headers['x-ratelimit-remaining'])).toBe(
        Number(first.headers['x-ratelimit-remaining']) - 1,
      );
    });
  });

  describe('DELETE /projects/{id}', () => {
    it('a running project: cancelled with the same settlement, then gone (204, then 404 everywhere); the ledger kept', async () => {
      const key = await harness().createKey('test', { credits: 100 });
      const id = await held(key);
      await storeDocuments(id, ['project-brief']);
      const res = await remove(key, id);
      expect(res.statusCode).toBe(204);
      expect(res.body).toBe('');
      for (const after of [
        await harness().getProject(key, id),
        await provenanceOf(key, id),
        await cancel(key, id),
        await remove(key, id),
      ]) {
        expect(after.statusCode).toBe(404);
      }
      for (const table of [projects, documents, provenance, projectEvents]) {
        const column = table === projects ? projects.id : (table as typeof documents).projectId;
        expect(await harness().database.db.select().from(table).where(eq(column, id))).toEqual([]);
      }
      // Money history stays: the reservation, the charge of the one document, the release.
      expect((await ledgerOf(id)).map((m) => [m.kind, m.amount])).toEqual([
        ['reserve', -47],
        ['consume', 0],
        ['release', 42],
      ]);
      expect(await harness().credits(key)).toEqual({ mode: 'test', balance: 95, reserved: 0 });
      // The job of a deleted project does not bring it back.
      const workflow = new GenerationWorkflow(
        runStore(harness().database.db),
        new Projects(harness().database.db, { enqueue: async () => {} }, engineOf(offlineModels())),
        offlineModels(),
      );
      expect(await workflow.run({ projectId: id, signal: new AbortController().signal })).toBe(
        'skipped',
      );
      expect((await list(key)).json().data).toEqual([]);
    });

    it('a finished project: 204, then 404, also from the cache of final bodies of every process', async () => {
      const key = await harness().createKey('test');
      const id = await harness().seedProject(key, { status: 'completed' });
      // Another API process on the same database, which has served (and cached) the body.
      const other: FastifyInstance = await buildTestApp(harness().database);
      try {
        const get = (app: FastifyInstance) =>
          app.inject({ method: 'GET', url: `/api/v1/projects/${id}`, headers: bearer(key.key) });
        expect((await harness().getProject(key, id)).statusCode).toBe(200);
        expect((await get(other)).statusCode).toBe(200);
        expect((await remove(key, id)).statusCode).toBe(204);
        expect((await harness().getProject(key, id)).statusCode).toBe(404);
        await waitFor(async () => ((await get(other)).statusCode === 404 ? true : undefined), {
          what: 'the other process to forget the deleted project',
        });
        expect(await ledgerOf(id)).toEqual([]);
      } finally {
        await other.close();
      }
    });
  });
});
