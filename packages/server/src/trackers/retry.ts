/**
 * The one retry policy of tracker calls (docs/trackers.md, "Failures and retries"). Adapters
 * never wait: they throw a {@link TrackerRequestError} saying whether a failure is retryable
 * and the provider's hint; this policy waits (through an injected sleep, so tests never touch
 * the wall clock) and tries again, a bounded number of times.
 */
import { TrackerRequestError } from './providers/provider.ts';

/** How a failed call is retried. */
export interface RetryPolicy {
  /** Attempts in all, the first included (default 5). */
  maxAttempts: number;
  /** The pause before the first retry; doubled on each next one (default 500 ms). */
  baseDelayMs: number;
  /** No computed pause is longer than this (default 30 s). */
  maxDelayMs: number;
  /** A provider's `Retry-After` longer than this is not waited for: the item fails (default 120 s). */
  maxRetryAfterMs: number;
}

/** The defaults: 5 attempts, 0.5 s doubling up to 30 s, a provider's hint up to 2 min. */
export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 5,
  baseDelayMs: 500,
  maxDelayMs: 30_000,
  maxRetryAfterMs: 120_000,
};

/** Waits `ms`, or rejects when `signal` aborts. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** The real sleep: a timer that an abort clears. */
export const realSleep: Sleep = (ms, signal) =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });

/**
 * The pause before retry number `retry` (1 for the first): the provider's hint when it gave
 * one (never less), otherwise exponential backoff with full jitter (AWS's advice: spreads
 * retries of many items hitting one limit). `random` is injected for tests.
 *
 * @example
 * retryDelay(2, undefined, DEFAULT_RETRY_POLICY, () => 0.5); // 500 (half of 1 000 ms)
 */
export function retryDelay(
  retry: number,
  retryAfterMs: number | undefined,
  policy: RetryPolicy = DEFAULT_RETRY_POLICY,
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1));
  const jittered = Math.round(ceiling * random());
  // A hint is a floor: waiting less only earns another rate-limit answer.
  return retryAfterMs === undefined ? jittered : Math.max(retryAfterMs, jittered);
}

/** What {@link withRetries} needs besides the call. */
export interface RetryOptions {
  sleep: Sleep;
  policy?: RetryPolicy;
  random?: () => number;
  signal?: AbortSignal | undefined;
  /** Told of each retry before its pause (metrics, the bench's counts). */
  onRetry?: (error: TrackerRequestError, retry: number, delayMs: number) => void;
}

/**
 * Runs `call`, retrying a retryable {@link TrackerRequestError} until it succeeds, the
 * attempts run out, or the provider asks for a longer wait than the policy accepts; then the
 * last error is thrown. Any other error (a bug, a permanent 4xx) is thrown at once.
 *
 * @example
 * const issue = await withRetries(() => client.create(draft), { sleep });
 */
export async function withRetries<T>(call: () => Promise<T>, options: RetryOptions): Promise<T> {
  const policy = options.policy ?? DEFAULT_RETRY_POLICY;
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      if (!(error instanceof TrackerRequestError) || !error.retryable) throw error;
      if (attempt >= policy.maxAttempts) throw error;
      const hint = error.retryAfterMs;
      if (hint !== undefined && hint > policy.maxRetryAfterMs) throw error;
      const delay = retryDelay(attempt, hint, policy, options.random);
      options.onRetry?.(error, attempt, delay);
      await options.sleep(delay, options.signal);
    }
  }
}

/** The longest reason an item carries: a tracker's error page is not a sync result. */
export const MAX_REASON_LENGTH = 300;

/**
 * `text` with every secret (each string of a connection's credentials, at least 4
 * characters) replaced by `[redacted]`, so a provider echoing a token never passes it on.
 *
 * @example
 * scrub('bad token ghp_abc123', ['ghp_abc123']); // 'bad token [redacted]'
 */
export function scrub(text: string, secrets: readonly string[]): string {
  return secrets
    .filter((secret) => secret.length >= 4)
    .reduce((out, secret) => out.split(secret).join('[redacted]'), text);
}

/** `text` cut to {@link MAX_REASON_LENGTH} characters, an ellipsis marking the cut. */
export function bounded(text: string, max = MAX_REASON_LENGTH): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/**
 * A failure in words for a sync's item: the provider's reason, and the HTTP status when there
 * was one; scrubbed of `secrets` (the connection's credentials) before it is cut to
 * {@link MAX_REASON_LENGTH}, so a cut never leaves half a token behind. Connections opened
 * through trackers/connections.ts already scrub their clients' errors; `secrets` is a second
 * net for callers that hold them.
 *
 * @example
 * failureReason(new TrackerRequestError('Validation Failed', { status: 422, retryable: false })); // 'Validation Failed (HTTP 422)'
 */
export function failureReason(error: unknown, secrets: readonly string[] = []): string {
  if (error instanceof TrackerRequestError) {
    const status = error.status === undefined ? '' : ` (HTTP ${error.status})`;
    const gaveUp = error.retryable ? ', still failing after retries' : '';
    const reason = bounded(scrub(error.reason, secrets), MAX_REASON_LENGTH - 40);
    return bounded(`${reason}${status}${gaveUp}`);
  }
  return 'The tracker call failed unexpectedly.';
}
