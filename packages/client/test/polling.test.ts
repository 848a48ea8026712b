import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIUserAbortError,
  AuthenticationError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  Pgs,
  PgsError,
  type PollProgress,
  PollTimeoutError,
  type ProjectInProgress,
  RateLimitError,
  type SleepFn,
  ValidationError,
} from '../src/index.ts';
import { envelope, type Handler, hang, json, startServer, type TestServer } from './http-server.ts';

// waitForCompletion against a small local server. Time is virtual: an
// injected clock whose sleep records the delay and moves the clock, so no test sleeps.

const KEY = 'pgs_test_abcdefghijklmnopqrstuvwxyz0123456789';
const ID = '7d0f2c8e-4a9b-4e43-9a55-0d2b8f1c6e21';
const T0 = Date.parse('2026-11-22T10:00:00Z');

const running = (estimatedCompletionMs: number, headers: Record<string, string> = {}): Handler =>
  json(
    200,
    { success: true, data: { projectId: ID, status: 'in_progress', estimatedCompletionMs } },
    { 'retry-after': '12', etag: '"r"', 'cache-control': 'no-cache', ...headers },
  );

const completedData = {
  projectId: ID,
  status: 'completed',
  project: {
    name: 'TeamPulse',
    description: 'A habit tracker for remote teams.',
    type: 'web',
    questionnaire: { targetAudience: 'remote teams', monetization: 'seats', techStack: ['TS'] },
    documents: [
      {
        type: 'readme',
        filename: 'README.md',
        content: '# TeamPulse',
        generated_at: '2026-11-22T10:00:00.000Z',
        stage: 'documentation',
        tokens_used: 12,
      },
    ],
  },
  metadata: { creditsConsumed: 3, generationTimeMs: 1200, documentsGenerated: 1 },
};
const completed = json(200, { success: true, data: completedData }, { etag: '"c"' });
const failedData = {
  projectId: ID,
  status: 'failed',
  error: { code: 'generation_failed', message: 'The AI service timed out. Credits refunded.' },
};
const failed = json(200, { success: true, data: failedData });
const limited = (headers: Record<string, string>, details?: Record<string, unknown>): Handler =>
  json(429, envelope('RATE_LIMIT_EXCEEDED', 'Too many requests.', undefined, details), headers);
const down = (status = 503): Handler => json(status, envelope('INTERNAL_ERROR', 'down'));
/** Closes the connection without an answer: a network error for the client. */
const reset: Handler = (req, res) => {
  void req;
  res.socket?.destroy();
};

/** A clock that only moves when the code under test sleeps. */
function virtualClock() {
  let t = T0;
  const sleeps: number[] = [];
  const sleep: SleepFn = async (ms, signal) => {
    if (signal?.aborted) throw signal.reason;
    sleeps.push(ms);
    t += ms;
  };
  return { sleeps, sleep, now: () => t };
}

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});
afterEach(() => {
  vi.useRealTimers();
});

function client(options: ConstructorParameters<typeof Pgs>[0] = {}) {
  const clock = virtualClock();
  const pgs = new Pgs({
    apiKey: KEY,
    baseUrl: server.url,
    sleep: clock.sleep,
    now: clock.now,
    random: () => 0.5,
    ...options,
  });
  return { pgs, clock };
}

describe('waitForCompletion: long-poll', () => {
  it('asks the server to hold each poll (Prefer: wait=30) and asks again at once after a held answer', async () => {
    const held = { 'preference-applied': 'wait=30' };
    server.reply(running(30_000, held), running(5_000, held), completed);
    const { pgs, clock } = client();
    const result = await pgs.projects.waitForCompletion(ID);
    expect(result).toEqual(completedData);
    expect(clock.sleeps).toEqual([0, 0]);
    expect(server.requests.map((r) => r.headers.prefer)).toEqual(['wait=30', 'wait=30', 'wait=30']);
  });

  it('a server that does not hold (no Preference-Applied) is polled at its pace', async () => {
    server.reply(running(30_000), completed);
    const { pgs, clock } = client();
    await pgs.projects.waitForCompletion(ID);
    expect(clock.sleeps).toEqual([12_000]);
  });

  it('never asks to hold past maxWaitMs, and not at all when off or when a pace is given', async () => {
    server.reply(completed);
    await client().pgs.projects.waitForCompletion(ID, { maxWaitMs: 8_000 });
    expect(server.requests.at(-1)?.headers.prefer).toBe('wait=7');
    for (const options of [{ longPollSeconds: 0 }, { pollIntervalMs: 1_000 }]) {
      server.reply(completed);
      await client().pgs.projects.waitForCompletion(ID, options);
      expect(server.requests.at(-1)?.headers.prefer).toBeUndefined();
    }
    server.reply(completed);
    await client().pgs.projects.waitForCompletion(ID, {
      pollIntervalMs: 1_000,
      longPollSeconds: 45,
    });
    expect(server.requests.at(-1)?.headers.prefer).toBe('wait=45');
  });
});

describe('waitForCompletion: pace', () => {
  it('polls at once, then at the Retry-After pace, and resolves with the completed status', async () => {
    server.reply(running(30_000), running(18_000, { 'retry-after': '18' }), completed);
    const { pgs, clock } = client();
    const seen: [number, PollProgress][] = [];
    const result = await pgs.projects.waitForCompletion(ID, {
      onProgress: (status, progress) => {
        seen.push([status.estimatedCompletionMs, progress]);
      },
    });
    expect(result).toEqual(completedData);
    expect(clock.sleeps).toEqual([12_000, 18_000]);
    expect(seen).toEqual([
      [30_000, { polls: 1, elapsedMs: 0, nextPollMs: 12_000 }],
      [18_000, { polls: 2, elapsedMs: 12_000, nextPollMs: 18_000 }],
    ]);
    expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual(
      Array(3).fill(`GET /api/v1/projects/${ID}`),
    );
    expect(server.requests[0]?.headers['idempotency-key']).toBeUndefined();
  });

  it.each([
    ['a short hint', { 'retry-after': '2' }, 10_000],
    ['a long hint', { 'retry-after': '300' }, 30_000],
    ['a fractional hint', { 'retry-after': '15.5' }, 15_500],
  ])('clamps %s to 10–30 s', async (_name, headers, expected) => {
    server.reply(running(5_000, headers), completed);
    const { pgs, clock } = client();
    await pgs.projects.waitForCompletion(ID);
    expect(clock.sleeps).toEqual([expected]);
  });

  it('without Retry-After, paces by the estimate, clamped to 10–30 s', async () => {
    const noHint: Handler = (req, res) => {
      void req;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          success: true,
          data: { projectId: ID, status: 'in_progress', estimatedCompletionMs: 21_000 },
        }),
      );
    };
    server.reply(noHint, completed);
    const { pgs, clock } = client();
    await pgs.projects.waitForCompletion(ID);
    expect(clock.sleeps).toEqual([21_000]);
  });

  it('pollIntervalMs replaces the server hint', async () => {
    server.reply(running(9_000), running(8_000), completed);
    const { pgs, clock } = client();
    await pgs.projects.waitForCompletion(ID, { pollIntervalMs: 500 });
    expect(clock.sleeps).toEqual([500, 500]);
  });

  it('waits for the window to reset after a success that used its last request', async () => {
    const reset = String(T0 / 1000 + 45);
    server.reply(
      running(9_000, { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset }),
      completed,
    );
    const { pgs, clock } = client();
    await pgs.projects.waitForCompletion(ID);
    expect(clock.sleeps).toEqual([45_000]);
  });

  it('a failed generation is a result, not an exception', async () => {
    server.reply(running(1_000), failed);
    const { pgs } = client();
    const result = await pgs.projects.waitForCompletion(ID);
    expect(result).toEqual(failedData);
    if (result.status === 'failed') expect(result.error.code).toBe('generation_failed');
  });
});

describe('waitForCompletion: the cache of finished projects', () => {
  it('a second wait or get of a finished project makes no request and returns a copy', async () => {
    server.reply(completed);
    const { pgs } = client();
    const first = await pgs.projects.waitForCompletion(ID);
    expect(server.requests).toHaveLength(1);
    if (first.status === 'completed') first.project.name = 'changed by the caller';

    const again = await pgs.projects.waitForCompletion(ID);
    const read = await pgs.projects.get(ID);
    expect(server.requests).toHaveLength(1);
    expect(again).toEqual(completedData);
    expect(read).toEqual(completedData);
    // Another client has its own memory.
    await client().pgs.projects.get(ID);
    expect(server.requests).toHaveLength(2);
  });

  it('caches a failed status read with get, never an in-progress one', async () => {
    server.reply(running(5_000), running(4_000), failed);
    const { pgs } = client();
    expect((await pgs.projects.get(ID)).status).toBe('in_progress');
    expect((await pgs.projects.get(ID)).status).toBe('in_progress');
    expect((await pgs.projects.get(ID)).status).toBe('failed');
    expect((await pgs.projects.waitForCompletion(ID)).status).toBe('failed');
    expect(server.requests).toHaveLength(3);
  });

  it('refuses a maxCachedProjects that is not a count', () => {
    for (const maxCachedProjects of [-1, 1.5, Number.NaN]) {
      expect(() => client({ maxCachedProjects })).toThrow(PgsError);
    }
  });

  it('maxCachedProjects bounds the memory (0 turns it off)', async () => {
    server.reply(completed);
    const off = client({ maxCachedProjects: 0 }).pgs;
    await off.projects.get(ID);
    await off.projects.get(ID);
    expect(server.requests).toHaveLength(2);

    server.reply(completed);
    const other = '00000000-0000-4000-8000-000000000000';
    const one = client({ maxCachedProjects: 1 }).pgs;
    await one.projects.get(ID);
    await one.projects.get(other); // evicts ID
    await one.projects.get(other);
    await one.projects.get(ID);
    expect(server.requests.map((r) => r.url.split('/').at(-1))).toEqual([ID, other, ID]);
  });
});

describe('waitForCompletion: errors', () => {
  it.each([
    [400, 'VALIDATION_ERROR', ValidationError],
    [401, 'AUTHENTICATION_FAILED', AuthenticationError],
    [403, 'SECURITY_VIOLATION', PermissionDeniedError],
    [404, 'RESOURCE_NOT_FOUND', NotFoundError],
  ])('stops at once on a %i and throws the typed error', async (status, code, Class) => {
    server.reply(running(5_000), json(status, envelope(code, 'no')), completed);
    const { pgs, clock } = client();
    const error = await pgs.projects.waitForCompletion(ID).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Class);
    expect(error).toMatchObject({ status, code });
    expect(server.requests).toHaveLength(2);
    expect(clock.sleeps).toEqual([12_000]);
  });

  it('honours Retry-After on a 429 and does not count it as a failure', async () => {
    server.reply(
      limited({ 'retry-after': '7' }),
      limited({ 'retry-after': '7' }),
      limited({ 'retry-after': '7' }),
      completed,
    );
    const { pgs, clock } = client();
    const result = await pgs.projects.waitForCompletion(ID, { maxConsecutiveErrors: 0 });
    expect(result.status).toBe('completed');
    expect(clock.sleeps).toEqual([7_000, 7_000, 7_000]);
  });

  it('without Retry-After, waits for X-RateLimit-Reset, else details.retry_after', async () => {
    server.reply(
      limited({ 'x-ratelimit-reset': String(T0 / 1000 + 42) }),
      limited({}, { retry_after: 5, limit: 100, window: '1 minute' }),
      limited({}),
      completed,
    );
    const { pgs, clock } = client();
    await pgs.projects.waitForCompletion(ID);
    // 42 s to the reset; then 5 s from the details; then backoff (0.5 · 1 s · 2^2).
    expect(clock.sleeps).toEqual([42_000, 5_000, 2_000]);
  });

  it('a 429 that says "retry now" again and again backs off instead of spinning', async () => {
    server.reply(limited({ 'retry-after': '0' }), limited({ 'retry-after': '0' }), completed);
    const { pgs, clock } = client();
    await pgs.projects.waitForCompletion(ID);
    expect(clock.sleeps).toEqual([500, 1_000]);
  });

  it('a 429 asking to wait past maxWaitMs ends the wait at once with PollTimeoutError', async () => {
    server.reply(running(30_000), limited({ 'retry-after': '60' }));
    const { pgs, clock } = client();
    const error = (await pgs.projects
      .waitForCompletion(ID, { maxWaitMs: 40_000 })
      .catch((e: unknown) => e)) as PollTimeoutError;
    expect(error).toBeInstanceOf(PollTimeoutError);
    expect(error.cause).toBeInstanceOf(RateLimitError);
    expect(error.lastStatus?.estimatedCompletionMs).toBe(30_000);
    expect(clock.sleeps).toEqual([12_000]);
  });

  it('backs off exponentially with full jitter on 5xx and network errors', async () => {
    server.reply(down(503), down(500), reset, down(502), completed);
    const { pgs, clock } = client({ random: () => 0.5 });
    const result = await pgs.projects.waitForCompletion(ID);
    expect(result.status).toBe('completed');
    // 0.5 · min(30 s, 1 s · 2^(n−1)).
    expect(clock.sleeps).toEqual([500, 1_000, 2_000, 4_000]);
    expect(server.requests).toHaveLength(5);
  });

  it('the jitter is full: anywhere from 0 to the cap', async () => {
    server.reply(down(), down(), completed);
    const low = client({ random: () => 0 });
    await low.pgs.projects.waitForCompletion(ID);
    expect(low.clock.sleeps).toEqual([0, 0]);

    server.reply(...Array<Handler>(8).fill(down()), completed);
    const high = client({ random: () => 0.999 });
    await high.pgs.projects.waitForCompletion(ID);
    expect(high.clock.sleeps.map((ms) => Math.round(ms / 1000))).toEqual([
      1, 2, 4, 8, 16, 30, 30, 30,
    ]);
  });

  it('each poll is one attempt: the poll loop, not the transport, retries', async () => {
    server.reply(down(), completed);
    const { pgs, clock } = client({ maxRetries: 5 });
    await pgs.projects.waitForCompletion(ID);
    expect(server.requests).toHaveLength(2);
    expect(clock.sleeps).toHaveLength(1);
  });

  it('throws the last error after maxConsecutiveErrors failures in a row', async () => {
    server.reply(down(500));
    const { pgs } = client();
    const error = await pgs.projects
      .waitForCompletion(ID, { maxConsecutiveErrors: 2 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InternalServerError);
    expect(server.requests).toHaveLength(3);
  });

  it('a success resets the count of failures', async () => {
    server.reply(down(), running(1), down(), running(1), down(), completed);
    const { pgs } = client();
    const result = await pgs.projects.waitForCompletion(ID, { maxConsecutiveErrors: 1 });
    expect(result.status).toBe('completed');
  });

  it('a server that stops answering: request time-outs are failures too', async () => {
    server.reply(hang);
    const { pgs } = client({ timeoutMs: 50 });
    const error = await pgs.projects
      // Plain polls: a long-poll would rightly wait its hold plus timeoutMs before giving up.
      .waitForCompletion(ID, { maxConsecutiveErrors: 1, longPollSeconds: 0 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    expect(server.requests).toHaveLength(2);
  });

  it('a server that is not running: connection errors, then the last one is thrown', async () => {
    const gone = await startServer();
    const url = gone.url;
    await gone.close();
    const { pgs, clock } = client({ baseUrl: url });
    const error = await pgs.projects
      .waitForCompletion(ID, { maxConsecutiveErrors: 3 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(clock.sleeps).toHaveLength(3);
  });
});

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
    await vi.waitFor(() => expect(server.requests).toHaveLength(1));
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
    await vi.waitFor(() => expect(progress).toBeDefined(), { interval: 1 });
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
    await vi.waitFor(() => expect(asleep).toBe(true), { interval: 1 });
    await vi.advanceTimersByTimeAsync(29_000);
    controller.abort();
    await expect(settled).resolves.toBeInstanceOf(APIUserAbortError);
    expect(vi.getTimerCount()).toBe(0);
    expect(server.requests).toHaveLength(1);
  });
});
