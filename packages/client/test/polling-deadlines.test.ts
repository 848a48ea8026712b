import { describe, expect, it, vi } from 'vitest';
import {
  APIUserAbortError,
  InternalServerError,
  Pgs,
  PgsError,
  type PollProgress,
  PollTimeoutError,
  type ProjectInProgress,
} from '../src/index.ts';
import { hang } from './http-server.ts';
import {
  client,
  completed,
  down,
  ID,
  KEY,
  running,
  server,
  usePollingServer,
} from './polling-helpers.ts';

// waitForCompletion: maxWaitMs, aborts, and the default sleep and clock on fake timers. Setup in
// polling-helpers.ts.

usePollingServer();

describe('waitForCompletion: maxWaitMs', () => {
  it('throws PollTimeoutError at maxWaitMs with the last status, after a last poll at the deadline', async () => {
    server.reply(running(60_000), running(50_000), running(40_000), running(35_000));
    const { pgs, clock } = client();
    const error = (await pgs.projects
      .waitForCompletion(ID, { maxWaitMs: 30_000 })
      .catch((e: unknown) => e)) as PollTimeoutError;
    expect(error).toBeInstanceOf(PollTimeoutError);
    expect(error).toBeInstanceOf(PgsError);
    expect(clock.sleeps).toEqual([12_000, 12_000, 6_000]);
    expect(server.requests).toHaveLength(4);
    expect(error.projectId).toBe(ID);
    expect(error.waitedMs).toBe(30_000);
    expect(error.maxWaitMs).toBe(30_000);
    expect(error.lastStatus).toEqual({
      projectId: ID,
      status: 'in_progress',
      estimatedCompletionMs: 35_000,
    } satisfies ProjectInProgress);
    expect(error.message).toMatch(/still in progress after 30 s .*35 s left/);
  });

  it('a project that finishes at the last poll is a success', async () => {
    server.reply(running(20_000), completed);
    const { pgs, clock } = client();
    const result = await pgs.projects.waitForCompletion(ID, { maxWaitMs: 5_000 });
    expect(result.status).toBe('completed');
    expect(clock.sleeps).toEqual([5_000]);
  });

  it('failures until the deadline end in PollTimeoutError, the last failure as its cause', async () => {
    server.reply(down());
    const { pgs } = client({ random: () => 1 - Number.EPSILON });
    const error = (await pgs.projects
      .waitForCompletion(ID, { maxWaitMs: 10_000 })
      .catch((e: unknown) => e)) as PollTimeoutError;
    expect(error).toBeInstanceOf(PollTimeoutError);
    expect(error.lastStatus).toBeUndefined();
    expect(error.cause).toBeInstanceOf(InternalServerError);
  });

  it('refuses options that are not durations', async () => {
    server.reply(completed);
    const { pgs } = client();
    for (const options of [
      { pollIntervalMs: -1 },
      { pollIntervalMs: Number.NaN },
      { pollIntervalMs: Number.POSITIVE_INFINITY },
      { maxWaitMs: -5 },
      { maxConsecutiveErrors: 1.5 },
    ]) {
      await expect(pgs.projects.waitForCompletion(ID, options)).rejects.toThrow(PgsError);
    }
    expect(server.requests).toHaveLength(0);
  });
});

describe('waitForCompletion: aborts', () => {
  it('an abort while sleeping (the real sleep, Retry-After 30 s) rejects at once', async () => {
    server.reply(running(30_000, { 'retry-after': '30' }), completed);
    const pgs = new Pgs({ apiKey: KEY, baseUrl: server.url });
    const controller = new AbortController();
    const started = performance.now();
    const pending = pgs.projects.waitForCompletion(ID, {
      signal: controller.signal,
      // The first answer arrived: the wait is now asleep for 30 s.
      onProgress: () => {
        setTimeout(() => controller.abort(), 20);
      },
    });
    await expect(pending).rejects.toBeInstanceOf(APIUserAbortError);
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(server.requests).toHaveLength(1);
  });

  it('an abort mid-request rejects at once', async () => {
    server.reply(hang);
    const controller = new AbortController();
    const pending = client().pgs.projects.waitForCompletion(ID, { signal: controller.signal });
    await vi.waitFor(() => expect(server.requests).toHaveLength(1), { timeout: 20_000 });
    controller.abort();
    await expect(pending).rejects.toBeInstanceOf(APIUserAbortError);
  });

  it('an aborted signal sends nothing; a throwing onProgress ends the wait', async () => {
    server.reply(running(5_000), completed);
    const { pgs } = client();
    await expect(
      pgs.projects.waitForCompletion(ID, { signal: AbortSignal.abort() }),
    ).rejects.toBeInstanceOf(APIUserAbortError);
    expect(server.requests).toHaveLength(0);
    const stop = new Error('enough');
    await expect(
      pgs.projects.waitForCompletion(ID, {
        onProgress: () => {
          throw stop;
        },
      }),
    ).rejects.toBe(stop);
  });
});

describe('waitForCompletion on fake timers (the default sleep and clock)', () => {
  it('sleeps exactly the Retry-After of the in-progress answer', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    server.reply(running(20_000, { 'retry-after': '12' }), completed);
    const pgs = new Pgs({ apiKey: KEY, baseUrl: server.url });
    let progress: PollProgress | undefined;
    const pending = pgs.projects.waitForCompletion(ID, {
      onProgress: (_s, p) => {
        progress = p;
      },
    });
    // Real I/O runs while the fake clock stands still.
    await vi.waitFor(() => expect(progress).toBeDefined(), { interval: 1, timeout: 20_000 });
    await vi.advanceTimersByTimeAsync(11_990);
    expect(server.requests).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(20);
    await expect(pending).resolves.toMatchObject({ status: 'completed' });
    expect(server.requests).toHaveLength(2);
    expect(progress?.nextPollMs).toBe(12_000);
  });

  it('an abort while asleep leaves no timer behind', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    server.reply(running(20_000, { 'retry-after': '30' }));
    const pgs = new Pgs({ apiKey: KEY, baseUrl: server.url });
    const controller = new AbortController();
    let asleep = false;
    const settled = pgs.projects
      .waitForCompletion(ID, {
        signal: controller.signal,
        onProgress: () => {
          asleep = true;
        },
      })
      .catch((e: unknown) => e);
    await vi.waitFor(() => expect(asleep).toBe(true), { interval: 1, timeout: 20_000 });
    await vi.advanceTimersByTimeAsync(29_000);
    controller.abort();
    await expect(settled).resolves.toBeInstanceOf(APIUserAbortError);
    expect(vi.getTimerCount()).toBe(0);
    expect(server.requests).toHaveLength(1);
  });
});
