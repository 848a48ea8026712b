/** What the bench groups share: the real server in a child process, loads, quantiles. */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const seconds = Number(process.env.BENCH_SECONDS ?? 5);
export const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);

/** The server (`packages/server/src/main.ts`) running in a child process, with its dev key. */
export interface Server {
  child: ChildProcess;
  base: string;
  key: string;
  adminToken: string;
}

/**
 * Starts the server as a user does. `env` adds to the environment: with `DATABASE_URL` it
 * runs on PostgreSQL (the admin token must then be given as `PGS_ADMIN_TOKEN`).
 */
export async function startServer(dataDir: string, env: Record<string, string>): Promise<Server> {
  // BENCH_SERVER_NODE_ARGS adds flags to the server's node (e.g. `--cpu-prof`), which
  // NODE_OPTIONS does not accept.
  const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, 'packages/server/src/main.ts'], {
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
  const { base, key } = await new Promise<{ base: string; key: string }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 180_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const base = /PGS listening on (http:\/\/\S+)/.exec(output)?.[1];
      const key =
        /Test API key: (pgs_test_\w+)/.exec(output)?.[1] ?? (env.DATABASE_URL ? '' : undefined);
      if (base && key !== undefined) {
        clearTimeout(timer);
        resolve({ base, key });
      }
    });
    child.on('exit', (code) => reject(new Error(`server exited with ${code}:\n${output}`)));
  });
  const adminToken =
    env.PGS_ADMIN_TOKEN ?? (await readFile(path.join(dataDir, 'admin-token'), 'utf8')).trim();
  const server = { child, base, key, adminToken };
  if (server.key === '') server.key = await newKey(server);
  return server;
}

/** Stops a child with SIGTERM and waits for its exit. */
export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

/** A new test key with plenty of credits (creation is limited per key). */
export async function newKey(server: Pick<Server, 'base' | 'adminToken'>) {
  return (await newKeyOf(server)).key;
}

/**
 * A new test key: with `accountId`, another key of that account (its projects are the
 * account's, so any of its keys may watch them); without, a new account with plenty of
 * credits.
 */
export async function newKeyOf(
  server: Pick<Server, 'base' | 'adminToken'>,
  { accountId }: { accountId?: string } = {},
): Promise<{ key: string; accountId: string }> {
  const created = await fetch(`${server.base}/admin/v1/keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify(
      accountId === undefined ? { mode: 'test', credits: 1_000_000 } : { mode: 'test', accountId },
    ),
  });
  if (created.status !== 201)
    throw new Error(`key creation: ${created.status} ${await created.text()}`);
  return ((await created.json()) as { data: { key: string; accountId: string } }).data;
}

/** One request with the server's key; the whole response. */
export async function api(
  server: Pick<Server, 'base' | 'key'>,
  method: string,
  url: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const res = await fetch(`${server.base}${url}`, {
    method,
    headers: {
      authorization: `Bearer ${server.key}`,
      ...(body ? { 'content-type': 'application/json' } : {}),
      ...headers,
    },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

/** What one autocannon run measured. */
export interface Load {
  rps: number;
  p50: number;
  p99: number;
  statuses: string;
  /**
   * CPU time (user + system) the server process spent per answered request, in µs, when
   * its pid was given: unlike requests/s, it does not depend on how the two cores were
   * shared with the load generator.
   */
  cpuUsPerRequest?: number;
}

/** CPU time (user + system) a process has used, in ms (Linux, clock ticks of 10 ms). */
export async function cpuMs(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces), from the 3rd: utime is the 14th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** Runs autocannon (in this process, apart from the servers) against one request. */
export async function load(
  url: string,
  options: {
    method?: 'GET' | 'POST';
    headers?: Record<string, string>;
    body?: string;
    /** Rotates through these headers, one set per request. */
    rotate?: Record<string, string>[];
    /** Seconds (default BENCH_SECONDS). */
    duration?: number;
    /** The server's pid: measures its CPU time per request. */
    pid?: number;
  } = {},
): Promise<Load> {
  let turn = 0;
  const cpuBefore = options.pid === undefined ? 0 : await cpuMs(options.pid);
  const result = await autocannon({
    url,
    connections,
    duration: options.duration ?? seconds,
    method: options.method ?? 'GET',
    headers: options.headers ?? {},
    ...(options.body === undefined ? {} : { body: options.body }),
    ...(options.rotate
      ? {
          requests: [
            {
              // biome-ignore lint/suspicious/noExplicitAny: autocannon's request type is loose
              setupRequest: (request: any) => {
                const extra = options.rotate![turn++ % options.rotate!.length]!;
                return { ...request, headers: { ...request.headers, ...extra } };
              },
            },
          ],
        }
      : {}),
  });
  const cpuSpent = options.pid === undefined ? 0 : (await cpuMs(options.pid)) - cpuBefore;
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    statuses: Object.entries(result.statusCodeStats ?? {})
      .map(([code, { count }]) => `${code}×${count}`)
      .join(' '),
    ...(options.pid === undefined || result.requests.total === 0
      ? {}
      : { cpuUsPerRequest: (cpuSpent * 1000) / result.requests.total }),
  };
}

/** Resident memory of a process, in MB (Linux). */
export async function rssMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN);
  return Math.round(kb / 1024);
}

/** The `q` quantile of ascending `sorted`. */
export const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
