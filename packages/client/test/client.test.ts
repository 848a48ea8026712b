import { describe, expect, it, vi } from 'vitest';
import {
  APIError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  InsufficientCreditsError,
  InternalServerError,
  InvalidJsonError,
  NotFoundError,
  PayloadTooLargeError,
  PermissionDeniedError,
  Pgs,
  PgsAdmin,
  PgsError,
  RateLimitError,
  UnprocessableEntityError,
  UnsupportedMediaTypeError,
  ValidationError,
  VERSION,
} from '../src/index.ts';
import {
  admin,
  client,
  inProgress,
  KEY,
  PROJECT_ID,
  REQ,
  server,
  useClientServer,
} from './client-helpers.ts';
import { envelope, json } from './http-server.ts';

// projects.get, error classes, base URL and configuration. Setup in client-helpers.ts.

useClientServer();

describe('projects.get', () => {
  it('returns the data member, discriminated on status, with the expected headers', async () => {
    server.reply(json(200, inProgress, { 'x-request-id': REQ }));
    const project = await client().projects.get(PROJECT_ID);
    expect(project).toEqual(inProgress.data);
    if (project.status === 'in_progress') expect(project.estimatedCompletionMs).toBe(42000);

    const [req] = server.requests;
    expect(req?.method).toBe('GET');
    expect(req?.url).toBe(`/api/v1/projects/${PROJECT_ID}`);
    expect(req?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(req?.headers.accept).toBe('application/json');
    expect(req?.headers['x-pgs-client']).toBe(`pgs-js/${VERSION}`);
    expect(req?.headers['user-agent']).toMatch(/^pgs-js\/\S+ node\//);
    expect(req?.headers['idempotency-key']).toBeUndefined();
    expect(req?.headers['content-type']).toBeUndefined();
  });

  it('refuses an empty id before any request', async () => {
    server.reply(json(200, inProgress));
    await expect(client().projects.get('')).rejects.toBeInstanceOf(PgsError);
    expect(server.requests).toHaveLength(0);
  });
});

describe('error classes', () => {
  const cases: [number, string, abstract new (...args: never[]) => APIError][] = [
    [400, 'VALIDATION_ERROR', ValidationError],
    [400, 'INVALID_JSON', InvalidJsonError],
    [400, 'SOMETHING_ELSE', BadRequestError],
    [401, 'AUTHENTICATION_FAILED', AuthenticationError],
    [402, 'INSUFFICIENT_CREDITS', InsufficientCreditsError],
    [403, 'SECURITY_VIOLATION', PermissionDeniedError],
    [404, 'RESOURCE_NOT_FOUND', NotFoundError],
    [409, 'CONFLICT', ConflictError],
    [413, 'VALIDATION_ERROR', PayloadTooLargeError],
    [415, 'VALIDATION_ERROR', UnsupportedMediaTypeError],
    [422, 'VALIDATION_ERROR', UnprocessableEntityError],
    [429, 'RATE_LIMIT_EXCEEDED', RateLimitError],
    [500, 'INTERNAL_ERROR', InternalServerError],
    [503, 'INTERNAL_ERROR', InternalServerError],
  ];

  it.each(cases)('%i %s → %o', async (status, code, Class) => {
    const requestId = `req_01JD6WQ8V4Z9K3M2N5P7R8S${String(status).padStart(3, '0')}`;
    server.reply(json(status, envelope(code, `message ${status}`, requestId)));
    const error = await client({ maxRetries: 0 })
      .projects.get(PROJECT_ID)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Class);
    expect(error).toBeInstanceOf(APIError);
    expect(error).toBeInstanceOf(PgsError);
    const e = error as APIError;
    expect(e.status).toBe(status);
    expect(e.code).toBe(code);
    expect(e.message).toBe(`message ${status}`);
    expect(e.requestId).toBe(requestId);
    expect(e.documentation).toBe(`https://docs.pgs.dev/errors#${code}`);
    expect(e.name).toBe(Class.name);
  });

  it('reads details: missing and invalid fields, auth issue, rate-limit hints', async () => {
    server.reply(
      json(
        400,
        envelope('VALIDATION_ERROR', 'Invalid body', REQ, {
          missing_fields: ['mode'],
          invalid_fields: { credits: 'must be >= 0' },
        }),
      ),
    );
    const validation = (await admin()
      .keys.create({ mode: 'test' })
      .catch((e: unknown) => e)) as ValidationError;
    expect(validation).toBeInstanceOf(ValidationError);
    expect(validation.missingFields).toEqual(['mode']);
    expect(validation.invalidFields).toEqual({ credits: 'must be >= 0' });

    server.reply(
      json(401, envelope('AUTHENTICATION_FAILED', 'revoked', REQ, { issue: 'revoked' }), {
        'www-authenticate': 'Bearer',
      }),
    );
    const auth = (await client()
      .projects.get(PROJECT_ID)
      .catch((e: unknown) => e)) as AuthenticationError;
    expect(auth.details).toEqual({ issue: 'revoked' });
    expect(auth.headers.get('www-authenticate')).toBe('Bearer');

    server.reply(
      json(
        429,
        envelope('RATE_LIMIT_EXCEEDED', 'Too many', REQ, {
          retry_after: 60,
          limit: 100,
          window: '1 minute',
        }),
        { 'x-ratelimit-reset': '1800000000' },
      ),
    );
    const limited = (await client({ maxRetries: 0 })
      .projects.get(PROJECT_ID)
      .catch((e: unknown) => e)) as RateLimitError;
    expect(limited.retryAfter).toBe(60);
    expect(limited.resetAt?.toISOString()).toBe(new Date(1_800_000_000_000).toISOString());
  });

  it('falls back gracefully for a body that is not an error envelope', async () => {
    server.reply((_req, res) => {
      res.writeHead(502, { 'content-type': 'text/html', 'x-request-id': REQ });
      res.end('<h1>Bad Gateway</h1>');
    });
    const error = (await client({ maxRetries: 0 })
      .projects.get(PROJECT_ID)
      .catch((e: unknown) => e)) as InternalServerError;
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error.status).toBe(502);
    expect(error.code).toBeUndefined();
    expect(error.requestId).toBe(REQ);
    expect(error.message).toBe('502 <h1>Bad Gateway</h1>');
  });
});

describe('base URL and configuration', () => {
  it.each([
    ['the server root', ''],
    ['the root with a slash', '/'],
    ['the versioned base', '/api/v1'],
    ['the versioned base with a slash', '/api/v1/'],
  ])('Pgs accepts %s', async (_name, suffix) => {
    server.reply(json(200, inProgress));
    const pgs = client({ baseUrl: `${server.url}${suffix}` });
    expect(pgs.baseUrl).toBe(`${server.url}/api/v1`);
    await pgs.projects.get(PROJECT_ID);
    expect(server.requests[0]?.url).toBe(`/api/v1/projects/${PROJECT_ID}`);
  });

  it.each([
    ['', 'the server root'],
    ['/api/v1', 'an API base'],
    ['/admin/v1/', 'an admin base'],
  ])('PgsAdmin strips %s (%s) to the root', async (suffix) => {
    server.reply(
      json(200, {
        success: true,
        data: {
          keyId: 'key_01JD6WQ8V4Z9K3M2N5P7R8S0TA',
          accountId: 'acct_01JD6WQ8V4Z9K3M2N5P7R8S0TA',
          mode: 'test',
          prefix: 'pgs_test_abcd',
          name: null,
          createdAt: '2026-11-22T10:00:00.000Z',
          revokedAt: '2026-11-22T11:00:00.000Z',
        },
      }),
    );
    const pgsAdmin = admin({ baseUrl: `${server.url}${suffix}` });
    expect(pgsAdmin.baseUrl).toBe(`${server.url}/admin/v1`);
    const revoked = await pgsAdmin.keys.revoke('key_01JD6WQ8V4Z9K3M2N5P7R8S0TA');
    expect(revoked.revokedAt).toBe('2026-11-22T11:00:00.000Z');
    const [req] = server.requests;
    expect(req?.method).toBe('DELETE');
    expect(req?.url).toBe('/admin/v1/keys/key_01JD6WQ8V4Z9K3M2N5P7R8S0TA');
    expect(req?.headers.authorization).toBe('Bearer adm_secret');
  });

  it('falls back to PGS_API_KEY and PGS_BASE_URL', async () => {
    vi.stubEnv('PGS_API_KEY', KEY);
    vi.stubEnv('PGS_BASE_URL', `${server.url}/api/v1`);
    server.reply(json(200, inProgress));
    const pgs = new Pgs();
    expect(pgs.baseUrl).toBe(`${server.url}/api/v1`);
    await pgs.projects.get(PROJECT_ID);
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it('defaults to http://127.0.0.1:3000 and requires a key', () => {
    vi.stubEnv('PGS_API_KEY', '');
    vi.stubEnv('PGS_BASE_URL', '');
    expect(() => new Pgs()).toThrow(/PGS_API_KEY/);
    expect(new Pgs({ apiKey: KEY }).baseUrl).toBe('http://127.0.0.1:3000/api/v1');
    expect(() => new PgsAdmin({ adminToken: '' })).toThrow(/PGS_ADMIN_TOKEN/);
    expect(() => new Pgs({ apiKey: KEY, baseUrl: 'not a url' })).toThrow(PgsError);
  });

  it('admin resources send the documented paths and bodies', async () => {
    const account = {
      accountId: 'acct_01JD6WQ8V4Z9K3M2N5P7R8S0TA',
      name: 'Acme',
      createdAt: '2026-11-22T10:00:00.000Z',
      balances: { live: 0, test: 0 },
      keys: [],
    };
    const grant = { accountId: account.accountId, mode: 'live', amount: 5, balance: 5 };
    server.reply(
      json(201, { success: true, data: account }),
      json(200, { success: true, data: account }),
      json(201, { success: true, data: grant }),
    );
    const pgsAdmin = admin();
    await expect(pgsAdmin.accounts.create({ name: 'Acme' })).resolves.toEqual(account);
    await expect(pgsAdmin.accounts.get(account.accountId)).resolves.toEqual(account);
    await expect(
      pgsAdmin.credits.grant({ accountId: account.accountId, mode: 'live', amount: 5 }),
    ).resolves.toEqual(grant);
    expect(server.requests.map((r) => `${r.method} ${r.url} ${r.body}`)).toEqual([
      'POST /admin/v1/accounts {"name":"Acme"}',
      `GET /admin/v1/accounts/${account.accountId} `,
      `POST /admin/v1/credits/grants {"accountId":"${account.accountId}","mode":"live","amount":5}`,
    ]);
  });
});
