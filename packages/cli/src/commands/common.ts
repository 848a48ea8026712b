import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { ParseArgsOptionsConfig } from 'node:util';
import type { Mode, ProjectCreateParams, ProjectType } from '@pgs/client';
import { type CommandContext, integerValue, stringValue, type Values } from '../context.ts';
import { UsageError } from '../errors.ts';

/** Options every admin command takes. */
export const ADMIN_OPTIONS = {
  'base-url': { type: 'string' },
  'admin-token': { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies ParseArgsOptionsConfig;

/** Their help text. */
export const ADMIN_OPTIONS_HELP = `Common options:
  --base-url URL         the server; default $PGS_BASE_URL, else http://127.0.0.1:$PORT
                         (PORT default 3000). A /api/v1 or /admin/v1 suffix is accepted.
  --admin-token TOKEN    the operator token; default $PGS_ADMIN_TOKEN, else the file
                         admin-token in $PGS_DATA_DIR (default ./.pgs, relative to the
                         current directory). Prefer those two: flags show in ps.
  --json                 print one JSON line on stdout; errors as JSON on stderr
  -h, --help             show this help`;

/** Options every project command (API key) takes. */
export const API_OPTIONS = {
  'base-url': { type: 'string' },
  'api-key': { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies ParseArgsOptionsConfig;

/** Their help text. */
export const API_OPTIONS_HELP = `Common options:
  --base-url URL         the server; default $PGS_BASE_URL, else http://127.0.0.1:$PORT
                         (PORT default 3000). The server root or a base ending in /v1
                         (e.g. http://127.0.0.1:3000/api/v1), as for the SDK.
  --api-key KEY          the API key (pgs_test_... or pgs_live_...); default $PGS_API_KEY.
                         Prefer the variable: flags show in ps.
  --json                 print one JSON line on stdout; errors as JSON on stderr
  -h, --help             show this help`;

/**
 * The optional `--revision N` of a read: a whole number from 1 (the server's bound is a
 * million), or a usage error. Undefined means the current revision.
 *
 * @example
 * const revision = revisionValue(ctx.values, 'download');
 */
export function revisionValue(values: Values, command: string): number | undefined {
  return integerValue(values, 'revision', command, { min: 1, max: 1_000_000 });
}

// Keyed by ProjectType so that a new type in the contract breaks the build here until handled.
const PROJECT_TYPES = { web: true, mobile: true, mcp: true } as const satisfies Record<
  ProjectType,
  true
>;

/**
 * The optional `--type` (web, mobile or mcp), or a usage error.
 *
 * @example
 * const type = projectTypeValue(ctx.values, 'generate');
 */
export function projectTypeValue(values: Values, command: string): ProjectType | undefined {
  const raw = stringValue(values, 'type');
  if (raw === undefined) return undefined;
  if (!Object.hasOwn(PROJECT_TYPES, raw)) {
    throw new UsageError(
      `--type must be web, mobile or mcp, not ${JSON.stringify(raw)}`,
      `pgs ${command}`,
    );
  }
  return raw as ProjectType;
}

/** How much a project's documents say: `brief`, `standard` or `deep`. */
export type Detail = NonNullable<ProjectCreateParams['detail']>;

// Keyed by Detail so that a new level in the SDK breaks the build here until handled.
const DETAILS = { brief: true, standard: true, deep: true } as const satisfies Record<Detail, true>;

/**
 * The optional `--detail` (brief, standard or deep), or a usage error. Undefined leaves the
 * level to the server (standard).
 *
 * @example
 * const detail = detailValue(ctx.values, 'generate');
 */
export function detailValue(values: Values, command: string): Detail | undefined {
  const raw = stringValue(values, 'detail');
  if (raw === undefined) return undefined;
  if (!Object.hasOwn(DETAILS, raw)) {
    throw new UsageError(
      `--detail must be brief, standard or deep, not ${JSON.stringify(raw)}`,
      `pgs ${command}`,
    );
  }
  return raw as Detail;
}

/** How a project's acceptance criteria are written: `ears` or `gherkin`. */
export type RequirementStyle = NonNullable<ProjectCreateParams['requirementStyle']>;

const STYLES = { ears: true, gherkin: true } as const satisfies Record<RequirementStyle, true>;

/**
 * The optional `--style` (ears or gherkin), or a usage error. Undefined leaves the style to
 * the server (the account's conventions, else ears).
 *
 * @example
 * const requirementStyle = styleValue(ctx.values, 'generate');
 */
export function styleValue(values: Values, command: string): RequirementStyle | undefined {
  const raw = stringValue(values, 'style');
  if (raw === undefined) return undefined;
  if (!Object.hasOwn(STYLES, raw)) {
    throw new UsageError(
      `--style must be ears or gherkin, not ${JSON.stringify(raw)}`,
      `pgs ${command}`,
    );
  }
  return raw as RequirementStyle;
}

const UNITS_MS: Record<string, number> = { '': 1, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/**
 * A duration option in milliseconds: `1500` or `1500ms`, `1.5s`, `10m`, `1h`; or a usage error.
 *
 * @example
 * durationValue(ctx.values, 'max-wait', 'wait'); // 600000 for --max-wait 10m
 */
export function durationValue(
  values: Values,
  name: string,
  command: string,
  { max = 24 * 3_600_000 }: { max?: number } = {},
): number | undefined {
  const raw = stringValue(values, name);
  if (raw === undefined) return undefined;
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$/.exec(raw);
  const ms = match ? Math.round(Number(match[1]) * UNITS_MS[match[2] ?? '']!) : Number.NaN;
  if (!Number.isSafeInteger(ms) || ms > max) {
    throw new UsageError(
      `--${name} must be a duration such as 1500 (milliseconds), 1.5s or 10m, ` +
        `at most ${max / 1000} s, not ${JSON.stringify(raw)}`,
      `pgs ${command}`,
    );
  }
  return ms;
}

// Keyed by Mode so that a new mode in the contract breaks the build here until handled.
const MODES = { test: true, live: true } as const satisfies Record<Mode, true>;

/**
 * The required `--mode` (test or live), or a usage error.
 *
 * @example
 * const mode = modeValue(ctx.values, 'keys create');
 */
export function modeValue(values: Values, command: string): Mode {
  const raw = stringValue(values, 'mode');
  if (raw === undefined) throw new UsageError('missing --mode (test or live)', `pgs ${command}`);
  if (!Object.hasOwn(MODES, raw)) {
    throw new UsageError(
      `--mode must be test or live, not ${JSON.stringify(raw)}`,
      `pgs ${command}`,
    );
  }
  return raw as Mode;
}

/**
 * Refuses positional arguments beyond `max`.
 *
 * @example
 * expectPositionals(ctx.positionals, 0, 'keys create');
 */
export function expectPositionals(positionals: string[], max: number, command: string): void {
  if (positionals.length > max) {
    throw new UsageError(
      `unexpected argument ${JSON.stringify(positionals[max])}`,
      `pgs ${command}`,
    );
  }
}

/** What `--simulate completed|failed` and `--duration` ask of a test key's run. */
export interface Simulation {
  outcome: 'completed' | 'failed';
  durationMs: number | undefined;
}

/**
 * The optional `--simulate completed|failed` (with `durationMs` from `--duration`), or a
 * usage error; `--duration` alone is one too.
 *
 * @example
 * const simulate = simulateValue(ctx.values, durationValue(ctx.values, 'duration', 'generate'), 'generate');
 */
export function simulateValue(
  values: Values,
  durationMs: number | undefined,
  command: string,
): Simulation | undefined {
  const outcome = stringValue(values, 'simulate');
  if (outcome === undefined) {
    if (durationMs !== undefined) {
      throw new UsageError('--duration needs --simulate completed|failed', `pgs ${command}`);
    }
    return undefined;
  }
  if (outcome !== 'completed' && outcome !== 'failed') {
    throw new UsageError(
      `--simulate must be completed or failed, not ${JSON.stringify(outcome)}`,
      `pgs ${command}`,
    );
  }
  return { outcome, durationMs };
}

/**
 * The project ID, the first argument: a usage error when it is missing, or when more than
 * `max` arguments were given.
 *
 * @example
 * const projectId = projectIdArgument(ctx.positionals, 'status');
 */
export function projectIdArgument(positionals: string[], command: string, max = 1): string {
  const projectId = positionals[0]?.trim();
  if (!projectId) throw new UsageError('missing the project ID', `pgs ${command}`);
  expectPositionals(positionals, max, command);
  return projectId;
}

/**
 * The repeatable `--answer KEY="answer"` as `[key, answer]` pairs, split at the first `=`; a
 * value with nothing before its `=` is a usage error that shows `form`. `pgs answer` keys
 * them by entry ID, `pgs generate` by question.
 *
 * @example
 * answerPairs(['Q-1=SSO only'], 'answer', 'ID="answer" (Q-1="…")'); // [['Q-1', 'SSO only']]
 */
export function answerPairs(values: unknown, command: string, form: string): [string, string][] {
  const given = Array.isArray(values) ? (values as string[]) : [];
  return given.map((value) => {
    const at = value.indexOf('=');
    const key = at === -1 ? '' : value.slice(0, at).trim();
    if (key === '')
      throw new UsageError(`--answer takes ${form}, not "${value}"`, `pgs ${command}`);
    return [key, value.slice(at + 1).trim()];
  });
}

/**
 * A file an option names, relative to the working directory; a usage error (naming the file
 * and why) when it cannot be read.
 *
 * @example
 * const text = await readOptionFile(ctx, 'answers.json', 'generate');
 */
export async function readOptionFile(
  ctx: CommandContext,
  path: string,
  command: string,
): Promise<string> {
  try {
    return await readFile(resolve(ctx.io.cwd ?? process.cwd(), path), 'utf8');
  } catch (error) {
    throw new UsageError(
      `cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
      `pgs ${command}`,
    );
  }
}
