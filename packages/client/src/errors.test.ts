import { describe, expect, it } from 'vitest';
import { adminBaseUrl, apiBaseUrl, serverRoot } from './base-url.ts';
import {
  APIError,
  AuthenticationError,
  BadRequestError,
  InternalServerError,
  PreconditionFailedError,
  PreconditionRequiredError,
  parseRetryAfterMs,
  type RateLimitError,
} from './errors.ts';

describe('APIError.from', () => {
  it('maps the envelope', () => {
    const err = APIError.from(401, {
      success: false,
      error: {
        code: 'AUTHENTICATION_FAILED',
        message: 'The API key is not valid.',
        request_id: 'req_01JD6WQ8V4Z9K3M2N5P7R8S0TA',
        details: { field: 'authorization', issue: 'invalid_key' },
      },
    });
    expect(err).toBeInstanceOf(AuthenticationError);
    expect(err).toMatchObject({
      status: 401,
      code: 'AUTHENTICATION_FAILED',
      message: 'The API key is not valid.',
      requestId: 'req_01JD6WQ8V4Z9K3M2N5P7R8S0TA',
      details: { field: 'authorization', issue: 'invalid_key' },
    });
  });

  it('names the conditional-update statuses: 412 and 428', () => {
    const stale = APIError.from(412, {
      success: false,
      error: {
        code: 'PRECONDITION_FAILED',
        message: 'Task T-3 changed.',
        details: { etag: '"v4"' },
      },
    });
    expect(stale).toBeInstanceOf(PreconditionFailedError);
    expect(stale.details).toEqual({ etag: '"v4"' });
    expect(APIError.from(428, {})).toBeInstanceOf(PreconditionRequiredError);
  });

  it('falls back for bodies that are not envelopes', () => {
    expect(APIError.from(400, undefined).message).toBe(
      '400 status code (no error envelope in the body)',
    );
    expect(APIError.from(400, undefined)).toBeInstanceOf(BadRequestError);
    expect(APIError.from(418, { message: 'teapot' }).message).toBe('418 teapot');
    expect(APIError.from(418, 'x'.repeat(300)).message).toHaveLength(4 + 200 + 1);
    const gateway = APIError.from(504, null, { 'x-request-id': 'req_h' });
    expect(gateway).toBeInstanceOf(InternalServerError);
    expect(gateway.requestId).toBe('req_h');
    // A malformed envelope still yields what it can.
    expect(APIError.from(404, { error: { code: 7, message: 'gone' } })).toMatchObject({
      code: undefined,
      message: 'gone',
    });
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    const now = Date.parse('2026-11-22T10:00:00Z');
    expect(parseRetryAfterMs(new Headers({ 'retry-after': '3' }), now)).toBe(3_000);
    expect(
      parseRetryAfterMs(new Headers({ 'retry-after': 'Sun, 22 Nov 2026 10:00:07 GMT' }), now),
    ).toBe(7_000);
    expect(parseRetryAfterMs(new Headers({ 'retry-after': 'soon' }), now)).toBeUndefined();
    expect(parseRetryAfterMs(new Headers(), now)).toBeUndefined();
    const limited = APIError.from(429, {}, { 'retry-after': '12' }) as RateLimitError;
    expect(limited.retryAfter).toBe(12);
    expect(limited.resetAt).toBeUndefined();
  });
});

describe('base URLs', () => {
  it.each([
    ['http://127.0.0.1:3000', 'http://127.0.0.1:3000/api/v1'],
    ['http://127.0.0.1:3000/', 'http://127.0.0.1:3000/api/v1'],
    ['http://127.0.0.1:3000/api/v1', 'http://127.0.0.1:3000/api/v1'],
    ['https://api.pgs.dev/v1/', 'https://api.pgs.dev/v1'],
    ['https://example.com/pgs', 'https://example.com/pgs/api/v1'],
  ])('apiBaseUrl(%s) = %s', (input, expected) => {
    expect(apiBaseUrl(input)).toBe(expected);
  });

  it.each([
    ['http://127.0.0.1:3000', 'http://127.0.0.1:3000'],
    ['http://127.0.0.1:3000/api/v1/', 'http://127.0.0.1:3000'],
    ['http://127.0.0.1:3000/admin/v1', 'http://127.0.0.1:3000'],
    ['https://example.com/pgs/admin/v1', 'https://example.com/pgs'],
  ])('serverRoot(%s) = %s', (input, expected) => {
    expect(serverRoot(input)).toBe(expected);
    expect(adminBaseUrl(input)).toBe(`${expected}/admin/v1`);
  });

  it('rejects what is not a URL', () => {
    expect(() => apiBaseUrl('127.0.0.1:3000 ')).toThrow(/Invalid base URL/);
  });
});
