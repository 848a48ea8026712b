import { spawn } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  cleanEnv,
  NODE,
  type RealServer,
  ROOT,
  sharedRealServer,
} from '../../client/test/pgs-server.ts';

// Shared by the CLI's files that run against the real server: each gets the run's shared
// server (packages/client/test/shared-server-setup.ts) and an account of its own.
//
// The real server and the real CLI, each a subprocess started the way a user would.
export const CLI_BIN = join(ROOT, 'packages/cli/src/bin.ts');
export const IDEA = 'A habit tracker for remote teams';

export interface Exit {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runCli(args: string[], env: NodeJS.ProcessEnv, cwd = ROOT): Promise<Exit> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(NODE, [CLI_BIN, ...args], { cwd, env, stdio: 'pipe' });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    child.on('error', reject);
    child.on('close', (code) => resolvePromise({ code, stdout, stderr }));
  });
}

/**
 * A CLI process left running: `printed(pattern)` resolves once its stdout matches (the test
 * waits on what it printed, not on time), `exit` when it ends.
 */
export function startCli(args: string[], env: NodeJS.ProcessEnv) {
  const child = spawn(NODE, [CLI_BIN, ...args], { cwd: ROOT, env, stdio: 'pipe' });
  let stdout = '';
  let stderr = '';
  const listeners = new Set<() => void>();
  const notify = () => {
    for (const listener of [...listeners]) listener();
  };
  child.stdout.setEncoding('utf8').on('data', (s: string) => {
    stdout += s;
    notify();
  });
  child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
  const exit = new Promise<Exit>((resolvePromise, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      resolvePromise({ code, stdout, stderr });
      notify();
    });
  });
  const printed = (pattern: RegExp) =>
    new Promise<void>((resolvePromise, reject) => {
      const listener = () => {
        if (pattern.test(stdout)) {
          listeners.delete(listener);
          resolvePromise();
        } else if (child.exitCode !== null) {
          listeners.delete(listener);
          reject(new Error(`exited before printing ${pattern}: ${stdout}${stderr}`));
        }
      };
      listeners.add(listener);
      listener();
    });
  return { exit, printed };
}

export async function markdownFiles(dir: string): Promise<string[]> {
  return (await readdir(dir)).filter((f) => f.endsWith('.md')).sort();
}

/** The real server for a test file, with the environments the CLI runs in against it. */
export interface RealCli {
  server: RealServer;
  tmp: string;
  baseUrl: string;
  /** Finds the admin token file through PGS_DATA_DIR, as for a user in another directory. */
  cliEnv: NodeJS.ProcessEnv;
  /** Holds the file's own test API key. */
  apiEnv: NodeJS.ProcessEnv;
}

/**
 * The run's shared real server with an account of the file's own (`sharedRealServer`), and a
 * scratch directory; end both with `stopRealCli` (which leaves the shared server running).
 */
export async function startRealCli(): Promise<RealCli> {
  const server = await sharedRealServer();
  const baseUrl = server.url;
  const tmp = await mkdtemp(join(tmpdir(), 'pgs-cli-out-'));
  // The token file is found through PGS_DATA_DIR, as for a user in another directory.
  const cliEnv = { ...cleanEnv(), PGS_BASE_URL: baseUrl, PGS_DATA_DIR: server.dataDir };
  const apiEnv = { ...cleanEnv(), PGS_BASE_URL: baseUrl, PGS_API_KEY: server.apiKey };
  return { server, tmp, baseUrl, cliEnv, apiEnv };
}

export async function stopRealCli(server: RealServer | undefined, tmp: string | undefined) {
  await server?.stop();
  if (tmp) await rm(tmp, { recursive: true, force: true });
}
