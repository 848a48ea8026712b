/**
 * The one retry policy's vocabulary: every failure of a model call is classified once,
 * here, and the caller acts on the class alone.
 */
import { apiAnswerOf } from './sdk/api-error.ts';

/**
 * What a failed call calls for:
 * - `retry`: the same model again after a pause (time-out, 408, 409, 429, 5xx, a
 *   dropped connection); after the last attempt the next model of the chain takes over.
 * - `next-model`: no retry; the next model takes over (model not found, a request this
 *   model refuses: 400, 413, 422, content refused).
 * - `fail-project`: no retry and no other model; the project fails at once (401, 403:
 *   credentials an operator must fix, or a failure the engine declares final).
 */
export type FailureAction = 'retry' | 'next-model' | 'fail-project';

/** Why a call failed, in words for logs and provenance. */
export type FailureReason =
  | 'timeout'
  | 'rate-limited'
  | 'server-error'
  | 'network'
  | 'unauthorized'
  | 'model-not-found'
  | 'bad-request'
  | 'refused'
  | 'invalid-output'
  | 'unknown';

export interface Classified {
  action: FailureAction;
  reason: FailureReason;
  /** The provider's HTTP status, when it answered. */
  status?: number;
  /** The provider's `retry-after` (or `retry-after-ms`), in milliseconds. */
  retryAfterMs?: number;
}

/**
 * A failure an engine declares final, e.g. the offline engine's simulated time-out: the
 * project fails with the time-out message and no retry is attempted.
 */
export class FinalTimeoutError extends Error {
  override name = 'FinalTimeoutError';
}

/** A call whose answer was cut by a content filter or refused by the model. */
export class ContentRefusedError extends Error {
  override name = 'ContentRefusedError';
}

/** A `retry-after` header in milliseconds: seconds, an HTTP date, or `retry-after-ms`. */
export function retryAfterMs(
  headers: Record<string, string> | undefined,
  now = Date.now(),
): number | undefined {
  if (headers === undefined) return undefined;
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  const ms = Number(lower['retry-after-ms']);
  if (lower['retry-after-ms'] !== undefined && Number.isFinite(ms) && ms >= 0) return ms;
  const raw = lower['retry-after'];
  if (raw === undefined) return undefined;
  const seconds = Number(raw);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(raw);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function chain(error: unknown): unknown[] {
  const seen: unknown[] = [];
  for (let e = error; e !== undefined && e !== null && !seen.includes(e); ) {
    seen.push(e);
    e = e instanceof Error ? e.cause : undefined;
  }
  return seen;
}

const TIMEOUT_NAMES = new Set(['TimeoutError', 'AbortError']);
const NETWORK_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ETIMEDOUT',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

/**
 * Classifies a failed model call. Call it only when the caller's own signal has not
 * aborted (a stopped worker is not a model failure).
 *
 * @example
 * classify(new APICallError({ message: 'busy', statusCode: 503, url, requestBodyValues: {} }));
 * // { action: 'retry', reason: 'server-error', status: 503 }
 */
export function classify(error: unknown): Classified {
  const causes = chain(error);
  if (causes.some((e) => e instanceof FinalTimeoutError)) {
    return { action: 'fail-project', reason: 'timeout' };
  }
  if (causes.some((e) => e instanceof ContentRefusedError)) {
    return { action: 'next-model', reason: 'refused' };
  }
  const api = causes.map(apiAnswerOf).find((answer) => answer !== undefined);
  if (api !== undefined) {
    const status = api.statusCode;
    const after = retryAfterMs(api.responseHeaders);
    const withStatus = (c: Classified): Classified => ({
      ...c,
      ...(status === undefined ? {} : { status }),
      ...(after === undefined ? {} : { retryAfterMs: after }),
    });
    // No status: the connection failed. A 2xx: the answer broke off mid-way (a dropped stream).
    if (status === undefined || status < 300)
      return withStatus({ action: 'retry', reason: 'network' });
    if (status === 401 || status === 403)
      return withStatus({ action: 'fail-project', reason: 'unauthorized' });
    if (status === 404) return withStatus({ action: 'next-model', reason: 'model-not-found' });
    if (status === 408) return withStatus({ action: 'retry', reason: 'timeout' });
    if (status === 429) return withStatus({ action: 'retry', reason: 'rate-limited' });
    if (status === 409 || status >= 500)
      return withStatus({ action: 'retry', reason: 'server-error' });
    return withStatus({ action: 'next-model', reason: 'bad-request' });
  }
  if (causes.some((e) => e instanceof Error && TIMEOUT_NAMES.has(e.name))) {
    return { action: 'retry', reason: 'timeout' };
  }
  if (
    causes.some(
      (e) =>
        e instanceof Error &&
        (NETWORK_CODES.has((e as { code?: string }).code ?? '') ||
          e.name === 'EmptyResponseBodyError' ||
          /terminated|socket|fetch failed|network|other side closed/i.test(e.message)),
    )
  ) {
    return { action: 'retry', reason: 'network' };
  }
  return { action: 'next-model', reason: 'unknown' };
}
