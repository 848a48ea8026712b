import { type ChildProcess, execFile, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import pg from 'pg';
import { LISTENING, type Proc, startServerProcess } from './process.ts';
import { waitFor } from './wait.ts';

/**
 * A deployment of its own for chaos tests and scale-out benchmarks: a PostgreSQL cluster
 * (the machine's server binaries, `initdb` into a temporary directory, a free port), a Redis
 * (a free port, no persistence), and PGS processes in the roles `api` and `worker` on them.
 * Unlike services.ts (the shared test servers), everything here may be stopped, restarted
 * or killed by the test that owns it.
 */

const run = promisify(execFile);
const WORKER_RUNNING = /PGS worker running/;

/** A free TCP port on 127.0.0.1 (released before it is returned: a tiny race, fine for tests). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (typeof address !== 'object' || address === null) throw new Error('no port assigned');
  return address.port;
}

function onPath(command: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const candidate = path.join(dir, command);
    if (dir !== '' && existsSync(candidate)) return candidate;
  }
  return undefined;
}

/** The directory of `initdb`, `pg_ctl` and `postgres`: `pg_config --bindir`, else where `initdb` is on PATH. */
function postgresBinDir(): string | undefined {
  const has = (dir: string) =>
    ['initdb', 'pg_ctl', 'postgres'].every((b) => existsSync(path.join(dir, b)));
  try {
    const dir = execFileSync('pg_config', ['--bindir'], { encoding: 'utf8' }).trim();
    if (has(dir)) return dir;
  } catch {
    // no pg_config: fall back to PATH
  }
  const initdb = onPath('initdb');
  return initdb !== undefined && has(path.dirname(initdb)) ? path.dirname(initdb) : undefined;
}

/**
 * How the server binaries are run: as this user, or (as root, which initdb refuses) as the
 * `postgres` OS user through `runuser`.
 */
interface RunAs {
  prefix: string[];
  uid: number | undefined;
  gid: number | undefined;
}

function runAs(): RunAs | string {
  if (process.getuid?.() !== 0) return { prefix: [], uid: undefined, gid: undefined };
  const runuser = onPath('runuser');
  if (runuser === undefined) return 'running as root and runuser is not installed';
  try {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    return { prefix: [runuser, '-u', 'postgres', '--'], uid, gid };
  } catch {
    return 'running as root and there is no postgres OS user to run the server binaries as';
  }
}

let checked: string | undefined | null = null;

/**
 * `undefined` when a cluster of our own can be started (PostgreSQL's server binaries, the
 * privileges to run them, `redis-server`), else the one-line reason to skip. With CI=true a
 * missing piece throws instead: CI must run these tests.
 */
export function clusterUnavailable(): string | undefined {
  if (checked !== null) return checked;
  const reasons: string[] = [];
  if (postgresBinDir() === undefined) {
    reasons.push('PostgreSQL server binaries (initdb, pg_ctl, postgres) not found');
  }
  const as = runAs();
  if (typeof as === 'string') reasons.push(as);
  if (onPath('redis-server') === undefined) reasons.push('redis-server not found');
  checked = reasons.length === 0 ? undefined : `no cluster of our own: ${reasons.join('; ')}`;
  if (checked !== undefined && process.env.CI === 'true') {
    throw new Error(`${checked}; it is required when CI=true`);
  }
  if (checked !== undefined) console.warn(`skipping: ${checked}`);
  return checked;
}

/** A PostgreSQL cluster in a temporary directory, on 127.0.0.1:`port`, trust authentication. */
export interface PostgresCluster {
  readonly port: number;
  /** `postgres://postgres@127.0.0.1:<port>/<database>` */
  url(database?: string): string;
  /** Creates a database and returns its URL. */
  createDatabase(name: string): Promise<string>;
  /** `pg_ctl stop -m <mode>`: fast closes every session, as an operator's restart does. */
  stop(mode?: 'fast' | 'immediate'): Promise<void>;
  /** `pg_ctl start`, waiting until it accepts connections. */
  start(): Promise<void>;
  /** Stops the server (if running) and deletes the directory. */
  destroy(): Promise<void>;
}

/**
 * initdb, then starts the server. Settings favour speed over durability (fsync off): the
 * cluster lives as long as a test file.
 *
 * @example
 * const pgc = await startPostgresCluster();
 * const url = await pgc.createDatabase('pgs');
 * await pgc.stop(); await pgc.start();
 * await pgc.destroy();
 */
export async function startPostgresCluster(): Promise<PostgresCluster> {
  const bin = postgresBinDir();
  const as = runAs();
  if (bin === undefined || typeof as === 'string') throw new Error(String(clusterUnavailable()));
  const dir = await mkdtemp(path.join(os.tmpdir(), 'pgs-cluster-'));
  if (as.uid !== undefined && as.gid !== undefined) await chown(dir, as.uid, as.gid);
  const data = path.join(dir, 'data');
  const log = path.join(dir, 'postgres.log');
  const port = await freePort();
  // [file, args] of a server binary, behind `runuser -u postgres --` when needed.
  const command = (tool: string, args: string[]): [string, string[]] => {
    const [file, ...rest] = [...as.prefix, path.join(bin, tool), ...args] as [string, ...string[]];
    return [file, rest];
  };
  const exec = (tool: string, args: string[]) =>
    run(...command(tool, args), { cwd: dir, env: { ...process.env, LC_ALL: 'C' } });
  const options = [
    `-p ${port}`,
    `-k ${dir}`,
    '-c listen_addresses=127.0.0.1',
    '-c max_connections=200',
    '-c fsync=off',
    '-c synchronous_commit=off',
    '-c full_page_writes=off',
  ].join(' ');
  let running = false;
  const start = async () => {
    await exec('pg_ctl', ['start', '-w', '-t', '60', '-D', data, '-l', log, '-o', options]);
    running = true;
  };
  const stop = async (mode: 'fast' | 'immediate' = 'fast') => {
    await exec('pg_ctl', ['stop', '-w', '-t', '60', '-m', mode, '-D', data]);
    running = false;
  };
  // A test process that dies without its afterAll must not leave a server behind.
  const onExit = () => {
    if (!running) return;
    try {
      execFileSync(...command('pg_ctl', ['stop', '-m', 'immediate', '-D', data]));
    } catch {
      // already stopped
    }
  };
  process.once('exit', onExit);

  await exec('initdb', [
    '-D',
    data,
    '-A',
    'trust',
    '-U',
    'postgres',
    '-E',
    'UTF8',
    '--no-sync',
    '--locale=C',
  ]);
  await start();
  const url = (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`;
  return {
    port,
    url,
    async createDatabase(name) {
      const client = new pg.Client({ connectionString: url() });
      await client.connect();
      try {
        await client.query(`create database ${pg.escapeIdentifier(name)}`);
      } finally {
        await client.end();
      }
      return url(name);
    },
    stop,
    start,
    async destroy() {
      process.removeListener('exit', onExit);
      if (running) await stop('immediate').catch(() => {});
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** A Redis server of our own on 127.0.0.1:`port`, without persistence. */
export interface RedisServer {
  readonly port: number;
  readonly url: string;
  /** Stops the server (SIGTERM) and waits for it to exit. */
  stop(): Promise<void>;
  /** Starts it again on the same port, waiting until it answers PING. */
  start(): Promise<void>;
}

/**
 * Starts `redis-server --port <free> --save '' --appendonly no`.
 *
 * @example
 * const redis = await startRedis(); await redis.stop(); await redis.start(); await redis.stop();
 */
export async function startRedis(): Promise<RedisServer> {
  const port = await freePort();
  const url = `redis://127.0.0.1:${port}`;
  let child: ChildProcess | undefined;
  const onExit = () => child?.kill('SIGKILL');
  const start = async () => {
    const started = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: 'ignore' },
    );
    child = started;
    process.once('exit', onExit);
    await waitFor(
      async () => {
        if (started.exitCode !== null) throw new Error(`redis-server exited (${started.exitCode})`);
        const client = new Redis(url, {
          lazyConnect: true,
          maxRetriesPerRequest: 0,
          retryStrategy: () => null,
        });
        client.on('error', () => {});
        try {
          await client.connect();
          return (await client.ping()) === 'PONG' ? true : undefined;
        } catch {
          return undefined;
        } finally {
          client.disconnect();
        }
      },
      { timeoutMs: 20_000, intervalMs: 50, what: `redis-server on port ${port} to answer` },
    );
  };
  await start();
  return {
    port,
    url,
    start,
    async stop() {
      const current = child;
      child = undefined;
      process.removeListener('exit', onExit);
      if (current === undefined || current.exitCode !== null) return;
      const exited = new Promise((resolve) => current.once('exit', resolve));
      current.kill('SIGTERM');
      await exited;
    },
  };
}

/** A PGS process of the deployment: its role, its base URL (API processes) and its child process. */
export interface PgsProcess {
  role: 'api' | 'worker';
  proc: Proc;
  /** `http://127.0.0.1:<port>` for `api`, empty for `worker`. */
  base: string;
}

/**
 * Starts one PGS process with `PGS_ROLE=role` and `env` (DATABASE_URL, REDIS_URL,
 * PGS_ADMIN_TOKEN, model settings…), resolving once it listens (api) or runs (worker).
 *
 * @example
 * const api = await startPgs('api', { DATABASE_URL: url, PGS_ADMIN_TOKEN: token });
 * await fetch(`${api.base}/health`);
 */
export async function startPgs(
  role: 'api' | 'worker',
  env: NodeJS.ProcessEnv,
  timeoutMs = 120_000,
): Promise<PgsProcess> {
  const proc = startServerProcess({ ...env, PGS_ROLE: role });
  if (role === 'worker') {
    await proc.waitForOutput(WORKER_RUNNING, timeoutMs);
    return { role, proc, base: '' };
  }
  const [, port] = await proc.waitForOutput(LISTENING, timeoutMs);
  return { role, proc, base: `http://127.0.0.1:${port}` };
}

/** A whole scale-out deployment of its own; see {@link startDeployment}. */
export interface Deployment {
  postgres: PostgresCluster;
  redis: RedisServer;
  /** The PGS database's URL. */
  databaseUrl: string;
  adminToken: string;
  apis: PgsProcess[];
  workers: PgsProcess[];
  /** Starts one more PGS process on the deployment's database and Redis. */
  add(role: 'api' | 'worker', env?: NodeJS.ProcessEnv): Promise<PgsProcess>;
  /** Stops every process (SIGTERM), then Redis and PostgreSQL, and deletes the cluster. */
  destroy(): Promise<void>;
}

export interface DeploymentOptions {
  apis?: number;
  workers?: number;
  /** Added to every process's environment. */
  env?: NodeJS.ProcessEnv;
  /** Added to the n-th (0-based) API or worker process's environment, after `env`. */
  envOf?: (role: 'api' | 'worker', index: number) => NodeJS.ProcessEnv;
}

/**
 * PostgreSQL and Redis of its own, then `apis` API processes and `workers` worker
 * processes (all started together: migrations serialize themselves), as the README's
 * "Scale out" describes.
 *
 * @example
 * const d = await startDeployment({ apis: 2, workers: 2 });
 * await fetch(`${d.apis[0]!.base}/health`);
 * await d.destroy();
 */
export async function startDeployment(options: DeploymentOptions = {}): Promise<Deployment> {
  const [postgres, redis] = await Promise.all([startPostgresCluster(), startRedis()]);
  const processes: PgsProcess[] = [];
  const adminToken = `admin-${randomBytes(16).toString('hex')}`;
  try {
    const databaseUrl = await postgres.createDatabase('pgs');
    const base = {
      DATABASE_URL: databaseUrl,
      REDIS_URL: redis.url,
      PGS_ADMIN_TOKEN: adminToken,
      ...options.env,
    };
    const add = async (role: 'api' | 'worker', env: NodeJS.ProcessEnv = {}) => {
      const started = await startPgs(role, { ...base, ...env });
      processes.push(started);
      return started;
    };
    const roles = [
      ...Array.from({ length: options.apis ?? 2 }, (_, i) => ['api', i] as const),
      ...Array.from({ length: options.workers ?? 2 }, (_, i) => ['worker', i] as const),
    ];
    const started = await Promise.all(
      roles.map(([role, i]) => add(role, options.envOf?.(role, i) ?? {})),
    );
    return {
      postgres,
      redis,
      databaseUrl,
      adminToken,
      apis: started.filter((p) => p.role === 'api'),
      workers: started.filter((p) => p.role === 'worker'),
      add,
      async destroy() {
        await Promise.all(processes.map((p) => p.proc.kill('SIGTERM').catch(() => p.proc.kill())));
        await redis.stop();
        await postgres.destroy();
      },
    };
  } catch (error) {
    await Promise.all(processes.map((p) => p.proc.kill().catch(() => {})));
    await redis.stop();
    await postgres.destroy();
    throw error;
  }
}
