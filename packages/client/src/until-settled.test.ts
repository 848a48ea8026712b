import { describe, expect, it } from 'vitest';
import { PgsError } from './errors.ts';
import { untilSettled } from './polling.ts';

/** A clock that moves only when slept on. */
function fakeClock() {
  let now = 0;
  const slept: number[] = [];
  return {
    slept,
    clock: {
      now: () => now,
      sleep: async (ms: number) => {
        slept.push(ms);
        now += ms;
      },
    },
  };
}

describe('untilSettled', () => {
  it('reads until the job is neither queued nor running, sleeping between reads', async () => {
    const statuses = ['queued', 'running', 'succeeded'];
    const { clock, slept } = fakeClock();
    const job = await untilSettled(async () => ({ status: statuses.shift()! }), clock, {
      intervalMs: 2_000,
      maxWaitMs: 60_000,
      what: 'The sync sync_1',
    });
    expect(job.status).toBe('succeeded');
    expect(slept).toEqual([2_000, 2_000]);
  });

  it('gives up at the deadline, naming the job and its status', async () => {
    const { clock } = fakeClock();
    await expect(
      untilSettled(async () => ({ status: 'running' }), clock, {
        intervalMs: 2_000,
        maxWaitMs: 5_000,
        what: 'The check chk_1',
      }),
    ).rejects.toThrow(new PgsError('The check chk_1 is still running after 5000 ms.'));
  });
});
