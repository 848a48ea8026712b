import type { ErrorCode } from '@pgs/contract';

interface CatalogueEntry {
  /** The HTTP status the code is answered with unless a case states another (413, 415, 405). */
  readonly status: number;
  /** The message used when the raiser gives none. */
  readonly message: string;
}

/**
 * The error catalogue: every code of the contract's `ErrorCode` enum, its status and
 * default message. `satisfies Record<ErrorCode, …>` makes a code added to the OpenAPI
 * document break the build until it is catalogued here.
 */
export const ERROR_CATALOGUE = {
  AUTHENTICATION_FAILED: { status: 401, message: 'The API key is missing or not valid.' },
  RESOURCE_NOT_FOUND: { status: 404, message: 'The requested resource does not exist.' },
  RATE_LIMIT_EXCEEDED: { status: 429, message: 'Too many requests.' },
  INVALID_JSON: { status: 400, message: 'The request body is not valid JSON.' },
  VALIDATION_ERROR: { status: 400, message: 'The request is not valid.' },
  SECURITY_VIOLATION: { status: 403, message: 'The request was refused for security reasons.' },
  INTERNAL_ERROR: {
    status: 500,
    message: 'An unexpected error occurred. Quote the request id if you contact support.',
  },
} as const satisfies Record<ErrorCode, CatalogueEntry>;

export type Details = Record<string, unknown>;

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
  readonly code: ErrorCode;
  readonly status: number;
  readonly details: Details | undefined;
  readonly headers: Record<string, string | number>;

  constructor(code: ErrorCode, message?: string, options: ApiErrorOptions = {}) {
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
