/**
 * One Octokit per GitHub connection, and the translation of what it throws into
 * {@link TrackerRequestError}. Octokit's throttling plugin recognises GitHub's primary and
 * secondary rate limits; its hooks answer "do not retry", so the limit comes back to the
 * caller as a retryable error with GitHub's hint and the sync engine waits with its own
 * (injected) sleep. Octokit's retry plugin is left out for the same reason: one retry
 * policy, outside the adapter.
 */
import { createHash } from 'node:crypto';
import { throttling } from '@octokit/plugin-throttling';
import { Octokit } from '@octokit/rest';
import Bottleneck from 'bottleneck';
import { TrackerRequestError, trackerErrorIn } from '../provider.ts';

/** GitHub's public API; `baseUrl` replaces it for GitHub Enterprise Server and tests. */
export const GITHUB_API = 'https://api.github.com';

const ThrottledOctokit = Octokit.plugin(throttling);

/** The Octokit type the GitHub client works with. */
export type GitHubOctokit = InstanceType<typeof ThrottledOctokit>;

/** What the throttling plugin recognised about a failed request. */
interface LimitSeen {
  kind: 'primary' | 'secondary';
  retryAfterSeconds: number;
}

// The plugin's hooks see a request's options, not its error: what they recognised is kept
// by the options' `request` object, then moved onto the error by an error hook, which sees
// both.
const limitsSeen = new WeakMap<object, LimitSeen>();
const limitOfError = new WeakMap<object, LimitSeen>();

// GitHub asks integrations to space mutating requests (about one a second, more for those
// that notify people): Octokit's default groups do that, keyed per token. GitHub Enterprise
// Server ships with rate limits off and loopback fakes have none, so there the groups only
// keep writes serial and never wait.
const UNPACED = {
  write: new Bottleneck.Group({ maxConcurrent: 1 }),
  notifications: new Bottleneck.Group({ maxConcurrent: 1 }),
  search: new Bottleneck.Group({ maxConcurrent: 1 }),
};

const SILENT = { debug() {}, info() {}, warn() {}, error() {} };

/**
 * Builds the Octokit for one connection. `baseUrl` null means github.com.
 *
 * @example createOctokit({ baseUrl: null, token, timeoutMs: 15_000 }).rest.repos.get(...)
 */
export function createOctokit(options: {
  baseUrl: string | null;
  token: string;
  timeoutMs?: number;
  /** The connection's guarded fetch (trackers/guarded-fetch.ts). */
  fetch?: typeof fetch;
}): GitHubOctokit {
  const baseUrl = (options.baseUrl ?? GITHUB_API).replace(/\/+$/, '');
  const paced = new URL(baseUrl).hostname === new URL(GITHUB_API).hostname;
  const remember = (kind: LimitSeen['kind']) => (retryAfter: number, request: object) => {
    const key = (request as { request?: object }).request;
    if (key) limitsSeen.set(key, { kind, retryAfterSeconds: retryAfter });
    return false;
  };
  const octokit = new ThrottledOctokit({
    auth: options.token,
    baseUrl,
    userAgent: 'pgs-tracker-sync',
    ...(options.fetch ? { request: { fetch: options.fetch } } : {}),
    log: SILENT,
    throttle: {
      // GitHub's limits are per user or token: pace per token, never across tokens. Only a
      // digest of it names the Bottleneck key.
      id: createHash('sha256').update(options.token).digest('hex').slice(0, 16),
      ...(paced ? {} : UNPACED),
      onRateLimit: remember('primary'),
      onSecondaryRateLimit: remember('secondary'),
    },
  });
  const timeoutMs = options.timeoutMs;
  if (timeoutMs) {
    // Per request, so each page of a listing has the whole timeout; a fresh `request`
    // object, since pages share the caller's.
    octokit.hook.before('request', (endpoint) => {
      const own = AbortSignal.timeout(timeoutMs);
      const caller = endpoint.request?.signal as AbortSignal | undefined;
      endpoint.request = {
        ...endpoint.request,
        signal: caller ? AbortSignal.any([caller, own]) : own,
      };
    });
  }
  octokit.hook.error('request', (error, endpoint) => {
    const seen = endpoint.request ? limitsSeen.get(endpoint.request) : undefined;
    if (seen && typeof error === 'object' && error !== null) limitOfError.set(error, seen);
    throw error;
  });
  return octokit;
}

/** Per-call request options carrying the caller's signal. */
export function callOptions(signal: AbortSignal | undefined): {
  request: { signal?: AbortSignal };
} {
  return { request: signal ? { signal } : {} };
}

/** The parts of Octokit's RequestError the translation reads (duck-typed on purpose). */
interface OctokitFailure {
  status?: number;
  message?: string;
  name?: string;
  response?: { headers?: Record<string, string | undefined>; data?: unknown };
}

/** GitHub's own words for a failure: `message`, and the field errors of a 422. */
export function githubMessage(failure: OctokitFailure): string {
  const data = failure.response?.data as
    | { message?: unknown; errors?: Array<{ message?: unknown; code?: unknown; field?: unknown }> }
    | undefined;
  const message = typeof data?.message === 'string' ? data.message : undefined;
  const details = (Array.isArray(data?.errors) ? data.errors : [])
    .map((e) =>
      typeof e?.message === 'string'
        ? e.message
        : [e?.field, e?.code].filter((v) => typeof v === 'string').join(' '),
    )
    .filter(Boolean);
  const base = message ?? failure.message ?? 'no message';
  return details.length > 0 ? `${base}: ${details.join('; ')}` : base;
}

/** Whether a failure is GitHub answering `status` (for the adapter's own fallbacks). */
export function answered(error: unknown, status: number): boolean {
  return (
    (error as OctokitFailure | null)?.status === status && !!(error as OctokitFailure).response
  );
}

/**
 * Turns what Octokit threw into a {@link TrackerRequestError}: rate limits (as the
 * throttling plugin recognised them, or a 429 / `retry-after` it did not), 408, 5xx and
 * network failures are retryable; the rest carry GitHub's message. The caller's abort is
 * rethrown as it is.
 *
 * @example catch (error) { throw toTrackerError(error, signal) }
 */
export function toTrackerError(error: unknown, signal?: AbortSignal): Error {
  // Ours (a refused address, a redirect), however the SDK wrapped it.
  const own = trackerErrorIn(error);
  if (own !== undefined) return own;
  if (signal?.aborted) return signal.reason instanceof Error ? signal.reason : (error as Error);
  const failure = (error ?? {}) as OctokitFailure;
  const status = failure.status;
  const response = failure.response;
  if (!response || status === undefined) {
    const cause = failure.message ?? String(error);
    return new TrackerRequestError(`GitHub could not be reached: ${cause}`, { retryable: true });
  }
  const headers = response.headers ?? {};
  const message = githubMessage(failure);
  const seen = typeof error === 'object' && error !== null ? limitOfError.get(error) : undefined;
  const limited =
    seen ??
    (status === 429 || (status === 403 && headers['retry-after'] !== undefined)
      ? { kind: 'secondary' as const, retryAfterSeconds: Number(headers['retry-after']) || 60 }
      : undefined);
  if (limited) {
    const retryAfterMs =
      limited.kind === 'primary'
        ? primaryWaitMs(headers, limited.retryAfterSeconds)
        : Math.max(0, (Number(headers['retry-after']) || limited.retryAfterSeconds) * 1000);
    const which = limited.kind === 'primary' ? 'rate limit' : 'secondary rate limit';
    return new TrackerRequestError(`GitHub ${which}: ${message}`, {
      status,
      retryable: true,
      retryAfterMs,
    });
  }
  const retryable = status === 408 || status >= 500;
  // A fine-grained token refused for a missing permission: GitHub names the one it wanted.
  const wanted = status === 403 ? headers['x-accepted-github-permissions'] : undefined;
  const hint = wanted ? ` (the token needs ${wanted.replace(/=/g, ': ')})` : '';
  return new TrackerRequestError(`GitHub answered ${status}: ${message}${hint}`, {
    status,
    retryable,
  });
}

// The reset is an epoch second on GitHub's clock: measured against the response's own Date
// header it does not depend on this machine's clock being right. One second more, as
// GitHub's docs advise, so the retry lands after the reset.
function primaryWaitMs(headers: Record<string, string | undefined>, pluginSeconds: number) {
  const reset = Number(headers['x-ratelimit-reset']);
  const served = Date.parse(headers.date ?? '');
  if (Number.isFinite(reset) && reset > 0 && Number.isFinite(served)) {
    return Math.max(0, reset * 1000 - served) + 1000;
  }
  return Math.max(0, pluginSeconds) * 1000;
}
