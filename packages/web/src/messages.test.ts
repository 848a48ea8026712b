import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
} from '@pgs/client';
import { describe, expect, it } from 'vitest';
import { describeError, notEnoughCreditsText, PLAIN, rateLimitText } from './messages.ts';

/** An error as the SDK builds it from a real error envelope. */
function fromServer(status: number, code: string, details?: object, headers?: HeadersInit) {
  return APIError.from(
    status,
    {
      success: false,
      error: { code, message: `server says ${code}`, request_id: 'req_1', details },
    },
    headers,
  );
}

describe('describeError', () => {
  it('a refused key: plain words, and the console signs out', () => {
    const problem = describeError(fromServer(401, 'AUTHENTICATION_FAILED'));
    expect(problem).toEqual({ kind: 'bad-key', text: PLAIN.badKey, signOut: true });
    expect(problem.text).toContain('not valid');
  });

  it('too few credits: the price and the balance from the answer', () => {
    const problem = describeError(
      fromServer(402, 'INSUFFICIENT_CREDITS', { required: 50, available: 12 }),
      { price: 47, balance: 900 },
    );
    expect(problem.kind).toBe('credits');
    expect(problem.text).toBe(
      'Not enough credits: this project costs 50 credits and your balance is 12 credits.',
    );
  });

  it('too few credits without details: what the screen knew', () => {
    const problem = describeError(fromServer(402, 'INSUFFICIENT_CREDITS'), {
      price: 47,
      balance: 3,
    });
    expect(problem.text).toBe(
      'Not enough credits: this project costs 47 credits and your balance is 3 credits.',
    );
  });

  it('rate limited: the wait from Retry-After, else details.retry_after', () => {
    const fromHeader = describeError(
      fromServer(429, 'RATE_LIMIT_EXCEEDED', { retry_after: 40 }, { 'retry-after': '17' }),
    );
    expect(fromHeader).toEqual({
      kind: 'rate-limited',
      text: 'Too many requests. Try again in 17 s.',
      retryAfter: 17,
    });
    const fromDetails = describeError(fromServer(429, 'RATE_LIMIT_EXCEEDED', { retry_after: 9 }));
    expect(fromDetails.retryAfter).toBe(9);
    expect(fromDetails.text).toContain('Too many requests');
  });

  it('the server out of reach, refused or timed out', () => {
    for (const error of [new APIConnectionError(), new APIConnectionTimeoutError()]) {
      const problem = describeError(error);
      expect(problem.kind).toBe('unreachable');
      expect(problem.text).toContain('Cannot reach the PGS server');
    }
  });

  it('validation: the rules of the fields the console sends', () => {
    const problem = describeError(
      fromServer(400, 'VALIDATION_ERROR', {
        invalid_fields: { idea: 'must NOT have fewer than 10 characters' },
      }),
    );
    expect(problem).toEqual({ kind: 'invalid', text: 'The idea must be 10 to 5,000 characters.' });
    const unknown = describeError(
      fromServer(400, 'VALIDATION_ERROR', { invalid_fields: { other: 'bad' } }),
    );
    expect(unknown.text).toBe('server says VALIDATION_ERROR');
  });

  it('conflicts by their code, and a server fault with its request id', () => {
    expect(describeError(fromServer(409, 'PROJECT_NOT_IN_PROGRESS')).text).toBe(
      'This project has already finished: there is nothing to cancel.',
    );
    expect(describeError(fromServer(404, 'RESOURCE_NOT_FOUND')).text).toBe(PLAIN.notFound);
    expect(describeError(fromServer(500, 'INTERNAL_ERROR')).text).toBe(
      'The server ran into a problem. Try again. If it persists, quote request id req_1.',
    );
  });

  it('a revision: its own words for a conflict, a 402, a 404 and a change request too long', () => {
    const revision = { subject: 'revision' } as const;
    expect(describeError(fromServer(409, 'PROJECT_NOT_IN_PROGRESS'), revision).text).toBe(
      'This revision has already ended: there is nothing to cancel.',
    );
    expect(describeError(fromServer(409, 'REVISION_IN_PROGRESS', { revision: 2 })).text).toBe(
      'Another revision of this project is still running: wait for it to end, or cancel it.',
    );
    expect(
      describeError(fromServer(402, 'INSUFFICIENT_CREDITS', { required: 44, available: 10 }), {
        ...revision,
        price: 1,
      }).text,
    ).toBe('Not enough credits: this revision costs 44 credits and your balance is 10 credits.');
    expect(describeError(fromServer(404, 'RESOURCE_NOT_FOUND'), revision).text).toBe(
      PLAIN.revisionNotFound,
    );
    expect(
      describeError(
        fromServer(400, 'VALIDATION_ERROR', { invalid_fields: { changeRequest: 'too long' } }),
      ).text,
    ).toBe('The change request must be 1 to 4,000 characters.');
  });

  it('an abort is quiet; anything unknown still gets words', () => {
    expect(describeError(new APIUserAbortError()).kind).toBe('aborted');
    expect(describeError(new TypeError('x is undefined')).text).toBe(
      'Something went wrong in the console. Reload the page and try again.',
    );
  });
});

describe('texts', () => {
  it('counts the 429 down to a go', () => {
    expect(rateLimitText(3)).toBe('Too many requests. Try again in 3 s.');
    expect(rateLimitText(0.2)).toBe('Too many requests. Try again in 1 s.');
    expect(rateLimitText(0)).toBe('Too many requests. You can try again now.');
  });

  it('says what is known of price and balance', () => {
    expect(notEnoughCreditsText(undefined, undefined)).toBe(
      'Not enough credits: this project costs more.',
    );
  });
});
