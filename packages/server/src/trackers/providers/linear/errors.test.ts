import {
  AuthenticationLinearError,
  FeatureNotAccessibleLinearError,
  ForbiddenLinearError,
  InvalidInputLinearError,
  LinearGraphQLError,
  NetworkLinearError,
  UnknownLinearError,
} from '@linear/sdk';
import { describe, expect, it } from 'vitest';
import type { TrackerRequestError } from '../provider.ts';
import { retryAfterMs, toTrackerError } from './errors.ts';

const now = 1_800_000_000_000;

describe('retryAfterMs', () => {
  it('prefers Retry-After when Linear sends it', () => {
    expect(
      retryAfterMs({ retryAfter: 7, requestsRemaining: 0, requestsResetAt: now + 60_000 }, now),
    ).toBe(7000);
  });

  it('waits for the reset of the budget that ran out', () => {
    const limit = {
      requestsRemaining: 10,
      requestsResetAt: now + 60_000,
      complexityRemaining: 0,
      complexityResetAt: now + 20_000,
    };
    expect(retryAfterMs(limit, now)).toBe(20_000);
    expect(retryAfterMs({ ...limit, requestsRemaining: 0 }, now)).toBe(60_000);
  });

  it('reads a reset in seconds as seconds, and never answers a negative wait', () => {
    expect(retryAfterMs({ requestsRemaining: 0, requestsResetAt: now / 1000 + 5 }, now)).toBe(5000);
    expect(retryAfterMs({ requestsRemaining: 0, requestsResetAt: now - 5000 }, now)).toBe(0);
    expect(retryAfterMs({}, now)).toBeUndefined();
  });

  it('rounds the wait up to whole seconds', () => {
    expect(retryAfterMs({ requestsRemaining: 0, requestsResetAt: now + 29_982 }, now)).toBe(30_000);
  });
});

type Raw = ConstructorParameters<typeof ForbiddenLinearError>[0];
type RawGraphQLError = ConstructorParameters<typeof LinearGraphQLError>[0];

/** An SDK error's arguments as LinearClient builds them from an answer. */
function answer(status: number, message: string): [Raw, LinearGraphQLError[]] {
  // Only what the mapping reads: the answer's status and Linear's words.
  const errors = [
    { message, extensions: { userPresentableMessage: message } },
  ] as RawGraphQLError[];
  const raw = { response: { status, errors }, request: { query: '' } } as Raw;
  return [raw, errors.map((one) => new LinearGraphQLError(one))];
}

describe('toTrackerError', () => {
  it('does not retry what the user must fix, and keeps Linear words', () => {
    const cases = [
      new AuthenticationLinearError(...answer(401, 'Invalid API key')),
      new ForbiddenLinearError(...answer(403, 'You cannot write to this team')),
      new InvalidInputLinearError(...answer(400, 'title is required')),
      new FeatureNotAccessibleLinearError(...answer(400, 'Sub-issues need a paid plan')),
    ];
    const mapped = cases.map((error) => toTrackerError(error) as TrackerRequestError);
    expect(mapped.map((one) => one.retryable)).toEqual([false, false, false, false]);
    expect(mapped[0]!.reason).toBe('the Linear API key was refused: Invalid API key');
    expect(mapped[1]).toMatchObject({
      status: 403,
      reason: 'Linear refused the request: You cannot write to this team',
    });
  });

  it('retries gateways, network failures and what is not Linear', () => {
    const gateway = toTrackerError(new NetworkLinearError(...answer(503, 'Service Unavailable')));
    expect(gateway).toMatchObject({ retryable: true, status: 503 });
    const network = toTrackerError(new UnknownLinearError({ message: 'fetch failed' }, []));
    expect(network).toMatchObject({ retryable: true, status: undefined });
    expect(toTrackerError(new TypeError('fetch failed'))).toMatchObject({ retryable: true });
  });

  it("gives back the caller's own abort", () => {
    const controller = new AbortController();
    controller.abort(new Error('stopped'));
    expect(
      toTrackerError(new UnknownLinearError({ message: 'aborted' }, []), controller.signal),
    ).toBe(controller.signal.reason);
  });
});
