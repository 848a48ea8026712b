/**
 * When a failed request is tried again, and how long the SDK waits first: which answers are
 * worth another try, full-jitter backoff, the server's `Retry-After`, and waits that end the
 * moment the caller aborts. The transport (core.ts), the polling helper and the event stream
 * share them.
 */
import { type APIError, APIUserAbortError, parseRetryAfterMs } from './errors.ts';

/** Waits `ms`, rejecting as soon as `signal` aborts. Injectable so tests need not sleep. */
export type SleepFn = (ms: number, signal: AbortSignal | undefined) => Promise<void>;

const BACKOFF_BASE_MS = 500;
const BACKOFF_CAP_MS = 8_000;

/**
 * 409s about a project's or a task's state: asking again gets the same answer (a revision
 * in progress runs for seconds to minutes, far past the retries' backoff; a move the task's
 * status machine refuses, or a lease the agent lost, stays refused until someone acts).
 */
const SETTLED_CONFLICTS: ReadonlySet<string> = new Set([
  'PROJECT_NOT_IN_PROGRESS',
  'PROJECT_NOT_COMPLETED',
  'REVISION_IN_PROGRESS',
  'TASK_TRANSITION_NOT_ALLOWED',
  'LEASE_NOT_HELD',
]);

/**
 * Whether an error answer is worth another try: {@link isRetryableStatus}, except a 409
 * about the project's or a task's state (`PROJECT_NOT_IN_PROGRESS`, `PROJECT_NOT_COMPLETED`,
 * `REVISION_IN_PROGRESS`, `TASK_TRANSITION_NOT_ALLOWED`, `LEASE_NOT_HELD`), which answers the
 * same however often it is asked. Other 409s (a request with the same Idempotency-Key still
 * running) clear up.
 *
 * @example
 * isRetryableError(409, 'PROJECT_NOT_IN_PROGRESS'); // false
 */
export function isRetryableError(status: number, code: string | undefined): boolean {
  if (status === 409 && code !== undefined && SETTLED_CONFLICTS.has(code)) return false;
  return isRetryableStatus(status);
}

/** 408, 409, 429 and every 5xx are worth another try; no other 4xx is. @example isRetryableStatus(503); // true */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/**
 * Full jitter: a uniform pick in [0, min(8 s, 0.5 s · 2^attempt)).
 *
 * @example
 * backoffMs(2, () => 1); // 2000
 */
export function backoffMs(attempt: number, random: () => number = Math.random): number {
  return random() * Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** attempt);
}

/**
 * How long to wait before the next attempt after an error answer: the server's `Retry-After`
 * header, else a 429's `retry_after` detail (seconds), else {@link backoffMs}.
 *
 * @example
 * await sleep(retryDelayMs(response.headers, error, attempt, { random, now }), signal);
 */
export function retryDelayMs(
  headers: Headers,
  error: APIError,
  attempt: number,
  { random, now }: { random: () => number; now: () => number },
): number {
  const fromHeader = parseRetryAfterMs(headers, now());
  if (fromHeader !== undefined) return fromHeader;
  const fromDetails = error.details?.retry_after;
  if (error.status === 429 && typeof fromDetails === 'number' && fromDetails >= 0) {
    return fromDetails * 1000;
  }
  return backoffMs(attempt, random);
}

/**
 * Sleeps with `sleep`, turning an abort (during or right after the sleep) into
 * {@link APIUserAbortError}, so no further request starts after the caller gave up.
 *
 * @example
 * await waitOrAbort(abortableSleep, 10_000, options.signal);
 */
export async function waitOrAbort(
  sleep: SleepFn,
  ms: number,
  signal: AbortSignal | undefined,
): Promise<void> {
  try {
    await sleep(ms, signal);
  } catch (cause) {
    if (signal?.aborted) throw new APIUserAbortError({ cause });
    throw cause;
  }
  // An injected sleep may ignore the signal; do not start another attempt after an abort.
  if (signal?.aborted) throw new APIUserAbortError({ cause: signal.reason });
}

/**
 * The default {@link SleepFn}: a timer that is cleared the moment the signal aborts.
 *
 * @example
 * await abortableSleep(1_000, controller.signal);
 */
export function abortableSleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
