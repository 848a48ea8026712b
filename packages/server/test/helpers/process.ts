import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { assertMatchesContract } from '@pgs/contract/testing';

/** The repository root. */
export const ROOT = fileURLToPath(new URL('../../../..', import.meta.url));
/** The pinned Node 24 (the global node may be older and cannot run .ts). */
export const NODE = path.join(ROOT, 'node_modules/.bin/node');
/** The server's start line, with its port. */
export const LISTENING = /PGS listening on http:\/\/127\.0\.0\.1:(\d+)/;
/** The development key printed on a first start. */
export const TEST_KEY = /Test API key: (pgs_test_[0-9A-Za-z]+)/;

export type Exit = { code: number | null; signal: NodeJS.Signals | null };

/** A child process with its output collected, and waits that always have a deadline. */
export class Proc {
  readonly child: ChildProcess;
  stdout = '';
  stderr = '';
  exit: Exit | undefined;
  readonly #listeners = new Set<() => void>();

  constructor(args: string[], env: NodeJS.ProcessEnv) {
    this.child = spawn(NODE, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    this.child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      this.stdout += chunk;
      this.#notify();
    });
    this.child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      this.stderr += chunk;
      this.#notify();
    });
    // 'close' comes after the output streams are drained: stderr is complete by then.
    this.child.on('close', (code, signal) => {
      this.exit = { code, signal };
      this.#notify();
    });
  }

  get pid(): number {
    const pid = this.child.pid;
    if (pid === undefined) throw new Error('the child process did not start');
    return pid;
  }

  #notify() {
    for (const listener of [...this.#listeners]) listener();
  }

  /** Resolves with the first match of `pattern` in stdout; rejects on exit or at the deadline. */
  waitForOutput(pattern: RegExp, timeoutMs: number): Promise<RegExpExecArray> {
    return this.#until(
      () => pattern.exec(this.stdout) ?? undefined,
      `stdout to match ${pattern}`,
      timeoutMs,
      () => (this.exit === undefined ? undefined : `process exited (${JSON.stringify(this.exit)})`),
    );
  }

  /**
   * Resolves when the process has exited and its output is complete; rejects at once if
   * stdout matches `unless` first (e.g. a server that should have refused to start listens).
   */
  waitForExit(timeoutMs: number, unless?: RegExp): Promise<Exit> {
    return this.#until(
      () => this.exit,
      'the process to exit',
      timeoutMs,
      () => (unless?.test(this.stdout) ? `stdout matched ${unless}` : undefined),
    );
  }

  #until<T>(
    check: () => T | undefined,
    what: string,
    timeoutMs: number,
    failure: () => string | undefined,
  ): Promise<T> {
    return new Promise((resolve, reject) => {
      const done = () => {
        clearTimeout(timer);
        this.#listeners.delete(listener);
      };
      const listener = () => {
        const value = check();
        if (value !== undefined) {
          done();
          resolve(value);
        } else {
          const reason = failure();
          if (reason === undefined) return;
          done();
          reject(new Error(`${reason} before ${what}\n${this.describe()}`));
        }
      };
      const timer = setTimeout(() => {
        this.#listeners.delete(listener);
        reject(
          new Error(`timed out after ${timeoutMs} ms waiting for ${what}\n${this.describe()}`),
        );
      }, timeoutMs);
      this.#listeners.add(listener);
      listener();
    });
  }

  describe(): string {
    return `--- stdout\n${this.stdout}\n--- stderr\n${this.stderr}\n---`;
  }

  async kill(signal: NodeJS.Signals = 'SIGKILL', timeoutMs = 30_000): Promise<Exit> {
    if (this.exit === undefined) this.child.kill(signal);
    return this.waitForExit(timeoutMs);
  }
}

/** This process's environment without the server's own settings (a developer's PGS_*, DATABASE_URL…). */
export function inheritedEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(process.env).filter(
      ([name]) => !/^(PGS_|DATABASE_URL$|REDIS_URL$|PORT$|HOST$)/.test(name),
    ),
  );
}

/** Starts `packages/server/src/main.ts` the way a user does, with `env` added to the environment. */
export function startServerProcess(env: NodeJS.ProcessEnv): Proc {
  return new Proc(['packages/server/src/main.ts'], {
    ...inheritedEnv(),
    PORT: '0',
    HOST: '127.0.0.1',
    PGS_LOG_LEVEL: 'warn',
    ...env,
  });
}

/** A PGS process's answer to {@link callApi}. */
export interface ApiResponse {
  status: number;
  headers: Record<string, string>;
  // biome-ignore lint/suspicious/noExplicitAny: the tests read whatever field of the body they check
  json: any;
  /** The raw body (empty for a 204). */
  text: string;
}

export interface CallOptions {
  /** Checks the request and its answer against the API contract (assertMatchesContract). */
  contract?: boolean;
  /** Added to the request's headers (after authorization and content-type). */
  headers?: Record<string, string>;
  /** Aborts the request after this long: a hanging API fails here, not later. */
  timeoutMs?: number;
}

/**
 * One HTTP request to a running PGS process: `token` as a Bearer token, `body` (if any) as
 * JSON. The answer's body is parsed as JSON when not empty.
 *
 * @example
 * const res = await callApi(base, 'POST', '/admin/v1/keys', adminToken, { mode: 'test' }, { contract: true });
 * expect(res.status).toBe(201);
 */
export async function callApi(
  base: string,
  method: string,
  path: string,
  token: string,
  body?: unknown,
  options: CallOptions = {},
): Promise<ApiResponse> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...options.headers,
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    ...(options.timeoutMs === undefined ? {} : { signal: AbortSignal.timeout(options.timeoutMs) }),
  });
  const text = await res.text();
  const headers = Object.fromEntries(res.headers.entries());
  if (options.contract) {
    assertMatchesContract(method, path, { statusCode: res.status, headers, body: text });
  }
  return { status: res.status, headers, json: text ? JSON.parse(text) : undefined, text };
}
