import type { Readable } from 'node:stream';
import type { ParseArgsOptionsConfig } from 'node:util';
import type { CommonClientOptions, FetchLike, Pgs, PgsAdmin } from '@pgs/client';
import type { Env } from './config.ts';
import { UsageError } from './errors.ts';

/** What the failing run knew, to make the message actionable. */
export interface ErrorContext {
  /** Where the admin token came from, once it was resolved. */
  tokenSource?: string | undefined;
  /** Where the API key came from, once it was resolved. */
  apiKeySource?: string | undefined;
  /** The project being waited for, to say how to resume. */
  projectId?: string | undefined;
  /** The revision being followed, when it is a revision that is waited for. */
  revision?: number | undefined;
  /** The --out of the command, to repeat it in the resume hint. */
  outDir?: string | undefined;
}

/** Anything with a `write(string)`: `process.stdout`, or a buffer in tests. */
export interface Writer {
  write(chunk: string): unknown;
  /** True on a terminal: `pgs generate` then draws a progress bar instead of lines. */
  isTTY?: boolean | undefined;
  /** The terminal's width, to keep the progress bar on one line. */
  columns?: number | undefined;
}

/**
 * What a run of the CLI talks to, injected so commands run in-process in tests.
 *
 * @example
 * await run(['keys', 'create', '--mode', 'test'], { env: process.env, stdout: process.stdout, stderr: process.stderr });
 */
export interface Io {
  env: Env;
  stdout: Writer;
  stderr: Writer;
  /**
   * What `pgs mcp` reads the protocol from, and `pgs generate --ask` the answers; default
   * `process.stdin`.
   */
  stdin?: Readable | undefined;
  /** Replaces `globalThis.fetch` in the SDK. */
  fetch?: FetchLike | undefined;
  /** Base of a relative `PGS_DATA_DIR`; default `process.cwd()`. */
  cwd?: string | undefined;
  /** Extra SDK options (retries, timeout, an injected sleep), mostly for tests. */
  client?: CommonClientOptions | undefined;
  /** Aborts waits and requests (the bin wires it to Ctrl-C): exit 130. */
  signal?: AbortSignal | undefined;
  /** The clock of the progress display; default `Date.now`. */
  now?: (() => number) | undefined;
}

/** Parsed option values, as `node:util` `parseArgs` returns them. */
export type Values = Record<string, string | boolean | (string | boolean)[] | undefined>;

/** What a command's `run` receives. */
export interface CommandContext {
  values: Values;
  positionals: string[];
  io: Io;
  /** `--json`: one JSON line on stdout, errors as JSON on stderr. */
  json: boolean;
  /** The admin client, built on first use from `--base-url` / `--admin-token` and the environment. */
  admin(): Promise<PgsAdmin>;
  /** The API client, built on first use from `--base-url` / `--api-key` and the environment. */
  client(): Pgs;
  /** What the run knows so far, for an actionable error message (e.g. the project id). */
  errorContext: ErrorContext;
  /** Writes one line to stdout. */
  print(line: string): void;
}

/**
 * One `pgs <group> <verb>` command.
 *
 * @example
 * export const keysRevoke: Command = { name: 'keys revoke', summary: 'Revoke an API key', ... };
 */
export interface Command {
  /** `keys create`. */
  name: string;
  /** One line for the program's help. */
  summary: string;
  /** The synopsis after `Usage:`. */
  usage: string;
  /** The help text below the synopsis (options, examples). */
  help: string;
  /** Which credential it needs, and so which common options it takes. */
  credential: 'admin' | 'api-key';
  /** Its own options; the common ones are added by the dispatcher. */
  options: ParseArgsOptionsConfig;
  run(ctx: CommandContext): Promise<void>;
}

/** A string option's value, or undefined. */
export function stringValue(values: Values, name: string): string | undefined {
  const value = values[name];
  return typeof value === 'string' ? value : undefined;
}

/**
 * A required string option, or a {@link UsageError}.
 *
 * @example
 * const account = requireString(ctx.values, 'account', 'pgs credits grant');
 */
export function requireString(values: Values, name: string, command: string): string {
  const value = stringValue(values, name);
  if (value === undefined || value.trim() === '') {
    throw new UsageError(`missing --${name}`, `pgs ${command}`);
  }
  return value.trim();
}

/**
 * An integer option within [min, max], or a {@link UsageError}.
 *
 * @example
 * const amount = integerValue(ctx.values, 'amount', 'credits grant', { min: 1 });
 */
export function integerValue(
  values: Values,
  name: string,
  command: string,
  { min = 0, max = 1_000_000_000 }: { min?: number; max?: number } = {},
): number | undefined {
  const raw = stringValue(values, name);
  if (raw === undefined) return undefined;
  const n = /^\s*\d+\s*$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    throw new UsageError(
      `--${name} must be an integer from ${min} to ${max}, not ${JSON.stringify(raw)}`,
      `pgs ${command}`,
    );
  }
  return n;
}
