/**
 * jira.js's failures in PGS's words ({@link TrackerRequestError}). jira.js 6 throws its own
 * typed errors (fetch underneath, no axios): `RateLimitError` carries `Retry-After` as
 * `retryAfterMs`, `ApiError` carries Jira's parsed body. It keeps no other header, so
 * `X-RateLimit-Reset` cannot be read: a 429 without `Retry-After` (Jira may leave it out)
 * has no hint, and the engine's own backoff applies. Its own retry is off unless asked
 * for, and the adapter never asks: the sync engine's policy is the only one that waits.
 */
import {
  isApiError,
  isAuthError,
  isNetworkError,
  isRateLimitError,
  isSchemaMismatchError,
  isServerError,
} from 'jira.js/core';
import { TrackerRequestError, trackerErrorIn } from '../provider.ts';

/** Jira's error body: `{ errorMessages: [...], errors: { field: message } }`. */
export function jiraReason(body: unknown): string | undefined {
  if (typeof body === 'string') return body.trim().slice(0, 500) || undefined;
  if (!body || typeof body !== 'object') return undefined;
  const { errorMessages, errors, message } = body as {
    errorMessages?: unknown;
    errors?: unknown;
    message?: unknown;
  };
  const parts: string[] = [];
  if (Array.isArray(errorMessages)) {
    parts.push(...errorMessages.filter((item): item is string => typeof item === 'string'));
  }
  if (errors && typeof errors === 'object') {
    for (const [field, text] of Object.entries(errors)) {
      if (typeof text === 'string') parts.push(`${field}: ${text}`);
    }
  }
  if (parts.length === 0 && typeof message === 'string') parts.push(message);
  return parts.length > 0 ? parts.join('; ') : undefined;
}

/**
 * The {@link TrackerRequestError} for whatever a jira.js call threw. The reason is Jira's own
 * message or a fixed sentence, never the request (its Authorization header holds the token).
 * Anything else (the caller's own abort, a bug) is given back unchanged.
 *
 * @example throw toTrackerError(error) // 429 → retryable, retryAfterMs from Retry-After
 */
export function toTrackerError(error: unknown): unknown {
  // Ours (a refused address, a redirect), however the SDK wrapped it.
  const own = trackerErrorIn(error);
  if (own !== undefined) return own;
  if (isRateLimitError(error)) {
    return new TrackerRequestError(jiraReason(error.body) ?? 'Jira rate limit reached', {
      status: 429,
      retryable: true,
      ...(error.retryAfterMs !== undefined ? { retryAfterMs: error.retryAfterMs } : {}),
    });
  }
  if (isAuthError(error)) {
    return new TrackerRequestError('Jira refused the email and API token', {
      status: 401,
      retryable: false,
    });
  }
  if (isServerError(error)) {
    return new TrackerRequestError(
      `Jira answered ${error.status}${suffix(jiraReason(error.body))}`,
      { status: error.status, retryable: true },
    );
  }
  if (isApiError(error)) {
    const reason = jiraReason(error.body) ?? `Jira answered ${error.status} ${error.statusText}`;
    return new TrackerRequestError(reason, {
      status: error.status,
      retryable: error.status === 408,
    });
  }
  if (isNetworkError(error)) {
    return new TrackerRequestError(`Jira could not be reached${suffix(error.code)}`, {
      retryable: true,
    });
  }
  if (isSchemaMismatchError(error)) {
    return new TrackerRequestError('Jira answered in a shape jira.js does not describe', {
      retryable: false,
    });
  }
  if (error instanceof Error && error.name === 'TimeoutError') {
    return new TrackerRequestError('Jira did not answer in time', { retryable: true });
  }
  // fetch failures jira.js did not wrap (a refused connection reaches here on some paths).
  if (error instanceof TypeError && /fetch failed/i.test(error.message)) {
    return new TrackerRequestError('Jira could not be reached', { retryable: true });
  }
  return error;
}

function suffix(detail: string | undefined): string {
  return detail ? `: ${detail}` : '';
}
