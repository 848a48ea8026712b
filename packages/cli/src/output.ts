import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  InternalServerError,
  RateLimitError,
  ValidationError,
} from '@pgs/client';
import type { Writer } from './context.ts';
import { MissingTokenError, UsageError } from './errors.ts';

/** What the failing run knew, to make the message actionable. */
export interface ErrorContext {
  /** Where the admin token came from, once it was resolved. */
  tokenSource?: string | undefined;
}

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

function hintFor(error: APIError, context: ErrorContext): string | undefined {
  if (error.status === 401) {
    const issue = typeof error.details?.issue === 'string' ? ` (${error.details.issue})` : '';
    return `The server rejected the admin token${issue}${
      context.tokenSource ? ` from ${context.tokenSource}` : ''
    }.`;
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
