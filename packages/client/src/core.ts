import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  PgsError,
  parseRetryAfterMs,
} from './errors.ts';
import { VERSION } from './version.ts';

/** The subset of `fetch` the SDK calls, so any WHATWG-compatible implementation fits. */
export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

/** Waits `ms`, rejecting as soon as `signal` aborts. Injectable so tests need not sleep. */
export type SleepFn = (ms: number, signal: AbortSignal | undefined) => Promise<void>;

/** Options every request may override. */
export interface RequestOptions {
  /** Aborts the request, and any wait between retries, with {@link APIUserAbortError}. */
  signal?: AbortSignal | undefined;
  /** Time limit of one attempt, in milliseconds. */
  timeoutMs?: number | undefined;
  /** Retries after the first attempt (408/409/429/5xx and network errors only). */
  maxRetries?: number | undefined;
  /** Sent as `Idempotency-Key`; POSTs get a random UUID when this is absent. */
  idempotencyKey?: string | undefined;
  /** Extra headers for this request. */
  headers?: Record<string, string> | undefined;
}

/** One call of the transport: what the resources build. */
export interface RequestSpec extends RequestOptions {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Path below the base URL, starting with `/`. */
  path: string;
  query?: Record<string, string | number | boolean | undefined> | undefined;
  /** Serialised as JSON when present. */
  body?: unknown;
  /**
   * What a 2xx body resolves to: parsed JSON (default; a non-JSON body is its text), `text`,
   * `bytes` (a `Uint8Array`), or `stream` (the unread `ReadableStream`, for server-sent
   * events: the time limit then covers the wait for the headers only). Error bodies are
   * always read and mapped to {@link APIError} subclasses.
   */
  responseType?: 'json' | 'text' | 'bytes' | 'stream' | undefined;
}

/**
 * A successful response: the parsed JSON body and what came with it. A 304 to a request
 * that sent `If-None-Match` is one too, with an undefined `body`: the caller kept its own.
 */
export interface APIResponse<T> {
  body: T;
  status: number;
  headers: Headers;
  requestId: string | undefined;
}

/** Sends one logical request (with its retries) and resolves with the parsed 2xx body. */
export type Transport = <T>(spec: RequestSpec) => Promise<APIResponse<T>>;

/** Options shared by `Pgs` and `PgsAdmin`: how requests are made and retried. */
export interface CommonClientOptions {
  /** Retries after the first attempt of a request; default 2. */
  maxRetries?: number | undefined;
  /** Time limit of one attempt in milliseconds; default 60 000. */
  timeoutMs?: number | undefined;
  /** A `fetch` implementation; default `globalThis.fetch`. */
  fetch?: FetchLike | undefined;
  /** Headers added to every request. */
  headers?: Record<string, string> | undefined;
  /** Waits between retries; tests inject one that does not sleep. */
  sleep?: SleepFn | undefined;
  /** Source of the backoff jitter, a number in [0, 1). */
  random?: (() => number) | undefined;
  /** The clock in epoch milliseconds (Retry-After dates, rate-limit resets, wait deadlines). */
  now?: (() => number) | undefined;
}

/** How a transport is built: the resolved base URL, the bearer token, and the knobs. */
export interface TransportOptions extends CommonClientOptions {
  /** Base URL without a trailing slash; request paths are appended to it. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer <token>`. */
  token: string;
  /** Longest `Retry-After` honoured; a longer one ends the retries and throws. */
  maxRetryAfterMs?: number | undefined;
}

/** Time limit of one attempt. @example new Pgs({ timeoutMs: DEFAULT_TIMEOUT_MS * 2 }); */
export const DEFAULT_TIMEOUT_MS = 60_000;
/** Retries after the first attempt. @example new Pgs({ maxRetries: DEFAULT_MAX_RETRIES + 3 }); */
export const DEFAULT_MAX_RETRIES = 2;
const BACKOFF_BASE_MS = 500;
const BACKOFF_CAP_MS = 8_000;
const DEFAULT_MAX_RETRY_AFTER_MS = 60_000;

/**
 * Builds the one request function every resource uses: JSON in and out, bearer
 * auth, a per-attempt timeout merged with the caller's signal, retries with
 * `Retry-After` or full-jitter backoff, and an `Idempotency-Key` on every POST
 * that stays the same across the retries of one call.
 *
 * @example
 * const request = createTransport({ baseUrl: 'http://127.0.0.1:3000/api/v1', token: key });
 * const { body } = await request<ProjectStatusResponse>({ method: 'GET', path: `/projects/${id}` });
 */
export function createTransport({
  baseUrl,
  token,
  maxRetries = DEFAULT_MAX_RETRIES,
  timeoutMs = DEFAULT_TIMEOUT_MS,
  fetch: fetchImpl = (input, init) => globalThis.fetch(input, init),
  headers: defaultHeaders = {},
  sleep = abortableSleep,
  random = Math.random,
  now = Date.now,
  maxRetryAfterMs = DEFAULT_MAX_RETRY_AFTER_MS,
}: TransportOptions): Transport {
  const base = baseUrl.replace(/\/+$/, '');
  const identity = clientHeaders();

  return async function request<T>(spec: RequestSpec): Promise<APIResponse<T>> {
    const url = buildUrl(base, spec.path, spec.query);
    const retries = spec.maxRetries ?? maxRetries;
    const attemptTimeout = spec.timeoutMs ?? timeoutMs;
    const idempotencyKey =
      spec.idempotencyKey ?? (spec.method === 'POST' ? randomUUID() : undefined);
    const headers: Record<string, string> = {
      ...identity,
      Accept: 'application/json',
      Authorization: `Bearer ${token}`,
      ...defaultHeaders,
      ...(spec.body !== undefined ? { 'Content-Type': 'application/json' } : {}),
      ...(idempotencyKey !== undefined ? { 'Idempotency-Key': idempotencyKey } : {}),
      ...spec.headers,
    };
    const body = spec.body !== undefined ? JSON.stringify(spec.body) : undefined;
    const userSignal = spec.signal;
    const conditional = Object.keys(headers).some((name) => /^if-none-match$/i.test(name));

    for (let attempt = 0; ; attempt++) {
      if (userSignal?.aborted) throw new APIUserAbortError({ cause: userSignal.reason });

      // A controller of our own, not AbortSignal.timeout(), so fake timers drive it in tests.
      const timeout = new AbortController();
      const timer = setTimeout(() => timeout.abort(), attemptTimeout);
      const signal = userSignal ? AbortSignal.any([userSignal, timeout.signal]) : timeout.signal;

      let response: Response;
      let parsed: unknown;
      try {
        response = await fetchImpl(url, {
          method: spec.method,
          headers,
          ...(body !== undefined ? { body } : {}),
          signal,
        });
        parsed = await readSuccessBody(response, spec.responseType);
      } catch (cause) {
        if (userSignal?.aborted) throw new APIUserAbortError({ cause });
        if (cause instanceof PgsError) throw cause;
        const error = timeout.signal.aborted
          ? new APIConnectionTimeoutError({
              message: `Request timed out after ${attemptTimeout} ms.`,
              cause,
            })
          : new APIConnectionError({ message: connectionMessage(url, cause), cause });
        if (attempt >= retries) throw error;
        await waitOrAbort(sleep, backoffMs(attempt, random), userSignal);
        continue;
      } finally {
        clearTimeout(timer);
      }

      const requestId = response.headers.get('x-request-id') ?? undefined;
      // A 304 answers a conditional read: the caller holds the body (its `body` is undefined).
      if (response.ok || (response.status === 304 && conditional)) {
        return { body: parsed as T, status: response.status, headers: response.headers, requestId };
      }

      const error = APIError.from(response.status, parsed, response.headers);
      error.attempts = attempt + 1;
      if (attempt >= retries || !isRetryableError(response.status, error.code)) throw error;
      const delay = retryDelayMs(response.headers, error, attempt, { random, now });
      // A server asking for a longer pause than we are willing to sit through: let the caller decide.
      if (delay > maxRetryAfterMs) throw error;
      await waitOrAbort(sleep, delay, userSignal);
    }
  };
}

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

function retryDelayMs(
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

async function readSuccessBody(
  response: Response,
  type: RequestSpec['responseType'],
): Promise<unknown> {
  if (!response.ok || type === undefined || type === 'json') return readBody(response);
  if (type === 'text') return response.text();
  if (type === 'bytes') return new Uint8Array(await response.arrayBuffer());
  // An empty 2xx body (no stream at all) reads as an empty stream.
  return response.body ?? new Blob([]).stream();
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return undefined;
  const type = response.headers.get('content-type') ?? '';
  if (!/[/+]json\b/i.test(type)) return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    if (response.ok)
      throw new PgsError(`The server sent invalid JSON (status ${response.status}).`);
    return text;
  }
}

function buildUrl(base: string, path: string, query: RequestSpec['query']): string {
  const url = `${base}${path.startsWith('/') ? path : `/${path}`}`;
  if (!query) return url;
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined) params.append(name, String(value));
  }
  const qs = params.toString();
  return qs ? `${url}?${qs}` : url;
}

function connectionMessage(url: string, cause: unknown): string {
  const origin = URL.canParse(url) ? new URL(url).origin : url;
  const reason = describeCause(cause);
  return `Could not connect to ${origin}${reason ? ` (${reason})` : ''}.`;
}

/** Node's fetch hides the useful part (`ECONNREFUSED`) one or two `cause`s down. */
function describeCause(cause: unknown): string | undefined {
  let current: unknown = cause;
  let last: string | undefined;
  for (let depth = 0; depth < 4 && current instanceof Error; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    last = current.message;
    current = current.cause;
  }
  return last;
}

function randomUUID(): string {
  const c = globalThis.crypto;
  if (typeof c?.randomUUID === 'function') return c.randomUUID();
  // Insecure browser contexts lack randomUUID; a v4 shape from getRandomValues still serves as a key.
  const b = new Uint8Array(16);
  c.getRandomValues(b);
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

function isBrowser(): boolean {
  const g = globalThis as { window?: unknown; document?: unknown };
  return typeof g.window !== 'undefined' && typeof g.document !== 'undefined';
}

function clientHeaders(): Record<string, string> {
  const headers: Record<string, string> = { 'X-PGS-Client': `pgs-js/${VERSION}` };
  // Browsers forbid setting User-Agent; they send their own.
  if (!isBrowser()) headers['User-Agent'] = `pgs-js/${VERSION} ${runtimeName()}`;
  return headers;
}

function runtimeName(): string {
  const g = globalThis as {
    Deno?: { version?: { deno?: string } };
    Bun?: { version?: string };
    process?: { versions?: { node?: string } };
  };
  if (g.Deno?.version?.deno) return `deno/${g.Deno.version.deno}`;
  if (g.Bun?.version) return `bun/${g.Bun.version}`;
  if (g.process?.versions?.node) return `node/${g.process.versions.node}`;
  return 'js';
}

/**
 * Reads an environment variable where there is one (Node, Bun, Deno with --allow-env); never throws.
 *
 * @example
 * readEnv('PGS_API_KEY'); // undefined in a browser
 */
export function readEnv(name: string): string | undefined {
  try {
    const value = (
      globalThis as { process?: { env?: Record<string, string | undefined> } }
    ).process?.env?.[name]?.trim();
    return value ? value : undefined;
  } catch {
    return undefined;
  }
}
