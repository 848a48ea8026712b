/**
 * The watchers group of `npm run bench` (issue 10 item 5): BENCH_WATCHERS (default 10,000)
 * watchers on one API process (embedded PGlite), from a client process of their own; then
 * the project ends and the end reaches every one. Measured twice: long-polls held with
 * `Prefer: wait=60`, answered at the end, and event streams, which receive the final event
 * (5 streams per key, the per-key cap, so one account's keys share them). Prints the
 * server's RSS with them open and how long after the end each one saw it (p50/p99/max),
 * then the same fan-out from a bare node:http server sending PGS's bytes (the ceiling).
 */
import { fork } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import {
  api,
  newKeyOf,
  quantile,
  root,
  rssMb,
  type Server,
  startServer,
  stop,
} from './bench-common.ts';
import type { Recorded, StreamOrder } from './bench-raw.ts';
import type { WatchersOrder } from './bench-watchers-client.ts';

const WATCHERS = Number(process.env.BENCH_WATCHERS ?? 10_000);
/** The server's cap of open event streams per key (MAX_STREAMS_PER_KEY). */
const STREAMS_PER_KEY = 5;
const FINAL_EVENT = 'event: project.failed';
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

/** One response as PGS sent it (without the headers of the connection), for the ceiling to repeat. */
function record(url: string, headers: Record<string, string>): Promise<Recorded> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (chunk: string) => {
          body += chunk;
        });
        res.on('end', () => {
          const kept: [string, string][] = [];
          for (let i = 0; i < res.rawHeaders.length; i += 2) {
            const name = res.rawHeaders[i]!;
            const hopByHop = ['date', 'connection', 'keep-alive', 'transfer-encoding'];
            if (!hopByHop.includes(name.toLowerCase())) kept.push([name, res.rawHeaders[i + 1]!]);
          }
          resolve({ status: res.statusCode!, headers: kept, body });
        });
      })
      .on('error', reject);
  });
}

/** A client process with its answers: opens the watchers of `order`, reports them all open, then their ends. */
function startClients(order: WatchersOrder) {
  const client = fork(path.join(root, 'scripts/bench-watchers-client.ts'), [], {
    stdio: 'inherit',
  });
  const opened = new Promise<void>((resolve) =>
    client.on('message', (m: { connected?: number }) => m.connected && resolve()),
  );
  const ends = new Promise<{ arrivals: number[]; statuses: Record<string, number> }>((resolve) =>
    client.on('message', (m: { arrivals?: number[]; statuses: Record<string, number> }) => {
      if (m.arrivals) resolve(m as { arrivals: number[]; statuses: Record<string, number> });
    }),
  );
  client.send(order);
  return { client, opened, ends };
}

/**
 * The fan-out ceiling: WATCHERS requests held by a bare node:http server (bench-raw.ts),
 * released at once; the delays (ascending, ms) from the release to each end.
 */
async function ceilingFanOut(
  urlPath: string,
  hold: { hold: number } | StreamOrder,
  recorded: Recorded | undefined,
  order: Omit<WatchersOrder, 'url'>,
): Promise<number[]> {
  const raw = fork(path.join(root, 'scripts/bench-raw.ts'), [], { stdio: 'inherit' });
  let clients: ReturnType<typeof startClients> | undefined;
  try {
    const port = await new Promise<number>((resolve) =>
      raw.once('message', (m: { port: number }) => resolve(m.port)),
    );
    const ask = (message: unknown) =>
      new Promise<void>((resolve) => {
        raw.once('message', () => resolve());
        raw.send(message as never);
      });
    if (recorded !== undefined) await ask(recorded);
    await ask(hold);
    const allHeld = new Promise<void>((resolve) =>
      raw.on('message', (m: { held?: number }) => m.held === WATCHERS && resolve()),
    );
    clients = startClients({ ...order, url: `http://127.0.0.1:${port}${urlPath}` });
    await allHeld;
    await clients.opened;
    await new Promise((r) => setTimeout(r, 500));
    const released = now();
    raw.send({ release: true });
    return (await clients.ends).arrivals.map((at) => at - released).sort((a, b) => a - b);
  } finally {
    clients?.client.kill('SIGTERM');
    raw.disconnect();
  }
}

/** Opens the watchers, ends the project, and prints what it measured and the ceiling's. */
async function measure(
  server: Server,
  what: string,
  project: { id: string; key: string },
  order: Omit<WatchersOrder, 'url'>,
  urlPath: string,
  ceiling: () => Promise<number[]>,
): Promise<void> {
  const before = await rssMb(server.child.pid!);
  const { client, opened, ends } = startClients({ ...order, url: `${server.base}${urlPath}` });
  try {
    await opened;
    await idle(server.base);
    const held = await rssMb(server.child.pid!);
    const ended = now();
    const cancelled = await api(
      { base: server.base, key: project.key },
      'POST',
      `/api/v1/projects/${project.id}/cancel`,
    );
    const cancelMs = now() - ended;
    if (cancelled.status !== 200) throw new Error(`cancel: ${cancelled.status} ${cancelled.text}`);
    const { arrivals, statuses } = await ends;
    const delays = arrivals.map((at) => at - ended).sort((a, b) => a - b);
    const bare = await ceiling();
    console.log(`\n${WATCHERS} ${what} on one API process (PGlite), clients in another process:`);
    console.log(
      `  RSS ${before} MB before, ${held} MB with them open (aim < 1024 MB); ` +
        `the end reached them: p50 ${Math.round(quantile(delays, 0.5))} ms, p99 ${Math.round(quantile(delays, 0.99))} ms, ` +
        `max ${Math.round(delays.at(-1) ?? 0)} ms after the cancel was sent (aim p99 < 100 ms; ` +
        `the cancel itself answered in ${Math.round(cancelMs)} ms, the first watcher after ${Math.round(delays[0] ?? 0)} ms) ` +
        `[${Object.entries(statuses)
          .map(([k, v]) => `${k}×${v}`)
          .join(' ')}]`,
    );
    console.log(
      `  ceiling (bare node:http sending as many the same bytes at once, same client): ` +
        `p50 ${Math.round(quantile(bare, 0.5))} ms, p99 ${Math.round(quantile(bare, 0.99))} ms, ` +
        `max ${Math.round(bare.at(-1) ?? 0)} ms after the release (load average ${os.loadavg()[0]!.toFixed(1)})`,
    );
  } finally {
    client.kill('SIGTERM');
  }
}

/** A project that stays in progress (10 minutes) until the bench cancels it. */
async function runningProject(server: Pick<Server, 'base' | 'key'>): Promise<string> {
  const created = await api(server, 'POST', '/api/v1/projects', {
    idea: 'A noticeboard for a block of flats that many people watch',
    simulate: { outcome: 'completed', durationMs: 600_000 },
  });
  return JSON.parse(created.text).data.projectId as string;
}

/** A fresh server (PGlite in a directory of its own) for `run`, stopped after it. */
async function withServer(run: (server: Server) => Promise<void>): Promise<void> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'pgs-bench-'));
  const server = await startServer(dataDir, { PGS_STATUS_RATE_LIMIT: '10000000' });
  try {
    await run(server);
  } finally {
    await stop(server.child);
    await rm(dataDir, { recursive: true, force: true });
  }
}

/**
 * Prints RSS and fan-out latency for many long-polls, then for many event streams, each
 * on a fresh server so that neither's memory counts in the other's.
 */
export async function watchersBench(): Promise<void> {
  await withServer(async (server) => {
    const polled = await runningProject(server);
    const pollPath = `/api/v1/projects/${polled}`;
    await measure(
      server,
      'long-polls (Prefer: wait=60)',
      { id: polled, key: server.key },
      { key: server.key, count: WATCHERS },
      pollPath,
      async () =>
        ceilingFanOut(
          pollPath,
          { hold: WATCHERS },
          await record(`${server.base}${pollPath}`, {
            authorization: `Bearer ${server.key}`,
            prefer: 'wait=60',
          }),
          { key: 'none', count: WATCHERS },
        ),
    );
  });

  await withServer(async (server) => {
    // Enough keys of one account for 5 streams each.
    const owner = await newKeyOf(server);
    const keys = [owner.key];
    while (keys.length < Math.ceil(WATCHERS / STREAMS_PER_KEY)) {
      const batch = Math.min(50, Math.ceil(WATCHERS / STREAMS_PER_KEY) - keys.length);
      const more = await Promise.all(
        Array.from({ length: batch }, () => newKeyOf(server, { accountId: owner.accountId })),
      );
      keys.push(...more.map((k) => k.key));
    }
    const streamed = await runningProject({ base: server.base, key: owner.key });
    const streamPath = `/api/v1/projects/${streamed}/events`;
    const order = { keys, until: FINAL_EVENT, count: WATCHERS };
    await measure(
      server,
      'event streams (5 per key)',
      { id: streamed, key: owner.key },
      order,
      streamPath,
      async () => {
        // The ended project's stream replays the two events each stream got: its status, then
        // the final event.
        const final = await record(`${server.base}${streamPath}`, {
          authorization: `Bearer ${owner.key}`,
          accept: 'text/event-stream',
        });
        const split = final.body.indexOf('\n\n') + 2;
        if (!final.body.slice(split).includes(FINAL_EVENT))
          throw new Error(`stream: ${final.body}`);
        return ceilingFanOut(
          streamPath,
          {
            holdStreams: WATCHERS,
            status: final.status,
            headers: final.headers,
            first: final.body.slice(0, split),
            last: final.body.slice(split),
          },
          undefined,
          { keys: ['none'], until: FINAL_EVENT, count: WATCHERS },
        );
      },
    );
  });
}
