import { describe, expect, it } from 'vitest';
import {
  APIConnectionError,
  APIError,
  InternalServerError,
  Pgs,
  RateLimitError,
} from '../src/index.ts';
import {
  admin,
  client,
  inProgress,
  KEY,
  PROJECT_ID,
  REQ,
  recordingSleep,
  server,
  UUID,
  useClientServer,
} from './client-helpers.ts';
import { envelope, json, startServer } from './http-server.ts';

// Retries and idempotency keys. Setup in client-helpers.ts.

useClientServer();

describe('retries', () => {
  it('retries a 503 and then succeeds, backing off with jitter', async () => {
    server.reply(json(503, envelope('INTERNAL_ERROR', 'down')), json(200, inProgress));
    const { sleep, delays } = recordingSleep();
    const project = await client({ sleep, random: () => 0.5 }).projects.get(PROJECT_ID);
    expect(project.status).toBe('in_progress');
    expect(server.requests).toHaveLength(2);
    expect(delays).toEqual([250]); // 0.5 · min(8 s, 0.5 s · 2^0)
  });

  it('gives up after maxRetries and throws the last error', async () => {
    server.reply(json(500, envelope('INTERNAL_ERROR', 'boom')));
    const { sleep, delays } = recordingSleep();
    const error = await client({ sleep, random: () => 1 - Number.EPSILON })
      .projects.get(PROJECT_ID)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InternalServerError);
    expect(server.requests).toHaveLength(3);
    expect(delays.map(Math.round)).toEqual([500, 1000]);
  });

  it.each([
    [400, 'VALIDATION_ERROR'],
    [401, 'AUTHENTICATION_FAILED'],
    [403, 'SECURITY_VIOLATION'],
    [404, 'RESOURCE_NOT_FOUND'],
  ])('never retries a %i', async (status, code) => {
    server.reply(json(status, envelope(code, 'no')), json(200, inProgress));
    const { sleep, delays } = recordingSleep();
    await expect(client({ sleep }).projects.get(PROJECT_ID)).rejects.toBeInstanceOf(APIError);
    expect(server.requests).toHaveLength(1);
    expect(delays).toEqual([]);
  });

  it.each([408, 409])('retries a %i', async (status) => {
    server.reply(json(status, envelope('CONFLICT', 'again')), json(200, inProgress));
    const { sleep } = recordingSleep();
    await expect(client({ sleep }).projects.get(PROJECT_ID)).resolves.toMatchObject({
      status: 'in_progress',
    });
    expect(server.requests).toHaveLength(2);
  });

  it('honours Retry-After in seconds on a 429', async () => {
    server.reply(
      json(429, envelope('RATE_LIMIT_EXCEEDED', 'slow down'), { 'retry-after': '1' }),
      json(200, inProgress),
    );
    const { sleep, delays } = recordingSleep();
    await client({ sleep }).projects.get(PROJECT_ID);
    expect(delays).toEqual([1000]);
    expect(server.requests).toHaveLength(2);
  });

  it('honours Retry-After as an HTTP date, and details.retry_after without a header', async () => {
    const at = new Date(Date.now() + 5_000).toUTCString();
    server.reply(
      json(503, envelope('INTERNAL_ERROR', 'later'), { 'retry-after': at }),
      json(429, envelope('RATE_LIMIT_EXCEEDED', 'slow', REQ, { retry_after: 2 })),
      json(200, inProgress),
    );
    const { sleep, delays } = recordingSleep();
    await client({ sleep }).projects.get(PROJECT_ID);
    expect(delays).toHaveLength(2);
    expect(delays[0]).toBeGreaterThan(3_000);
    expect(delays[0]).toBeLessThanOrEqual(5_000);
    expect(delays[1]).toBe(2_000);
  });

  it('throws at once when Retry-After is longer than it is willing to wait', async () => {
    server.reply(
      json(429, envelope('RATE_LIMIT_EXCEEDED', 'slow'), { 'retry-after': '3600' }),
      json(200, inProgress),
    );
    const { sleep, delays } = recordingSleep();
    const error = (await client({ sleep })
      .projects.get(PROJECT_ID)
      .catch((e: unknown) => e)) as RateLimitError;
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error.retryAfter).toBe(3600);
    expect(delays).toEqual([]);
  });

  it('retries network errors, then throws APIConnectionError', async () => {
    const closed = await startServer();
    const url = closed.url;
    await closed.close();
    const { sleep, delays } = recordingSleep();
    const error = await new Pgs({ apiKey: KEY, baseUrl: url, sleep }).projects
      .get(PROJECT_ID)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect((error as Error).message).toContain('ECONNREFUSED');
    expect(delays).toHaveLength(2);
  });
});

describe('idempotency keys', () => {
  it('sends one Idempotency-Key on a POST and reuses it across retries', async () => {
    const created = {
      success: true,
      data: {
        key: KEY,
        keyId: 'key_01JD6WQ8V4Z9K3M2N5P7R8S0TA',
        accountId: 'acct_01JD6WQ8V4Z9K3M2N5P7R8S0TA',
        mode: 'test',
        createdAt: '2026-11-22T10:00:00.000Z',
        creditsGranted: 50,
      },
    };
    server.reply(
      json(503, envelope('INTERNAL_ERROR', 'down')),
      json(500, envelope('INTERNAL_ERROR', 'down')),
      json(201, created),
    );
    const { sleep } = recordingSleep();
    const pgsAdmin = admin({ sleep });
    await expect(pgsAdmin.keys.create({ mode: 'test', credits: 50 })).resolves.toEqual(
      created.data,
    );
    const keys = server.requests.map((r) => r.headers['idempotency-key']);
    expect(keys).toHaveLength(3);
    expect(keys[0]).toMatch(UUID);
    expect(new Set(keys).size).toBe(1);
    expect(server.requests[0]?.headers['content-type']).toBe('application/json');
    expect(JSON.parse(server.requests[0]?.body ?? '')).toEqual({ mode: 'test', credits: 50 });

    // A new call is a new operation: a new key. A caller's own key is sent as given.
    server.reply(json(201, created));
    await pgsAdmin.keys.create({ mode: 'test' });
    await pgsAdmin.keys.create({ mode: 'test' }, { idempotencyKey: 'my-key-1' });
    const [second, third] = server.requests.map((r) => r.headers['idempotency-key']);
    expect(second).toMatch(UUID);
    expect(second).not.toBe(keys[0]);
    expect(third).toBe('my-key-1');
  });
});
