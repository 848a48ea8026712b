import { describe, expect, it } from 'vitest';
import { TrackerRequestError } from './providers/provider.ts';
import {
  DEFAULT_RETRY_POLICY,
  failureReason,
  MAX_REASON_LENGTH,
  retryDelay,
  scrub,
  withRetries,
} from './retry.ts';

const transient = (retryAfterMs?: number) =>
  new TrackerRequestError('Service Unavailable', {
    status: 503,
    retryable: true,
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  });

/** A call that fails with `errors` in turn, then answers 'ok'. */
function failing(...errors: Error[]) {
  let calls = 0;
  return {
    call: async () => {
      const error = errors[calls++];
      if (error) throw error;
      return 'ok';
    },
    calls: () => calls,
  };
}

function sleeper() {
  const pauses: number[] = [];
  return { sleep: async (ms: number) => void pauses.push(ms), pauses };
}

describe('retry policy', () => {
  it('backs off exponentially with full jitter, capped', () => {
    expect(retryDelay(1, undefined, DEFAULT_RETRY_POLICY, () => 1)).toBe(500);
    expect(retryDelay(3, undefined, DEFAULT_RETRY_POLICY, () => 1)).toBe(2_000);
    expect(retryDelay(3, undefined, DEFAULT_RETRY_POLICY, () => 0.25)).toBe(500);
    expect(retryDelay(20, undefined, DEFAULT_RETRY_POLICY, () => 1)).toBe(30_000);
  });

  it("never waits less than the provider's Retry-After", () => {
    expect(retryDelay(1, 7_000, DEFAULT_RETRY_POLICY, () => 0)).toBe(7_000);
    expect(retryDelay(8, 1_000, DEFAULT_RETRY_POLICY, () => 1)).toBe(30_000);
  });

  it('retries retryable failures with the pauses the policy gives, then succeeds', async () => {
    const { call, calls } = failing(transient(), transient(4_000));
    const { sleep, pauses } = sleeper();
    expect(await withRetries(call, { sleep, random: () => 1 })).toBe('ok');
    expect(calls()).toBe(3);
    expect(pauses).toEqual([500, 4_000]);
  });

  it('gives up after the last attempt with the last error', async () => {
    const errors = Array.from({ length: 6 }, () => transient());
    const { call, calls } = failing(...errors);
    const { sleep, pauses } = sleeper();
    await expect(withRetries(call, { sleep })).rejects.toBe(errors[4]);
    expect(calls()).toBe(DEFAULT_RETRY_POLICY.maxAttempts);
    expect(pauses).toHaveLength(DEFAULT_RETRY_POLICY.maxAttempts - 1);
  });

  it('does not retry a permanent failure, nor wait for a hint beyond the policy', async () => {
    const permanent = new TrackerRequestError('Validation Failed', {
      status: 422,
      retryable: false,
    });
    const { sleep, pauses } = sleeper();
    await expect(withRetries(failing(permanent).call, { sleep })).rejects.toBe(permanent);
    const far = transient(3_600_000);
    await expect(withRetries(failing(far).call, { sleep })).rejects.toBe(far);
    const bug = new TypeError('x is undefined');
    await expect(withRetries(failing(bug).call, { sleep })).rejects.toBe(bug);
    expect(pauses).toEqual([]);
  });

  it('stops waiting when the signal aborts', async () => {
    const controller = new AbortController();
    const sleep = async () => {
      controller.abort(new Error('shutting down'));
      throw controller.signal.reason;
    };
    await expect(
      withRetries(failing(transient()).call, { sleep, signal: controller.signal }),
    ).rejects.toThrow('shutting down');
  });

  it("reports the provider's reason and status, never more", () => {
    expect(
      failureReason(
        new TrackerRequestError('Validation Failed', { status: 422, retryable: false }),
      ),
    ).toBe('Validation Failed (HTTP 422)');
    expect(failureReason(transient())).toBe(
      'Service Unavailable (HTTP 503), still failing after retries',
    );
    expect(failureReason(new Error('token ghp_secret leaked'))).not.toContain('ghp_');
  });
});

describe('failure reasons', () => {
  it("scrub the connection's credentials and stay bounded", () => {
    const token = 'ghp_abcdefghijklmnop';
    const echo = new TrackerRequestError(`Bad credentials: ${token} ${'x'.repeat(1_000)}`, {
      status: 401,
      retryable: false,
    });
    const reason = failureReason(echo, [token]);
    expect(reason).not.toContain(token);
    expect(reason).toContain('[redacted]');
    expect(reason.length).toBeLessThanOrEqual(MAX_REASON_LENGTH);
    expect(reason.endsWith('(HTTP 401)')).toBe(true);
  });

  it('scrub never takes short strings for secrets', () => {
    expect(scrub('a bc abcd', ['bc', 'abcd'])).toBe('a bc [redacted]');
  });
});
