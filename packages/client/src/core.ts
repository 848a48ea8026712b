/**
 * The SDK's transport: the one request function every resource calls, with the types that
 * describe a request and its answer. Retries and waits are in retry.ts, the URL and the
 * reading of bodies in http.ts, what is learnt from the runtime in runtime.ts.
 */
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  PgsError,
} from './errors.ts';
import {
  buildUrl,
  connectionMessage,
  type Query,
  type ResponseType,
  readSuccessBody,
} from './http.ts';
import {
  abortableSleep,
  backoffMs,
  isRetryableError,
  retryDelayMs,
  type SleepFn,
  waitOrAbort,
} from './retry.ts';
import { clientHeaders, randomUUID } from './runtime.ts';

/** The subset of `fetch` the SDK calls, so any WHATWG-compatible implementation fits. */
export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

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
  query?: Query | undefined;
  /** Serialised as JSON when present. */
  body?: unknown;
  /**
   * What a 2xx body resolves to: parsed JSON (default; a non-JSON body is its text), `text`,
   * `bytes` (a `Uint8Array`), or `stream` (the unread `ReadableStream`, for server-sent
   * events: the time limit then covers the wait for the headers only). Error bodies are
   * always read and mapped to {@link APIError} subclasses.
   */
  responseType?: ResponseType | undefined;
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
