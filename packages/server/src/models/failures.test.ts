import { APICallError } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { ContentRefusedError, classify, FinalTimeoutError, retryAfterMs } from './failures.ts';

const api = (statusCode: number | undefined, headers?: Record<string, string>) =>
  new APICallError({
    message: 'provider said no',
    url: 'http://127.0.0.1/v1/responses',
    requestBodyValues: {},
    ...(statusCode === undefined ? {} : { statusCode }),
    ...(headers ? { responseHeaders: headers } : {}),
  });

describe('classify', () => {
  it.each([
    [408, 'retry', 'timeout'],
    [409, 'retry', 'server-error'],
    [429, 'retry', 'rate-limited'],
    [500, 'retry', 'server-error'],
    [503, 'retry', 'server-error'],
    [529, 'retry', 'server-error'],
    [401, 'fail-project', 'unauthorized'],
    [403, 'fail-project', 'unauthorized'],
    [404, 'next-model', 'model-not-found'],
    [400, 'next-model', 'bad-request'],
    [422, 'next-model', 'bad-request'],
    [200, 'retry', 'network'],
  ])('HTTP %i → %s (%s)', (status, action, reason) => {
    expect(classify(api(status))).toMatchObject({ action, reason, status });
  });

  it('a connection that failed (no status) is retried', () => {
    expect(classify(api(undefined))).toEqual({ action: 'retry', reason: 'network' });
  });

  it("carries a 429's retry-after, in seconds or milliseconds", () => {
    expect(classify(api(429, { 'retry-after': '7' })).retryAfterMs).toBe(7_000);
    expect(classify(api(429, { 'Retry-After-Ms': '250' })).retryAfterMs).toBe(250);
  });

  it('time-outs (ours or the SDK chunk timer) are retried; an engine-final one fails the project', () => {
    expect(classify(new DOMException('Chunk timeout of 300ms exceeded', 'TimeoutError'))).toEqual({
      action: 'retry',
      reason: 'timeout',
    });
    expect(classify(new DOMException('aborted', 'AbortError')).action).toBe('retry');
    expect(classify(new Error('wrapped', { cause: new FinalTimeoutError('x') }))).toEqual({
      action: 'fail-project',
      reason: 'timeout',
    });
  });

  it('a refusal moves on to the next model; an unknown error too', () => {
    expect(classify(new ContentRefusedError('no'))).toEqual({
      action: 'next-model',
      reason: 'refused',
    });
    expect(classify(new Error('something odd'))).toEqual({
      action: 'next-model',
      reason: 'unknown',
    });
  });
});

describe('retryAfterMs', () => {
  it('reads seconds, an HTTP date and nothing', () => {
    const now = Date.parse('2026-11-23T12:00:00Z');
    expect(retryAfterMs({ 'retry-after': 'Mon, 23 Nov 2026 12:00:05 GMT' }, now)).toBe(5_000);
    expect(retryAfterMs({ 'retry-after': 'soon' }, now)).toBeUndefined();
    expect(retryAfterMs(undefined)).toBeUndefined();
  });
});
