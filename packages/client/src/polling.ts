import type {
  ProjectCompleted,
  ProjectFailed,
  ProjectInProgress,
  ProjectStatus,
  Revision,
} from '@pgs/contract';
import type { APIResponse } from './core.ts';
import {
  APIConnectionError,
  APIError,
  APIUserAbortError,
  PgsError,
  PollTimeoutError,
  parseRetryAfterMs,
} from './errors.ts';
import { isRetryableStatus, type SleepFn, waitOrAbort } from './retry.ts';

/** A project that has finished: `completed` (with `project`, `metadata`) or `failed` (with `error`). */
export type ProjectResult = ProjectCompleted | ProjectFailed;

/** What the poll loop can wait on: a project's status or a revision's. */
export type Pollable = ProjectStatus | Revision;
/** The in-progress variant of a {@link Pollable}. */
export type Running<S extends Pollable> = Extract<S, { status: 'in_progress' }>;
/** The finished variants of a {@link Pollable}: what a wait resolves with. */
export type Finished<S extends Pollable> = Exclude<S, { status: 'in_progress' }>;

/** What `onProgress` learns about the wait besides the status. */
export interface PollProgress {
  /** Polls that answered `in_progress` so far, this one included. */
  polls: number;
  /** Milliseconds since the wait began. */
  elapsedMs: number;
  /** Milliseconds until the next poll: the server's hint or `pollIntervalMs` (less near `maxWaitMs`). */
  nextPollMs: number;
}

/**
 * Options of `projects.waitForCompletion` (and, with `P` a `RevisionInProgress`, of
 * `projects.revisions.waitForCompletion`).
 */
export interface WaitOptions<P extends ProjectInProgress = ProjectInProgress> {
  /**
   * Milliseconds between polls. Default: the server's `Retry-After` on the in-progress
   * answer, clamped to 10–30 s as the API asks. Set it only if you have a reason to
   * poll at another pace; a 429 is still honoured.
   */
  pollIntervalMs?: number | undefined;
  /**
   * The longest the wait lasts, in milliseconds; then {@link PollTimeoutError}. Default
   * 30 minutes; `Infinity` waits for as long as it takes.
   */
  maxWaitMs?: number | undefined;
  /** Stops the wait at once, even mid-request or mid-sleep, with `APIUserAbortError`. */
  signal?: AbortSignal | undefined;
  /**
   * Called (and awaited) after every poll that finds the project `in_progress`, with
   * the status (`estimatedCompletionMs`) and the pace of the wait. A throw ends the wait.
   */
  onProgress?: ((status: P, progress: PollProgress) => void | Promise<void>) | undefined;
  /**
   * Failed polls in a row (5xx, 408, 409, network errors, request time-outs) tolerated
   * before the last error is thrown; default 10. 429s do not count: they are waited out.
   */
  maxConsecutiveErrors?: number | undefined;
  /**
   * Long-poll: each poll asks the server to hold an in-progress answer up to this many
   * seconds (`Prefer: wait`, 1–60) and answer as soon as the project ends, so the wait
   * returns moments after completion with one request per `longPollSeconds`. Default 30,
   * or off when `pollIntervalMs` is given (an explicit pace wins); `0` turns it off. A
   * server that does not honour it is polled at its pace as before. A held request may
   * take `longPollSeconds` plus the client's `timeoutMs` before it counts as timed out.
   */
  longPollSeconds?: number | undefined;
}

/** Default `maxWaitMs`: 30 minutes. @example pgs.projects.waitForCompletion(id, { maxWaitMs: DEFAULT_MAX_WAIT_MS * 2 }); */
export const DEFAULT_MAX_WAIT_MS = 30 * 60_000;
/** The shortest poll interval taken from the server (the API asks for 10–30 s). @example Math.max(ms, MIN_POLL_INTERVAL_MS); */
export const MIN_POLL_INTERVAL_MS = 10_000;
/** The longest poll interval taken from the server. @example Math.min(ms, MAX_POLL_INTERVAL_MS); */
export const MAX_POLL_INTERVAL_MS = 30_000;
/** Default `longPollSeconds`. @example pgs.projects.waitForCompletion(id, { longPollSeconds: DEFAULT_LONG_POLL_SECONDS }); */
export const DEFAULT_LONG_POLL_SECONDS = 30;
/** Default `maxConsecutiveErrors`. @example pgs.projects.waitForCompletion(id, { maxConsecutiveErrors: DEFAULT_MAX_CONSECUTIVE_ERRORS }); */
export const DEFAULT_MAX_CONSECUTIVE_ERRORS = 10;
const BACKOFF_BASE_MS = 1_000;
const BACKOFF_CAP_MS = 30_000;
// A request started just before the deadline still gets this long to answer.
const MIN_REQUEST_TIMEOUT_MS = 1_000;

/** One status request with no retries of its own: the poll loop owns the retry policy. */
export type PollOnce<S extends Pollable = ProjectStatus> = (request: {
  signal: AbortSignal | undefined;
  timeoutMs: number | undefined;
  /** Seconds the server may hold an in-progress answer (`Prefer: wait`); undefined: none. */
  waitSeconds: number | undefined;
}) => Promise<APIResponse<{ data: S }>>;

/** The clock the poll loop runs on; tests inject one. */
export interface PollClock {
  sleep: SleepFn;
  now: () => number;
  random: () => number;
  /** The client's per-attempt time limit, which a request near the deadline shortens. */
  timeoutMs: number;
}

/**
 * The pace the server asks for: `Retry-After` of an in-progress answer, else the
 * estimate, clamped to 10–30 s.
 *
 * @example
 * serverPollIntervalMs(new Headers({ 'retry-after': '12' }), status, Date.now()); // 12000
 */
export function serverPollIntervalMs(
  headers: Headers,
  status: ProjectInProgress,
  now: number,
): number {
  const hinted = parseRetryAfterMs(headers, now) ?? status.estimatedCompletionMs;
  return Math.min(MAX_POLL_INTERVAL_MS, Math.max(MIN_POLL_INTERVAL_MS, hinted));
}

/**
 * Full-jitter backoff after the n-th failed poll in a row: uniform in [0, min(30 s, 1 s · 2^(n−1))).
 *
 * @example
 * pollBackoffMs(3, () => 1); // 4000
 */
export function pollBackoffMs(failures: number, random: () => number = Math.random): number {
  return random() * Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, failures - 1));
}

/**
 * How long a 429 asks to wait: `Retry-After` (seconds or a date), else the end of the
 * window from `X-RateLimit-Reset` (epoch seconds), else `details.retry_after`.
 *
 * @example
 * rateLimitDelayMs(err, Date.now()); // 60000 for Retry-After: 60
 */
export function rateLimitDelayMs(error: APIError, now: number): number | undefined {
  const fromHeader = parseRetryAfterMs(error.headers, now);
  if (fromHeader !== undefined) return fromHeader;
  const untilReset = resetDelayMs(error.headers, now);
  if (untilReset !== undefined && untilReset > 0) return untilReset;
  const detail = error.details?.retry_after;
  return typeof detail === 'number' && Number.isFinite(detail) && detail >= 0
    ? detail * 1000
    : undefined;
}

function resetDelayMs(headers: Headers, now: number): number | undefined {
  const raw = headers.get('x-ratelimit-reset');
  if (raw === null || !/^\s*\d+\s*$/.test(raw)) return undefined;
  return Number(raw) * 1000 - now;
}

/** A success that used the window's last request: the next one would be refused until the reset. */
function exhaustedWindowDelayMs(headers: Headers, now: number): number {
  if (headers.get('x-ratelimit-remaining')?.trim() !== '0') return 0;
  return Math.max(0, resetDelayMs(headers, now) ?? 0);
}

function isTransient(error: unknown): boolean {
  if (error instanceof APIConnectionError) return true;
  return error instanceof APIError && isRetryableStatus(error.status);
}

function checkNumber(name: string, value: number | undefined, { integer = false } = {}): void {
  if (value === undefined) return;
  const ok = integer ? Number.isSafeInteger(value) : !Number.isNaN(value);
  if (!ok || value < 0) {
    throw new PgsError(`${name} must be a non-negative ${integer ? 'integer' : 'number'}.`);
  }
}

/**
 * Polls until the project (or, with `target.revision`, one of its revisions) is
 * `completed` or `failed` and resolves with that status (a failed run is a result, not an
 * exception). Between polls it sleeps for
 * the server's hint (10–30 s) or `pollIntervalMs`; a 429 waits for `Retry-After` /
 * `X-RateLimit-Reset`; 5xx, 408, 409 and network errors back off with full jitter;
 * any other error (400, 401, 403, 404, ...) is thrown at once. An abort rejects at
 * once with `APIUserAbortError`, and `maxWaitMs` ends the wait with
 * {@link PollTimeoutError} carrying the last status.
 *
 * @example
 * const result = await pollUntilDone(once, id, { maxWaitMs: 60_000 }, clock);
 */
export async function pollUntilDone<S extends Pollable = ProjectStatus>(
  pollOnce: PollOnce<S>,
  target: string | { projectId: string; revision: number },
  {
    pollIntervalMs,
    maxWaitMs = DEFAULT_MAX_WAIT_MS,
    signal,
    onProgress,
    maxConsecutiveErrors = DEFAULT_MAX_CONSECUTIVE_ERRORS,
    longPollSeconds,
  }: WaitOptions<Running<S>>,
  { sleep, now, random, timeoutMs }: PollClock,
): Promise<Finished<S>> {
  const { projectId, revision } =
    typeof target === 'string' ? { projectId: target, revision: undefined } : target;
  checkNumber('pollIntervalMs', pollIntervalMs);
  if (pollIntervalMs !== undefined && !Number.isFinite(pollIntervalMs)) {
    throw new PgsError('pollIntervalMs must be finite.');
  }
  checkNumber('maxWaitMs', maxWaitMs);
  checkNumber('maxConsecutiveErrors', maxConsecutiveErrors, { integer: true });
  checkNumber('longPollSeconds', longPollSeconds, { integer: true });
  const longPoll =
    longPollSeconds ?? (pollIntervalMs === undefined ? DEFAULT_LONG_POLL_SECONDS : 0);

  const started = now();
  const deadline = started + maxWaitMs;
  let lastStatus: Running<S> | undefined;
  let polls = 0;
  let failures = 0;
  let limited = 0;
  const timedOut = (cause?: unknown) =>
    new PollTimeoutError({
      projectId,
      revision,
      lastStatus,
      waitedMs: now() - started,
      maxWaitMs,
      cause,
    });

  for (;;) {
    if (signal?.aborted) throw new APIUserAbortError({ cause: signal.reason });
    const left = deadline - now();
    // Never ask the server to hold past the deadline; a held request gets time to answer.
    const waitSeconds = Math.min(longPoll, 60, Math.floor(left / 1000) - 1);
    const wait = waitSeconds >= 1 ? waitSeconds : undefined;
    const attemptMs = wait === undefined ? timeoutMs : timeoutMs + wait * 1000;
    const requestTimeout = Number.isFinite(left)
      ? Math.min(attemptMs, Math.max(left, MIN_REQUEST_TIMEOUT_MS))
      : attemptMs;

    let response: APIResponse<{ data: S }> | undefined;
    let failure: unknown;
    try {
      response = await pollOnce({ signal, timeoutMs: requestTimeout, waitSeconds: wait });
    } catch (error) {
      failure = error;
    }

    let delay: number;
    if (response !== undefined) {
      const data = response.body.data;
      // Generic unions do not narrow on their discriminant: the checks are the casts' warrant.
      if (data.status !== 'in_progress') return data as Finished<S>;
      const status = data as Running<S>;
      failures = 0;
      limited = 0;
      polls++;
      lastStatus = status;
      const t = now();
      // A held answer already waited: ask again at once (unless the window is spent).
      const held = /\bwait\s*=/i.test(response.headers.get('preference-applied') ?? '');
      delay = Math.max(
        held ? 0 : (pollIntervalMs ?? serverPollIntervalMs(response.headers, status, t)),
        exhaustedWindowDelayMs(response.headers, t),
      );
      const elapsedMs = t - started;
      await onProgress?.(status, {
        polls,
        elapsedMs,
        nextPollMs: Math.max(0, Math.min(delay, deadline - t)),
      });
      if (deadline - now() <= 0) throw timedOut();
    } else {
      if (failure instanceof APIUserAbortError || !isTransient(failure)) throw failure;
      if (deadline - now() <= 0) throw timedOut(failure);
      if (failure instanceof APIError && failure.status === 429) {
        limited++;
        const asked = rateLimitDelayMs(failure, now());
        // "Retry now" answered by another 429 would spin: back off instead.
        delay = asked !== undefined && asked > 0 ? asked : pollBackoffMs(limited, random);
        // Asked to wait past the deadline: the project cannot be seen finished in time.
        if (now() + delay > deadline) throw timedOut(failure);
      } else {
        failures++;
        if (failures > maxConsecutiveErrors) throw failure;
        delay = pollBackoffMs(failures, random);
      }
    }
    await waitOrAbort(sleep, Math.max(0, Math.min(delay, deadline - now())), signal);
  }
}

/**
 * Reads a job (a conformance check, a tracker sync) until its status is no longer `queued` or
 * `running`, every `intervalMs`, at most `maxWaitMs`; `signal` stops the wait, also while it
 * sleeps. Throws a PgsError naming `what` when the wait runs out.
 *
 * @example
 * const sync = await untilSettled(() => syncs.get(projectId, syncId), clock, { intervalMs: 2_000, maxWaitMs: 600_000, what: `The sync ${syncId}` });
 */
export async function untilSettled<T extends { status: string }>(
  read: () => Promise<T>,
  clock: Pick<PollClock, 'sleep' | 'now'>,
  wait: { intervalMs: number; maxWaitMs: number; what: string; signal?: AbortSignal | undefined },
): Promise<T> {
  const deadline = clock.now() + wait.maxWaitMs;
  for (;;) {
    const job = await read();
    if (job.status !== 'queued' && job.status !== 'running') return job;
    if (clock.now() + wait.intervalMs > deadline) {
      throw new PgsError(`${wait.what} is still ${job.status} after ${wait.maxWaitMs} ms.`);
    }
    await clock.sleep(wait.intervalMs, wait.signal);
  }
}
