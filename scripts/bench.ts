/**
 * `npm run bench`: starts the real server in child processes and prints measured figures,
 * by group. Targets live here, never in tests.
 *
 * - status: each status case (and createProject) against PGS and against a bare node:http
 *   server sending the very same bytes; PGS's req/s, the ceiling's, the ratio, p50/p99.
 * - pickup: job pickup latency (create → the first model call reaches the provider), on
 *   PGlite and, when reachable, PostgreSQL.
 * - workflow: wall time ÷ critical path with a model answering after a fixed latency, and
 *   50 projects at once.
 * - watchers: 10,000 long-polls, then 10,000 event streams, open on one API process,
 *   clients in another: RSS, and how soon the project's end reaches them all.
 * - tasks: one project per type on the offline engine; every task's context pack in tokens
 *   against the whole project's documents (aim: median ≤ 2,000); see scripts/bench-tasks.ts.
 * - `--scale-out` (only this group, never by default): two API processes and two workers on
 *   PostgreSQL and Redis, 200 projects in a burst; see scripts/bench-scale-out.ts.
 * - `--quality` (only this group, never by default): the twelve ideas of reading.ideas.ts
 *   through the offline engine (type pinned and not) and through a fake model: capabilities
 *   kept in the requirements, type accuracy, long lines shared between projects, trace
 *   findings and coverage; see scripts/bench-quality.ts.
 * - `--corpus` (only this group, never by default): the offline engine, in process, on the
 *   reading corpus of issue 29 (packages/offline/test/corpus/), held-out part first:
 *   capabilities and names kept, FR titles that are fragments or filler, wishes read as Must,
 *   change requests applied and what they left alone; see scripts/bench-corpus.ts.
 * - `--cost` (only this group, never by default): one project per type through OpenAI and
 *   Anthropic against the fake provider in its prompt-cache mode: requests, input tokens,
 *   the share served from the cache, cache writes, output tokens and the cost at the default
 *   prices; `--record-baseline` keeps them as the "before"; see scripts/bench-cost.ts.
 * - `--grounded` (only this group, never by default): the three test repositories through the
 *   SDK's digest builder and the offline engine: what the documents name of each codebase,
 *   and secrets leaked; see scripts/bench-grounded.ts.
 * - `--trackers` (only this group, never by default): 300 tasks and 30 FR parents pushed to
 *   the GitHub fake through the real adapter and the sync engine, with 10 % transient
 *   failures and one rate-limit window, then again after losing every link: calls, time,
 *   duplicates (0) and items mapped; see scripts/bench-trackers.ts.
 *
 * Options (environment): BENCH_SECONDS (default 5), BENCH_CONNECTIONS (default 50),
 * BENCH_ROUNDS (alternating rounds per status case, the median ratio and its spread printed; default 5),
 * BENCH_ONLY=status,pickup,workflow,watchers,tasks (groups to run; default all), BENCH_AI_LATENCY_MS (the
 * fake provider's answer time in the workflow group, default 1000), BENCH_DATABASE_URL
 * (PostgreSQL for the pickup group; default the test server's 127.0.0.1:5432/test).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { documentPlan } from '../packages/server/src/runs/catalogue.ts';
import { type FakeAiCall, startFakeAi } from '../packages/server/test/helpers/fake-ai.ts';
import { answerPrompt } from '../packages/server/test/helpers/prompt-context.ts';
import {
  api,
  connections,
  newKey,
  type Server,
  seconds,
  startServer,
  stop,
} from './bench-common.ts';
import { corpusBench } from './bench-corpus.ts';
import { costBench } from './bench-cost.ts';
import { groundedBench } from './bench-grounded.ts';
import { pickupBench } from './bench-pickup.ts';
import { qualityBench } from './bench-quality.ts';
import { ScaleOutUnavailable, scaleOutBench } from './bench-scale-out.ts';
import { statusBench } from './bench-status.ts';
import { tasksBench } from './bench-tasks.ts';
import { trackersBench } from './bench-trackers.ts';
import { watchersBench } from './bench-watchers.ts';

async function createAndWait(
  server: Server,
  idea: string,
  type?: 'web' | 'mobile' | 'mcp',
): Promise<{ id: string; ms: number; bytes: number }> {
  const started = performance.now();
  const created = await api(server, 'POST', '/api/v1/projects', {
    idea,
    ...(type ? { type } : {}),
  });
  if (created.status !== 202) throw new Error(`create: ${created.status} ${created.text}`);
  const id = JSON.parse(created.text).data.projectId as string;
  for (;;) {
    const res = await api(server, 'GET', `/api/v1/projects/${id}`);
    const status = JSON.parse(res.text).data.status;
    if (status !== 'in_progress') {
      if (status !== 'completed') throw new Error(`project ${id} ended ${status}`);
      return { id, ms: performance.now() - started, bytes: Buffer.byteLength(res.text) };
    }
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** Calls on the longest dependency chain of a type's plan, the definition included. */
function criticalCalls(type: 'web' | 'mobile' | 'mcp'): number {
  const depth = new Map<string, number>();
  for (const doc of documentPlan(type)) {
    depth.set(doc.kind, 1 + Math.max(0, ...doc.dependsOn.map((k) => depth.get(k) ?? 0)));
  }
  return 1 + Math.max(...depth.values());
}

/**
 * The workflow against a provider that answers every call after a fixed latency (a fake
 * speaking the Chat Completions protocol on loopback; the real provider package calls it):
 * wall time ÷ critical path for one project of each type, then 50 projects at once.
 */
async function workflowBench() {
  // A real model takes seconds per document; 1 s keeps the run short and the ratio honest.
  let latency = Number(process.env.BENCH_AI_LATENCY_MS ?? 1000);
  const concurrency = 8;
  const trace: string[] = [];
  const fake = await startFakeAi(async (call: FakeAiCall) => {
    const t0 = performance.now();
    await new Promise((r) => setTimeout(r, latency));
    if (process.env.BENCH_TRACE)
      trace.push(
        `${Math.round(t0)} ${/"kind": "([a-z-]+)"/.exec(call.prompt)?.[1] ?? 'definition'}`,
      );
    const answer = answerPrompt(call.prompt);
    return call.schema === undefined
      ? { kind: 'text', text: answer, usage: { input: 1000, output: 800 } }
      : { kind: 'json', value: JSON.parse(answer), usage: { input: 500, output: 300 } };
  });
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'pgs-bench-'));
  const server = await startServer(dataDir, {
    PGS_STATUS_RATE_LIMIT: '10000000',
    PGS_TEST_MODELS: 'openai-compatible:bench',
    PGS_OPENAI_COMPATIBLE_BASE_URL: fake.baseURL,
    PGS_AI_CONCURRENCY: String(concurrency),
    PGS_WORKER_CONCURRENCY: '64',
  });
  try {
    // Enough test credits for every project below, on a key of its own.
    server.key = await newKey(server);
    console.log(`\nworkflow with a model answering after ${latency} ms (Chat Completions fake):`);
    for (const type of ['web', 'mobile', 'mcp'] as const) {
      const runs: number[] = [];
      fake.reset();
      for (let i = 0; i < 3; i++) {
        runs.push(
          (await createAndWait(server, `A mentoring marketplace for designers, run ${i}`, type)).ms,
        );
      }
      const best = Math.min(...runs);
      if (process.env.BENCH_TRACE) console.log(trace.splice(0).join('\n'));
      const path = criticalCalls(type) * latency;
      const overhead = (best - path) / criticalCalls(type);
      console.log(
        `  ${type.padEnd(6)} ${documentPlan(type).length} documents: wall ${Math.round(best)} ms (best of 3), ` +
          `critical path ${criticalCalls(type)} calls = ${path} ms, ratio ${(best / path).toFixed(3)} (aim ≤ 1.05); ` +
          `${Math.round(overhead)} ms of PGS per step; ${fake.calls.length / 3} calls per project`,
      );
    }
    fake.reset();
    latency = 200;
    // Two fresh keys: creation is limited to 30 a minute per key (the runs above used 9 of
    // the first key's, within the same minute when they are quick).
    const keys = [await newKey(server), await newKey(server)];
    const started = performance.now();
    const all = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        createAndWait(
          { ...server, key: keys[i % 2]! },
          `A marketplace for local bakers, variant ${i}`,
          'web',
        ),
      ),
    );
    const wall = performance.now() - started;
    const calls = all.length * (1 + documentPlan('web').length);
    const floor = (calls * latency) / concurrency;
    console.log(
      `  50 web projects at once, model latency ${latency} ms, PGS_AI_CONCURRENCY=${concurrency}: ${Math.round(wall)} ms, ` +
        `${((all.length / wall) * 60_000).toFixed(0)} projects/min; ${calls} calls, at most ${fake.maxInFlight} in flight; ` +
        `floor (calls × latency ÷ concurrency) ${Math.round(floor)} ms, ratio ${(wall / floor).toFixed(3)}`,
    );
  } finally {
    await stop(server.child);
    await fake.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** The groups `BENCH_ONLY` selects from (comma-separated), in the order they run. */
const GROUPS = {
  status: statusBench,
  pickup: pickupBench,
  workflow: workflowBench,
  watchers: watchersBench,
  tasks: tasksBench,
} as const;

async function main() {
  // `--scale-out` runs only that group: it needs PostgreSQL and Redis and four processes.
  if (process.argv.includes('--scale-out')) return scaleOutBench();
  // `--quality` runs only that group: 48 projects whose documents are read, not a load to time.
  if (process.argv.includes('--quality')) return qualityBench();
  // `--corpus` runs only that group: the engine in process on issue 29's corpus, no server.
  if (process.argv.includes('--corpus')) return corpusBench();
  // `--cost` runs only that group: six projects whose tokens are counted, not a load to time.
  if (process.argv.includes('--cost')) return costBench();
  // `--grounded` runs only that group: three grounded projects whose documents are read.
  if (process.argv.includes('--grounded')) return groundedBench();
  // `--trackers` runs only that group: the sync engine against the GitHub fake, in process.
  if (process.argv.includes('--trackers')) return trackersBench();
  const only = (process.env.BENCH_ONLY ?? Object.keys(GROUPS).join(','))
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  const unknown = only.filter((name) => !(name in GROUPS));
  if (unknown.length > 0) {
    throw new Error(
      `BENCH_ONLY: unknown group ${unknown.join(', ')} (groups: ${Object.keys(GROUPS).join(', ')})`,
    );
  }
  console.log(
    `PGS bench ${new Date().toISOString().slice(0, 10)} on Node ${process.versions.node}, ${os.cpus().length} cores (load average ${os.loadavg()[0]!.toFixed(1)}); ${connections} connections, ${seconds} s per run`,
  );
  for (const name of Object.keys(GROUPS) as (keyof typeof GROUPS)[]) {
    if (only.includes(name)) await GROUPS[name]();
  }
}

main().catch((error) => {
  console.error(error instanceof ScaleOutUnavailable ? error.message : error);
  process.exit(1);
});
