/**
 * `npm run bench -- --scale-out`: the scale-out mode measured on the machine's PostgreSQL
 * and Redis. Two API processes and two workers (real processes, `PGS_ROLE`), a burst of
 * projects created at once through both API processes with live keys, a fake provider
 * (served from this process on loopback) answering every call after a fixed latency.
 * Every project must complete with nothing lost and the ledger exact; then it prints
 * throughput, the burst's creation latency, the time to the last terminal project and
 * each worker's share.
 *
 * Options (environment): BENCH_SCALE_OUT_PROJECTS (default 200), BENCH_SCALE_OUT_LATENCY_MS
 * (the fake's answer time, default 200), BENCH_SCALE_OUT_CONCURRENCY (PGS_WORKER_CONCURRENCY
 * and PGS_AI_CONCURRENCY of each worker, default 16), BENCH_DATABASE_URL, BENCH_REDIS_URL.
 */
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import pg from 'pg';
import { documentPlan } from '../packages/server/src/runs/catalogue.ts';
import { competent, isDefinition } from '../packages/server/test/helpers/ai-harness.ts';
import { type FakeAiCall, startFakeAi } from '../packages/server/test/helpers/fake-ai.ts';
import { waitFor } from '../packages/server/test/helpers/wait.ts';
import { quantile } from './bench-common.ts';
import { type Created, scaleOutProblems } from './bench-scale-out-checks.ts';
import {
  BENCH_DATABASE_URL,
  BENCH_REDIS_URL,
  createBenchDatabase,
  liveKey,
  servicesUnavailable,
  startScaleOut,
} from './bench-scale-out-setup.ts';

const PROJECTS = Number(process.env.BENCH_SCALE_OUT_PROJECTS ?? 200);
const LATENCY_MS = Number(process.env.BENCH_SCALE_OUT_LATENCY_MS ?? 200);
const CONCURRENCY = Number(process.env.BENCH_SCALE_OUT_CONCURRENCY ?? 16);
/** Creation is limited to 30 a minute per key: 20 projects per account keeps the burst under it. */
const PER_ACCOUNT = 20;
const CREDITS = 10_000;
const TYPES = ['web', 'mobile', 'mcp'] as const;

const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' / ');
const ms = (n: number) => `${Math.round(n)} ms`;

/** Thrown when PostgreSQL or Redis is not reachable: bench.ts prints its message alone. */
export class ScaleOutUnavailable extends Error {}

/**
 * Runs the scale-out group; throws when PostgreSQL or Redis is not reachable
 * ({@link ScaleOutUnavailable}) or when any project, document or credit is not accounted for.
 */
export async function scaleOutBench(): Promise<void> {
  const unavailable = await servicesUnavailable();
  if (unavailable !== undefined) {
    throw new ScaleOutUnavailable(`scale-out bench needs PostgreSQL and Redis: ${unavailable}`);
  }
  const calls: FakeAiCall[] = [];
  const fake = await startFakeAi(async (call) => {
    calls.push(call);
    await new Promise((resolve) => setTimeout(resolve, LATENCY_MS));
    return competent(call);
  });
  const db = await createBenchDatabase();
  const pool = new pg.Pool({ connectionString: db.url, max: 2 });
  pool.on('error', () => {});
  let deployment: Awaited<ReturnType<typeof startScaleOut>> | undefined;
  try {
    console.log(
      `PGS bench ${new Date().toISOString().slice(0, 10)} on Node ${process.versions.node}, ${os.cpus().length} cores`,
    );
    console.log(
      `scale-out on PostgreSQL (${new URL(BENCH_DATABASE_URL).host}, a database of the run's own) ` +
        `and Redis (${BENCH_REDIS_URL.replace(/^redis:\/\//, '')}): 2 API processes, 2 workers ` +
        `(PGS_WORKER_CONCURRENCY=PGS_AI_CONCURRENCY=${CONCURRENCY} each), ${PROJECTS} projects in a burst, ` +
        `model latency ${LATENCY_MS} ms; load average before ${load()}`,
    );
    deployment = await startScaleOut({
      databaseUrl: db.url,
      fakeBaseURL: fake.baseURL,
      workerConcurrency: CONCURRENCY,
      aiConcurrency: CONCURRENCY,
    });
    const apis = deployment.apis.map((a) => a.base);
    const accounts = await Promise.all(
      Array.from({ length: Math.ceil(PROJECTS / PER_ACCOUNT) }, () =>
        liveKey(apis[0]!, deployment!.adminToken, CREDITS),
      ),
    );
    calls.length = 0;

    // The burst: every creation sent at once, alternating API processes.
    const burstStart = Date.now();
    const latencies: number[] = [];
    const created: Created[] = await Promise.all(
      Array.from({ length: PROJECTS }, async (_, i) => {
        const account = accounts[i % accounts.length]!;
        const api = i % apis.length;
        const sent = performance.now();
        const res = await fetch(`${apis[api]}/api/v1/projects`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${account.key}`,
            'content-type': 'application/json',
            'idempotency-key': randomUUID(),
          },
          body: JSON.stringify({
            idea: `A booking tool for climbing gyms with memberships, variant ${i}`,
            type: TYPES[i % TYPES.length],
          }),
        });
        const text = await res.text();
        latencies.push(performance.now() - sent);
        if (res.status !== 202) throw new Error(`creation ${i}: ${res.status} ${text}`);
        return { id: JSON.parse(text).data.projectId as string, ...account, api };
      }),
    );
    const burstMs = Date.now() - burstStart;

    const ids = created.map((p) => p.id);
    await waitFor(
      async () => {
        const { rows } = await pool.query<{ n: number }>(
          `select count(*)::int as n from projects where id = any($1) and status = 'in_progress'`,
          [ids],
        );
        return rows[0]?.n === 0 ? true : undefined;
      },
      { timeoutMs: 15 * 60_000, intervalMs: 100, what: `all ${PROJECTS} projects terminal` },
    );
    // The database's clock is this machine's: the last end as committed, not as polled.
    const { rows } = await pool.query<{ last: number }>(
      `select extract(epoch from max(updated_at)) * 1000 as last from projects where id = any($1)`,
      [ids],
    );
    const lastMs = Number(rows[0]!.last) - burstStart;
    const loadAfter = load();

    const problems = await scaleOutProblems({
      created,
      apis,
      adminToken: deployment.adminToken,
      credits: CREDITS,
      pool,
    });
    if (problems.length > 0) {
      throw new Error(
        `scale-out: ${problems.length} problems:\n  ${problems.slice(0, 20).join('\n  ')}`,
      );
    }

    const sorted = [...latencies].sort((a, b) => a - b);
    const expectedCalls = created.reduce(
      (sum, _, i) => sum + 1 + documentPlan(TYPES[i % TYPES.length]!).length,
      0,
    );
    const floor = (expectedCalls * LATENCY_MS) / (2 * CONCURRENCY);
    console.log(
      `  ${PROJECTS} completed, every document once, each charged its price, balances exact, ` +
        `ledger exact (SQL) and GET /admin/v1/audit ok`,
    );
    console.log(
      `  creation burst: ${PROJECTS} POSTs in ${ms(burstMs)} (${created.filter((p) => p.api === 0).length}/` +
        `${created.filter((p) => p.api === 1).length} per API process), latency p50 ${ms(quantile(sorted, 0.5))}, ` +
        `p99 ${ms(quantile(sorted, 0.99))}, max ${ms(sorted.at(-1)!)}`,
    );
    console.log(
      `  last project terminal ${ms(lastMs)} after the burst began: ` +
        `${((PROJECTS / lastMs) * 60_000).toFixed(0)} projects/min; ` +
        `${calls.length} model calls (${expectedCalls} planned), at most ${fake.maxInFlight} in flight; ` +
        `floor (calls × latency ÷ 2 workers' concurrency) ${ms(floor)}, ratio ${(lastMs / floor).toFixed(2)}`,
    );
    const share = (model: string) => {
      const mine = calls.filter((c) => c.model === model);
      const defined = mine.filter(isDefinition).length;
      return `${model} ${defined} projects (${((defined / PROJECTS) * 100).toFixed(1)} %), ${mine.length} calls`;
    };
    console.log(`  worker share: ${share('w1')}; ${share('w2')}`);
    console.log(`  load average after ${loadAfter} (${os.cpus().length} cores)`);
  } finally {
    await deployment?.stop();
    await pool.end().catch(() => {});
    await db.drop().catch((error) => console.error(`dropping the bench database: ${error}`));
    await fake.close();
  }
}
