import { randomBytes, randomUUID } from 'node:crypto';
import net from 'node:net';
import { assertMatchesContract } from '@pgs/contract/testing';
import { sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts, apiKeys } from '../src/storage/schema.ts';
import { backends, bearer, DOCS_URL, type Harness, startHarness } from './helpers/harness.ts';

const REQUEST_ID = /^req_[0-9A-HJKMNP-TV-Z]{26}$/;
const CODES = [
  'AUTHENTICATION_FAILED',
  'RESOURCE_NOT_FOUND',
  'RATE_LIMIT_EXCEEDED',
  'INVALID_JSON',
  'VALIDATION_ERROR',
  'SECURITY_VIOLATION',
  'INTERNAL_ERROR',
] as const;
type Code = (typeof CODES)[number];

interface Envelope {
  success: boolean;
  error: {
    code: string;
    message: string;
    request_id: string;
    documentation?: string;
    details?: Record<string, unknown>;
  };
}

/** Checks the seed §7 envelope and our decisions on it; returns the parsed body. */
function expectError(res: LightMyRequestResponse, status: number, code: Code): Envelope {
  expect(res.statusCode, res.body).toBe(status);
  expect(String(res.headers['content-type'])).toMatch(/^application\/json/);
  const body = res.json() as Envelope;
  expect(body.success).toBe(false);
  expect(body.error.code).toBe(code);
  expect(typeof body.error.message).toBe('string');
  expect(body.error.message.length).toBeGreaterThan(0);
  const header = res.headers['x-request-id'];
  expect(header).toMatch(REQUEST_ID);
  expect(body.error.request_id).toBe(header);
  expect(body.error.documentation).toBe(`${DOCS_URL}/errors#${code}`);
  return body;
}

const base62 = (length: number) => {
  const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
  return [...randomBytes(length)].map((byte) => alphabet[byte % 62]).join('');
};
/** Looks exactly like a PGS key (not necessarily an existing one). */
const fakeKey = (mode: 'live' | 'test' = 'test') => `pgs_${mode}_${base62(40)}`;

async function rowCounts(h: Harness): Promise<{ accounts: number; keys: number }> {
  const [a] = await h.database.db.select({ n: sql<number>`count(*)::int` }).from(accounts);
  const [k] = await h.database.db.select({ n: sql<number>`count(*)::int` }).from(apiKeys);
  return { accounts: Number(a?.n), keys: Number(k?.n) };
}

/** One raw HTTP exchange over a fresh socket; resolves when the server closes it. */
function rawExchange(port: number, bytes: string, timeoutMs = 5000): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no complete answer within ${timeoutMs} ms: ${Buffer.concat(chunks)}`));
    }, timeoutMs);
    socket.on('connect', () => socket.write(bytes));
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks).toString('utf8'));
    });
  });
}

function parseRawResponse(text: string) {
  const split = text.indexOf('\r\n\r\n');
  const head = split === -1 ? text : text.slice(0, split);
  const body = split === -1 ? '' : text.slice(split + 4);
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const at = line.indexOf(':');
    if (at > 0) headers[line.slice(0, at).trim().toLowerCase()] = line.slice(at + 1).trim();
  }
  const statusCode = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1]);
  return { statusLine, statusCode, headers, body };
}

describe.each(await backends())('errors on %s', (backend) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness(backend, {
      extend: (app) => {
        app.get('/api/v1/boom', async () => {
          throw new Error('secret db password xyz');
        });
      },
    });
  });
  afterAll(async () => h?.close());

  const admin = (payload: string, headers: Record<string, string> = {}) =>
    h.request({
      method: 'POST',
      url: '/admin/v1/keys',
      headers: { ...bearer(h.adminToken), 'content-type': 'application/json', ...headers },
      payload,
    });

  /** Runs a refused request and checks that no account or key was created by it. */
  async function refused(send: () => Promise<LightMyRequestResponse>) {
    const before = await rowCounts(h);
    const res = await send();
    expect(await rowCounts(h)).toEqual(before);
    return res;
  }

  describe('the envelope', () => {
    it('gives every error its own request id, equal to the X-Request-ID header', async () => {
      const first = expectError(
        await h.request({ method: 'GET', url: '/api/v1/nope' }),
        404,
        'RESOURCE_NOT_FOUND',
      );
      const second = expectError(
        await h.request({ method: 'GET', url: '/api/v1/nope' }),
        404,
        'RESOURCE_NOT_FOUND',
      );
      expect(first.error.request_id).not.toBe(second.error.request_id);
    });

    it('ignores a client-sent X-Request-ID (the server makes its own)', async () => {
      const res = await h.request({
        method: 'GET',
        url: '/api/v1/nope',
        headers: { 'x-request-id': 'req_01AAAAAAAAAAAAAAAAAAAAAAAA' },
      });
      const body = expectError(res, 404, 'RESOURCE_NOT_FOUND');
      expect(body.error.request_id).not.toBe('req_01AAAAAAAAAAAAAAAAAAAAAAAA');
    });
  });

  describe('framework errors', () => {
    it.each([
      ['GET', '/api/v1/nope'],
      ['GET', '/'],
      ['POST', '/api/v2/x'],
    ] as const)('%s %s (unknown route) → 404 RESOURCE_NOT_FOUND', async (method, url) => {
      const res = await h.request({ method, url });
      expectError(res, 404, 'RESOURCE_NOT_FOUND');
    });

    it('PUT /api/v1/projects/<uuid> (wrong method) → 405 VALIDATION_ERROR with Allow', async () => {
      const key = await h.createKey('test');
      const res = await h.request({
        method: 'PUT',
        url: `/api/v1/projects/${randomUUID()}`,
        headers: bearer(key.key),
      });
      const body = expectError(res, 405, 'VALIDATION_ERROR');
      expect(String(res.headers.allow)).toMatch(/\bGET\b/);
      expect(String(res.headers.allow)).toMatch(/\bDELETE\b/);
      expect(body.error.details?.allowed_methods).toContain('GET');
      expect(body.error.details?.allowed_methods).not.toContain('PUT');
    });

    it('PUT /admin/v1/keys (wrong method) → 405 VALIDATION_ERROR with Allow', async () => {
      const res = await h.request({
        method: 'PUT',
        url: '/admin/v1/keys',
        headers: { ...bearer(h.adminToken), 'content-type': 'application/json' },
        payload: '{"mode":"test"}',
      });
      const body = expectError(res, 405, 'VALIDATION_ERROR');
      expect(String(res.headers.allow)).toMatch(/\bPOST\b/);
      expect(body.error.details?.allowed_methods).toEqual(['POST']);
    });
  });

  describe('request bodies on the admin API (POST /admin/v1/keys)', () => {
    it('malformed JSON → 400 INVALID_JSON', async () => {
      const res = await refused(() => admin('{"mode": "test",'));
      expectError(res, 400, 'INVALID_JSON');
    });

    it('content-type text/plain → 415 VALIDATION_ERROR', async () => {
      const res = await refused(() =>
        admin('{"mode":"test"}', { 'content-type': 'text/plain; charset=utf-8' }),
      );
      const body = expectError(res, 415, 'VALIDATION_ERROR');
      expect(body.error.details?.supported_media_types).toEqual(['application/json']);
    });

    it('missing mode → 400 VALIDATION_ERROR with details.missing_fields', async () => {
      const res = await refused(() => admin('{"credits": 5}'));
      const body = expectError(res, 400, 'VALIDATION_ERROR');
      expect(body.error.details?.missing_fields).toContain('mode');
    });

    it('bad mode, negative credits and an unknown field → each named in invalid_fields', async () => {
      const res = await refused(() => admin('{"mode":"prod","credits":-1,"colour":"red"}'));
      const body = expectError(res, 400, 'VALIDATION_ERROR');
      const invalid = body.error.details?.invalid_fields as Record<string, string> | undefined;
      expect(Object.keys(invalid ?? {}).sort()).toEqual(['colour', 'credits', 'mode']);
      for (const rule of Object.values(invalid ?? {})) expect(typeof rule).toBe('string');
    });

    it.each([
      ['__proto__', '{"__proto__": {"x": 1}, "mode": "test"}'],
      ['constructor.prototype', '{"constructor": {"prototype": {"x": 1}}, "mode": "test"}'],
      ['nested __proto__', '{"mode": "test", "name": "n", "a": {"__proto__": {"x": 1}}}'],
    ])('a %s key → 403 SECURITY_VIOLATION', async (_name, payload) => {
      const res = await refused(() => admin(payload));
      expectError(res, 403, 'SECURITY_VIOLATION');
      expect(({} as Record<string, unknown>).x).toBeUndefined();
    });

    it('an API key in the body → 403 SECURITY_VIOLATION', async () => {
      const res = await refused(() =>
        admin(JSON.stringify({ mode: 'test', name: fakeKey('test') })),
      );
      expectError(res, 403, 'SECURITY_VIOLATION');
    });

    it('a body that is accepted does create a key (the counts can move)', async () => {
      const before = await rowCounts(h);
      const res = await admin('{"mode":"test"}');
      expect(res.statusCode).toBe(201);
      expect(await rowCounts(h)).toEqual({
        accounts: before.accounts + 1,
        keys: before.keys + 1,
      });
    });
  });

  describe('an API key in the query string → 403 SECURITY_VIOLATION', () => {
    it('on the API, even with a valid Authorization header', async () => {
      const key = await h.createKey('test');
      const res = await h.request({
        method: 'GET',
        url: `/api/v1/projects/${randomUUID()}?api_key=${key.key}`,
        headers: bearer(key.key),
      });
      expectError(res, 403, 'SECURITY_VIOLATION');
    });

    it('on the API, percent-encoded and without an Authorization header', async () => {
      const key = fakeKey('live');
      const res = await h.request({
        method: 'GET',
        url: `/api/v1/projects/${randomUUID()}?token=${encodeURIComponent(key).replace(/_/g, '%5F')}`,
      });
      expectError(res, 403, 'SECURITY_VIOLATION');
    });

    it('on the admin API', async () => {
      const res = await refused(() =>
        h.request({
          method: 'POST',
          url: `/admin/v1/keys?key=${fakeKey('test')}`,
          headers: { ...bearer(h.adminToken), 'content-type': 'application/json' },
          payload: '{"mode":"test"}',
        }),
      );
      expectError(res, 403, 'SECURITY_VIOLATION');
    });
  });

  it('an unexpected error → 500 INTERNAL_ERROR with a generic message and nothing leaked', async () => {
    const res = await h.request({ method: 'GET', url: '/api/v1/boom' });
    const body = expectError(res, 500, 'INTERNAL_ERROR');
    expect(res.body).not.toContain('xyz');
    expect(res.body).not.toMatch(/secret|password/i);
    expect(res.body).not.toMatch(/\bat /);
    expect(res.body).not.toMatch(/\.ts:\d+/);
    expect(body.error.details).toBeUndefined();
  });

  it('a malformed HTTP request line → 400 with the JSON envelope and a request id', async () => {
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    const address = h.app.server.address();
    if (address === null || typeof address === 'string') throw new Error('not listening');
    const raw = parseRawResponse(await rawExchange(address.port, 'GARBAGE\r\n\r\n'));
    expect(raw.statusCode, raw.statusLine).toBe(400);
    expect(raw.headers['content-type']).toMatch(/^application\/json/);
    const body = JSON.parse(raw.body) as Envelope;
    expect(body.success).toBe(false);
    expect(body.error.request_id).toMatch(REQUEST_ID);
    expect(raw.headers['x-request-id']).toBe(body.error.request_id);
    expect(body.error.documentation).toBe(`${DOCS_URL}/errors#${body.error.code}`);
    assertMatchesContract('GET', '/', {
      statusCode: raw.statusCode,
      headers: raw.headers,
      body: raw.body,
    });
  });

  describe('reference documents (not operations of the contract, so not contract-checked)', () => {
    it('GET /docs/errors is HTML with an anchor per code', async () => {
      const res = await h.app.inject({ method: 'GET', url: '/docs/errors' });
      expect(res.statusCode).toBe(200);
      expect(String(res.headers['content-type'])).toMatch(/^text\/html/);
      for (const code of CODES) expect(res.body).toContain(`id="${code}"`);
    });

    it('GET /openapi.json is the contract', async () => {
      const res = await h.app.inject({ method: 'GET', url: '/openapi.json' });
      expect(res.statusCode).toBe(200);
      expect(String(res.headers['content-type'])).toMatch(/^application\/json/);
      const document = res.json() as { openapi: string; paths: Record<string, unknown> };
      expect(document.openapi).toBe('3.1.0');
      expect(Object.keys(document.paths)).toContain('/projects/{projectId}');
    });
  });
});

describe.each(await backends())('body size limit on %s', (backend) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness(backend, { bodyLimitBytes: 2048 });
  });
  afterAll(async () => h?.close());

  it('a 4 KB body → 413 VALIDATION_ERROR with details, and nothing created', async () => {
    const [before] = await h.database.db.select({ n: sql<number>`count(*)::int` }).from(apiKeys);
    const payload = JSON.stringify({ mode: 'test', name: 'x'.repeat(4096) });
    expect(Buffer.byteLength(payload)).toBeGreaterThan(4096);
    const res = await h.request({
      method: 'POST',
      url: '/admin/v1/keys',
      headers: { ...bearer(h.adminToken), 'content-type': 'application/json' },
      payload,
    });
    const body = expectError(res, 413, 'VALIDATION_ERROR');
    expect(body.error.details?.max_bytes).toBe(2048);
    expect(body.error.details?.invalid_fields).toHaveProperty('body');
    const [after] = await h.database.db.select({ n: sql<number>`count(*)::int` }).from(apiKeys);
    expect(Number(after?.n)).toBe(Number(before?.n));
  });

  it('a body under the limit is accepted', async () => {
    // Padding with JSON whitespace: the body is near the limit, the name within its own.
    const payload = `${JSON.stringify({ mode: 'test', name: 'x'.repeat(200) })}${' '.repeat(1600)}`;
    expect(Buffer.byteLength(payload)).toBeLessThan(2048);
    const res = await h.request({
      method: 'POST',
      url: '/admin/v1/keys',
      headers: { ...bearer(h.adminToken), 'content-type': 'application/json' },
      payload,
    });
    expect(res.statusCode, res.body).toBe(201);
  });
});
