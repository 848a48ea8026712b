import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTransport, type FetchLike } from './core.ts';
import { APIUserAbortError, RateLimitError } from './errors.ts';
import { backoffMs, isRetryableError, isRetryableStatus } from './retry.ts';

const ok = () =>
  new Response(JSON.stringify({ success: true, data: { ok: true } }), {
    status: 200,
    headers: { 'content-type': 'application/json' },
  });

const limited = (headers: Record<string, string>) =>
  new Response(
    JSON.stringify({
      success: false,
      error: { code: 'RATE_LIMIT_EXCEEDED', message: 'slow down', request_id: 'req_1' },
    }),
    { status: 429, headers: { 'content-type': 'application/json', ...headers } },
  );

describe('the transport on fake timers (default sleep)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('waits exactly the Retry-After seconds before the next attempt', async () => {
    const fetch = vi.fn<FetchLike>().mockResolvedValueOnce(limited({ 'retry-after': '1' }));
    fetch.mockResolvedValueOnce(ok());
    const request = createTransport({ baseUrl: 'http://pgs.test/api/v1', token: 't', fetch });
    const pending = request({ method: 'GET', path: '/x' });

    await vi.advanceTimersByTimeAsync(999);
    expect(fetch).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(fetch).toHaveBeenCalledTimes(2);
    await expect(pending).resolves.toMatchObject({ status: 200, body: { data: { ok: true } } });
  });

  it('aborting during a long Retry-After rejects at once', async () => {
    const fetch = vi.fn<FetchLike>().mockResolvedValue(limited({ 'retry-after': '30' }));
    const controller = new AbortController();
    const request = createTransport({ baseUrl: 'http://pgs.test/api/v1', token: 't', fetch });
    const pending = request({ method: 'GET', path: '/x', signal: controller.signal });
    const settled = pending.catch((e: unknown) => e);

    await vi.advanceTimersByTimeAsync(1_000);
    controller.abort();
    await expect(settled).resolves.toBeInstanceOf(APIUserAbortError);
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('uses full-jitter backoff without Retry-After and throws the last error', async () => {
    const fetch = vi.fn<FetchLike>().mockImplementation(async () => limited({}));
    const request = createTransport({
      baseUrl: 'http://pgs.test/api/v1',
      token: 't',
      fetch,
      random: () => 0.5,
      maxRetries: 3,
    });
    const settled = request({ method: 'GET', path: '/x' }).catch((e: unknown) => e);
    // 0.5 · 500, 0.5 · 1000, 0.5 · 2000 ms.
    for (const [wait, calls] of [
      [0, 1],
      [250, 2],
      [500, 3],
      [999, 3],
      [1, 4],
    ] as const) {
      await vi.advanceTimersByTimeAsync(wait);
      expect(fetch).toHaveBeenCalledTimes(calls);
    }
    await expect(settled).resolves.toBeInstanceOf(RateLimitError);
  });
});

describe('backoff and retry policy', () => {
  it('caps the backoff at 8 s and scales it by the jitter', () => {
    expect(backoffMs(0, () => 1)).toBe(500);
    expect(backoffMs(3, () => 1)).toBe(4_000);
    expect(backoffMs(10, () => 1)).toBe(8_000);
    expect(backoffMs(10, () => 0)).toBe(0);
  });

  it('retries 408, 409, 429 and 5xx only', () => {
    expect([400, 401, 402, 403, 404, 413, 415, 422].filter(isRetryableStatus)).toEqual([]);
    expect([408, 409, 429, 500, 502, 503, 504].every(isRetryableStatus)).toBe(true);
    expect(isRetryableError(409, 'IDEMPOTENCY_CONFLICT')).toBe(true);
    expect(isRetryableError(409, 'PROJECT_NOT_IN_PROGRESS')).toBe(false);
    expect(isRetryableError(409, 'PROJECT_NOT_COMPLETED')).toBe(false);
    expect(isRetryableError(409, 'TASK_TRANSITION_NOT_ALLOWED')).toBe(false);
    expect(isRetryableError(409, 'LEASE_NOT_HELD')).toBe(false);
    expect(isRetryableError(503, 'INTERNAL_ERROR')).toBe(true);
  });

  it('passes a query string and leaves out undefined members', async () => {
    const fetch = vi.fn<FetchLike>().mockResolvedValue(ok());
    const request = createTransport({ baseUrl: 'http://pgs.test/api/v1/', token: 't', fetch });
    await request({ method: 'GET', path: '/x', query: { a: 1, b: undefined, c: 'd e' } });
    expect(fetch.mock.calls[0]?.[0]).toBe('http://pgs.test/api/v1/x?a=1&c=d+e');
  });
});
