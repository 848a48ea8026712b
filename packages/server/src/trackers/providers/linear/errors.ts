/**
 * Linear's failures in PGS's terms. `@linear/sdk` turns every failed call into a `LinearError`
 * subclass; this maps each to a {@link TrackerRequestError} that says whether to retry and
 * after how long, with Linear's own message as the reason (the SDK never puts the key in it).
 */
import {
  AuthenticationLinearError,
  FeatureNotAccessibleLinearError,
  ForbiddenLinearError,
  InternalLinearError,
  InvalidInputLinearError,
  LinearError,
  LockTimeoutLinearError,
  NetworkLinearError,
  RatelimitedLinearError,
  UsageLimitExceededLinearError,
} from '@linear/sdk';
import { TrackerRequestError, trackerErrorIn } from '../provider.ts';

/** Refusals of the key: the user must give another one, so never retried. */
export const KEY_REFUSED = 'the Linear API key was refused';

/** Linear's GraphQL errors carry an extension code; the SDK classifies by another field. */
function extensionCode(error: LinearError): string | undefined {
  const raw = error.raw as { response?: { errors?: { extensions?: { code?: unknown } }[] } };
  const code = raw?.response?.errors?.[0]?.extensions?.code;
  return typeof code === 'string' ? code : undefined;
}

function headerNumber(error: LinearError, name: string): number | undefined {
  const headers = (error.raw as { response?: { headers?: Headers } })?.response?.headers;
  const value = headers?.get?.(name);
  const parsed = value ? Number(value) : Number.NaN;
  return Number.isFinite(parsed) ? parsed : undefined;
}

/**
 * How long Linear asks us to wait: `Retry-After` when sent, else the reset of whichever
 * budget ran out (requests or complexity; Linear dates resets in epoch milliseconds).
 * The subtraction reads the wall clock only to turn a date into a delay: nothing waits here.
 */
export function retryAfterMs(
  limit: {
    retryAfter?: number | undefined;
    requestsRemaining?: number | undefined;
    requestsResetAt?: number | undefined;
    complexityRemaining?: number | undefined;
    complexityResetAt?: number | undefined;
  },
  now: number = Date.now(),
): number | undefined {
  if (limit.retryAfter !== undefined) return Math.max(0, limit.retryAfter * 1000);
  const resets: number[] = [];
  if (limit.requestsRemaining === 0 && limit.requestsResetAt) resets.push(limit.requestsResetAt);
  if (limit.complexityRemaining === 0 && limit.complexityResetAt) {
    resets.push(limit.complexityResetAt);
  }
  if (resets.length === 0) {
    for (const at of [limit.requestsResetAt, limit.complexityResetAt]) if (at) resets.push(at);
  }
  if (resets.length === 0) return undefined;
  // A reset given in seconds (older API answers) is read as such.
  const at = Math.max(...resets.map((value) => (value < 1e12 ? value * 1000 : value)));
  // Whole seconds, rounded up: a wait that ends a few milliseconds early meets the limit again.
  return Math.max(0, Math.ceil((at - now) / 1000) * 1000);
}

function rateLimited(error: LinearError): TrackerRequestError {
  const limit =
    error instanceof RatelimitedLinearError
      ? error
      : {
          retryAfter: headerNumber(error, 'retry-after'),
          requestsRemaining: headerNumber(error, 'x-ratelimit-requests-remaining'),
          requestsResetAt: headerNumber(error, 'x-ratelimit-requests-reset'),
          complexityRemaining: headerNumber(error, 'x-ratelimit-complexity-remaining'),
          complexityResetAt: headerNumber(error, 'x-ratelimit-complexity-reset'),
        };
  const wait = retryAfterMs(limit);
  return new TrackerRequestError(`Linear rate limit reached: ${reasonOf(error)}`, {
    status: 429,
    retryable: true,
    ...(wait === undefined ? {} : { retryAfterMs: wait }),
  });
}

/** Linear's own words: the first GraphQL error's user-facing message, else the SDK's. */
function reasonOf(error: LinearError): string {
  const first = error.errors?.[0]?.message;
  return (first ?? error.message ?? 'Linear failed').trim();
}

/** True when the failure is the caller's own abort, which must not be retried. */
function abortedByCaller(signal: AbortSignal | undefined): boolean {
  const reason: unknown = signal?.reason;
  return signal?.aborted === true && !(reason instanceof Error && reason.name === 'TimeoutError');
}

/**
 * Maps anything a Linear call threw to a {@link TrackerRequestError}; the caller's own abort
 * is rethrown as is.
 */
export function toTrackerError(error: unknown, signal?: AbortSignal): unknown {
  // Ours (a refused address, a redirect), however the SDK wrapped it.
  const own = trackerErrorIn(error);
  if (own !== undefined) return own;
  if (abortedByCaller(signal)) return signal?.reason ?? error;
  if (!(error instanceof LinearError)) {
    const message = error instanceof Error ? error.message : String(error);
    return new TrackerRequestError(`Linear could not be reached: ${message}`, { retryable: true });
  }
  const status = typeof error.status === 'number' ? error.status : undefined;
  const withStatus = status === undefined ? {} : { status };
  if (error instanceof RatelimitedLinearError || extensionCode(error) === 'RATELIMITED') {
    return rateLimited(error);
  }
  if (error instanceof AuthenticationLinearError) {
    return new TrackerRequestError(`${KEY_REFUSED}: ${reasonOf(error)}`, {
      ...withStatus,
      retryable: false,
    });
  }
  if (
    error instanceof InvalidInputLinearError ||
    error instanceof ForbiddenLinearError ||
    error instanceof FeatureNotAccessibleLinearError ||
    error instanceof UsageLimitExceededLinearError
  ) {
    return new TrackerRequestError(`Linear refused the request: ${reasonOf(error)}`, {
      ...withStatus,
      retryable: false,
    });
  }
  if (
    error instanceof NetworkLinearError ||
    error instanceof InternalLinearError ||
    error instanceof LockTimeoutLinearError ||
    status === undefined ||
    status === 408 ||
    status >= 500
  ) {
    return new TrackerRequestError(`Linear failed, to be retried: ${reasonOf(error)}`, {
      ...withStatus,
      retryable: true,
    });
  }
  return new TrackerRequestError(`Linear refused the request: ${reasonOf(error)}`, {
    ...withStatus,
    retryable: false,
  });
}
