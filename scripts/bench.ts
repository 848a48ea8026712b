/**
 * `npm run bench`: starts the real server (embedded default) in its own process and
 * prints measured figures. Targets live here, never in tests: compare the numbers with
 * ../shared/STACK-FACTS.md (Fastify sending a pre-serialized 60 KB body ≈ 40,000 req/s on
 * these 2-core machines; re-serializing it ≈ 9,000 req/s).
 *
 * Options (environment): BENCH_SECONDS (default 5), BENCH_CONNECTIONS (default 50),
 * BENCH_ONLY=workflow (only the model-backed workflow figures), BENCH_AI_LATENCY_MS (the
 * fake provider's answer time, default 200).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { documentPlan } from '../packages/server/src/generation/catalogue.ts';
import { answerPrompt } from '../packages/server/src/generation/engine/offline-model.ts';
import { type FakeAiCall, startFakeAi } from '../packages/server/test/helpers/fake-ai.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);

interface Server {
  child: ChildProcess;
  base: string;
  key: string;
}

async function startServer(dataDir: string, env: Record<string, string>): Promise<Server> {
  const child = spawn(process.execPath, ['packages/server/src/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      PGS_DATA_DIR: dataDir,
      PGS_LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 60_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const base = /PGS listening on (http:\/\/\S+)/.exec(output)?.[1];
      const key = /Test API key: (pgs_test_\w+)/.exec(output)?.[1];
      if (base && key) {
        clearTimeout(timer);
        resolve({ child, base, key });
      }
    });
    child.on('exit', (code) => reject(new Error(`server exited with ${code}:\n${output}`)));
  });
}

async function api(server: Server, method: string, url: string, body?: unknown) {
  const res = await fetch(`${server.base}${url}`, {
    method,
    headers: {
      authorization: `Bearer ${server.key}`,
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

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

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

async function load(title: string, url: string, headers: Record<string, string>) {
  const result = await autocannon({ url, connections, duration: seconds, headers });
  const statuses = Object.entries(result.statusCodeStats ?? {})
    .map(([code, { count }]) => `${code}×${count}`)
    .join(' ');
  console.log(
    `${title.padEnd(44)} ${String(Math.round(result.requests.average)).padStart(7)} req/s  ` +
      `p50 ${String(result.latency.p50).padStart(3)} ms  p99 ${String(result.latency.p99).padStart(4)} ms  [${statuses}]`,
  );
}

async function rssMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN);
  return Math.round(kb / 1024);
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
    const token = (await readFile(path.join(dataDir, 'admin-token'), 'utf8')).trim();
    const newKey = async () => {
      const created = await fetch(`${server.base}/admin/v1/keys`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ mode: 'test', credits: 1_000_000 }),
      });
      return ((await created.json()) as { data: { key: string } }).data.key;
    };
    server.key = await newKey();
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
    // Two keys: creation is limited to 30 a minute per key.
    const keys = [server.key, await newKey()];
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
    server.child.kill('SIGTERM');
    await new Promise((r) => server.child.once('exit', r));
    await fake.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

async function main() {
  if (process.env.BENCH_ONLY === 'workflow') return workflowBench();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'pgs-bench-'));
  const started = performance.now();
  const server = await startServer(dataDir, { PGS_STATUS_RATE_LIMIT: '10000000' });
  console.log(
    `PGS bench on Node ${process.versions.node}, ${os.cpus().length} cores; ${connections} connections, ${seconds} s per run`,
  );
  console.log(
    `start (first open, initdb and migrations): ${Math.round(performance.now() - started)} ms; RSS ${await rssMb(server.child.pid!)} MB`,
  );

  try {
    // Generation end to end with the offline engine: POST → completed, polled every 5 ms.
    const runs: number[] = [];
    let completed = { id: '', ms: 0, bytes: 0 };
    for (let i = 0; i < 10; i++) {
      completed = await createAndWait(
        server,
        `A habit tracker for remote teams, variant ${i}, with streaks and nudges`,
      );
      runs.push(completed.ms);
    }
    runs.sort((a, b) => a - b);
    console.log(
      `generation POST → completed (offline engine, 8 documents): p50 ${Math.round(quantile(runs, 0.5))} ms, ` +
        `max ${Math.round(runs.at(-1)!)} ms over ${runs.length} projects; completed body ${Math.round(completed.bytes / 1024)} KB`,
    );

    const running = await api(server, 'POST', '/api/v1/projects', {
      idea: 'A habit tracker for remote teams that stays in progress',
      simulate: { outcome: 'completed', durationMs: 600_000 },
    });
    const runningId = JSON.parse(running.text).data.projectId as string;
    const auth = { authorization: `Bearer ${server.key}` };
    const etag =
      (await api(server, 'GET', `/api/v1/projects/${completed.id}`)).headers.get('etag') ?? '';

    await load(
      'GET completed project (cached bytes)',
      `${server.base}/api/v1/projects/${completed.id}`,
      auth,
    );
    await load(
      'GET completed project, If-None-Match → 304',
      `${server.base}/api/v1/projects/${completed.id}`,
      {
        ...auth,
        'if-none-match': etag,
      },
    );
    await load(
      'GET in-progress project (database read)',
      `${server.base}/api/v1/projects/${runningId}`,
      auth,
    );
    await load(
      'GET unknown project → 404',
      `${server.base}/api/v1/projects/00000000-0000-4000-8000-000000000000`,
      auth,
    );
    await load(
      'GET without a key → 401 (per-address limit)',
      `${server.base}/api/v1/projects/${completed.id}`,
      {},
    );
    console.log(`RSS after load: ${await rssMb(server.child.pid!)} MB`);
  } finally {
    server.child.kill('SIGTERM');
    await new Promise((r) => server.child.once('exit', r));
  }

  // The seed's limit, as shipped: what a client sees past 100 requests a minute.
  const limited = await startServer(await mkdtemp(path.join(os.tmpdir(), 'pgs-bench-')), {});
  try {
    await load(
      'GET with the default limit (100/min) → 429',
      `${limited.base}/api/v1/projects/00000000-0000-4000-8000-000000000000`,
      { authorization: `Bearer ${limited.key}` },
    );
  } finally {
    limited.child.kill('SIGTERM');
    await new Promise((r) => limited.child.once('exit', r));
  }
  await rm(dataDir, { recursive: true, force: true });
  await workflowBench();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
