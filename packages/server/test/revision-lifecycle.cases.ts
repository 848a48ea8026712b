import { cp, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { assertMatchesContract } from '@pgs/contract/testing';
import { asc, eq, sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { Accounts, type CreatedKey } from '../src/accounts/service.ts';
import { auditLedger } from '../src/credits/audit.ts';
import { revisionJobId } from '../src/queue/generation-queue.ts';
import { documentPlan } from '../src/runs/catalogue.ts';
import { priceOf, priceOfKinds } from '../src/runs/pricing.ts';
import { ANALYSIS_FEE, revisableKinds, revisionPrice } from '../src/runs/revision-plan.ts';
import { DEV_CREDITS } from '../src/runtime.ts';
import { type Database, type Db, openDatabase } from '../src/storage/db.ts';
import {
  creditLedger,
  documents,
  projectEvents,
  projectRevisions,
  projects,
  provenance,
} from '../src/storage/schema.ts';
import { header } from './helpers/creation.ts';
import { seedDataDir } from './helpers/database.ts';
import { type Backend, bearer, harnessFor, roomy } from './helpers/harness.ts';
import { inheritedEnv, LISTENING, Proc, TEST_KEY } from './helpers/process.ts';
import { createTestDatabase } from './helpers/services.ts';
import { waitFor } from './helpers/wait.ts';

/**
 * Issue 18 item 9: the two ends of a revision's life the other suites leave out.
 * 1. A process that dies while a revision runs (its impact step stored, a document
 *    stored, the next ones in flight): a new process on the same data resumes it and
 *    completes it exactly once (each rewritten document once, one charge, one
 *    `revision.completed`, the ledger audit clean).
 * 2. DELETE of a revised project (and of one with a revision running, which the route
 *    cancels and refunds first) removes every revision with its documents, provenance and
 *    events; every read of it, pinned or not, answers 404 in the envelope; the ledger keeps
 *    its movements and the audit finds no drift.
 */

const TYPE = 'web' as const;
const PLAN = documentPlan(TYPE);
const IDEA =
  'A web app for small veterinary clinics to book appointments online, keep medical records for each pet, and send vaccine reminders by SMS.';
/** Read by the offline engine as FR-4 added and FR-2 removed: every revisable document is touched. */
const CHANGE = 'Add SMS reminders two days before each appointment; drop the medical records';
const REWRITTEN = revisableKinds(TYPE);
const REWRITTEN_FILES = PLAN.filter((doc) => REWRITTEN.includes(doc.kind)).map(
  (doc) => doc.filename,
);
/** What CHANGE costs: the fee and every rewritten document. */
const CHARGE = ANALYSIS_FEE + priceOfKinds(TYPE, REWRITTEN);
/**
 * A scripted revision slow enough to be killed in the middle: the impact step answers at
 * once, the requirements document after ~2.9 s, the next ones ~2.3–2.9 s apart.
 */
const REVISION_MS = 16_000;

// biome-ignore lint/suspicious/noExplicitAny: response bodies are read field by field
type Json = any;

interface SseEvent {
  id: number;
  event: string;
  data: Json;
}

/** What the database holds for one project, every table a revision writes to. */
async function snapshot(db: Db, projectId: string) {
  const [project] = await db.select().from(projects).where(eq(projects.id, projectId));
  const revisions = await db
    .select()
    .from(projectRevisions)
    .where(eq(projectRevisions.projectId, projectId))
    .orderBy(asc(projectRevisions.revision));
  const docs = await db
    .select()
    .from(documents)
    .where(eq(documents.projectId, projectId))
    .orderBy(asc(documents.revision), asc(documents.position));
  const provenances = await db.select().from(provenance).where(eq(provenance.projectId, projectId));
  const events = await db
    .select()
    .from(projectEvents)
    .where(eq(projectEvents.projectId, projectId))
    .orderBy(asc(projectEvents.seq));
  const ledger = await db
    .select()
    .from(creditLedger)
    .where(eq(creditLedger.projectId, projectId))
    .orderBy(asc(creditLedger.id));
  return { project, revisions, docs, provenances, events, ledger };
}

/**
 * The revision-`n` events of its run, as `type` or `type filename|stage`: the `task.updated`
 * events its completion causes (issue 30) follow it and are checked on their own.
 */
const revisionEvents = (events: { type: string; data: unknown }[], n: number) =>
  events
    .filter((e) => (e.data as { revision?: number }).revision === n && e.type !== 'task.updated')
    .map((e) => {
      const data = e.data as { filename?: string; stage?: string };
      const what = e.type === 'document.completed' ? data.filename : data.stage;
      return e.type === 'stage.started' || e.type === 'document.completed'
        ? `${e.type} ${what}`
        : e.type;
    });

/** The ledger audit's drift of one account (undefined when its books are exact). */
const driftOf = async (db: Db, accountId: string) =>
  (await auditLedger(db)).drift.filter((d) => d.accountId === accountId);

// ---------------------------------------------------------------------------------------
// 1. Resume after a crash mid-revision, with real processes.
// ---------------------------------------------------------------------------------------

const servers: Proc[] = [];
const tempDirs: string[] = [];
const drops: Array<() => Promise<void>> = [];

afterAll(async () => {
  await Promise.all(servers.map((server) => server.kill('SIGKILL').catch(() => {})));
  await Promise.all(tempDirs.map((dir) => rm(dir, { recursive: true, force: true })));
  await Promise.all(drops.map((drop) => drop().catch(() => {})));
}, 60_000);

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'pgs-revision-crash-'));
  tempDirs.push(dir);
  return dir;
}

function startServer(env: NodeJS.ProcessEnv): Proc {
  const server = new Proc(['packages/server/src/main.ts'], env);
  servers.push(server);
  return server;
}

const NO_NEW_KEY = /Create another test key with/;

/** The base URL once the server listens, and the development key if it printed one. */
async function ready(server: Proc): Promise<{ base: string; key: string | undefined }> {
  const match = await server.waitForOutput(LISTENING, 60_000);
  const seeded = await server.waitForOutput(
    new RegExp(`${TEST_KEY.source}|${NO_NEW_KEY.source}`),
    60_000,
  );
  return { base: `http://127.0.0.1:${match[1]}`, key: seeded[1] };
}

/** One HTTP call to a running server, its answer checked against the contract. */
async function call(
  base: string,
  key: string,
  method: string,
  url: string,
  options: { body?: unknown; headers?: Record<string, string> } = {},
) {
  const { body } = options;
  const res = await fetch(`${base}${url}`, {
    method,
    headers: {
      ...bearer(key),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...options.headers,
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(60_000),
  });
  const headers: Record<string, string> = {};
  res.headers.forEach((value, name) => {
    headers[name] = value;
  });
  const answer = { statusCode: res.status, headers, body: await res.text() };
  assertMatchesContract(method, url, answer);
  return { ...answer, json: () => JSON.parse(answer.body) as Json };
}

/**
 * Reads the project's event stream until `until` holds for the events so far, then closes
 * it; fails at the deadline (the request is aborted, which ends the read).
 */
async function readEventsUntil(
  base: string,
  key: string,
  projectId: string,
  until: (events: SseEvent[]) => boolean,
  timeoutMs: number,
): Promise<SseEvent[]> {
  const res = await fetch(`${base}/api/v1/projects/${projectId}/events`, {
    headers: bearer(key),
    signal: AbortSignal.timeout(timeoutMs),
  });
  expect(res.status).toBe(200);
  const events: SseEvent[] = [];
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`the stream ended before the condition: ${JSON.stringify(events)}`);
      buffer += value;
      for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n')) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (block.startsWith(':') || block.startsWith('retry:')) continue;
        const fields = Object.fromEntries(
          block
            .split('\n')
            .map((line) => [line.slice(0, line.indexOf(': ')), line.slice(line.indexOf(': ') + 2)]),
        );
        events.push({
          id: Number(fields.id),
          event: fields.event!,
          data: JSON.parse(fields.data!),
        });
        if (until(events)) return events;
      }
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}

/**
 * The two suites of this file on one backend. Each backend is its own test file
 * (revision-lifecycle.test.ts, revision-lifecycle-postgres.test.ts): the crash suites are
 * the longest of the whole run, and as two files they run on two workers at once.
 *
 * @example
 * revisionLifecycle('pglite');
 */
export function revisionLifecycle(backend: Backend): void {
  describe(`a revision resumed after a crash on ${backend}`, () => {
    it(
      'SIGKILL mid-revision, restart on the same data: it completes once, each document stored once, charged once',
      async () => {
        const dataDir = await tempDir();
        let databaseUrl: string | undefined;
        if (backend === 'postgres') {
          const created = await createTestDatabase();
          drops.push(created.drop);
          databaseUrl = created.url;
        } else await seedDataDir(dataDir);
        /** Opens the data only while no server owns it (PGlite), or alongside it (PostgreSQL). */
        const open = (dir = dataDir) =>
          openDatabase(
            databaseUrl
              ? { kind: 'postgres', url: databaseUrl, poolSize: 2 }
              : { kind: 'pglite', dataDir: dir },
          );
        const inspect = async <T>(read: (database: Database) => Promise<T>, dir = dataDir) => {
          const database = await open(dir);
          try {
            return await read(database);
          } finally {
            await database.close();
          }
        };
        const env: NodeJS.ProcessEnv = {
          ...inheritedEnv(),
          PORT: '0',
          HOST: '127.0.0.1',
          PGS_DATA_DIR: dataDir,
          PGS_LOG_LEVEL: 'warn',
          ...(databaseUrl ? { DATABASE_URL: databaseUrl, PGS_SEED_DEV_ACCOUNT: 'true' } : {}),
        };

        // 1. A server started as a user starts it, and a completed project on it.
        const first = startServer(env);
        const started = await ready(first);
        const key =
          started.key ??
          (await inspect(
            async (database) =>
              (
                await new Accounts(database.db).createKey({ mode: 'test', credits: DEV_CREDITS })
              ).key,
          ));
        const api = (base: string, method: string, url: string, body?: unknown) =>
          call(base, key, method, `/api/v1${url}`, body === undefined ? {} : { body });
        const created = await api(started.base, 'POST', '/projects', { idea: IDEA, type: TYPE });
        expect(created.statusCode, created.body).toBe(202);
        const projectId: string = created.json().data.projectId;
        await waitFor(
          async () => {
            const res = await api(started.base, 'GET', `/projects/${projectId}`);
            const { status } = res.json().data;
            expect(status).not.toBe('failed');
            return status === 'completed' ? true : undefined;
          },
          { timeoutMs: 30_000, intervalMs: 250, what: 'the project to complete' },
        );
        const before = (await api(started.base, 'GET', `/projects/${projectId}`)).json().data;

        // 2. A revision slow enough to be running when the process dies.
        const revised = await api(started.base, 'POST', `/projects/${projectId}/revisions`, {
          changeRequest: CHANGE,
          simulate: { outcome: 'completed', durationMs: REVISION_MS },
        });
        expect(revised.statusCode, revised.body).toBe(202);
        expect(revised.json().data.revision).toBe(2);

        // 3. Wait for its impact step and a first rewritten document to be stored (each is
        //    announced in the transaction that stores it), then SIGKILL the server.
        await readEventsUntil(
          started.base,
          key,
          projectId,
          (events) => events.some((e) => e.event === 'document.completed' && e.data.revision === 2),
          30_000,
        );
        const running = await api(started.base, 'GET', `/projects/${projectId}/revisions/2`);
        expect(running.json().data.status).toBe('in_progress');
        expect((await first.kill('SIGKILL')).signal).toBe('SIGKILL');

        // What the crash left behind; a PGlite directory is read through a copy, so the
        // restart meets the data exactly as the killed process left it.
        let inspectDir = dataDir;
        if (backend === 'pglite') {
          inspectDir = await tempDir();
          await cp(dataDir, inspectDir, { recursive: true });
        }
        const atCrash = await inspect((database) => snapshot(database.db, projectId), inspectDir);
        expect(atCrash.project).toMatchObject({ currentRevision: 1, revising: 2 });
        expect(atCrash.revisions.map((r) => [r.revision, r.status])).toEqual([[2, 'in_progress']]);
        expect(atCrash.revisions[0]!.deltas, 'the impact step was stored').not.toBeNull();
        const storedAtCrash = atCrash.docs.filter((d) => d.revision === 2);
        expect(storedAtCrash.length, 'documents of revision 2 at the crash').toBeGreaterThanOrEqual(
          1,
        );
        expect(storedAtCrash.length, 'documents of revision 2 at the crash').toBeLessThan(
          REWRITTEN.length,
        );
        expect(
          atCrash.ledger
            .filter((m) => m.movementKey.includes(':r2:'))
            .map((m) => [m.kind, m.amount]),
        ).toEqual([['reserve', -revisionPrice(TYPE)]]);

        // 4. A new process on the same data resumes the revision and completes it.
        const second = startServer(env);
        const restarted = await ready(second);
        const restartedAt = Date.now();
        expect(restarted.key, 'no second development account').toBeUndefined();
        const done = await waitFor(
          async () => {
            // A long-poll: answered as soon as the revision ends (or after 20 s).
            const res = await call(
              restarted.base,
              key,
              'GET',
              `/api/v1/projects/${projectId}/revisions/2`,
              { headers: { prefer: 'wait=20' } },
            );
            expect(res.statusCode, res.body).toBe(200);
            const data = res.json().data;
            expect(data.status, JSON.stringify(data)).not.toBe('failed');
            return data.status === 'completed' ? data : undefined;
          },
          { timeoutMs: 90_000, what: 'the resumed revision' },
        );
        console.info(
          `[revision crash ${backend}] killed with ${storedAtCrash.length}/${REWRITTEN.length} documents of revision 2 stored; ` +
            `completed ${Date.now() - restartedAt} ms after the restart listened`,
        );
        expect([...done.documentsChanged].sort()).toEqual([...REWRITTEN_FILES].sort());
        expect(done.metadata).toMatchObject({
          creditsConsumed: CHARGE,
          documentsGenerated: REWRITTEN.length,
        });

        // The project's current revision is the new one, every document of the plan once;
        // what was stored before the crash was kept, not written again.
        const status = await api(restarted.base, 'GET', `/projects/${projectId}`);
        expect(status.headers['pgs-revision']).toBe('2');
        const after = status.json().data;
        expect(after.project.documents.map((d: { filename: string }) => d.filename)).toEqual(
          before.project.documents.map((d: { filename: string }) => d.filename),
        );
        for (const doc of storedAtCrash) {
          const now = after.project.documents.find((d: { type: string }) => d.type === doc.type);
          expect(now?.content, `${doc.type} kept`).toBe(doc.content);
          expect(now?.generated_at, `${doc.type} kept`).toBe(doc.generatedAt.toISOString());
        }
        const balance = DEV_CREDITS - priceOf(TYPE) - CHARGE;
        expect((await api(restarted.base, 'GET', '/credits')).json().data).toEqual({
          mode: 'test',
          balance,
          reserved: 0,
        });

        // 5. Stopped politely; then the stored truth.
        expect(await second.kill('SIGTERM'), second.describe()).toEqual({ code: 0, signal: null });
        await inspect(async (database) => {
          const end = await snapshot(database.db, projectId);
          expect(end.project).toMatchObject({ currentRevision: 2, revising: null });
          expect(end.revisions.map((r) => [r.revision, r.status, r.creditsConsumed])).toEqual([
            [2, 'completed', CHARGE],
          ]);
          // Revision 2: each document of the plan once, the rewritten ones written in it.
          const second = end.docs.filter((d) => d.revision === 2);
          expect(second.map((d) => d.type).sort()).toEqual(PLAN.map((d) => d.kind).sort());
          expect(
            second
              .filter((d) => d.writtenIn === 2)
              .map((d) => d.type)
              .sort(),
          ).toEqual([...REWRITTEN].sort());
          // Provenance of revision 2: the impact step and each rewrite, once.
          expect(
            end.provenances
              .filter((p) => p.revision === 2)
              .map((p) => p.kind)
              .sort(),
          ).toEqual(['impact', ...REWRITTEN].sort());
          // Events: one start, one analysis, each document once, each stage once, one end.
          const events = revisionEvents(end.events, 2);
          const stages = [
            ...new Set(PLAN.filter((d) => REWRITTEN.includes(d.kind)).map((d) => d.stage)),
          ];
          expect([...events].sort()).toEqual(
            [
              'revision.started',
              'revision.analysed',
              ...stages.map((stage) => `stage.started ${stage}`),
              ...REWRITTEN_FILES.map((file) => `document.completed ${file}`),
              'revision.completed',
            ].sort(),
          );
          expect(events[0]).toBe('revision.started');
          expect(events.at(-1)).toBe('revision.completed');
          expect(end.events.filter((e) => e.type === 'revision.failed')).toEqual([]);
          // The plan's tasks followed the revision once: one event per task it moved (the
          // removed requirement's tasks made obsolete), after revision.completed.
          const types = end.events.map((e) => e.type);
          const taskEvents = end.events.filter(
            (e) => e.type === 'task.updated' && (e.data as { revision?: number }).revision === 2,
          );
          expect(done.tasks.obsoleted.length).toBeGreaterThan(0);
          expect(taskEvents).toHaveLength(done.tasks.obsoleted.length + done.tasks.reopened.length);
          expect(end.events.indexOf(taskEvents[0]!)).toBeGreaterThan(
            types.lastIndexOf('revision.completed'),
          );
          // The ledger: reserved once, settled once, nothing refunded.
          const unused = revisionPrice(TYPE) - CHARGE;
          expect(
            end.ledger
              .filter((m) => m.movementKey.includes(':r2:'))
              .map((m) => [m.movementKey, m.kind, m.amount]),
          ).toEqual([
            [`project:${projectId}:r2:reserve`, 'reserve', -revisionPrice(TYPE)],
            [`project:${projectId}:r2:consume`, 'consume', 0],
            ...(unused > 0 ? [[`project:${projectId}:r2:release`, 'release', unused]] : []),
          ]);
          expect(await driftOf(database.db, end.project!.accountId)).toEqual([]);
          // One job, resumed: the interrupted attempt was retried, not enqueued again.
          const job = (await database.db.execute(
            sql`select state, retry_count from pgboss.job where id = ${revisionJobId(projectId, 2)}`,
          )) as unknown as { rows: { state: string; retry_count: number }[] };
          expect(job.rows).toHaveLength(1);
          expect(job.rows[0]!.state).toBe('completed');
          expect(job.rows[0]!.retry_count).toBeGreaterThanOrEqual(1);
        });
      },
      backend === 'pglite' ? 150_000 : 200_000,
    );
  });

  // ---------------------------------------------------------------------------------------
  // 2. DELETE of a revised project, in-process on the real queue and workers.
  // ---------------------------------------------------------------------------------------

  describe(`deleting a revised project on ${backend}`, () => {
    const harness = harnessFor(backend, {
      generation: 'workers',
      rules: roomy('status', 'create', 'downloads', 'list', 'manage'),
    });
    const api = (key: CreatedKey, method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown) =>
      harness().request({
        method,
        url: `/api/v1${url}`,
        headers: {
          ...bearer(key.key),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
      });
    const settleRevision = (key: CreatedKey, id: string, n: number) =>
      waitFor(
        async () => {
          const res = await api(key, 'GET', `/projects/${id}/revisions/${n}`);
          expect(res.statusCode, res.body).toBe(200);
          const data = res.json().data;
          return data.status === 'in_progress' ? undefined : data;
        },
        { timeoutMs: 30_000, what: `revision ${n} of ${id} to end` },
      );
    const completedProject = async (key: CreatedKey) => {
      const res = await harness().createProject(key, { idea: IDEA, type: TYPE });
      expect(res.statusCode, res.body).toBe(202);
      const id: string = res.json().data.projectId;
      await waitFor(
        async () => {
          const status = (await harness().getProject(key, id)).json().data.status;
          expect(status).not.toBe('failed');
          return status === 'completed' ? true : undefined;
        },
        { timeoutMs: 30_000, what: `project ${id} to complete` },
      );
      return id;
    };
    const revise = async (key: CreatedKey, id: string, body: Record<string, unknown>) => {
      const res = await api(key, 'POST', `/projects/${id}/revisions`, body);
      expect(res.statusCode, res.body).toBe(202);
      return res.json().data.revision as number;
    };
    /** Rows left in every table that holds a project's parts. */
    const leftOf = async (id: string) => {
      const s = await snapshot(harness().database.db, id);
      return {
        project: s.project === undefined ? 0 : 1,
        revisions: s.revisions.length,
        documents: s.docs.length,
        provenance: s.provenances.length,
        events: s.events.length,
      };
    };
    const NOTHING = { project: 0, revisions: 0, documents: 0, provenance: 0, events: 0 };

    /** Every read of a project, unpinned and pinned to each revision, answers 404 in the envelope. */
    const expectGone = async (key: CreatedKey, id: string, revisions: number[]) => {
      const reads = [
        `/projects/${id}`,
        `/projects/${id}/revisions`,
        `/projects/${id}/provenance`,
        `/projects/${id}/trace`,
        `/projects/${id}/archive`,
        `/projects/${id}/documents/PRODUCT_REQUIREMENTS.md`,
        `/projects/${id}/events`,
      ];
      for (const n of revisions) {
        reads.push(
          `/projects/${id}/revisions/${n}`,
          `/projects/${id}/revisions/${n}/diff`,
          `/projects/${id}/documents/PRODUCT_REQUIREMENTS.md?revision=${n}`,
          `/projects/${id}/documents/PROJECT_BRIEF.md?revision=${n}`,
          `/projects/${id}/provenance?revision=${n}`,
          `/projects/${id}/trace?revision=${n}`,
          `/projects/${id}/archive?revision=${n}`,
        );
      }
      for (const url of reads) {
        const res = await api(key, 'GET', url);
        expect(res.statusCode, `GET ${url}: ${res.body}`).toBe(404);
        const body = res.json();
        expect(body, url).toMatchObject({
          success: false,
          error: {
            code: 'RESOURCE_NOT_FOUND',
            message: expect.any(String),
            request_id: expect.any(String),
            details: { resource_type: 'project', resource_id: id },
          },
        });
        expect(body.error.request_id).toBe(header(res, 'x-request-id'));
      }
      // Nor can anything be started on it again.
      const again = await api(key, 'POST', `/projects/${id}/revisions`, { changeRequest: CHANGE });
      expect(again.statusCode).toBe(404);
      expect(again.json().error.code).toBe('RESOURCE_NOT_FOUND');
      const cancel = await api(key, 'POST', `/projects/${id}/revisions/${revisions.at(-1)}/cancel`);
      expect(cancel.statusCode).toBe(404);
      const twice = await api(key, 'DELETE', `/projects/${id}`);
      expect(twice.statusCode).toBe(404);
      expect(twice.json().error.code).toBe('RESOURCE_NOT_FOUND');
    };

    it('removes every revision of a project revised twice, its documents, provenance, trace and events', async () => {
      const h = harness();
      const key = await h.createKey('test', { credits: 500 });
      const id = await completedProject(key);
      expect(await revise(key, id, { changeRequest: CHANGE })).toBe(2);
      expect((await settleRevision(key, id, 2)).status).toBe('completed');
      expect(
        await revise(key, id, { changeRequest: 'Add a waiting list for fully booked days' }),
      ).toBe(3);
      expect((await settleRevision(key, id, 3)).status).toBe('completed');
      // Revision 4 fails (scripted): a failed revision's history row must go too.
      expect(
        await revise(key, id, {
          changeRequest: 'Drop the vaccine reminders',
          simulate: { outcome: 'failed', durationMs: 0 },
        }),
      ).toBe(4);
      expect((await settleRevision(key, id, 4)).status).toBe('failed');
      // Every pinned read answers before the delete: these are the reads the delete must end.
      for (const n of [1, 2, 3]) {
        const pinned = await api(key, 'GET', `/projects/${id}/trace?revision=${n}`);
        expect(pinned.statusCode, pinned.body).toBe(200);
      }
      const held = await leftOf(id);
      expect(held).toMatchObject({ project: 1, revisions: 3 });
      expect(held.documents).toBe(PLAN.length * 3);
      expect(held.provenance).toBeGreaterThan(0);
      expect(held.events).toBeGreaterThan(0);
      const balance = (await h.credits(key)).balance;

      const deleted = await api(key, 'DELETE', `/projects/${id}`);
      expect(deleted.statusCode, deleted.body).toBe(204);
      expect(deleted.body).toBe('');

      expect(await leftOf(id)).toEqual(NOTHING);
      await expectGone(key, id, [1, 2, 3, 4]);
      // The money history stays, and it is exact: nothing charged, nothing refunded by the delete.
      expect(await h.credits(key)).toEqual({ mode: 'test', balance, reserved: 0 });
      const kept = (await snapshot(h.database.db, id)).ledger.map((m) =>
        m.movementKey.replace(id, '<id>'),
      );
      expect(kept).toEqual(
        expect.arrayContaining([
          'project:<id>:reserve',
          'project:<id>:r2:reserve',
          'project:<id>:r3:consume',
          'project:<id>:r4:refund',
        ]),
      );
      expect(await driftOf(h.database.db, key.accountId)).toEqual([]);
    });

    it('cancels and refunds a revision in progress, then removes it with the rest; its worker stores nothing more', async () => {
      const h = harness();
      const key = await h.createKey('test', { credits: 500 });
      const id = await completedProject(key);
      expect(await revise(key, id, { changeRequest: CHANGE })).toBe(2);
      expect((await settleRevision(key, id, 2)).status).toBe('completed');
      const balance = (await h.credits(key)).balance;
      // Revision 3, scripted slow: wait until its worker has stored a document of it.
      expect(
        await revise(key, id, {
          changeRequest: 'Add a waiting list for fully booked days',
          simulate: { outcome: 'completed', durationMs: 24_000 },
        }),
      ).toBe(3);
      expect((await h.credits(key)).reserved).toBe(revisionPrice(TYPE));
      await waitFor(
        async () =>
          (await snapshot(h.database.db, id)).docs.some((d) => d.revision === 3) ? true : undefined,
        { timeoutMs: 30_000, what: 'a first document of revision 3 stored' },
      );
      expect((await api(key, 'GET', `/projects/${id}/revisions/3`)).json().data.status).toBe(
        'in_progress',
      );

      const deleted = await api(key, 'DELETE', `/projects/${id}`);
      expect(deleted.statusCode, deleted.body).toBe(204);
      expect(await leftOf(id)).toEqual(NOTHING);

      // The worker learns of the end and stops: its job ends, and nothing of the project
      // comes back (a document finished after the delete is not stored).
      const job = revisionJobId(id, 3);
      await waitFor(
        async () => {
          const result = (await h.database.db.execute(
            sql`select state from pgboss.job where id = ${job}`,
          )) as unknown as { rows: { state: string }[] };
          const state = result.rows[0]?.state;
          return state === 'completed' || state === 'failed' ? state : undefined;
        },
        { timeoutMs: 30_000, what: "revision 3's job to end" },
      );
      expect(await leftOf(id)).toEqual(NOTHING);
      await expectGone(key, id, [1, 2, 3]);

      // Revision 3 refunded whole, once; revision 2's charge stands.
      expect(await h.credits(key)).toEqual({ mode: 'test', balance, reserved: 0 });
      const r3 = (await snapshot(h.database.db, id)).ledger
        .filter((m) => m.movementKey.includes(':r3:'))
        .map((m) => [m.kind, m.amount]);
      expect(r3).toEqual([
        ['reserve', -revisionPrice(TYPE)],
        ['refund', revisionPrice(TYPE)],
      ]);
      expect(await driftOf(h.database.db, key.accountId)).toEqual([]);
    });
  });
}
