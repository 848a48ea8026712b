import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { assertMatchesContract } from '@pgs/contract/testing';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { SHUTDOWN_FRAME } from '../src/api/routes/projects/events.ts';
import { getBalance } from '../src/credits/ledger.ts';
import { GENERATE_QUEUE } from '../src/queue/generation-queue.ts';
import { documentPlan } from '../src/runs/catalogue.ts';
import { priceOf } from '../src/runs/pricing.ts';
import { DEV_CREDITS } from '../src/runtime.ts';
import { openDatabase } from '../src/storage/db.ts';
import { creditLedger, documents, projects } from '../src/storage/schema.ts';
import { competent, isDefinition, kindOf } from './helpers/ai-harness.ts';
import { seedDataDir } from './helpers/database.ts';
import { type FakeAi, startFakeAi } from './helpers/fake-ai.ts';
import { LISTENING, type Proc, startServerProcess, TEST_KEY } from './helpers/process.ts';
import { createTestDatabase, postgresUnavailable } from './helpers/services.ts';
import { waitFor } from './helpers/wait.ts';

/**
 * Issue 10, item 7: SIGTERM to the real process (`node packages/server/src/main.ts`, the
 * embedded PGlite default) in the middle of a generation held deterministically by a fake
 * provider that stalls, with an event stream and a long-poll open: it exits 0 within the
 * 10 s deadline, the stream ends with a reconnect hint, the long-poll gets its answer, the
 * job is handed back without using up a retry, and a restart on the same data directory
 * completes the project with each document once and one charge.
 */

const ADMIN_TOKEN = 'shutdown-test-admin-token-0123456789';
const TYPE = 'web' as const;
const PLAN = documentPlan(TYPE).map((doc) => doc.kind);
const PRICE = priceOf(TYPE);
/** The document stored before the stall: every other one waits for it. */
const FIRST = 'project-brief';

const servers: Proc[] = [];
const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  await Promise.all(servers.map((server) => server.kill('SIGKILL').catch(() => {})));
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
}, 60_000);

interface Reply {
  status: number;
  headers: Record<string, string>;
  body: string;
  // biome-ignore lint/suspicious/noExplicitAny: test reads of contract-checked JSON
  json(): any;
}

async function call(
  base: string,
  token: string,
  method: string,
  url: string,
  options: { body?: unknown; headers?: Record<string, string> } = {},
): Promise<Reply> {
  const res = await fetch(`${base}${url}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...options.headers,
    },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
  const headers: Record<string, string> = {};
  res.headers.forEach((value, name) => {
    headers[name] = value;
  });
  const reply = { statusCode: res.status, headers, body: await res.text() };
  assertMatchesContract(method, url, reply);
  return { status: res.status, headers, body: reply.body, json: () => JSON.parse(reply.body) };
}

/**
 * Long-polls the resumed project until it completes (never failing on the way), then checks
 * it holds each document of the plan once, charged once, and that the first document was
 * asked of the provider once (in the first run, and kept).
 */
async function expectResumedToComplete(
  base: string,
  key: string,
  projectId: string,
  fake: FakeAi,
): Promise<void> {
  const completed = await waitFor(
    async () => {
      const res = await call(base, key, 'GET', `/api/v1/projects/${projectId}`, {
        headers: { prefer: 'wait=30' },
      });
      expect(res.json().data.status).not.toBe('failed');
      return res.json().data.status === 'completed' ? res : undefined;
    },
    { timeoutMs: 60_000, intervalMs: 10, what: 'the resumed project to complete' },
  );
  const data = completed.json().data;
  const listed: string[] = data.project.documents.map((d: { type: string }) => d.type);
  expect([...listed].sort()).toEqual([...PLAN].sort());
  expect(data.metadata).toMatchObject({
    creditsConsumed: PRICE,
    documentsGenerated: PLAN.length,
  });
  // The first document was asked for once, in the first run, and kept.
  expect(fake.calls.filter((c) => kindOf(c) === FIRST)).toHaveLength(1);
}

/** A gauge's value in a `/metrics` text. */
function gauge(text: string, name: string): number {
  const match = new RegExp(`^${name} (\\S+)$`, 'm').exec(text);
  return match ? Number(match[1]) : Number.NaN;
}

function start(dataDir: string, fake: FakeAi, env: NodeJS.ProcessEnv = {}): Proc {
  const server = startServerProcess({
    ...env,
    PGS_DATA_DIR: dataDir,
    PGS_ADMIN_TOKEN: ADMIN_TOKEN,
    PGS_LOG_LEVEL: 'warn',
    // Test keys generate with the fake provider; its stalls outlast the shutdown deadline
    // (a 120 s call time-out), so the shutdown must abort them rather than wait.
    PGS_TEST_MODELS: 'openai-compatible:fake-model',
    PGS_OPENAI_COMPATIBLE_BASE_URL: fake.baseURL,
    PGS_STATUS_RATE_LIMIT: '100000',
  });
  servers.push(server);
  return server;
}

describe('SIGTERM on the real process (embedded PGlite)', () => {
  it('mid-generation: exits 0 within 10 s, ends streams and long-polls cleanly, and a restart finishes with each document once and one charge', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'pgs-shutdown-test-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    await seedDataDir(dataDir);
    // The definition and the first document are answered; every later document stalls.
    let holding = true;
    const fake = await startFakeAi((c) =>
      holding && !isDefinition(c) && kindOf(c) !== FIRST ? { kind: 'stall' } : competent(c),
    );
    cleanups.push(() => fake.close());

    // 1. Start as a user does; create a project; wait until it is held mid-generation.
    const first = start(dataDir, fake);
    const base = `http://127.0.0.1:${(await first.waitForOutput(LISTENING, 60_000))[1]}`;
    const key = (await first.waitForOutput(TEST_KEY, 10_000))[1]!;
    const created = await call(base, key, 'POST', '/api/v1/projects', {
      body: {
        idea: 'A web app where cycling clubs plan group rides and share routes.',
        type: TYPE,
      },
    });
    expect(created.status).toBe(202);
    const projectId: string = created.json().data.projectId;
    await waitFor(
      async () =>
        fake.calls.some((c) => !isDefinition(c) && kindOf(c) !== FIRST) && fake.inFlight > 0
          ? true
          : undefined,
      { timeoutMs: 60_000, what: 'a later document stalled at the provider' },
    );

    // 2. An event stream and a long-poll are open (the server's own gauges say so).
    const stream = await fetch(`${base}/api/v1/projects/${projectId}/events`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(stream.status).toBe(200);
    const streamed = stream.text();
    const longPoll = call(base, key, 'GET', `/api/v1/projects/${projectId}`, {
      headers: { prefer: 'wait=60' },
    });
    await waitFor(
      async () => {
        const text = (await call(base, ADMIN_TOKEN, 'GET', '/metrics')).body;
        return gauge(text, 'pgs_event_streams_open') === 1 &&
          gauge(text, 'pgs_long_polls_open') === 1
          ? true
          : undefined;
      },
      { timeoutMs: 10_000, what: 'the stream and the long-poll held' },
    );

    // 3. SIGTERM: the process exits 0 by itself, within the deadline.
    const signalledAt = Date.now();
    first.child.kill('SIGTERM');
    const exit = await first.waitForExit(20_000);
    const tookMs = Date.now() - signalledAt;
    expect(exit, first.describe()).toEqual({ code: 0, signal: null });
    expect(tookMs, 'exit within the 10 s deadline').toBeLessThan(10_000);
    console.info(`[shutdown] SIGTERM to exit: ${tookMs} ms`);

    // The long-poll in flight was answered with the current state; the stream ended with
    // the reconnect hint, cleanly (text() rejects on a connection cut mid-body).
    const held = await longPoll;
    expect(held.status).toBe(200);
    expect(held.json().data.status).toBe('in_progress');
    const events = await streamed;
    expect(events.startsWith('id: ')).toBe(true);
    expect(events.endsWith(SHUTDOWN_FRAME)).toBe(true);

    // 4. What the shutdown left: one document, only the reservation, the job handed back
    // (failed on purpose without using up a retry, due at once).
    const stopped = await openDatabase({ kind: 'pglite', dataDir });
    try {
      const [row] = await stopped.db.select().from(projects).where(eq(projects.id, projectId));
      expect(row?.status).toBe('in_progress');
      const docs = await stopped.db
        .select()
        .from(documents)
        .where(eq(documents.projectId, projectId));
      expect(docs.map((d) => d.type)).toEqual([FIRST]);
      const ledger = await stopped.db
        .select()
        .from(creditLedger)
        .where(eq(creditLedger.projectId, projectId));
      expect(ledger.map((m) => m.kind)).toEqual(['reserve']);
      const { rows } = await stopped.pglite!.query<{
        state: string;
        retry_count: number;
        retry_limit: number;
        due: boolean;
      }>(
        'select state, retry_count, retry_limit, start_after <= now() as due from pgboss.job where name = $1 and id = $2',
        [GENERATE_QUEUE, projectId],
      );
      // pg-boss counts a retry when it fetches the job again: that fetch makes it attempt 1
      // of a limit raised from 3 to 4, so 3 retries remain, as before the shutdown.
      expect(rows[0]).toEqual({ state: 'retry', retry_count: 0, retry_limit: 4, due: true });
    } finally {
      await stopped.close();
    }

    // 5. Restart on the same data; the provider answers everything now.
    holding = false;
    const second = start(dataDir, fake);
    const base2 = `http://127.0.0.1:${(await second.waitForOutput(LISTENING, 60_000))[1]}`;
    await expectResumedToComplete(base2, key, projectId, fake);

    const again = await second.kill('SIGTERM');
    expect(again, second.describe()).toEqual({ code: 0, signal: null });
    const database = await openDatabase({ kind: 'pglite', dataDir });
    try {
      const ledger = await database.db
        .select()
        .from(creditLedger)
        .where(eq(creditLedger.projectId, projectId))
        .orderBy(creditLedger.id);
      expect(ledger.map((m) => [m.kind, m.amount])).toEqual([
        ['reserve', -PRICE],
        ['consume', 0],
      ]);
      const [row] = await database.db.select().from(projects).where(eq(projects.id, projectId));
      expect(await getBalance(database.db, row!.accountId, row!.mode)).toBe(DEV_CREDITS - PRICE);
      const docs = await database.db
        .select()
        .from(documents)
        .where(eq(documents.projectId, projectId));
      expect(docs.map((d) => d.type).sort()).toEqual([...PLAN].sort());
    } finally {
      await database.close();
    }
  }, 240_000);
});

const WORKER_RUNNING = /PGS worker running/;
const noPostgres = await postgresUnavailable();

describe.skipIf(noPostgres !== undefined)(
  'SIGTERM to a worker on PostgreSQL (PGS_ROLE=worker)',
  () => {
    it('hands its running generation back: another worker resumes it at once, each document once, one charge', async () => {
      const dataDir = await mkdtemp(path.join(os.tmpdir(), 'pgs-shutdown-test-'));
      cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
      const database = await createTestDatabase();
      cleanups.push(database.drop);
      let holding = true;
      const fake = await startFakeAi((c) =>
        holding && !isDefinition(c) && kindOf(c) !== FIRST ? { kind: 'stall' } : competent(c),
      );
      cleanups.push(() => fake.close());
      const env = { DATABASE_URL: database.url };

      const api = start(dataDir, fake, { ...env, PGS_ROLE: 'api', PGS_SEED_DEV_ACCOUNT: 'true' });
      const base = `http://127.0.0.1:${(await api.waitForOutput(LISTENING, 60_000))[1]}`;
      const key = (await api.waitForOutput(TEST_KEY, 10_000))[1]!;
      const first = start(dataDir, fake, { ...env, PGS_ROLE: 'worker' });
      await first.waitForOutput(WORKER_RUNNING, 60_000);

      const created = await call(base, key, 'POST', '/api/v1/projects', {
        body: {
          idea: 'A web app where cycling clubs plan group rides and share routes.',
          type: TYPE,
        },
      });
      const projectId: string = created.json().data.projectId;
      await waitFor(
        async () =>
          fake.calls.some((c) => !isDefinition(c) && kindOf(c) !== FIRST) && fake.inFlight > 0
            ? true
            : undefined,
        { timeoutMs: 60_000, what: 'a later document stalled at the provider' },
      );
      // The second worker starts only now, so the first one holds the job.
      const second = start(dataDir, fake, { ...env, PGS_ROLE: 'worker' });
      await second.waitForOutput(WORKER_RUNNING, 60_000);
      holding = false;

      const signalledAt = Date.now();
      first.child.kill('SIGTERM');
      const exit = await first.waitForExit(20_000);
      const exitedAt = Date.now();
      expect(exit, first.describe()).toEqual({ code: 0, signal: null });
      expect(exitedAt - signalledAt, 'exit within the 10 s deadline').toBeLessThan(10_000);

      // Claimed again well before a dead worker's heartbeat would lapse (10–15 s).
      const pool = (await openDatabase({ kind: 'postgres', url: database.url, poolSize: 2 })).pool!;
      cleanups.push(() => pool.end());
      const pickupMs = await waitFor(
        async () => {
          const { rows } = await pool.query<{ state: string; retry_count: number }>(
            'select state, retry_count from pgboss.job where name = $1 and id = $2',
            [GENERATE_QUEUE, projectId],
          );
          return rows[0] && rows[0].retry_count >= 1 && rows[0].state !== 'retry'
            ? Date.now() - exitedAt
            : undefined;
        },
        { timeoutMs: 30_000, intervalMs: 50, what: 'the second worker to claim the job' },
      );
      console.info(
        `[shutdown postgres] SIGTERM to exit ${exitedAt - signalledAt} ms; claimed again ${pickupMs} ms after the exit`,
      );
      expect(pickupMs).toBeLessThan(8_000);

      await expectResumedToComplete(base, key, projectId, fake);
      const { rows: ledger } = await pool.query<{ kind: string; amount: number }>(
        'select kind, amount from credit_ledger where project_id = $1 order by id',
        [projectId],
      );
      expect(ledger.map((m) => [m.kind, Number(m.amount)])).toEqual([
        ['reserve', -PRICE],
        ['consume', 0],
      ]);
      const credits = await call(base, key, 'GET', '/api/v1/credits');
      expect(credits.json().data).toEqual({
        mode: 'test',
        balance: DEV_CREDITS - PRICE,
        reserved: 0,
      });

      for (const server of [second, api]) {
        expect(await server.kill('SIGTERM'), server.describe()).toEqual({ code: 0, signal: null });
      }
    }, 240_000);
  },
);
