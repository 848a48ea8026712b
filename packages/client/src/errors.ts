import type { ErrorCode, ProjectInProgress } from '@pgs/contract';

/** Members of `error.details` as the server sends them: free-form, specific to the code. */
export type ErrorDetails = Record<string, unknown>;

/**
 * Base class of every error the SDK throws, so one `instanceof` catches them all.
 *
 * @example
 * try { await pgs.projects.get(id); } catch (err) { if (err instanceof PgsError) log(err.message); }
 */
export class PgsError extends Error {
  override name = 'PgsError';
}

/** What {@link APIError} and its subclasses are built from. */
export interface APIErrorInit {
  code?: string | undefined;
  requestId?: string | undefined;
  details?: ErrorDetails | undefined;
  documentation?: string | undefined;
  headers?: Headers | undefined;
  body?: unknown;
}

/**
 * The server answered with a non-2xx status. Subclasses name the status; `code`,
 * `requestId` and `details` come from the error envelope
 * (`{ success: false, error: { code, message, request_id, documentation?, details? } }`).
 *
 * @example
 * catch (err) { if (err instanceof APIError) console.error(err.status, err.code, err.requestId); }
 */
export class APIError extends PgsError {
  override name = 'APIError';
  /** The HTTP status code. */
  readonly status: number;
  /** The stable error code (`AUTHENTICATION_FAILED`, ...), when the body was an error envelope. */
  readonly code: ErrorCode | (string & Record<never, never>) | undefined;
  /** `error.request_id`, else the `X-Request-ID` header: quote it when reporting a problem. */
  readonly requestId: string | undefined;
  /** `error.details`: context specific to the code. */
  readonly details: ErrorDetails | undefined;
  /** `error.documentation`: a link to the reference page of the code. */
  readonly documentation: string | undefined;
  /** The response headers. */
  readonly headers: Headers;
  /** The parsed response body (or its text when it was not JSON). */
  readonly body: unknown;
  /**
   * How many attempts the call made, this answer's included: above 1 when an earlier one was
   * retried, so a write refused now may be the call's own earlier write, which landed.
   */
  attempts = 1;

  constructor(status: number, message: string, init: APIErrorInit = {}) {
    super(message);
    this.status = status;
    this.code = init.code;
    this.requestId = init.requestId;
    this.details = init.details;
    this.documentation = init.documentation;
    this.headers = init.headers ?? new Headers();
    this.body = init.body;
  }

  /**
   * Builds the error class that matches a status (and, for 400, the code) from a
   * response body: the error envelope, or anything else for a graceful fallback.
   *
   * @example
   * const err = APIError.from(404, { success: false, error: { code: 'RESOURCE_NOT_FOUND', message: 'No project', request_id: 'req_1' } });
   * err instanceof NotFoundError; // true
   */
  static from(status: number, body: unknown, headers?: HeadersInit | Headers): APIError {
    const hdrs = headers instanceof Headers ? headers : new Headers(headers);
    const envelope = readEnvelope(body);
    const init: APIErrorInit = {
      code: envelope?.code,
      requestId: envelope?.requestId ?? hdrs.get('x-request-id') ?? undefined,
      details: envelope?.details,
      documentation: envelope?.documentation,
      headers: hdrs,
      body,
    };
    const message = envelope?.message ?? fallbackMessage(status, body);
    const Class = errorClassFor(status, init.code);
    return new Class(status, message, init);
  }
}

/** 400: the request was malformed. @example if (err instanceof BadRequestError) fixRequest(); */
export class BadRequestError extends APIError {
  override name = 'BadRequestError';
}

/**
 * 400 VALIDATION_ERROR: a parameter, header or body member failed validation.
 *
 * @example
 * if (err instanceof ValidationError) console.error(err.missingFields, err.invalidFields);
 */
export class ValidationError extends BadRequestError {
  override name = 'ValidationError';
  /** `details.missing_fields`: names of the required fields that were absent. */
  readonly missingFields: string[];
  /** `details.invalid_fields`: field name → the rule it broke. */
  readonly invalidFields: Record<string, string>;

  constructor(status: number, message: string, init: APIErrorInit = {}) {
    super(status, message, init);
    const missing = init.details?.missing_fields;
    this.missingFields = Array.isArray(missing)
      ? missing.filter((f): f is string => typeof f === 'string')
      : [];
    const invalid = init.details?.invalid_fields;
    this.invalidFields = {};
    if (isRecord(invalid)) {
      for (const [field, rule] of Object.entries(invalid)) this.invalidFields[field] = String(rule);
    }
  }
}

/** 400 INVALID_JSON: the request body was not JSON. @example if (err instanceof InvalidJsonError) … */
export class InvalidJsonError extends BadRequestError {
  override name = 'InvalidJsonError';
}

/** 401: the key or token is missing, malformed, unknown or revoked (`details.issue` says which). @example if (err instanceof AuthenticationError && err.details?.issue === 'revoked') … */
export class AuthenticationError extends APIError {
  override name = 'AuthenticationError';
}

/** 402: not enough credits for the operation. @example if (err instanceof InsufficientCreditsError) buyCredits(); */
export class InsufficientCreditsError extends APIError {
  override name = 'InsufficientCreditsError';
}

/** 403 SECURITY_VIOLATION: e.g. an API key sent in the query string or body. @example if (err instanceof PermissionDeniedError) … */
export class PermissionDeniedError extends APIError {
  override name = 'PermissionDeniedError';
}

/** 404: no such resource visible to the caller. @example if (err instanceof NotFoundError) return null; */
export class NotFoundError extends APIError {
  override name = 'NotFoundError';
}

/** 409: the request conflicts with the resource's state (retried automatically). @example if (err instanceof ConflictError) … */
export class ConflictError extends APIError {
  override name = 'ConflictError';
}

/**
 * 412 PRECONDITION_FAILED: the `If-Match` sent is not the resource's current `ETag` (a task
 * changed since it was read; `details.etag` is the current one). Read it again, then decide.
 *
 * @example
 * if (err instanceof PreconditionFailedError) ({ etag } = await pgs.projects.tasks.get(projectId, taskId));
 */
export class PreconditionFailedError extends APIError {
  override name = 'PreconditionFailedError';
}

/** 428 PRECONDITION_REQUIRED: the update needs `If-Match`. @example if (err instanceof PreconditionRequiredError) … */
export class PreconditionRequiredError extends APIError {
  override name = 'PreconditionRequiredError';
}

/** 413: the body is over the size limit (`details.max_bytes`). @example if (err instanceof PayloadTooLargeError) … */
export class PayloadTooLargeError extends APIError {
  override name = 'PayloadTooLargeError';
}

/** 415: the media type is not supported (`details.supported_media_types`). @example if (err instanceof UnsupportedMediaTypeError) … */
export class UnsupportedMediaTypeError extends APIError {
  override name = 'UnsupportedMediaTypeError';
}

/** 422: well-formed but semantically invalid. @example if (err instanceof UnprocessableEntityError) … */
export class UnprocessableEntityError extends APIError {
  override name = 'UnprocessableEntityError';
}

/**
 * 429: too many requests in the window. Thrown once the automatic retries are used up.
 *
 * @example
 * if (err instanceof RateLimitError) setTimeout(retry, (err.retryAfter ?? 60) * 1000);
 */
export class RateLimitError extends APIError {
  override name = 'RateLimitError';
  /** Seconds to wait: the `Retry-After` header, else `details.retry_after`. */
  readonly retryAfter: number | undefined;
  /** When the window ends: the `X-RateLimit-Reset` header (UTC epoch seconds). */
  readonly resetAt: Date | undefined;

  constructor(status: number, message: string, init: APIErrorInit = {}) {
    super(status, message, init);
    const headerMs = init.headers ? parseRetryAfterMs(init.headers, Date.now()) : undefined;
    const detail = init.details?.retry_after;
    this.retryAfter =
      headerMs !== undefined
        ? Math.ceil(headerMs / 1000)
        : typeof detail === 'number' && Number.isFinite(detail) && detail >= 0
          ? detail
          : undefined;
    const reset = Number(init.headers?.get('x-ratelimit-reset') ?? Number.NaN);
    this.resetAt = Number.isFinite(reset) && reset >= 0 ? new Date(reset * 1000) : undefined;
  }
}

/** 5xx: the server failed; quote `requestId` to find its log line. @example if (err instanceof InternalServerError) report(err.requestId); */
export class InternalServerError extends APIError {
  override name = 'InternalServerError';
}

/** Options of the errors that wrap a lower-level failure. */
export interface CauseInit {
  message?: string | undefined;
  cause?: unknown;
}

/**
 * The server could not be reached (refused, reset, DNS, ...); retried automatically first.
 *
 * @example
 * if (err instanceof APIConnectionError) console.error('is the server running?', err.cause);
 */
export class APIConnectionError extends PgsError {
  override name = 'APIConnectionError';
  constructor({ message = 'Connection error.', cause }: CauseInit = {}) {
    super(message, cause === undefined ? undefined : { cause });
  }
}

/** An attempt took longer than `timeoutMs`. @example if (err instanceof APIConnectionTimeoutError) raiseTimeout(); */
export class APIConnectionTimeoutError extends APIConnectionError {
  override name = 'APIConnectionTimeoutError';
  constructor({ message = 'Request timed out.', cause }: CauseInit = {}) {
    super({ message, cause });
  }
}

/** The caller's AbortSignal fired, during a request or while waiting to retry. @example if (err instanceof APIUserAbortError) return; */
export class APIUserAbortError extends PgsError {
  override name = 'APIUserAbortError';
  constructor({ message = 'Request was aborted.', cause }: CauseInit = {}) {
    super(message, cause === undefined ? undefined : { cause });
  }
}

/** What {@link PollTimeoutError} is built from. */
export interface PollTimeoutInit {
  projectId: string;
  /** The revision waited for (`projects.revisions.waitForCompletion`); undefined for a project. */
  revision?: number | undefined;
  /** The last in-progress status seen, if any poll succeeded. */
  lastStatus: ProjectInProgress | undefined;
  /** How long the wait lasted, in milliseconds. */
  waitedMs: number;
  /** The `maxWaitMs` that ran out. */
  maxWaitMs: number;
  /** The last failed poll, when the wait ended on one (e.g. a 429 asking to wait past the deadline). */
  cause?: unknown;
}

/**
 * `projects.waitForCompletion` (or `projects.revisions.waitForCompletion`, then with
 * `revision`) reached `maxWaitMs` while the project (the revision) was still
 * `in_progress`. It keeps generating on the server: wait again, or read it later with
 * `projects.get` (`projects.revisions.get`).
 *
 * @example
 * catch (err) { if (err instanceof PollTimeoutError) console.log(err.lastStatus?.estimatedCompletionMs); }
 */
export class PollTimeoutError extends PgsError {
  override name = 'PollTimeoutError';
  readonly projectId: string;
  /** The revision waited for; undefined when the wait was for the project itself. */
  readonly revision: number | undefined;
  /** The last in-progress status seen (its `estimatedCompletionMs`), or undefined when no poll succeeded. */
  readonly lastStatus: ProjectInProgress | undefined;
  readonly waitedMs: number;
  readonly maxWaitMs: number;

  constructor({ projectId, revision, lastStatus, waitedMs, maxWaitMs, cause }: PollTimeoutInit) {
    const estimate =
      lastStatus !== undefined
        ? `; the last estimate was ${Math.ceil(lastStatus.estimatedCompletionMs / 1000)} s left`
        : '';
    const what =
      revision === undefined
        ? `Project ${projectId}`
        : `Revision ${revision} of project ${projectId}`;
    super(
      `${what} was still in progress after ${formatSeconds(waitedMs)} ` +
        `(maxWaitMs ${maxWaitMs})${estimate}. It keeps generating: wait again or read it later.`,
      cause === undefined ? undefined : { cause },
    );
    this.projectId = projectId;
    this.revision = revision;
    this.lastStatus = lastStatus;
    this.waitedMs = waitedMs;
    this.maxWaitMs = maxWaitMs;
  }
}

function formatSeconds(ms: number): string {
  const s = ms / 1000;
  return `${Number.isInteger(s) || s >= 10 ? Math.round(s) : s.toFixed(1)} s`;
}

type APIErrorClass = new (status: number, message: string, init?: APIErrorInit) => APIError;

function errorClassFor(status: number, code: string | undefined): APIErrorClass {
  if (status === 400) {
    if (code === 'VALIDATION_ERROR') return ValidationError;
    if (code === 'INVALID_JSON') return InvalidJsonError;
    return BadRequestError;
  }
  if (status >= 500) return InternalServerError;
  return STATUS_CLASSES[status] ?? APIError;
}

const STATUS_CLASSES: Partial<Record<number, APIErrorClass>> = {
  401: AuthenticationError,
  402: InsufficientCreditsError,
  403: PermissionDeniedError,
  404: NotFoundError,
  409: ConflictError,
  412: PreconditionFailedError,
  413: PayloadTooLargeError,
  415: UnsupportedMediaTypeError,
  422: UnprocessableEntityError,
  428: PreconditionRequiredError,
  429: RateLimitError,
};

interface Envelope {
  code: string | undefined;
  message: string | undefined;
  requestId: string | undefined;
  documentation: string | undefined;
  details: ErrorDetails | undefined;
}

/** Reads `{ success: false, error: {...} }` tolerantly: any member may be missing or mistyped. */
function readEnvelope(body: unknown): Envelope | undefined {
  if (!isRecord(body) || !isRecord(body.error)) return undefined;
  const e = body.error;
  return {
    code: str(e.code),
    message: str(e.message),
    requestId: str(e.request_id),
    documentation: str(e.documentation),
    details: isRecord(e.details) ? e.details : undefined,
  };
}

function fallbackMessage(status: number, body: unknown): string {
  if (typeof body === 'string' && body.trim() !== '') {
    const text = body.trim();
    return `${status} ${text.length > 200 ? `${text.slice(0, 200)}…` : text}`;
  }
  if (isRecord(body) && typeof body.message === 'string') return `${status} ${body.message}`;
  return `${status} status code (no error envelope in the body)`;
}

/**
 * Milliseconds the server asked us to wait: `Retry-After` in seconds or as an HTTP
 * date (relative to `now`). Undefined when absent or unreadable.
 *
 * @example
 * parseRetryAfterMs(new Headers({ 'retry-after': '2' }), Date.now()); // 2000
 */
export function parseRetryAfterMs(headers: Headers, now: number): number | undefined {
  const raw = headers.get('retry-after')?.trim();
  if (!raw) return undefined;
  if (/^\d+(\.\d+)?$/.test(raw)) return Number(raw) * 1000;
  const date = Date.parse(raw);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
