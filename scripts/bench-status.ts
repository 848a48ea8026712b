/**
 * The status group of `npm run bench`: each case against PGS and, right after, against a
 * bare node:http server sending the very same bytes (scripts/bench-raw.ts), both in child
 * processes, autocannon here. Prints PGS's requests/s, the ceiling's, their ratio and
 * PGS's p50/p99.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import {
  api,
  connections,
  type Load,
  load,
  newKey,
  root,
  rssMb,
  type Server,
  seconds,
  startServer,
  stop,
} from './bench-common.ts';
import type { Recorded } from './bench-raw.ts';

/** Headers the raw server writes itself (or that describe the connection, not the answer). */
const OWN_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

/** One PGS response exactly as sent (raw header names and values, in order). */
function record(
  url: string,
  method: string,
  headers: Record<string, string>,
  body?: string,
): Promise<Recorded> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk: string) => {
        text += chunk;
      });
      res.on('end', () => {
        const pairs: [string, string][] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) {
          const name = res.rawHeaders[i]!;
          if (!OWN_HEADERS.has(name.toLowerCase())) pairs.push([name, res.rawHeaders[i + 1]!]);
        }
        resolve({ status: res.statusCode!, headers: pairs, body: text });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

class RawServer {
  readonly #child: ChildProcess;
  readonly base: Promise<string>;
  constructor() {
    this.#child = fork(path.join(root, 'scripts/bench-raw.ts'), [], { stdio: 'inherit' });
    this.base = new Promise((resolve) =>
      this.#child.once('message', (m: { port: number }) => resolve(`http://127.0.0.1:${m.port}`)),
    );
  }
  serve(recorded: Recorded): Promise<void> {
    return new Promise((resolve) => {
      this.#child.once('message', () => resolve());
      this.#child.send(recorded);
    });
  }
  get pid() {
    return this.#child.pid!;
  }
  async stop() {
    const exited = new Promise((r) => this.#child.once('exit', r));
    this.#child.disconnect();
    await exited;
  }
}

interface Case {
  name: string;
  /** The lowest ratio the issue asks for. */
  aim?: number;
  server: Server;
  path: string;
  method?: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  rotate?: Record<string, string>[];
  /** Headers rotated through during the warm-up, when they must differ from the run's. */
  warmUpRotate?: Record<string, string>[];
  /** Text of the recorded body that the ceiling replaces with a fresh id per answer. */
  freshId?: (recorded: Recorded) => string;
}

const pad = (value: string | number, width: number) => String(value).padStart(width);

/** Rounds per status case, each a run of PGS and one of the ceiling (BENCH_ROUNDS). */
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);

/** The median of some numbers. */
function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

/** The run with the median requests/s (its own latencies with it; statuses of all runs). */
function medianLoad(runs: Load[]): Load {
  const sorted = [...runs].sort((a, b) => a.rps - b.rps);
  const median = sorted[Math.floor((sorted.length - 1) / 2)]!;
  return { ...median, statuses: runs.map((r) => r.statuses).join(' | ') };
}

/** Runs the status and createProject cases; returns the lines for the README's table. */
export async function statusBench(): Promise<void> {
  const dirs = [
    await mkdtemp(path.join(os.tmpdir(), 'pgs-bench-')),
    await mkdtemp(path.join(os.tmpdir(), 'pgs-bench-')),
  ];
  const started = performance.now();
  const server = await startServer(dirs[0]!, {
    PGS_STATUS_RATE_LIMIT: '10000000',
    // Only the 401 case sends X-Forwarded-For (see there).
    PGS_TRUST_PROXY: 'true',
  });
  console.log(
    `start (first open, initdb and migrations): ${Math.round(performance.now() - started)} ms; RSS ${await rssMb(server.child.pid!)} MB`,
  );
  // The seed's limit, as shipped: what a client sees past 100 requests a minute.
  const limited = await startServer(dirs[1]!, {});
  const raw = new RawServer();
  try {
    const completedAt = performance.now();
    const created = await api(server, 'POST', '/api/v1/projects', {
      idea: 'A habit tracker for remote teams, with streaks and nudges',
    });
    const completedId = JSON.parse(created.text).data.projectId as string;
    let completed = await api(server, 'GET', `/api/v1/projects/${completedId}`, undefined, {
      prefer: 'wait=60',
    });
    if (JSON.parse(completed.text).data.status !== 'completed') throw new Error(completed.text);
    completed = await api(server, 'GET', `/api/v1/projects/${completedId}`);
    console.log(
      `one project POST → completed (offline engine, long-poll): ${Math.round(performance.now() - completedAt)} ms; ` +
        `completed body ${Math.round(Buffer.byteLength(completed.text) / 1024)} KB`,
    );
    const running = await api(server, 'POST', '/api/v1/projects', {
      idea: 'A habit tracker for remote teams that stays in progress',
      simulate: { outcome: 'completed', durationMs: 600_000 },
    });
    const runningId = JSON.parse(running.text).data.projectId as string;
    const auth = { authorization: `Bearer ${server.key}` };
    const etag = completed.headers.get('etag') ?? '';
    // Creation allows 30 a minute per key: enough keys that neither the warm-up (1 s) nor
    // the run meets the limit, each with keys of its own.
    const keysFor = (runSeconds: number) =>
      Promise.all(
        Array.from({ length: Math.ceil((runSeconds * 2_000) / 30) }, () => newKey(server)),
      );
    const createKeys = await keysFor(seconds);
    const warmUpKeys = await keysFor(1);
    const unknown = '/api/v1/projects/00000000-0000-4000-8000-000000000000';
    const cases: Case[] = [
      {
        name: 'completed',
        aim: 0.85,
        server,
        path: `/api/v1/projects/${completedId}`,
        headers: auth,
      },
      {
        name: '304 (If-None-Match)',
        aim: 0.4,
        server,
        path: `/api/v1/projects/${completedId}`,
        headers: { ...auth, 'if-none-match': etag },
      },
      {
        name: 'in_progress',
        aim: 0.4,
        server,
        path: `/api/v1/projects/${runningId}`,
        headers: auth,
      },
      { name: 'unknown id → 404', aim: 0.3, server, path: unknown, headers: auth },
      {
        // Failed authentications are limited to 30 a minute per client address (then
        // 429): each request comes from another address so that this measures the 401.
        name: 'no key → 401',
        server,
        path: `/api/v1/projects/${completedId}`,
        headers: {},
        rotate: Array.from({ length: Math.max(1_000, seconds * 20_000) }, (_, i) => ({
          'x-forwarded-for': `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
        })),
      },
      {
        name: 'over the limit → 429',
        server: limited,
        path: unknown,
        headers: { authorization: `Bearer ${limited.key}` },
      },
      {
        name: 'createProject → 202',
        server,
        path: '/api/v1/projects',
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          idea: 'A habit tracker for remote teams that stays in progress',
          simulate: { outcome: 'completed', durationMs: 600_000 },
        }),
        rotate: createKeys.map((key) => ({ authorization: `Bearer ${key}` })),
        warmUpRotate: warmUpKeys.map((key) => ({ authorization: `Bearer ${key}` })),
        freshId: (recorded) => JSON.parse(recorded.body).data.projectId,
      },
    ];
    // Spend the 429 case's key beyond its limit first.
    for (let i = 0; i < 101; i++) await api(limited, 'GET', unknown);

    console.log(
      `\nstatus reads against the ceiling (raw node:http sending the same bytes), ${connections} connections, ` +
        `${seconds} s per run, after 1 s of warm-up each; ratio: the median of ${rounds} alternating rounds' ratios, spread: their range ` +
        `(load average ${os.loadavg()[0]!.toFixed(1)}):`,
    );
    console.log(
      `  ${'case'.padEnd(22)} ${pad('PGS req/s', 10)} ${pad('raw req/s', 10)} ${pad('ratio', 6)} ${pad('spread', 10)} ${pad('aim', 6)}  ${pad('p50', 4)} ${pad('p99', 4)} ms  ${pad('CPU µs/req PGS', 14)} ${pad('raw', 5)} ${pad('ratio', 6)}  statuses`,
    );
    const rawBase = await raw.base;
    for (const c of cases) {
      const headers = { ...c.headers, ...(c.rotate?.[0] ?? {}) };
      const recorded = await record(
        `${c.server.base}${c.path}`,
        c.method ?? 'GET',
        headers,
        c.body,
      );
      if (c.freshId) recorded.freshId = c.freshId(recorded);
      const options = {
        method: c.method ?? 'GET',
        headers: c.headers,
        ...(c.body === undefined ? {} : { body: c.body }),
        ...(c.rotate ? { rotate: c.rotate } : {}),
      } as const;
      await raw.serve(recorded);
      // Measured the same way: a warm-up of each (JIT, connections, caches), then rounds
      // alternating which goes first (so drift in the machine's load hits both alike),
      // and the median of each. createProject's rounds write, so it runs one round (after
      // a warm-up of its own keys: the first burst compiles the creation path).
      const pgsUrl = `${c.server.base}${c.path}`;
      const rawUrl = `${rawBase}${c.path}`;
      const caseRounds = c.method === 'POST' ? 1 : rounds;
      const pgsOptions = { ...options, pid: c.server.child.pid! };
      const rawOptions = { ...options, pid: raw.pid };
      const warmUp = {
        ...options,
        ...(c.warmUpRotate ? { rotate: c.warmUpRotate } : {}),
        duration: 1,
      };
      await load(pgsUrl, warmUp);
      await load(rawUrl, warmUp);
      const pgsRuns: Load[] = [];
      const rawRuns: Load[] = [];
      for (let round = 0; round < caseRounds; round++) {
        if (round % 2 === 0) {
          pgsRuns.push(await load(pgsUrl, pgsOptions));
          rawRuns.push(await load(rawUrl, rawOptions));
        } else {
          rawRuns.push(await load(rawUrl, rawOptions));
          pgsRuns.push(await load(pgsUrl, pgsOptions));
        }
      }
      const pgs = medianLoad(pgsRuns);
      const ceiling = medianLoad(rawRuns);
      // Each round's two runs met the same machine: their ratio is the measure, and the
      // median of the rounds' ratios, with their spread, says how far to trust it.
      const ratios = pgsRuns.map((run, i) => run.rps / rawRuns[i]!.rps);
      const ratio = median(ratios);
      const spread = `${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}`;
      const pgsCpu = median(pgsRuns.map((r) => r.cpuUsPerRequest ?? Number.NaN));
      const rawCpu = median(rawRuns.map((r) => r.cpuUsPerRequest ?? Number.NaN));
      const aim = c.aim === undefined ? '' : `≥ ${c.aim}`;
      const flag =
        c.aim !== undefined && (ratio < c.aim || pgs.p99 > 10) ? '  ← short of the aim' : '';
      console.log(
        `  ${c.name.padEnd(22)} ${pad(Math.round(pgs.rps), 10)} ${pad(Math.round(ceiling.rps), 10)} ${pad(ratio.toFixed(2), 6)} ${pad(spread, 10)} ${pad(aim, 6)}  ${pad(pgs.p50, 4)} ${pad(pgs.p99, 4)}     ${pad(pgsCpu.toFixed(1), 14)} ${pad(rawCpu.toFixed(1), 5)} ${pad((rawCpu / pgsCpu).toFixed(2), 6)}  [${pgs.statuses}] load ${os.loadavg()[0]!.toFixed(1)}${flag}`,
      );
    }
    console.log(
      `  (CPU µs/req: user + system time of each server process per answered request, median of the rounds; its ratio\n` +
        `   is the ceiling's over PGS's, what PGS would reach with a core of its own and a client that costs nothing;\n` +
        `   aims: those ratios, and p99 ≤ 10 ms; createProject's ceiling reads the body and sends the recorded 202 with a fresh id;\n` +
        `   its projects simulate 600 s, so the workers pick up four and sleep: the API path, not creation under generation load)`,
    );
    console.log(
      `RSS after load: PGS ${await rssMb(server.child.pid!)} MB, ceiling ${await rssMb(raw.pid)} MB`,
    );
  } finally {
    await raw.stop();
    await stop(server.child);
    await stop(limited.child);
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  }
}
