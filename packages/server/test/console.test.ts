import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { type DocumentCompletedData, Pgs, type ProjectStatus } from '@pgs/client';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, HASH_FILE, inputsHash } from '../../web/scripts/ensure-built.ts';
import { authorship, documentPart, qualityLine } from '../../web/src/provenance.ts';
import { COVERAGE_COLUMNS, gapsOf } from '../../web/src/trace.ts';
import { watchProject } from '../../web/src/watch.ts';
import { generateAdminToken } from '../src/accounts/api-keys.ts';
import { buildApp } from '../src/app.ts';
import { DEFAULT_CONSOLE_DIR, loadConfig } from '../src/config.ts';
import { createLimiters } from '../src/limits/rules.ts';
import { offlineModels } from '../src/runs/models.ts';
import type { Database } from '../src/storage/db.ts';
import { listDocuments } from '../src/storage/sql/projects.ts';
import { memoryDatabase } from './helpers/database.ts';
import { backends, type Harness, roomy, startHarness } from './helpers/harness.ts';
import { waitFor } from './helpers/wait.ts';

const DOCS_URL = 'http://docs.test/pgs';
const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";
const PAGE =
  '<!doctype html><title>PGS console</title><script type="module" src="/assets/app-Ab12.js"></script>';
const SCRIPT = 'console.log("console fixture");';

/** The real app with the console served from `dir`. */
async function appWithConsole(database: Database, dir: string): Promise<FastifyInstance> {
  const app = await buildApp({
    config: {
      docsUrl: DOCS_URL,
      bodyLimitBytes: 65_536,
      trustProxy: false,
      webhooksAllowPrivate: false,
      consoleDir: dir,
    },
    database,
    adminToken: generateAdminToken(),
    limiters: await createLimiters({ kind: 'memory' }),
    dispatcher: {
      enqueue: async () => {
        throw new Error('no queue in the console tests');
      },
    },
    models: offlineModels(),
  });
  await app.ready();
  return app;
}

function expectConsoleHeaders(res: LightMyRequestResponse) {
  expect(res.headers['content-security-policy']).toBe(CSP);
  expect(res.headers['x-content-type-options']).toBe('nosniff');
  expect(res.headers['referrer-policy']).toBe('no-referrer');
}

function expectEnvelope(res: LightMyRequestResponse, status: number, code: string) {
  expect(res.statusCode, res.body).toBe(status);
  expect(String(res.headers['content-type'])).toMatch(/^application\/json/);
  const body = res.json() as {
    success: boolean;
    error: { code: string; message: string; request_id: string; details?: unknown };
  };
  expect(body.success).toBe(false);
  expect(body.error.code).toBe(code);
  expect(body.error.request_id).toBe(res.headers['x-request-id']);
  expect(body.error.message.length).toBeGreaterThan(0);
  return body.error;
}

// One embedded database for the file: the console needs none, the app does (auth, docs).
let database: Database;
beforeAll(async () => {
  database = await memoryDatabase();
});
afterAll(async () => database?.close());

describe('the console at /', () => {
  let app: FastifyInstance;
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'pgs-console-'));
    await mkdir(path.join(dir, 'assets'));
    await writeFile(path.join(dir, 'index.html'), PAGE);
    await writeFile(path.join(dir, 'assets', 'app-Ab12.js'), SCRIPT);
    await writeFile(path.join(dir, 'assets', '.secret'), 'not for the web');
    await writeFile(path.join(dir, HASH_FILE), 'abc\n');
    app = await appWithConsole(database, dir);
  });
  afterAll(async () => {
    await app?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('serves the page with a strict CSP, nosniff, no referrer, and no-cache', async () => {
    const res = await app.inject({ method: 'GET', url: '/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.body).toBe(PAGE);
    expectConsoleHeaders(res);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers.etag).toBeDefined();
    const head = await app.inject({ method: 'HEAD', url: '/' });
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
    expectConsoleHeaders(head);
  });

  it('answers a revalidation of the page with 304', async () => {
    const first = await app.inject({ method: 'GET', url: '/' });
    const again = await app.inject({
      method: 'GET',
      url: '/',
      headers: { 'if-none-match': String(first.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });

  it('serves hashed assets as immutable, with the same headers', async () => {
    const res = await app.inject({ method: 'GET', url: '/assets/app-Ab12.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^(application|text)\/javascript/);
    expect(res.body).toBe(SCRIPT);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expectConsoleHeaders(res);
  });

  it.each([
    '/assets/missing-Zz99.js',
    '/assets/.secret',
    '/assets/..%2Findex.html',
    '/assets/%2E%2E%2F%2E%2E%2Fpackage.json',
  ])('answers %s with the 404 envelope, never cached', async (url) => {
    const res = await app.inject({ method: 'GET', url });
    const error = expectEnvelope(res, 404, 'RESOURCE_NOT_FOUND');
    expect(error.details).toMatchObject({ resource_type: 'asset' });
    expect(res.headers['cache-control']).toBeUndefined();
    expect(res.body).not.toContain('not for the web');
  });

  it('keeps the 404 envelope for every other path: no fallback to the page', async () => {
    for (const url of ['/nope', '/index.html', `/${HASH_FILE}`, '/projects/123', '/assets']) {
      const error = expectEnvelope(
        await app.inject({ method: 'GET', url }),
        404,
        'RESOURCE_NOT_FOUND',
      );
      expect(error.details).toEqual({ resource_type: 'route', resource_id: `GET ${url}` });
    }
  });

  it('answers a wrong method at the console with the 405 envelope', async () => {
    for (const [method, url] of [
      ['POST', '/'],
      ['DELETE', '/assets/app-Ab12.js'],
    ] as const) {
      const res = await app.inject({ method, url });
      expectEnvelope(res, 405, 'VALIDATION_ERROR');
      expect(res.headers.allow).toBe('GET, HEAD');
    }
  });

  it('leaves the API, the admin API, the docs, the OpenAPI document and health as they were', async () => {
    const health = await app.inject({ method: 'GET', url: '/health' });
    expect(health.json()).toEqual({ status: 'ok' });
    expect(health.headers['content-security-policy']).toBeUndefined();
    expect((await app.inject({ method: 'GET', url: '/openapi.json' })).json()).toMatchObject({
      openapi: expect.stringMatching(/^3\.1/),
    });
    expect((await app.inject({ method: 'GET', url: '/docs/errors' })).statusCode).toBe(200);
    expectEnvelope(
      await app.inject({ method: 'GET', url: '/api/v1/credits' }),
      401,
      'AUTHENTICATION_FAILED',
    );
    expectEnvelope(
      await app.inject({ method: 'POST', url: '/admin/v1/keys', payload: {} }),
      401,
      'AUTHENTICATION_FAILED',
    );
    expectEnvelope(
      await app.inject({ method: 'GET', url: '/api/v1/nope' }),
      404,
      'RESOURCE_NOT_FOUND',
    );
  });
});

describe('a console that is not built', () => {
  let app: FastifyInstance;
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'pgs-console-empty-'));
    app = await appWithConsole(database, dir);
  });
  afterAll(async () => {
    await app?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('answers / with an envelope saying how to build it, then serves a build made later', async () => {
    const res = await app.inject({ method: 'GET', url: '/' });
    const error = expectEnvelope(res, 404, 'RESOURCE_NOT_FOUND');
    expect(error.message).toContain('has not been built');
    expect(error.message).toContain('npm start');
    expect(error.message).toContain('PGS_CONSOLE_DIR');
    expect(error.details).toEqual({ resource_type: 'console', resource_id: '/' });
    expectConsoleHeaders(res);
    // Read at each request: a build made while the server runs is served without a restart.
    await writeFile(path.join(dir, 'index.html'), PAGE);
    const built = await app.inject({ method: 'GET', url: '/' });
    expect(built.statusCode).toBe(200);
    expect(built.body).toBe(PAGE);
  });
});

describe('PGS_CONSOLE_DIR', () => {
  it('defaults to the web package build, found from the server package', () => {
    const cwd = os.tmpdir();
    expect(loadConfig({}, cwd).consoleDir).toBe(DEFAULT_CONSOLE_DIR);
    expect(DEFAULT_CONSOLE_DIR.split(path.sep).slice(-3)).toEqual(['packages', 'web', 'dist']);
  });

  it('is resolved against the working directory', () => {
    const cwd = path.join(os.tmpdir(), 'somewhere');
    expect(loadConfig({ PGS_CONSOLE_DIR: 'built/console' }, cwd).consoleDir).toBe(
      path.join(cwd, 'built', 'console'),
    );
    expect(loadConfig({ PGS_CONSOLE_DIR: '/srv/pgs-console' }, cwd).consoleDir).toBe(
      '/srv/pgs-console',
    );
  });
});

describe('the real build', () => {
  let app: FastifyInstance;
  let dir: string;
  let outDir: string;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'pgs-console-build-'));
    outDir = await ensureBuilt({ outDir: path.join(dir, 'dist') });
    app = await appWithConsole(database, outDir);
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('builds a page with no inline script or style, whose assets are served', async () => {
    const page = await app.inject({ method: 'GET', url: '/' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<title>PGS console</title>');
    // Every script is a file of this origin; no inline code, no style attribute or element.
    const scripts = [...page.body.matchAll(/<script\b([^>]*)>/g)].map((m) => m[1] ?? '');
    expect(scripts.length).toBeGreaterThan(0);
    for (const attributes of scripts) expect(attributes).toMatch(/\ssrc="\/assets\/[^"]+"/);
    expect(page.body).not.toMatch(/<style|\sstyle=/i);
    const assets = [...page.body.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]);
    expect(assets.some((a) => a?.endsWith('.js'))).toBe(true);
    expect(assets.some((a) => a?.endsWith('.css'))).toBe(true);
    for (const url of assets) {
      const res = await app.inject({ method: 'GET', url: url ?? '' });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control']).toContain('immutable');
    }
  });

  it('bundles the SDK for the browser: nothing of Node reaches the bundle', async () => {
    const files = await readdir(path.join(outDir, 'assets'));
    const code = await Promise.all(
      files
        .filter((f) => f.endsWith('.js'))
        .map((f) => readFile(path.join(outDir, 'assets', f), 'utf8')),
    );
    expect(code.join('\n')).not.toMatch(/["']node:[a-z_/]+["']/);
  });

  it('does not build again while the sources are unchanged', async () => {
    const stamp = path.join(outDir, HASH_FILE);
    const before = (await stat(stamp)).mtimeMs;
    expect(await ensureBuilt({ outDir })).toBe(outDir);
    expect((await stat(stamp)).mtimeMs).toBe(before);
  });

  it('builds again when the recorded hash is not that of the sources', async () => {
    const stamp = path.join(outDir, HASH_FILE);
    await writeFile(stamp, 'stale\n');
    expect(await ensureBuilt({ outDir })).toBe(outDir);
    expect((await readFile(stamp, 'utf8')).trim()).toBe(await inputsHash());
    expect((await app.inject({ method: 'GET', url: '/' })).statusCode).toBe(200);
  }, 120_000);
});

/** What the console's project screen is told by `watchProject`, in order. */
function recorder() {
  const seen = {
    statuses: [] as ProjectStatus[],
    documents: [] as DocumentCompletedData[],
    stages: [] as string[],
    errors: [] as unknown[],
  };
  const handlers = {
    onStatus: (status: ProjectStatus) => seen.statuses.push(status),
    onStage: (stage: string) => seen.stages.push(stage),
    onDocument: (document: DocumentCompletedData) => seen.documents.push(document),
    onLiveNote: () => {},
    onError: (error: unknown) => seen.errors.push(error),
  };
  return { seen, handlers };
}

describe.each(await backends())('the console watching a project on %s', (backend) => {
  let h: Harness;
  let pgs: Pgs;

  beforeAll(async () => {
    h = await startHarness(backend, { generation: 'workers', rules: roomy('status', 'create') });
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = h.app.server.address() as AddressInfo;
    const key = await h.createKey('test', { credits: 1_000 });
    // As the console makes its client: no automatic retries.
    pgs = new Pgs({ apiKey: key.key, baseUrl: `http://127.0.0.1:${port}`, maxRetries: 0 });
  }, 120_000);
  afterAll(async () => h?.close());

  it('reports each document once, then the completed status with the documents, its trace and who wrote it', async () => {
    const { projectId } = await pgs.projects.create({
      idea: 'A habit tracker for remote teams',
      type: 'web',
      simulate: { outcome: 'completed', durationMs: 1_500 },
    });
    const { seen, handlers } = recorder();
    await watchProject(pgs, projectId, new AbortController().signal, handlers);
    expect(seen.errors).toEqual([]);
    const last = seen.statuses.at(-1);
    expect(last?.status).toBe('completed');
    if (last?.status !== 'completed') return;
    const filenames = last.project.documents.map((d) => d.filename);
    expect(seen.documents.map((d) => d.filename).sort()).toEqual([...filenames].sort());
    expect(seen.stages.length).toBeGreaterThan(0);

    // The Trace section of the completed project, read as the console reads it: each
    // column's total counts the requirements it reaches, so a gap is what the matrix shows.
    const { coverage } = await pgs.projects.trace(projectId);
    expect(coverage.requirements.length).toBe(coverage.totals.frs);
    for (const column of COVERAGE_COLUMNS) {
      const gaps = coverage.requirements.filter((fr) => gapsOf(fr).includes(column.label));
      expect(coverage.totals[column.total], column.label).toBe(coverage.totals.frs - gaps.length);
    }

    // Who wrote it, read as the console reads it: the offline engine (so the page shows its
    // notice), each document with its part, whose remaining findings are a line in words.
    const provenance = await pgs.projects.provenance(projectId);
    expect(authorship(provenance)).toEqual({ kind: 'offline' });
    for (const document of last.project.documents) {
      const part = documentPart(provenance, document.type);
      expect(part?.engine, document.type).toBe('offline');
      const line = qualityLine(part?.findings ?? []);
      if (line !== undefined) expect(line).toMatch(/^Quality: \d+ findings? left by the checks \(/);
    }
  });

  it('lists documents stored before it began, and ends on a cancel', async () => {
    const { projectId } = await pgs.projects.create({
      idea: 'A habit tracker for remote teams',
      type: 'web',
      // Long enough to be cancelled well before its end, short enough that the first
      // document (a small share of the duration) is stored within seconds.
      simulate: { outcome: 'completed', durationMs: 60_000 },
    });
    // Wait for the first document to be stored, then start watching.
    const [first] = await waitFor(
      async () => {
        const rows = await listDocuments(h.database.db, projectId);
        return rows.length > 0 ? rows : undefined;
      },
      { timeoutMs: 40_000, what: 'the first document' },
    );
    const { seen, handlers } = recorder();
    const watching = watchProject(pgs, projectId, new AbortController().signal, handlers);
    await waitFor(async () => (seen.documents.length > 0 ? true : undefined), {
      what: 'the replayed document',
    });
    expect(seen.documents[0]?.filename).toBe(first?.filename);
    await pgs.projects.cancel(projectId);
    await watching;
    const last = seen.statuses.at(-1);
    expect(last?.status).toBe('failed');
    if (last?.status === 'failed') expect(last.error.code).toBe('generation_cancelled');
  }, 120_000);
});
