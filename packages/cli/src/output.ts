import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  InsufficientCreditsError,
  InternalServerError,
  NotFoundError,
  PollTimeoutError,
  RateLimitError,
  ValidationError,
} from '@pgs/client';
import { API_KEY_HELP, type Env } from './config.ts';
import type { ErrorContext, Writer } from './context.ts';
import {
  GenerationFailedError,
  LedgerDriftError,
  MissingApiKeyError,
  MissingTokenError,
  NothingReadyError,
  RevisionNotCompletedError,
  UsageError,
} from './errors.ts';

/**
 * Prints an error on stderr: `error: <message> (code, request id)` plus a hint, or
 * with `json` one envelope-like line `{"success":false,"error":{...}}`.
 *
 * @example
 * reportError(err, process.stderr, { json: false });
 */
export function reportError(
  error: unknown,
  stderr: Writer,
  { json, context = {} }: { json: boolean; context?: ErrorContext },
): void {
  const view = describe(error, context);
  if (json) {
    const body: Record<string, unknown> = { code: view.code, message: view.message };
    if (view.requestId !== undefined) body.request_id = view.requestId;
    if (view.status !== undefined) body.status = view.status;
    // The server's own details speak for API errors; the hint is for the CLI's own errors.
    const hint = view.apiCode === undefined ? view.hint : undefined;
    const details = { ...view.details, ...(hint ? { hint } : {}) };
    if (Object.keys(details).length > 0) body.details = details;
    stderr.write(`${JSON.stringify({ success: false, error: body })}\n`);
    return;
  }
  const tags = [view.apiCode, view.requestId].filter((t) => t !== undefined);
  const lines = [`error: ${view.message}${tags.length > 0 ? ` (${tags.join(', ')})` : ''}`];
  if (view.hint) lines.push(view.hint);
  stderr.write(`${lines.join('\n')}\n`);
}

interface ErrorView {
  /** The code in JSON output: the server's, or one of the CLI's own. */
  code: string;
  /** The server's code only, for the text form. */
  apiCode?: string | undefined;
  message: string;
  requestId?: string | undefined;
  status?: number | undefined;
  details?: Record<string, unknown> | undefined;
  hint?: string | undefined;
}

function describe(error: unknown, context: ErrorContext): ErrorView {
  if (error instanceof UsageError) {
    return {
      code: 'USAGE_ERROR',
      message: error.message,
      hint: `Run '${error.command} --help' for usage.`,
    };
  }
  if (error instanceof MissingTokenError) {
    return { code: 'ADMIN_TOKEN_MISSING', message: error.message };
  }
  if (error instanceof MissingApiKeyError) {
    return { code: 'API_KEY_MISSING', message: error.message };
  }
  if (error instanceof GenerationFailedError) {
    return {
      code: 'GENERATION_FAILED',
      message: `${error.message} (${error.code})`,
      details: {
        projectId: error.projectId,
        ...(error.revision === undefined ? {} : { revision: error.revision }),
        generation_error_code: error.code,
      },
    };
  }
  if (error instanceof RevisionNotCompletedError) {
    return {
      code: 'PROJECT_NOT_COMPLETED',
      message: error.message,
      details: { projectId: error.projectId, revision: error.revision, status: error.status },
      hint: `See the revisions with: pgs history ${error.projectId}`,
    };
  }
  if (error instanceof LedgerDriftError) {
    return { code: 'LEDGER_DRIFT', message: error.message, details: { drifting: error.drifting } };
  }
  if (error instanceof NothingReadyError) {
    return {
      code: 'NO_TASK_READY',
      message: error.message,
      details: { projectId: error.projectId },
      hint: `See where the plan stands with: pgs tasks ${error.projectId}`,
    };
  }
  if (error instanceof PollTimeoutError) {
    const left = error.lastStatus?.estimatedCompletionMs;
    const what =
      error.revision === undefined
        ? `project ${error.projectId}`
        : `revision ${error.revision} of project ${error.projectId}`;
    return {
      code: 'WAIT_TIMEOUT',
      message:
        `${what} was still in progress after ${Math.round(error.waitedMs / 1000)} s` +
        (left !== undefined ? ` (about ${Math.ceil(left / 1000)} s left)` : ''),
      details: {
        projectId: error.projectId,
        ...(error.revision === undefined ? {} : { revision: error.revision }),
      },
      hint: resumeHint(error.projectId, { ...context, revision: error.revision }),
    };
  }
  if (error instanceof APIUserAbortError) {
    return {
      code: 'INTERRUPTED',
      message: 'interrupted',
      hint: context.projectId ? resumeHint(context.projectId, context) : undefined,
    };
  }
  if (error instanceof APIConnectionError) {
    return {
      code: error instanceof APIConnectionTimeoutError ? 'CONNECTION_TIMEOUT' : 'CONNECTION_ERROR',
      message: error.message,
      hint: 'Is the server running? Start it with npm start (or point --base-url / PGS_BASE_URL at it).',
    };
  }
  if (error instanceof APIError) {
    const code = error.code ?? `HTTP_${error.status}`;
    return {
      code,
      apiCode: code,
      message: error.message,
      requestId: error.requestId,
      status: error.status,
      details: error.details,
      hint: hintFor(error, context),
    };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { code: 'UNEXPECTED_ERROR', message };
}

function resumeHint(projectId: string, context: ErrorContext): string {
  if (context.revision !== undefined) {
    return `The revision keeps running on the server. Follow it again with: pgs watch ${projectId}`;
  }
  const out = context.outDir !== undefined ? ` --out ${shellWord(context.outDir)}` : '';
  return `The project keeps generating on the server. Wait for it again with: pgs wait ${projectId}${out}`;
}

function shellWord(word: string): string {
  return /^[\w./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

function hintFor(error: APIError, context: ErrorContext): string | undefined {
  if (error.status === 401) {
    const issue = typeof error.details?.issue === 'string' ? ` (${error.details.issue})` : '';
    if (context.apiKeySource !== undefined) {
      return `The server rejected the API key${issue} from ${context.apiKeySource}. ${API_KEY_HELP}.`;
    }
    return `The server rejected the admin token${issue}${
      context.tokenSource ? ` from ${context.tokenSource}` : ''
    }.`;
  }
  if (error instanceof InsufficientCreditsError) {
    return (
      'See the balance with: pgs credits. An operator adds credits with: ' +
      'pgs credits grant --account ACCOUNT --mode test|live --amount N'
    );
  }
  if (error.code === 'PRECONDITION_FAILED' && error.details?.resource_type === 'task') {
    return `The task changed since that ETag was read. See it with: pgs task ID ${String(error.details.resource_id)}`;
  }
  if (error.code === 'PROJECT_NOT_IN_PROGRESS') {
    return 'Only a project in progress can be cancelled. See its state with: pgs status ID';
  }
  if (error.code === 'REVISION_IN_PROGRESS') {
    const id = typeof error.details?.resource_id === 'string' ? error.details.resource_id : 'ID';
    return `Follow it with: pgs watch ${id}, then run this command again.`;
  }
  if (error.code === 'PROJECT_NOT_COMPLETED' && error.details?.status === 'in_progress') {
    const id = typeof error.details.resource_id === 'string' ? error.details.resource_id : 'ID';
    // A revision's resource id is `<projectId>/revisions/<n>`: its project's stream follows it.
    if (error.details.resource_type === 'revision') {
      return `Follow it with: pgs watch ${id.split('/')[0]}, then run this command again.`;
    }
    return `Wait for it with: pgs wait ${id}, then run this command again.`;
  }
  // A revision's resource id is `<projectId>/revisions/<n>`: a revision read (--revision N)
  // of one the project lacks, or of one that failed.
  if (
    error.details?.resource_type === 'revision' &&
    typeof error.details.resource_id === 'string' &&
    (error instanceof NotFoundError || error.code === 'PROJECT_NOT_COMPLETED')
  ) {
    return `See the project's revisions with: pgs history ${error.details.resource_id.split('/')[0]}`;
  }
  if (error instanceof NotFoundError && context.apiKeySource !== undefined) {
    return 'Live and test keys see separate projects: use the key that created it.';
  }
  if (error instanceof ValidationError) {
    const fields = [
      ...error.missingFields.map((field) => `  ${field}: missing`),
      ...Object.entries(error.invalidFields).map(([field, rule]) => `  ${field}: ${rule}`),
    ];
    return fields.length > 0 ? fields.join('\n') : undefined;
  }
  if (error instanceof RateLimitError) {
    return error.retryAfter !== undefined
      ? `Retry in ${error.retryAfter} s.`
      : 'Retry in a minute.';
  }
  if (error instanceof InternalServerError) {
    return error.requestId
      ? `The request id ${error.requestId} finds the server's log line.`
      : undefined;
  }
  return undefined;
}

/**
 * Whether to colour what goes to `out`: only a terminal, and only while `NO_COLOR` is
 * unset or empty (https://no-color.org).
 *
 * @example
 * const text = useColour(ctx.io.stdout, ctx.io.env) ? colourDiff(diff) : diff;
 */
export function useColour(out: Writer, env: Env): boolean {
  return out.isTTY === true && (env.NO_COLOR === undefined || env.NO_COLOR === '');
}

/**
 * Rows as aligned columns under a header (a terminal), or tab-separated without one (a pipe).
 *
 * @example
 * table([['ID', (p) => p.id]], items, process.stdout.isTTY).forEach((line) => console.log(line));
 */
export function table<T>(
  columns: readonly [string, (item: T) => string][],
  items: readonly T[],
  tty: boolean,
): string[] {
  const rows = items.map((item) => columns.map(([, cell]) => cell(item)));
  if (!tty) return rows.map((row) => row.join('\t'));
  const header = columns.map(([title]) => title);
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((r) => r[i]!.length)));
  return [header, ...rows].map((row) =>
    row
      .map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd(),
  );
}

const GREEN = '\x1b[32m';
const RED = '\x1b[31m';
const CYAN = '\x1b[36m';
const BOLD = '\x1b[1m';
const RESET = '\x1b[0m';

/**
 * A unified diff coloured as git colours it: file headers bold, hunk headers cyan,
 * additions green, removals red. Only for a terminal (see `useColour`).
 *
 * @example
 * colourDiff('@@ -1,1 +1,1 @@\n-one\n+two\n');
 */
export function colourDiff(text: string): string {
  let inHeader = false;
  return text
    .split('\n')
    .map((line) => {
      if (line.startsWith('diff --git ')) inHeader = true;
      else if (line.startsWith('@@')) inHeader = false;
      if (line === '') return line;
      if (inHeader) return `${BOLD}${line}${RESET}`;
      if (line.startsWith('@@')) return `${CYAN}${line}${RESET}`;
      if (line.startsWith('+')) return `${GREEN}${line}${RESET}`;
      if (line.startsWith('-')) return `${RED}${line}${RESET}`;
      return line;
    })
    .join('\n');
}
