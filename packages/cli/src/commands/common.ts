import type { ParseArgsOptionsConfig } from 'node:util';
import type { Mode } from '@pgs/client';
import { stringValue, type Values } from '../context.ts';
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
