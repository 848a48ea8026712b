import type { AnyErrorCode } from '@pgs/contract';

interface CatalogueEntry {
  /** The HTTP status the code is answered with unless a case states another (413, 415, 405). */
  readonly status: number;
  /** The message used when the raiser gives none. */
  readonly message: string;
  /** When the code is answered and what to do about it (the reference page at /docs/errors). */
  readonly description: string;
}

/**
 * The error catalogue: every code of the contract (`ErrorCode` and `OperationErrorCode`),
 * its status and default message. `satisfies Record<AnyErrorCode, …>` makes a code added
 * to the OpenAPI document break the build until it is catalogued here.
 */
export const ERROR_CATALOGUE = {
  AUTHENTICATION_FAILED: {
    status: 401,
    message: 'The API key is missing or not valid.',
    description:
      'The API key is missing, malformed, unknown or revoked. details.field names the input, details.issue says why (missing, malformed, invalid_key, revoked). Send "Authorization: Bearer pgs_test_…".',
  },
  RESOURCE_NOT_FOUND: {
    status: 404,
    message: 'The requested resource does not exist.',
    description:
      'No such resource is visible to your key (projects belong to one account and one mode), or no such route. details.resource_type and details.resource_id say what was looked up.',
  },
  RATE_LIMIT_EXCEEDED: {
    status: 429,
    message: 'Too many requests.',
    description:
      'Too many requests in the window. Wait details.retry_after seconds (also in Retry-After) before retrying.',
  },
  INVALID_JSON: {
    status: 400,
    message: 'The request body is not valid JSON.',
    description: 'The request body is not valid JSON.',
  },
  VALIDATION_ERROR: {
    status: 400,
    message: 'The request is not valid.',
    description:
      'A parameter, header or body is not valid: details.missing_fields lists what is missing and details.invalid_fields maps each bad field to its rule. Also: 408 the request was not received in time (the connection is closed, nothing is stored), 413 body too large, 415 not JSON, 405 wrong method, two Authorization headers, unsupported API version (details.supported_versions).',
  },
  SECURITY_VIOLATION: {
    status: 403,
    message: 'The request was refused for security reasons.',
    description:
      'The request was refused: an API key or admin token in the URL (path or query string, in any percent-encoding) or in the body (revoke that key), or a prototype-pollution key (__proto__, constructor.prototype) in a JSON body.',
  },
  INSUFFICIENT_CREDITS: {
    status: 402,
    message: "The credit balance in this key's mode does not cover the price.",
    description:
      "The balance in the key's mode does not cover the project's price. details.required and details.available say by how much; grant or buy credits and retry (the same Idempotency-Key may be reused: errors are not remembered).",
  },
  IDEMPOTENCY_CONFLICT: {
    status: 409,
    message: 'A request with this Idempotency-Key is still being processed.',
    description:
      'A request with the same Idempotency-Key is still being processed. Retry after Retry-After (1 second) to receive its result.',
  },
  IDEMPOTENCY_KEY_REUSED: {
    status: 422,
    message: 'This Idempotency-Key was already used with a different request.',
    description:
      'The Idempotency-Key was already used with a different request body in the last 24 hours. Use a new key for a new request.',
  },
  PROJECT_NOT_COMPLETED: {
    status: 409,
    message: 'The project is not completed.',
    description:
      'What was asked for exists only for a completed project (the archive, a revision), or not for a failed one (its documents: the credits were refunded). details.status says which: in_progress → retry after Retry-After; failed → it never will be, create the project again. With ?revision=n, the same about that revision.',
  },
  PROJECT_NOT_IN_PROGRESS: {
    status: 409,
    message: 'Only a project in progress can be cancelled.',
    description:
      'The project is already completed or failed (a cancelled project is failed): there is nothing left to cancel and nothing was charged by this request. details.status says which state it is in; read it with GET /projects/{projectId}. Not worth retrying.',
  },
  REVISION_IN_PROGRESS: {
    status: 409,
    message: 'A revision of this project is still running.',
    description:
      'A project is revised one change at a time. details.revision names the revision running: wait for it to end (GET /projects/{projectId}/revisions/{revision}, Prefer: wait) or cancel it, then send the change again.',
  },
  TASK_TRANSITION_NOT_ALLOWED: {
    status: 409,
    message: 'The task cannot move to that status.',
    description:
      'A task moves along the transitions docs/tasks.md lists (done is reopened to todo before it is worked again; obsolete is revived to todo). details.from and details.to say what was asked, details.allowed the statuses the task may move to now.',
  },
  LEASE_NOT_HELD: {
    status: 409,
    message: 'The agent holds no lease on this task.',
    description:
      'Only the agent holding a live lease on a task in progress can renew it: the lease expired (the task went back to todo), another agent holds it (details.lease_agent), or the task was moved on (details.status). Claim the next task again.',
  },
  PRECONDITION_FAILED: {
    status: 412,
    message: 'The resource changed since the If-Match ETag was read.',
    description:
      'Someone changed the task since you read it: details.etag is its current ETag. Read it again (GET), decide, and send the update with the new ETag in If-Match.',
  },
  PRECONDITION_REQUIRED: {
    status: 428,
    message: 'This update needs an If-Match header.',
    description:
      'Updates of a task are conditional, so two people or agents never overwrite each other unseen: send the ETag of your last read (GET …/tasks/{taskId}) as If-Match.',
  },
  TRACKER_REJECTED: {
    status: 422,
    message: 'The tracker refused the credentials or the target.',
    description:
      'The issue tracker refused what a connection was made with: a wrong or expired token, a token without the rights PGS needs, or a repository, team or project that does not exist. details.provider names the tracker, details.reason gives its own words, details.provider_status its HTTP status. Fix the token or the target and send the request again (docs/trackers.md).',
  },
  TRACKER_UNAVAILABLE: {
    status: 502,
    message: 'The tracker could not be reached or did not answer.',
    description:
      'The issue tracker did not answer in time, answered a 5xx, or limited the rate of our calls. details.provider names it, details.reason says what happened and details.retry_after (when the tracker gave one) how many seconds to wait. Retry later.',
  },
  ENCRYPTION_NOT_CONFIGURED: {
    status: 503,
    message: 'Tracker connections need an encryption key on the server.',
    description:
      "The server keeps trackers' credentials encrypted and has no key: on PostgreSQL (DATABASE_URL), the operator sets PGS_ENCRYPTION_KEY (32 random bytes, base64) on every PGS process (docs/security.md). Retrying does not help until then.",
  },
  WEBHOOK_SIGNATURE_INVALID: {
    status: 401,
    message: 'The webhook signature is not valid.',
    description:
      "A tracker's delivery to POST /connections/{connectionId}/webhook was unsigned, signed with another secret, or too old. Configure the tracker's webhook with the secret shown when the connection was created (docs/trackers.md).",
  },
  INTERNAL_ERROR: {
    status: 500,
    message: 'An unexpected error occurred. Quote the request id if you contact support.',
    description:
      'An unexpected fault on our side. Retry with backoff; quote the request id if it persists.',
  },
} as const satisfies Record<AnyErrorCode, CatalogueEntry>;

export type Details = Record<string, unknown>;

/**
 * The catalogue's codes a rule of the domain (projects, revisions, tasks, credits, accounts) may
 * raise. The API maps each once (`api/plugins/errors.ts` for HTTP, `api/mcp/errors.ts` for
 * MCP); a code added here breaks the build there until it is answered.
 */
export type DomainCode = Extract<
  AnyErrorCode,
  | 'VALIDATION_ERROR'
  | 'RESOURCE_NOT_FOUND'
  | 'INSUFFICIENT_CREDITS'
  | 'PROJECT_NOT_COMPLETED'
  | 'PROJECT_NOT_IN_PROGRESS'
  | 'REVISION_IN_PROGRESS'
  | 'TASK_TRANSITION_NOT_ALLOWED'
  | 'LEASE_NOT_HELD'
  | 'PRECONDITION_FAILED'
  | 'PRECONDITION_REQUIRED'
  | 'TRACKER_REJECTED'
  | 'TRACKER_UNAVAILABLE'
  | 'ENCRYPTION_NOT_CONFIGURED'
>;

interface DomainErrorOptions {
  /**
   * The refusal is of the input's size, not of its form: the same code, but HTTP answers it
   * 413 (Content Too Large) so a client knows to send less rather than something else.
   */
  tooLarge?: boolean;
  /**
   * The input is well formed but does not fit what it names (an answer to a question the
   * project no longer has open): the same code, answered 422 (Unprocessable Content).
   */
  unprocessable?: boolean;
  cause?: unknown;
}

/**
 * A rule of the domain refused what was asked: a code of the catalogue and the details the
 * contract names for it, with no notion of HTTP or MCP, so REST and MCP answer the same
 * refusal the same way.
 *
 * @example
 * throw new DomainError('VALIDATION_ERROR', 'simulate is only available with test keys.', {
 *   invalid_fields: { simulate: 'is only available with test keys (pgs_test_…)' },
 * });
 */
export class DomainError extends Error {
  override name = 'DomainError';
  readonly code: DomainCode;
  readonly details: Details | undefined;
  readonly tooLarge: boolean;
  readonly unprocessable: boolean;

  constructor(
    code: DomainCode,
    message?: string,
    details?: Details,
    options: DomainErrorOptions = {},
  ) {
    super(message ?? ERROR_CATALOGUE[code].message, { cause: options.cause });
    this.code = code;
    this.details = details;
    this.tooLarge = options.tooLarge ?? false;
    this.unprocessable = options.unprocessable ?? false;
  }
}

interface ApiErrorOptions {
  details?: Details;
  /** Overrides the catalogue status, e.g. 413 or 415 for VALIDATION_ERROR. */
  status?: number;
  headers?: Record<string, string | number>;
  cause?: unknown;
}

/**
 * An error answered to the client in the contract's envelope.
 *
 * @example
 * throw new ApiError('RESOURCE_NOT_FOUND', 'No project with this identifier exists.', {
 *   details: { resource_type: 'project', resource_id: id },
 * });
 */
export class ApiError extends Error {
  override name = 'ApiError';
  readonly code: AnyErrorCode;
  readonly status: number;
  readonly details: Details | undefined;
  readonly headers: Record<string, string | number>;

  constructor(code: AnyErrorCode, message?: string, options: ApiErrorOptions = {}) {
    super(message ?? ERROR_CATALOGUE[code].message, { cause: options.cause });
    this.code = code;
    this.status = options.status ?? ERROR_CATALOGUE[code].status;
    this.details = options.details;
    this.headers = options.headers ?? {};
  }
}

/** The JSON body of an error response. */
export function errorEnvelope(error: ApiError, requestId: string, docsUrl: string) {
  return {
    success: false as const,
    error: {
      code: error.code,
      message: error.message,
      request_id: requestId,
      documentation: `${docsUrl}/errors#${error.code}`,
      ...(error.details === undefined ? {} : { details: error.details }),
    },
  };
}
