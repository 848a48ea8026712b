import { describe, expect, it } from 'vitest';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  AuthenticationError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  PollTimeoutError,
  RateLimitError,
  ValidationError,
} from '../src/index.ts';
import { envelope, type Handler, hang, json, startServer } from './http-server.ts';
import {
  client,
  completed,
  down,
  ID,
  limited,
  reset,
  running,
  server,
  T0,
  usePollingServer,
} from './polling-helpers.ts';

// waitForCompletion: typed errors, rate limits, backoff and failure counts. Setup in polling-helpers.ts.

usePollingServer();

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
