import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  APIError,
  AuthenticationError,
  BadRequestError,
  InsufficientCreditsError,
  Pgs,
  ValidationError,
} from '../src/index.ts';
import { envelope, type Handler, json, startServer, type TestServer } from './http-server.ts';

// projects.create and credits.get against a small local server.

const KEY = 'pgs_test_abcdefghijklmnopqrstuvwxyz0123456789';
const ID = '7d0f2c8e-4a9b-4e43-9a55-0d2b8f1c6e21';
const down = (status = 503): Handler => json(status, envelope('INTERNAL_ERROR', 'down'));

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});

function client() {
  // Retries happen, but without sleeping.
  const pgs = new Pgs({ apiKey: KEY, baseUrl: server.url, sleep: async () => {} });
  return { pgs };
}

describe('projects.create and credits.get', () => {
  const accepted = (headers: Record<string, string> = {}) =>
    json(
      202,
      {
        success: true,
        data: { projectId: ID, status: 'in_progress', estimatedCompletionMs: 38_000 },
      },
      { location: `/api/v1/projects/${ID}`, 'retry-after': '30', ...headers },
    );

  it('posts the idea with a generated Idempotency-Key and returns the status, Location and Retry-After', async () => {
    server.reply(accepted());
    const { pgs } = client();
    const created = await pgs.projects.create({
      idea: 'A habit tracker for remote teams',
      type: 'web',
      name: undefined,
      simulate: { outcome: 'completed', durationMs: 1_500 },
    });
    expect(created).toEqual({
      projectId: ID,
      status: 'in_progress',
      estimatedCompletionMs: 38_000,
      location: `${server.url}/api/v1/projects/${ID}`,
      retryAfter: 30,
      replayed: false,
    });
    const [req] = server.requests;
    expect(req?.method).toBe('POST');
    expect(req?.url).toBe('/api/v1/projects');
    expect(req?.headers['content-type']).toBe('application/json');
    expect(req?.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(JSON.parse(req?.body ?? '')).toEqual({
      idea: 'A habit tracker for remote teams',
      type: 'web',
      simulate: { outcome: 'completed', durationMs: 1_500 },
    });
  });

  it('keeps one key across retries, sends a given key as is, and reports a replay', async () => {
    server.reply(down(), json(409, envelope('IDEMPOTENCY_CONFLICT', 'busy')), accepted());
    const { pgs } = client();
    await pgs.projects.create({ idea: 'A habit tracker for remote teams' });
    const keys = server.requests.map((r) => r.headers['idempotency-key']);
    expect(keys).toHaveLength(3);
    expect(new Set(keys).size).toBe(1);

    server.reply(accepted({ 'idempotent-replayed': 'true' }));
    const replayed = await pgs.projects.create(
      { idea: 'A habit tracker for remote teams' },
      { idempotencyKey: 'order-42' },
    );
    expect(server.requests[0]?.headers['idempotency-key']).toBe('order-42');
    expect(replayed.replayed).toBe(true);
  });

  it('throws InsufficientCreditsError and ValidationError with their details', async () => {
    server.reply(
      json(
        402,
        envelope(
          'INSUFFICIENT_CREDITS',
          'This project costs 47 credits; 12 are available.',
          undefined,
          {
            required: 47,
            available: 12,
          },
        ),
      ),
    );
    const { pgs } = client();
    const poor = (await pgs.projects
      .create({ idea: 'A habit tracker for remote teams' })
      .catch((e: unknown) => e)) as InsufficientCreditsError;
    expect(poor).toBeInstanceOf(InsufficientCreditsError);
    expect(poor.details).toEqual({ required: 47, available: 12 });
    expect(server.requests).toHaveLength(1);

    server.reply(
      json(
        400,
        envelope('VALIDATION_ERROR', 'The request body is not valid.', undefined, {
          invalid_fields: { idea: 'must NOT have fewer than 10 characters' },
        }),
      ),
    );
    const invalid = await pgs.projects.create({ idea: 'short' }).catch((e: unknown) => e);
    expect(invalid).toBeInstanceOf(ValidationError);
    expect(invalid).toBeInstanceOf(BadRequestError);
    expect((invalid as ValidationError).invalidFields).toEqual({
      idea: 'must NOT have fewer than 10 characters',
    });
  });

  it('credits.get returns { mode, balance, reserved }', async () => {
    const data = { mode: 'test', balance: 953, reserved: 47 };
    server.reply(json(200, { success: true, data }));
    const { pgs } = client();
    await expect(pgs.credits.get()).resolves.toEqual(data);
    expect(server.requests[0]?.url).toBe('/api/v1/credits');
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it('errors keep their classes through create and credits', async () => {
    server.reply(json(401, envelope('AUTHENTICATION_FAILED', 'The API key is not valid.')));
    const { pgs } = client();
    await expect(pgs.credits.get()).rejects.toBeInstanceOf(AuthenticationError);
    await expect(
      pgs.projects.create({ idea: 'A habit tracker for remote teams' }),
    ).rejects.toBeInstanceOf(APIError);
  });
});
