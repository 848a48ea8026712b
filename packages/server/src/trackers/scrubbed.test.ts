import { describe, expect, it } from 'vitest';
import { type TrackerClient, TrackerRequestError } from './providers/provider.ts';
import { MAX_REASON_LENGTH } from './retry.ts';
import { scrubbedClient } from './scrubbed.ts';

const token = 'lin_api_0123456789abcdef';

/** A client whose every call fails with `error`. */
function failingWith(error: unknown): TrackerClient {
  const fail = async (): Promise<never> => {
    throw error;
  };
  return { verify: fail, findMarked: fail, get: fail, create: fail, update: fail, setState: fail };
}

describe('a scrubbed client', () => {
  it("rethrows a tracker's refusal without the connection's token, bounded", async () => {
    const echo = new TrackerRequestError(`token ${token} is invalid ${'!'.repeat(2_000)}`, {
      status: 401,
      retryable: false,
    });
    const client = scrubbedClient(failingWith(echo), { token });
    const thrown = await client.get('12').catch((error: unknown) => error);
    expect(thrown).toBeInstanceOf(TrackerRequestError);
    const { reason, status, retryable } = thrown as TrackerRequestError;
    expect(reason).not.toContain(token);
    expect(reason.startsWith('token [redacted] is invalid')).toBe(true);
    expect(reason.length).toBeLessThanOrEqual(MAX_REASON_LENGTH);
    expect({ status, retryable }).toEqual({ status: 401, retryable: false });
  });

  it('passes any other error on as it was', async () => {
    const bug = new TypeError('boom');
    const client = scrubbedClient(failingWith(bug), { email: 'a@b.co', apiToken: token });
    await expect(client.verify()).rejects.toBe(bug);
  });
});
