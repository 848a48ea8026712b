/**
 * The watchers group of `npm run bench` (issue 10 item 5): BENCH_WATCHERS (default 10,000)
 * long-polls held at once on one API process (embedded PGlite), from a client process of
 * their own; then the project ends and every one is answered. Prints the server's RSS
 * with them held and how long after the end each answer arrived (fan-out p50/p99/max).
 */
import { fork } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { api, quantile, root, rssMb, startServer, stop } from './bench-common.ts';
import type { Recorded } from './bench-raw.ts';

const WATCHERS = Number(process.env.BENCH_WATCHERS ?? 10_000);
const now = () => performance.timeOrigin + performance.now();

/** Resolves once /health answers quickly: the server has worked through its backlog. */
async function idle(base: string): Promise<void> {
  for (let calm = 0; calm < 3; ) {
    const started = performance.now();
    await fetch(`${base}/health`).then((r) => r.text());
    calm = performance.now() - started < 50 ? calm + 1 : 0;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** One response as PGS sent it, for the ceiling to repeat. */
function record(url: string, key: string): Promise<Recorded> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { authorization: `Bearer ${key}`, prefer: 'wait=60' } }, (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (chunk: string) => {
          body += chunk;
        });
        res.on('end', () => {
          const headers: [string, string][] = [];
          for (let i = 0; i < res.rawHeaders.length; i += 2) {
            const name = res.rawHeaders[i]!;
            if (!['date', 'connection', 'keep-alive'].includes(name.toLowerCase())) {
              headers.push([name, res.rawHeaders[i + 1]!]);
            }
          }
          resolve({ status: res.statusCode!, headers, body });
        });
      })
      .on('error', reject);
  });
}

/**
 * The fan-out ceiling: WATCHERS requests held by a bare node:http server (bench-raw.ts),
 * released at once; the delays (ascending, ms) from the release to each answer.
 */
async function ceilingFanOut(urlPath: string, recorded: Recorded): Promise<number[]> {
  const raw = fork(path.join(root, 'scripts/bench-raw.ts'), [], { stdio: 'inherit' });
  const client = fork(path.join(root, 'scripts/bench-watchers-client.ts'), [], {
    stdio: 'inherit',
  });
  try {
    const port = await new Promise<number>((resolve) =>
      raw.once('message', (m: { port: number }) => resolve(m.port)),
    );
    const ask = (message: unknown) =>
      new Promise<void>((resolve) => {
        raw.once('message', () => resolve());
        raw.send(message as never);
      });
    await ask(recorded);
    await ask({ hold: WATCHERS });
    const allHeld = new Promise<void>((resolve) =>
      raw.on('message', (m: { held?: number }) => m.held === WATCHERS && resolve()),
    );
    const answers = new Promise<number[]>((resolve) =>
      client.on('message', (m: { arrivals?: number[] }) => m.arrivals && resolve(m.arrivals)),
    );
    client.send({ url: `http://127.0.0.1:${port}${urlPath}`, key: 'none', count: WATCHERS });
    await allHeld;
    await new Promise((r) => setTimeout(r, 500));
    const released = now();
    raw.send({ release: true });
    return (await answers).map((at) => at - released).sort((a, b) => a - b);
  } finally {
    client.kill('SIGTERM');
    raw.disconnect();
  }
}

/** Prints RSS and fan-out latency for many long-polls on one process. */
export async function watchersBench(): Promise<void> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'pgs-bench-'));
  const server = await startServer(dataDir, { PGS_STATUS_RATE_LIMIT: '10000000' });
  const client = fork(path.join(root, 'scripts/bench-watchers-client.ts'), [], {
    stdio: 'inherit',
  });
  try {
    const created = await api(server, 'POST', '/api/v1/projects', {
      idea: 'A noticeboard for a block of flats that many people watch',
      simulate: { outcome: 'completed', durationMs: 600_000 },
    });
    const id = JSON.parse(created.text).data.projectId as string;
    const before = await rssMb(server.child.pid!);
    const answers = new Promise<{ arrivals: number[]; statuses: Record<string, number> }>(
      (resolve) =>
        client.on('message', (m: { arrivals?: number[]; statuses: Record<string, number> }) => {
          if (m.arrivals) resolve(m as { arrivals: number[]; statuses: Record<string, number> });
        }),
    );
    const connected = new Promise<void>((resolve) =>
      client.on('message', (m: { connected?: number }) => m.connected && resolve()),
    );
    client.send({ url: `${server.base}/api/v1/projects/${id}`, key: server.key, count: WATCHERS });
    await connected;
    await idle(server.base);
    const held = await rssMb(server.child.pid!);
    const ended = now();
    const cancelled = await api(server, 'POST', `/api/v1/projects/${id}/cancel`);
    const cancelMs = now() - ended;
    if (cancelled.status !== 200) throw new Error(`cancel: ${cancelled.status} ${cancelled.text}`);
    const { arrivals, statuses } = await answers;
    const delays = arrivals.map((at) => at - ended).sort((a, b) => a - b);
    // The ceiling: a bare node:http server holding as many requests and answering them all
    // at once with the bytes PGS sent, to the same client, on the same cores.
    const final = await record(`${server.base}/api/v1/projects/${id}`, server.key);
    const ceiling = await ceilingFanOut(`/api/v1/projects/${id}`, final);
    console.log(
      `\n${WATCHERS} long-polls (Prefer: wait=60) held on one API process (PGlite), clients in another process:`,
    );
    console.log(
      `  RSS ${before} MB before, ${held} MB with them held (aim < 1024 MB); ` +
        `the end reached them: p50 ${Math.round(quantile(delays, 0.5))} ms, p99 ${Math.round(quantile(delays, 0.99))} ms, ` +
        `max ${Math.round(delays.at(-1) ?? 0)} ms after the cancel was sent (aim p99 < 100 ms; ` +
        `the cancel itself answered in ${Math.round(cancelMs)} ms, the first watcher after ${Math.round(delays[0] ?? 0)} ms) ` +
        `[${Object.entries(statuses)
          .map(([k, v]) => `${k}×${v}`)
          .join(' ')}]`,
    );
    console.log(
      `  ceiling (bare node:http answering as many held requests at once with the same bytes, same client): ` +
        `p50 ${Math.round(quantile(ceiling, 0.5))} ms, p99 ${Math.round(quantile(ceiling, 0.99))} ms, ` +
        `max ${Math.round(ceiling.at(-1) ?? 0)} ms after the release (load average ${os.loadavg()[0]!.toFixed(1)})`,
    );
  } finally {
    client.kill('SIGTERM');
    await stop(server.child);
    await rm(dataDir, { recursive: true, force: true });
  }
}
