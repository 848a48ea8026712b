import { type ChildProcess, spawn } from 'node:child_process';
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { inject } from 'vitest';
import { seedDataDir } from '../../server/test/helpers/database.ts';

// The real server as a subprocess, started the way `npm start` starts it. Shared by the
// SDK's and the CLI's integration tests (packages/cli/test imports it from here).

/** The repository root. */
export const ROOT = resolve(import.meta.dirname, '../../..');
/** The pinned Node (24), which runs our .ts directly. */
export const NODE = join(ROOT, 'node_modules/.bin/node');
/** The server's entry point. */
export const SERVER_MAIN = join(ROOT, 'packages/server/src/main.ts');
const START_DEADLINE_MS = 120_000;

/** A running server on an ephemeral port with its own data directory. */
export interface RealServer {
  /** `http://127.0.0.1:<port>`, the server root. */
  url: string;
  /**
   * A test API key with 1,000 test credits: the development account's, printed at start, or
   * on the shared server an account of the file's own (`sharedRealServer`).
   */
  apiKey: string;
  /** The temporary `PGS_DATA_DIR`. */
  dataDir: string;
  /** The operator token the embedded server wrote to `<dataDir>/admin-token`. */
  adminToken(): Promise<string>;
  /** SIGTERM (SIGKILL after 10 s), then removes the data directory. */
  stop(): Promise<void>;
}

/**
 * The environment without anything of ours that could leak in from the developer's shell.
 *
 * @example
 * spawn(NODE, [CLI_BIN, 'credits'], { env: { ...cleanEnv(), PGS_API_KEY: key } });
 */
export function cleanEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of Object.keys(env)) {
    if (/^(PGS_|DATABASE_URL$|REDIS_URL$|PORT$|HOST$)/.test(name)) delete env[name];
  }
  return env;
}

/** Resolves once the server printed its listening line and its key; rejects if it dies first. */
function waitForStart(child: ChildProcess): Promise<{ url: string; apiKey: string }> {
  return new Promise((resolvePromise, reject) => {
    let stdout = '';
    let stderr = '';
    let settled = false;
    const timer = setTimeout(
      () => fail(new Error(`no listening line and key within ${START_DEADLINE_MS} ms`)),
      START_DEADLINE_MS,
    );
    const fail = (error: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      reject(new Error(`${error.message}\n--- stdout\n${stdout}\n--- stderr\n${stderr}`));
    };
    child.stderr?.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    child.stdout?.setEncoding('utf8').on('data', (s: string) => {
      stdout += s;
      const url = /^PGS listening on (http:\/\/127\.0\.0\.1:\d+)/m.exec(stdout)?.[1];
      const apiKey = /^Test API key: (pgs_test_[0-9A-Za-z]+)/m.exec(stdout)?.[1];
      if (url && apiKey && !settled) {
        settled = true;
        clearTimeout(timer);
        resolvePromise({ url, apiKey });
      }
    });
    child.on('exit', (code, signal) =>
      fail(new Error(`the server exited early (code ${code}, signal ${signal})`)),
    );
  });
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

/**
 * Starts `packages/server/src/main.ts` with `PORT=0`, `HOST=127.0.0.1`, a fresh
 * `PGS_DATA_DIR` and `PGS_LOG_LEVEL=warn`, and waits (with a deadline) for
 * `PGS listening on …` and `Test API key: …`.
 *
 * @example
 * const server = await startRealServer(); // ... await server.stop();
 */
export async function startRealServer(
  options: {
    /** More of the server's environment (e.g. PGS_CONNECTIONS_ALLOW_PRIVATE). */ env?: Record<
      string,
      string
    >;
    /**
     * The migrated data directory to copy (the run's `pgliteDataDir`); by default it is
     * injected, which only a test worker can do (the shared server starts outside one).
     */
    seed?: string;
  } = {},
): Promise<RealServer> {
  const dataDir = await mkdtemp(join(tmpdir(), 'pgs-real-server-'));
  if (options.seed === undefined) await seedDataDir(dataDir);
  else await cp(join(options.seed, 'pgdata'), join(dataDir, 'pgdata'), { recursive: true });
  const child = spawn(NODE, [SERVER_MAIN], {
    cwd: ROOT,
    env: {
      ...cleanEnv(),
      PORT: '0',
      HOST: '127.0.0.1',
      PGS_DATA_DIR: dataDir,
      PGS_LOG_LEVEL: 'warn',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stop = async () => {
    await stopChild(child);
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    const { url, apiKey } = await waitForStart(child);
    return {
      url,
      apiKey,
      dataDir,
      adminToken: async () => (await readFile(join(dataDir, 'admin-token'), 'utf8')).trim(),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where shared-server-setup.ts hands out the run's shared real server (started on first ask). */
    sharedRealServer: string;
  }
}

/** What shared-server-setup.ts answers: the shared server and its operator token. */
export interface SharedServerInfo {
  url: string;
  dataDir: string;
  adminToken: string;
}

/**
 * The run's one shared real server (started once, on the first file that asks, by
 * shared-server-setup.ts) with an account of the caller's own: a new test key with 1,000
 * test credits, as the development account has, so the file's credits, listings and
 * projects are its own. `stop()` leaves the server running (the run stops it). The shared
 * server allows tracker connections to loopback (`PGS_CONNECTIONS_ALLOW_PRIVATE`). A file
 * that needs a server of its own (a restart, another environment) calls `startRealServer`.
 *
 * @example
 * beforeAll(async () => (server = await sharedRealServer()));
 */
export async function sharedRealServer(): Promise<RealServer> {
  const broker = inject('sharedRealServer');
  const answer = await fetch(broker);
  if (!answer.ok) throw new Error(`the shared real server did not start: ${await answer.text()}`);
  const { url, dataDir, adminToken } = (await answer.json()) as SharedServerInfo;
  const created = await fetch(`${url}/admin/v1/keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ mode: 'test', credits: 1000, name: 'a test file on the shared server' }),
  });
  const body = (await created.json()) as { data?: { key?: string } };
  const apiKey = body.data?.key;
  if (created.status !== 201 || apiKey === undefined) {
    throw new Error(
      `no test key on the shared server (${created.status}): ${JSON.stringify(body)}`,
    );
  }
  return { url, apiKey, dataDir, adminToken: async () => adminToken, stop: async () => {} };
}
