import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, bearer, type Harness, startHarness } from './helpers/harness.ts';

/**
 * Seed §9 (versioning), issue 2 item 7.
 *
 * The server supports only v1.0, so "API-Version and Accept disagree" cannot be tested as
 * the only fault: any second value differs from v1.0 and is therefore also unsupported.
 * What is tested: a disagreement is refused whichever side names the unsupported version,
 * and the two agreeing on v1.0 are served.
 */

const REQUEST_ID = /^req_[0-9A-HJKMNP-TV-Z]{26}$/;
// 5 requests per key, so that a 429 is cheap to reach; every test uses keys of its own.
const RULES = { status: { name: 'status', points: 5, durationSec: 60, window: '1 minute' } };

function header(res: LightMyRequestResponse, name: string): string {
  const value = res.headers[name.toLowerCase()];
  expect(value, `header ${name}`).toBeDefined();
  return String(value);
}

function expectVersionHeaders(res: LightMyRequestResponse): void {
  expect(header(res, 'API-Version')).toBe('v1.0');
  expect(header(res, 'API-Supported-Versions')).toBe('v1.0');
  expect(header(res, 'API-Latest-Version')).toBe('v1.0');
  expect(header(res, 'X-Request-ID')).toMatch(REQUEST_ID);
}

function expectVersionRefused(res: LightMyRequestResponse): void {
  expect(res.statusCode).toBe(400);
  const { error } = res.json();
  expect(error.code).toBe('VALIDATION_ERROR');
  expect(Array.isArray(error.details.supported_versions)).toBe(true);
  expect(error.details.supported_versions).toContain('v1.0');
  expect(error.request_id).toBe(header(res, 'X-Request-ID'));
  expectVersionHeaders(res);
}

describe.each(await backends())('versioning on %s', (backend) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness(backend, { rules: RULES });
  });
  afterAll(async () => h?.close());

  /** GET a project of a fresh key (in progress unless told), with extra headers. */
  async function read(
    headers: Record<string, string> = {},
    status: 'in_progress' | 'completed' = 'in_progress',
  ): Promise<LightMyRequestResponse> {
    const key = await h.createKey('test');
    const id = await h.seedProject(key, { status });
    return h.request({
      method: 'GET',
      url: `/api/v1/projects/${id}`,
      headers: { ...bearer(key.key), ...headers },
    });
  }

  describe('the three version headers on every response', () => {
    const cases: { name: string; status: number; send: () => Promise<LightMyRequestResponse> }[] = [
      { name: '200 project', status: 200, send: () => read() },
      {
        name: '304 not modified',
        status: 304,
        send: async () => {
          const key = await h.createKey('test');
          const url = `/api/v1/projects/${await h.seedProject(key, { status: 'completed' })}`;
          const first = await h.request({ method: 'GET', url, headers: bearer(key.key) });
          return h.request({
            method: 'GET',
            url,
            headers: { ...bearer(key.key), 'if-none-match': header(first, 'ETag') },
          });
        },
      },
      {
        name: '400 malformed id',
        status: 400,
        send: async () => {
          const key = await h.createKey('test');
          return h.request({
            method: 'GET',
            url: '/api/v1/projects/not-a-uuid',
            headers: bearer(key.key),
          });
        },
      },
      {
        name: '400 unsupported version',
        status: 400,
        send: () => read({ 'api-version': 'v2.0' }),
      },
      {
        name: '401 no key',
        status: 401,
        send: () => h.request({ method: 'GET', url: `/api/v1/projects/${randomUUID()}` }),
      },
      {
        name: '403 key in the query',
        status: 403,
        send: async () => {
          const key = await h.createKey('test');
          return h.request({
            method: 'GET',
            url: `/api/v1/projects/${randomUUID()}?api_key=${key.key}`,
            headers: bearer(key.key),
          });
        },
      },
      {
        name: '404 project',
        status: 404,
        send: async () => {
          const key = await h.createKey('test');
          return h.request({
            method: 'GET',
            url: `/api/v1/projects/${randomUUID()}`,
            headers: bearer(key.key),
          });
        },
      },
      {
        name: '404 unknown route under /api/v1',
        status: 404,
        send: () => h.request({ method: 'GET', url: '/api/v1/nope' }),
      },
      {
        name: '404 unknown route',
        status: 404,
        send: () => h.request({ method: 'GET', url: '/nothing' }),
      },
      {
        name: '405 wrong method',
        status: 405,
        send: () => h.request({ method: 'PUT', url: `/api/v1/projects/${randomUUID()}` }),
      },
      {
        name: '429 over the limit',
        status: 429,
        send: async () => {
          const key = await h.createKey('test');
          const request = () =>
            h.request({
              method: 'GET',
              url: `/api/v1/projects/${randomUUID()}`,
              headers: bearer(key.key),
            });
          for (let i = 0; i < RULES.status.points; i++) {
            expect((await request()).statusCode).toBe(404);
          }
          return request();
        },
      },
    ];

    it.each(cases)('$name', async ({ status, send }) => {
      const res = await send();
      expect(res.statusCode).toBe(status);
      expectVersionHeaders(res);
    });
  });

  describe('selecting v1.0', () => {
    it('API-Version: v1.0 → 200, served by v1.0', async () => {
      const res = await read({ 'api-version': 'v1.0' });
      expect(res.statusCode).toBe(200);
      expect(header(res, 'API-Version')).toBe('v1.0');
    });

    it.each([
      'application/json; version=v1.0',
      'application/json;version=v1.0',
      'application/json; version="v1.0"',
      'text/html;q=0.5, application/json; version=v1.0',
    ])('Accept: %s → 200, served by v1.0', async (accept) => {
      const res = await read({ accept });
      expect(res.statusCode).toBe(200);
      expect(header(res, 'API-Version')).toBe('v1.0');
    });

    it('no version asked for → the latest', async () => {
      for (const headers of [{}, { accept: 'application/json' }, { accept: '*/*' }]) {
        const res = await read(headers);
        expect(res.statusCode).toBe(200);
        expect(header(res, 'API-Version')).toBe(header(res, 'API-Latest-Version'));
        expect(header(res, 'API-Version')).toBe('v1.0');
        expect(header(res, 'API-Supported-Versions').split(/, ?/)).toContain('v1.0');
      }
    });

    it('API-Version and Accept both naming v1.0 → 200', async () => {
      const res = await read(
        { 'api-version': 'v1.0', accept: 'application/json; version=v1.0' },
        'completed',
      );
      expect(res.statusCode).toBe(200);
      expect(res.json().data.status).toBe('completed');
      expect(header(res, 'API-Version')).toBe('v1.0');
    });
  });

  describe('refusing a version', () => {
    it.each(['v2.0', 'v1.9', 'v0.9', '1.0', 'latest', 'v1', 'V1.0'])(
      'API-Version: %s → 400 VALIDATION_ERROR with supported_versions',
      async (version) => {
        expectVersionRefused(await read({ 'api-version': version }));
      },
    );

    it.each(['v2.0', 'v1.9', '1.0', 'latest'])(
      'Accept: application/json; version=%s → 400 VALIDATION_ERROR with supported_versions',
      async (version) => {
        expectVersionRefused(await read({ accept: `application/json; version=${version}` }));
      },
    );

    it.each([
      ['v1.0', 'v1.5'],
      ['v1.5', 'v1.0'],
      ['v1.0', 'latest'],
    ])('API-Version %s with Accept version=%s disagree → 400', async (fromHeader, accept) => {
      expectVersionRefused(
        await read({ 'api-version': fromHeader, accept: `application/json; version=${accept}` }),
      );
    });

    it('a refused version is not served: no project data in the answer', async () => {
      const res = await read({ 'api-version': 'v2.0' }, 'completed');
      expect(res.statusCode).toBe(400);
      expect(res.json().data).toBeUndefined();
      expect(res.body).not.toContain('TeamPulse');
    });
  });
});
