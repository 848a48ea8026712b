import { randomUUID } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import { SINGLE_LINE_RULE } from '@pgs/contract';
import { assertMatchesContract } from '@pgs/contract/testing';
import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedKey } from '../src/accounts/service.ts';
import { UNSAFE_TEXT_RULE } from '../src/api/plugins/json-body.ts';
import { apiKeys, idempotencyKeys, projects } from '../src/storage/schema.ts';
import { backends, bearer, DOCS_URL, type Harness, startHarness } from './helpers/harness.ts';

/**
 * Issue 8 item 9 and docs/api.md "Errors": text PostgreSQL cannot store (NUL) or that is not
 * Unicode (a lone surrogate) anywhere in a JSON body, and methods no route answers, CONNECT
 * included, each get a 4xx in the envelope.
 */

const REQUEST_ID = /^req_[0-9A-HJKMNP-TV-Z]{26}$/;
const IDEA = 'A habit tracker for remote teams that nudges people at the right time.';

// biome-ignore lint/suspicious/noExplicitAny: the shape of details differs per case
type Details = Record<string, any>;

interface Answer {
  statusCode: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
}

/** The envelope of an error answer, checked: status, code, request id in header and body. */
function expectEnvelope(res: Answer, status: number) {
  expect(res.statusCode, res.body).toBe(status);
  expect(String(res.headers['content-type'])).toMatch(/^application\/json/);
  const body = JSON.parse(res.body) as {
    success: boolean;
    error: { code: string; request_id: string; documentation: string; details: Details };
  };
  expect(body.success).toBe(false);
  expect(body.error.code).toBe('VALIDATION_ERROR');
  expect(body.error.request_id).toMatch(REQUEST_ID);
  expect(res.headers['x-request-id']).toBe(body.error.request_id);
  expect(body.error.documentation).toBe(`${DOCS_URL}/errors#VALIDATION_ERROR`);
  return body.error;
}

/** One request with any method over a real socket (inject would not go through Node's parser). */
function httpRequest(port: number, method: string, path: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({
          statusCode: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

/** Writes raw bytes, reads until the server closes the socket, parses the HTTP response. */
function rawExchange(port: number, bytes: string, timeoutMs = 5000): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port, host: '127.0.0.1' }, () => socket.write(bytes));
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no complete answer within ${timeoutMs} ms: ${Buffer.concat(chunks)}`));
    }, timeoutMs);
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    socket.on('close', () => {
      clearTimeout(timer);
      const text = Buffer.concat(chunks).toString('utf8');
      const split = text.indexOf('\r\n\r\n');
      const [statusLine = '', ...lines] = text.slice(0, Math.max(split, 0)).split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const at = line.indexOf(':');
        if (at > 0) headers[line.slice(0, at).trim().toLowerCase()] = line.slice(at + 1).trim();
      }
      resolve({
        statusCode: Number(/^HTTP\/1\.1 (\d{3}) /.exec(statusLine)?.[1]),
        headers,
        body: split === -1 ? '' : text.slice(split + 4),
      });
    });
  });
}

describe.each(await backends())('bad input on %s', (backend) => {
  let h: Harness;
  let port: number;
  beforeAll(async () => {
    h = await startHarness(backend, { generation: 'workers' });
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    const address = h.app.server.address();
    if (address === null || typeof address === 'string') throw new Error('not listening');
    port = address.port;
  });
  afterAll(async () => h?.close());

  const projectsOf = (key: CreatedKey) =>
    h.database.db.select().from(projects).where(eq(projects.accountId, key.accountId));

  describe('NUL and lone surrogates in a JSON body → 400 VALIDATION_ERROR, nothing stored', () => {
    it.each([
      ['a NUL in idea', { idea: `${IDEA}\u0000` }, 'idea'],
      ['a NUL in name', { idea: IDEA, name: 'Team\u0000Pulse' }, 'name'],
      [
        'a NUL in a nested unknown field',
        { idea: IDEA, meta: { notes: ['fine', 'not\u0000fine'] } },
        'meta.notes[1]',
      ],
      ['a NUL in a key', { idea: IDEA, 'a\u0000b': 1 }, 'a\\u0000b'],
      ['a lone high surrogate', { idea: `${IDEA} \uD83D` }, 'idea'],
      ['a lone low surrogate', { idea: `\uDE00 ${IDEA}` }, 'idea'],
      ['a pair in the wrong order', { idea: IDEA, name: '\uDE00\uD83D' }, 'name'],
    ])('%s', async (_case, body, field) => {
      const key = await h.createKey('test', { credits: 500 });
      const before = await h.credits(key);
      const res = await h.createProject(key, body, { 'idempotency-key': randomUUID() });
      const error = expectEnvelope(res, 400);
      expect(error.details).toEqual({ invalid_fields: { [field]: UNSAFE_TEXT_RULE } });
      expect(await projectsOf(key)).toEqual([]);
      expect(await h.credits(key)).toEqual(before);
      const remembered = await h.database.db
        .select()
        .from(idempotencyKeys)
        .where(eq(idempotencyKeys.accountId, key.accountId));
      expect(remembered).toEqual([]);
    });

    it('names every offending field, at any depth', async () => {
      const key = await h.createKey('test', { credits: 500 });
      const res = await h.createProject(key, {
        idea: `${IDEA}\u0000`,
        deep: [[{ x: '\uDFFF' }]],
      });
      const error = expectEnvelope(res, 400);
      expect(error.details.invalid_fields).toEqual({
        idea: UNSAFE_TEXT_RULE,
        'deep[0][0].x': UNSAFE_TEXT_RULE,
      });
    });

    it('a valid surrogate pair (an emoji) is accepted and stored as sent', async () => {
      const key = await h.createKey('test', { credits: 500 });
      const idea = `${IDEA} 🌱 with a \\u0000 that is only text.`;
      const res = await h.createProject(key, { idea, name: 'Sprout 🌱' });
      expect(res.statusCode, res.body).toBe(202);
      const [stored] = await projectsOf(key);
      expect(stored?.idea).toBe(idea);
    });

    it('on the admin API too: a NUL in a key name → 400, no key created', async () => {
      const count = async () => (await h.database.db.select().from(apiKeys)).length;
      const before = await count();
      const res = await h.request({
        method: 'POST',
        url: '/admin/v1/keys',
        headers: { ...bearer(h.adminToken), 'content-type': 'application/json' },
        payload: JSON.stringify({ mode: 'test', name: 'ci\u0000' }),
      });
      const error = expectEnvelope(res, 400);
      expect(error.details).toEqual({ invalid_fields: { name: UNSAFE_TEXT_RULE } });
      expect(await count()).toBe(before);
    });
  });

  describe('control and bidi characters in single-line fields → 400 naming the field (issue 27)', () => {
    const INJECTED = 'Acme\n\n## Injected Section';
    const post = (url: string, token: string, body: unknown) =>
      h.request({
        method: 'POST',
        url,
        headers: { ...bearer(token), 'content-type': 'application/json' },
        payload: JSON.stringify(body),
      });

    it.each([
      ['line breaks (markdown injection)', INJECTED],
      ['a CR LF', 'Acme\r\nX-Injected: 1'],
      ['a tab', 'Acme\tCorp'],
      ['a C1 control (NEL)', 'Acme\u0085Corp'],
      ['DEL', 'Acme\u007f'],
      ['a right-to-left override', 'Acme\u202Egnp.exe'],
      ['a bidi isolate', '\u2067Acme\u2069'],
      ['a right-to-left mark', 'Acme\u200F'],
      ['a line separator', 'Acme\u2028Corp'],
    ])("a project's name with %s → 400, nothing stored", async (_case, name) => {
      const key = await h.createKey('test', { credits: 500 });
      const before = await h.credits(key);
      const res = await h.createProject(key, { idea: IDEA, name });
      const error = expectEnvelope(res, 400);
      expect(error.details).toEqual({ invalid_fields: { name: SINGLE_LINE_RULE } });
      expect(await projectsOf(key)).toEqual([]);
      expect(await h.credits(key)).toEqual(before);
    });

    it("a repository digest's name, named by its path", async () => {
      const key = await h.createKey('test', { credits: 500 });
      const repository = {
        name: INJECTED,
        files: [{ path: 'README.md', content: '# Vetbook\n' }],
      };
      const res = await h.createProject(key, { idea: IDEA, context: { repository } });
      const error = expectEnvelope(res, 400);
      expect(error.details).toEqual({
        invalid_fields: { 'context.repository.name': SINGLE_LINE_RULE },
      });
      expect(await projectsOf(key)).toEqual([]);
    });

    it('a webhook URL (a URL parser would drop the line break and register another URL)', async () => {
      const key = await h.createKey('test');
      const res = await post('/api/v1/webhook-endpoints', key.key, {
        url: 'https://93.184.215.20/ho\nok',
      });
      expect(expectEnvelope(res, 400).details).toEqual({
        invalid_fields: { url: SINGLE_LINE_RULE },
      });
    });

    it("an account's and a key's name on the admin API", async () => {
      const count = async () => (await h.database.db.select().from(apiKeys)).length;
      const keys = await count();
      const account = await post('/admin/v1/accounts', h.adminToken, { name: INJECTED });
      expect(expectEnvelope(account, 400).details).toEqual({
        invalid_fields: { name: SINGLE_LINE_RULE },
      });
      const key = await post('/admin/v1/keys', h.adminToken, { mode: 'test', name: 'ci\u202E' });
      expect(expectEnvelope(key, 400).details).toEqual({
        invalid_fields: { name: SINGLE_LINE_RULE },
      });
      expect(await count()).toBe(keys);
    });

    it('a property: a name holding any refused character is refused, any other passes validation', async () => {
      // Listed by hand, not read from the pattern: C0, DEL, C1, separators, bidi controls.
      const refused = [
        // NUL has a rule of its own (above).
        ...Array.from({ length: 0x1f }, (_, i) => 1 + i),
        ...Array.from({ length: 0x21 }, (_, i) => 0x7f + i),
        0x061c,
        0x200e,
        0x200f,
        ...Array.from({ length: 7 }, (_, i) => 0x2028 + i),
        ...Array.from({ length: 4 }, (_, i) => 0x2066 + i),
      ].map((code) => String.fromCodePoint(code));
      const refusedSet = new Set(refused);
      // Within the 80 code points of a project's name, however long each grapheme is.
      const text = fc
        .string({ unit: 'grapheme', maxLength: 20 })
        .filter((t) => [...t].length <= 39);
      // A key per request, each under the create limit; without credits, a name that passes
      // validation is answered 402 and nothing is generated.
      const send = async (field: 'name' | 'context.repository.name', value: string) =>
        h.createProject(await h.createKey('test', { credits: 0 }), {
          idea: IDEA,
          ...(field === 'name'
            ? { name: value }
            : {
                context: { repository: { name: value, files: [{ path: 'a.md', content: 'a' }] } },
              }),
        });
      const field = fc.constantFrom('name' as const, 'context.repository.name' as const);
      await fc.assert(
        fc.asyncProperty(field, text, fc.constantFrom(...refused), text, async (f, a, c, b) => {
          const res = await send(f, `${a}${c}${b}`);
          expect(res.statusCode, res.body).toBe(400);
          expect(res.json().error.details.invalid_fields).toEqual({ [f]: SINGLE_LINE_RULE });
        }),
        { numRuns: 25 },
      );
      const clean = text.filter((t) => t.length > 0 && ![...t].some((c) => refusedSet.has(c)));
      await fc.assert(
        fc.asyncProperty(field, clean, async (f, name) => {
          const res = await send(f, name);
          expect(res.statusCode, res.body).toBe(402);
        }),
        { numRuns: 25 },
      );
    });

    it('any other text is a name as written: accents, scripts, emoji sequences', async () => {
      const key = await h.createKey('test', { credits: 500 });
      const name = 'Café مرحبا 日本 👩‍💻';
      const res = await h.createProject(key, { idea: IDEA, name });
      expect(res.statusCode, res.body).toBe(202);
      const [stored] = await projectsOf(key);
      expect(stored?.requestedName).toBe(name);
    });
  });

  describe('NUL elsewhere never reaches the database as text', () => {
    it('a path parameter is validated by its format → 400', async () => {
      const key = await h.createKey('test');
      const res = await h.request({
        method: 'GET',
        url: '/api/v1/projects/%00',
        headers: bearer(key.key),
      });
      const error = expectEnvelope(res, 400);
      expect(Object.keys(error.details.invalid_fields)).toEqual(['projectId']);
      const admin = await h.request({
        method: 'GET',
        url: '/admin/v1/accounts/acct_%00',
        headers: bearer(h.adminToken),
      });
      expect(Object.keys(expectEnvelope(admin, 400).details.invalid_fields)).toEqual(['accountId']);
    });

    it('a header cannot carry one: Node refuses the request → 400', async () => {
      const res = await rawExchange(
        port,
        'GET /api/v1/credits HTTP/1.1\r\nHost: x\r\nIdempotency-Key: a\u0000b\r\n\r\n',
      );
      expectEnvelope(res, 400);
    });
  });

  describe('methods no route answers → 405 VALIDATION_ERROR', () => {
    it('CONNECT gets a complete answer before the socket closes', async () => {
      const res = await rawExchange(
        port,
        'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n',
      );
      const error = expectEnvelope(res, 405);
      expect(res.headers.connection).toBe('close');
      expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.body));
      expect(res.headers['api-version']).toBeDefined();
      expect(res.headers.allow).toBeUndefined();
      expect(error.details).toEqual({ method: 'CONNECT', allowed_methods: [] });
      assertMatchesContract('CONNECT', '/', res);
    });

    it('CONNECT to a path with routes lists them in Allow', async () => {
      const res = await rawExchange(port, 'CONNECT /api/v1/projects HTTP/1.1\r\nHost: x\r\n\r\n');
      const error = expectEnvelope(res, 405);
      expect(String(res.headers.allow)).toMatch(/\bPOST\b/);
      expect(error.details.allowed_methods).toEqual(String(res.headers.allow).split(', '));
    });

    it.each(['TRACE', 'PROPFIND', 'FOO'])('%s on a route → 405 with Allow', async (method) => {
      const res = await httpRequest(port, method, '/api/v1/projects');
      const error = expectEnvelope(res, 405);
      expect(String(res.headers.allow)).toMatch(/\bPOST\b/);
      expect(error.details).toEqual({
        method,
        allowed_methods: String(res.headers.allow).split(', '),
      });
      assertMatchesContract(method, '/api/v1/projects', res);
    });

    it.each(['TRACE', 'FOO'])('%s where no route is → 405 without Allow', async (method) => {
      const res = await httpRequest(port, method, '/nowhere');
      const error = expectEnvelope(res, 405);
      expect(res.headers.allow).toBeUndefined();
      expect(error.details).toEqual({ method, allowed_methods: [] });
    });

    it('QUERY without a Content-Type → 405, not a complaint about the body', async () => {
      const res = await h.request({ method: 'QUERY', url: '/api/v1/credits' });
      expectEnvelope(res, 405);
      expect(String(res.headers.allow)).toMatch(/\bGET\b/);
    });

    it('an API key in the URL still wins (403): the URL screen comes first', async () => {
      const key = await h.createKey('test');
      const res = await h.request({ method: 'TRACE', url: `/api/v1/projects?k=${key.key}` });
      expect(res.statusCode).toBe(403);
      expect(res.json().error.code).toBe('SECURITY_VIOLATION');
    });
  });
});
