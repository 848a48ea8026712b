import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CONTEXT_BODY_LIMIT_BYTES, REPOSITORY_LIMITS } from '@pgs/contract/repository';
import { assertMatchesContract } from '@pgs/contract/testing';
import {
  naiveDigest,
  TEST_REPOSITORIES,
  type TestRepository,
} from '@pgs/contract/testing/repositories';
import {
  PLANTED_REPOSITORY,
  PLANTED_SECRETS,
  SECRET_FILE_NAMES,
} from '@pgs/contract/testing/secrets';
import { eq, sql } from 'drizzle-orm';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateAdminToken } from '../src/accounts/api-keys.ts';
import type { CreatedKey } from '../src/accounts/service.ts';
import { createLogger } from '../src/api/logging.ts';
import { loadConfig } from '../src/config.ts';
import { type Runtime, startRuntime } from '../src/runtime.ts';
import type { Database } from '../src/storage/db.ts';
import { projectContexts, projects } from '../src/storage/schema.ts';
import { creation } from './helpers/creation.ts';
import { seedDataDir } from './helpers/database.ts';
import { type Backend, backends, bearer, harnessFor, roomy } from './helpers/harness.ts';
import { createTestDatabase } from './helpers/services.ts';
import { waitFor } from './helpers/wait.ts';

/**
 * Issue 20: `context.repository` on createProject and createRevision. Every limit and rule
 * answers in the envelope naming the field, storing nothing; a grounded project's digest is
 * stored redacted, served back only as its file list (provenance, at the revision read) and
 * deleted with the project; the secrets of the test repositories reach no table, response or
 * log line.
 */

const IDEA = 'Add team billing: clinics pay one invoice for every vet on the team.';
const CHANGE = 'Add SMS reminders two days before each appointment';
const FILES = 'context.repository.files';
const SMALL = {
  name: 'vetbook-api',
  commit: 'a1b2c3d',
  files: [
    {
      path: 'package.json',
      content: '{ "name": "vetbook-api", "dependencies": { "express": "^4" } }',
    },
    { path: 'src/server.ts', content: "import express from 'express';\nconst app = express();\n" },
  ],
};

/** A digest of `SMALL` plus one more file. */
const withFile = (file: { path: string; content: string }) => ({
  ...SMALL,
  files: [...SMALL.files, file],
});

/** Asserts the error envelope: status, VALIDATION_ERROR, a message, the request id, the field. */
function expectRefused(res: LightMyRequestResponse, status: number, field: string) {
  expect(res.statusCode, res.body).toBe(status);
  const body = res.json();
  expect(body.success).toBe(false);
  expect(body.error.code).toBe('VALIDATION_ERROR');
  expect(body.error.message).toEqual(expect.any(String));
  expect(body.error.request_id).toBe(res.headers['x-request-id']);
  expect(Object.keys(body.error.details.invalid_fields)).toContain(field);
  return body.error as { message: string; details: Record<string, unknown> };
}

/** The codebase digests stored for the key's account's projects. */
async function contextsOf(database: Database, key: CreatedKey): Promise<number> {
  const [row] = await database.db
    .select({ n: sql<number>`count(*)::int` })
    .from(projectContexts)
    .innerJoin(projects, eq(projects.id, projectContexts.projectId))
    .where(eq(projects.accountId, key.accountId));
  return Number(row?.n);
}

describe.each(await backends())('repository context on %s', (backend) => {
  const harness = harnessFor(backend, {
    generation: 'workers',
    rules: roomy('status', 'create', 'downloads', 'list', 'manage'),
  });
  const { create, settle } = creation(harness);
  const api = (key: CreatedKey, method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown) =>
    harness().request({
      method,
      url: `/api/v1${url}`,
      headers: {
        ...bearer(key.key),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
  const createWith = (key: CreatedKey, repository: unknown) =>
    create(key, { idea: IDEA, type: 'web', context: { repository } });
  const settleRevision = (key: CreatedKey, id: string, n: number) =>
    waitFor(
      async () => {
        const data = (await api(key, 'GET', `/projects/${id}/revisions/${n}`)).json().data;
        return data.status === 'in_progress' ? undefined : data;
      },
      { timeoutMs: 30_000, what: `revision ${n} of ${id} to end` },
    );

  it.each([
    ['a path with ..', 'src/../../etc/passwd', 'must not contain ..'],
    ['an absolute path', '/etc/passwd', 'must be relative to the repository root'],
    ['a drive letter', 'C:/Windows/win.ini', 'must be relative to the repository root'],
    ['a backslash', 'src\\server.ts', 'must use / as its separator'],
    ['a ./ prefix', './src/app.ts', 'must be normalised (no empty or . segments, no trailing /)'],
    [
      'an empty segment',
      'src//app.ts',
      'must be normalised (no empty or . segments, no trailing /)',
    ],
    ['a NUL', 'src/app\u0000.ts', 'must not contain NUL characters or unpaired surrogates'],
  ])('refuses %s, naming the path, storing nothing', async (_what, filePath, rule) => {
    const key = await harness().createKey('test', { credits: 100 });
    const res = await createWith(key, withFile({ path: filePath, content: 'x' }));
    const error = expectRefused(res, 400, `${FILES}[2].path`);
    expect(error.details.invalid_fields).toEqual({ [`${FILES}[2].path`]: rule });
    expect(
      await harness()
        .database.db.select()
        .from(projects)
        .where(eq(projects.accountId, key.accountId)),
    ).toEqual([]);
  });

  it.each(
    TEST_REPOSITORIES.flatMap((repo) =>
      repo.secretFiles.map((file) => [repo.name, file, repo] as const),
    ),
  )('%s: refuses its secret file %s without quoting it', async (_name, file, repo) => {
    const key = await harness().createKey('test', { credits: 100 });
    const digest = naiveDigest(repo);
    const content = repo.files[file]!;
    const res = await createWith(key, {
      ...digest,
      files: [...digest.files, { path: file, content }],
    });
    const field = `${FILES}[${digest.files.length}].path`;
    const error = expectRefused(res, 400, field);
    expect(error.details.invalid_fields).toEqual({ [field]: expect.stringMatching(/^is an? /) });
    expect(error.message).toContain('files that hold secrets are refused');
    for (const secret of repo.secrets) expect(res.body).not.toContain(secret);
    expect(await contextsOf(harness().database, key)).toBe(0);
  });

  it('refuses a private key file and an environment file by their names', async () => {
    const key = await harness().createKey('test', { credits: 100 });
    for (const file of ['deploy/server.key', 'config/.env.local', 'home/.ssh/id_rsa']) {
      const res = await createWith(key, withFile({ path: file, content: 'not read' }));
      expectRefused(res, 400, `${FILES}[2].path`);
      expect(res.body).not.toContain('not read');
    }
  });

  it('names the refused file by its path, in the message and in details (issue 27)', async () => {
    const key = await harness().createKey('test', { credits: 100 });
    const res = await createWith(key, withFile({ path: '.env-production', content: 'not read' }));
    const error = expectRefused(res, 400, `${FILES}[2].path`);
    expect(error.message).toBe(
      `The repository digest is not valid: ${FILES}[2].path ".env-production" is an environment file: files that hold secrets are refused; \`pgs generate --repo\` skips them.`,
    );
    expect(error.details).toMatchObject({
      field: `${FILES}[2].path`,
      path: '.env-production',
      paths: { [`${FILES}[2].path`]: '.env-production' },
    });
    expect(res.body).not.toContain('not read');
  });

  it('refuses secret files under other names, look-alike paths and case twins (issue 27)', async () => {
    const key = await harness().createKey('test', { credits: 100 });
    const refusals: [string, string][] = [
      ...SECRET_FILE_NAMES.filter((_, i) => i % 3 === 0).map(
        (name) => [name, 'files that hold secrets are refused'] as [string, string],
      ),
      ['src/%2e%2e/x.ts', 'must not contain an encoded or look-alike . or .. segment'],
      ['src/\u2024\u2024/x.ts', 'must not contain an encoded or look-alike . or .. segment'],
      ['PACKAGE.json', 'is the same path as context.repository.files[0].path "package.json"'],
    ];
    for (const [path, rule] of refusals) {
      const res = await createWith(key, withFile({ path, content: 'not read' }));
      const error = expectRefused(res, 400, `${FILES}[2].path`);
      expect(error.message).toContain(rule);
      expect(error.details).toMatchObject({ field: `${FILES}[2].path`, path });
    }
    expect(await contextsOf(harness().database, key)).toBe(0);
  });

  it('refuses binary content, NUL included, naming the content', async () => {
    const key = await harness().createKey('test', { credits: 100 });
    for (const content of [
      '\u0089PNG\r\n\u001a\n\u0000\u0000',
      'GIF89a\u0001\u0002\u0003\u0004',
      'caf\ufffd',
    ]) {
      const res = await createWith(key, withFile({ path: 'assets/logo.png', content }));
      expectRefused(res, 400, `${FILES}[2].content`);
    }
  });

  it('refuses the same path twice', async () => {
    const key = await harness().createKey('test', { credits: 100 });
    const res = await createWith(key, withFile({ path: 'package.json', content: '{}' }));
    const error = expectRefused(res, 400, `${FILES}[2].path`);
    expect(error.details.invalid_fields).toEqual({
      [`${FILES}[2].path`]: `is the same path as ${FILES}[0].path`,
    });
  });

  it('refuses a file over the size limit, in UTF-8 bytes as in characters', async () => {
    const key = await harness().createKey('test', { credits: 100 });
    const max = REPOSITORY_LIMITS.maxFileBytes;
    // Lines of a 2-byte character: within the schema's length in characters, at (and one
    // byte over) the limit in UTF-8 bytes.
    const lines = 'é\n'.repeat(Math.floor(max / 3));
    const atMax = lines + 'x'.repeat(max - Buffer.byteLength(lines));
    expect(Buffer.byteLength(atMax)).toBe(max);
    for (const content of [`${atMax.slice(0, -1)}é`, 'x'.repeat(max + 1)]) {
      const res = await createWith(key, withFile({ path: 'src/big.ts', content }));
      expectRefused(res, 400, `${FILES}[2].content`);
      expect(res.body.length).toBeLessThan(2_000);
    }
    const atLimit = await createWith(key, withFile({ path: 'src/big.ts', content: atMax }));
    expect(atLimit.statusCode, atLimit.body).toBe(202);
  });

  it('refuses more files than the limit', async () => {
    const key = await harness().createKey('test', { credits: 100 });
    const files = Array.from({ length: REPOSITORY_LIMITS.maxFiles + 1 }, (_, i) => ({
      path: `src/f${i}.ts`,
      content: 'export {};',
    }));
    const res = await createWith(key, { name: 'many', files });
    expectRefused(res, 400, FILES);
  });

  it('answers 413 when the files pass the total size, naming the files and the limit', async () => {
    const key = await harness().createKey('test', { credits: 100 });
    const size = 250_000;
    const count = Math.floor(REPOSITORY_LIMITS.maxTotalBytes / size) + 1;
    const files = Array.from({ length: count }, (_, i) => ({
      path: `src/f${i}.ts`,
      content: 'x'.repeat(size),
    }));
    const res = await createWith(key, { name: 'big', files });
    const error = expectRefused(res, 413, FILES);
    expect(error.details.max_bytes).toBe(REPOSITORY_LIMITS.maxTotalBytes);
    expect(await contextsOf(harness().database, key)).toBe(0);
  });

  it("answers 413 past each digest route's own body limit, and names that limit", async () => {
    const key = await harness().createKey('test', { credits: 100 });
    const id = await harness().seedProject(key, { status: 'completed' });
    const over = `{"idea":"${'a'.repeat(CONTEXT_BODY_LIMIT_BYTES - 11 + 1)}"}`;
    expect(Buffer.byteLength(over)).toBe(CONTEXT_BODY_LIMIT_BYTES + 1);
    for (const url of ['/api/v1/projects', `/api/v1/projects/${id}/revisions`]) {
      const res = await harness().request({
        method: 'POST',
        url,
        headers: { ...bearer(key.key), 'content-type': 'application/json' },
        payload: over,
      });
      const error = expectRefused(res, 413, 'body');
      expect(error.details.max_bytes).toBe(CONTEXT_BODY_LIMIT_BYTES);
      expect(error.message).toBe(
        `The request body is larger than ${CONTEXT_BODY_LIMIT_BYTES} bytes.`,
      );
    }
    // Exactly at the limit is read and judged on its merits (JSON may end in whitespace).
    const json = JSON.stringify({ idea: IDEA, type: 'web', context: { repository: SMALL } });
    const atLimit = await harness().request({
      method: 'POST',
      url: '/api/v1/projects',
      headers: { ...bearer(key.key), 'content-type': 'application/json' },
      payload: json + ' '.repeat(CONTEXT_BODY_LIMIT_BYTES - Buffer.byteLength(json)),
    });
    expect(atLimit.statusCode, atLimit.body).toBe(202);
    // Other routes keep the global limit (64 KiB here).
    const webhook = await harness().request({
      method: 'POST',
      url: '/api/v1/webhook-endpoints',
      headers: { ...bearer(key.key), 'content-type': 'application/json' },
      payload: JSON.stringify({ url: `https://example.com/${'a'.repeat(70_000)}` }),
    });
    expect(webhook.json().error.details.max_bytes).toBe(65_536);
  });

  it('still refuses an API key anywhere in a 4 MB body (403 SECURITY_VIOLATION)', async () => {
    const key = await harness().createKey('test', { credits: 100 });
    const files = Array.from({ length: 15 }, (_, i) => ({
      path: `src/f${i}.ts`,
      content: 'const filler = 1;\n'.repeat(14_500),
    }));
    files.push({ path: 'src/client.ts', content: `const pgs = new Pgs('${key.key}');\n` });
    const payload = JSON.stringify({ idea: IDEA, context: { repository: { name: 'app', files } } });
    expect(Buffer.byteLength(payload)).toBeGreaterThan(3.9 * 1_048_576);
    expect(Buffer.byteLength(payload)).toBeLessThanOrEqual(CONTEXT_BODY_LIMIT_BYTES);
    const res = await harness().request({
      method: 'POST',
      url: '/api/v1/projects',
      headers: { ...bearer(key.key), 'content-type': 'application/json' },
      payload,
    });
    expect(res.statusCode, res.body.slice(0, 300)).toBe(403);
    expect(res.json().error).toMatchObject({
      code: 'SECURITY_VIOLATION',
      details: { issue: 'api_key_in_body' },
    });
    expect(res.body).not.toContain(key.key);
  });

  it('refuses context on a revision of a project created without one', async () => {
    const key = await harness().createKey('test', { credits: 100 });
    const id = await harness().seedProject(key, { status: 'completed' });
    const res = await api(key, 'POST', `/projects/${id}/revisions`, {
      changeRequest: CHANGE,
      context: { repository: SMALL },
    });
    const error = expectRefused(res, 400, 'context');
    expect(error.details.invalid_fields).toEqual({
      context: 'this project was created without a codebase: create a grounded project',
    });
    expect((await api(key, 'GET', `/projects/${id}/revisions`)).json().data).toHaveLength(1);
    expect(await contextsOf(harness().database, key)).toBe(0);
  });

  it('stores a digest per revision that sends one; provenance shows the one in force at the revision read', async () => {
    const key = await harness().createKey('test', { credits: 1_000 });
    const created = await createWith(key, SMALL);
    expect(created.statusCode, created.body).toBe(202);
    const id = created.json().data.projectId as string;
    expect((await settle(key, id)).json().data.status).toBe('completed');
    const [row] = await harness().database.db.select().from(projects).where(eq(projects.id, id));
    expect(row?.grounded).toBe(true);

    const next = withFile({ path: 'src/sms.ts', content: 'export async function send() {}\n' });
    const second = await api(key, 'POST', `/projects/${id}/revisions`, {
      changeRequest: CHANGE,
      context: { repository: { ...next, commit: 'b2c3d4e' } },
    });
    expect(second.statusCode, second.body).toBe(202);
    expect((await settleRevision(key, id, 2)).status).toBe('completed');
    // A revision without context reads the digest in force before it.
    const third = await api(key, 'POST', `/projects/${id}/revisions`, {
      changeRequest: 'Add a waiting list for fully booked days',
    });
    expect(third.statusCode, third.body).toBe(202);
    const thirdStatus = (await settleRevision(key, id, 3)).status;

    const contextAt = async (query: string) => {
      const res = await api(key, 'GET', `/projects/${id}/provenance${query}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data.context.repository;
    };
    const first = await contextAt('?revision=1');
    expect(first).toEqual({
      name: 'vetbook-api',
      commit: 'a1b2c3d',
      revision: 1,
      totalBytes: SMALL.files.reduce((n, f) => n + Buffer.byteLength(f.content), 0),
      redactions: 0,
      files: SMALL.files.map((f) => ({
        path: f.path,
        bytes: Buffer.byteLength(f.content),
        redactions: 0,
      })),
    });
    expect(await contextAt('?revision=2')).toMatchObject({
      commit: 'b2c3d4e',
      revision: 2,
      files: next.files.map((f) => ({
        path: f.path,
        bytes: Buffer.byteLength(f.content),
        redactions: 0,
      })),
    });
    expect(thirdStatus).toBe('completed');
    expect(await contextAt('?revision=3')).toMatchObject({ commit: 'b2c3d4e', revision: 2 });
    expect(await contextAt('')).toMatchObject({ revision: 2 });

    // A revision that fails leaves nothing of the digest it sent: the next reads revision 2's.
    const rows = () =>
      harness().database.db.select().from(projectContexts).where(eq(projectContexts.projectId, id));
    const failing = await api(key, 'POST', `/projects/${id}/revisions`, {
      changeRequest: CHANGE,
      simulate: { outcome: 'failed' },
      context: { repository: { ...SMALL, commit: 'c3d4e5f' } },
    });
    expect(failing.statusCode, failing.body).toBe(202);
    expect((await settleRevision(key, id, 4)).status).toBe('failed');
    expect((await rows()).map((row) => row.revision).sort()).toEqual([1, 2]);
    expect(await contextAt('')).toMatchObject({ commit: 'b2c3d4e', revision: 2 });

    // Deleting the project deletes every digest it had.
    expect((await api(key, 'DELETE', `/projects/${id}`)).statusCode).toBe(204);
    expect(await rows()).toEqual([]);
  });

  it('serves null context for a project created without one', async () => {
    const key = await harness().createKey('test', { credits: 100 });
    const id = await harness().seedProject(key, { status: 'completed' });
    const res = await api(key, 'GET', `/projects/${id}/provenance`);
    expect(res.json().data.context).toBeNull();
  });
});

/** Every row of every table (queue tables included), as text, by table. */
async function dumpDatabase(database: Database): Promise<Map<string, string>> {
  const tables = (
    (await database.db.execute(
      sql`select table_schema as "schema", table_name as "name" from information_schema.tables
        where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema')`,
    )) as unknown as { rows: { schema: string; name: string }[] }
  ).rows;
  expect(tables.map((t) => t.name)).toContain('project_contexts');
  const dump = new Map<string, string>();
  for (const { schema, name } of tables) {
    const quoted = `"${schema.replaceAll('"', '""')}"."${name.replaceAll('"', '""')}"`;
    const rows = (
      (await database.db.execute(sql.raw(`select t::text as row from ${quoted} t`))) as unknown as {
        rows: { row: string }[];
      }
    ).rows;
    dump.set(`${schema}.${name}`, rows.map((r) => r.row).join('\n'));
  }
  return dump;
}

/**
 * The real runtime (config, logger at trace, app, queue and workers, as `npm start` builds
 * them) on each backend: every log line and every response is kept and searched.
 */
describe.each(await backends())('the secrets of a grounded project on %s', (backend: Backend) => {
  let dir: string;
  let drop: (() => Promise<void>) | undefined;
  let runtime: Runtime;
  const lines: string[] = [];
  const responses: string[] = [];
  const adminToken = generateAdminToken();

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'pgs-context-'));
    const env: Record<string, string> = {
      PGS_DATA_DIR: dir,
      PGS_ADMIN_TOKEN: adminToken,
      PGS_LOG_LEVEL: 'trace',
      PGS_STATUS_RATE_LIMIT: '100000',
    };
    if (backend === 'postgres') {
      const created = await createTestDatabase();
      drop = created.drop;
      env.DATABASE_URL = created.url;
    } else await seedDataDir(dir);
    runtime = await startRuntime(
      loadConfig(env, dir),
      createLogger('trace', { write: (line) => lines.push(line) }),
    );
  });
  afterAll(async () => {
    await runtime?.stop();
    await drop?.();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  /** A request through the app, its answer checked against the contract and kept. */
  const send = async (options: InjectOptions & { url: string }) => {
    const res = await runtime.app!.inject(options);
    assertMatchesContract(options.method ?? 'GET', options.url, res);
    responses.push(JSON.stringify(res.headers), res.body);
    return res;
  };
  const createKey = async () =>
    (
      await send({
        method: 'POST',
        url: '/admin/v1/keys',
        headers: { ...bearer(adminToken), 'content-type': 'application/json' },
        payload: JSON.stringify({ mode: 'test', credits: 1_000 }),
      })
    ).json().data as { key: string };

  it.each([...TEST_REPOSITORIES, PLANTED_REPOSITORY].map((repo) => [repo.name, repo] as const))(
    '%s: stored redacted, listed without content, never served, stored or logged',
    async (_name, repo: TestRepository) => {
      const { key } = await createKey();
      const digest = naiveDigest(repo);
      const post = (body: unknown, headers: Record<string, string> = {}) =>
        send({
          method: 'POST',
          url: '/api/v1/projects',
          headers: { ...bearer(key), 'content-type': 'application/json', ...headers },
          payload: JSON.stringify(body),
        });
      // Its secret files sent as well: refused, whole.
      const refused = await post({
        idea: IDEA,
        context: {
          repository: {
            ...digest,
            files: [
              ...digest.files,
              ...repo.secretFiles.map((file) => ({ path: file, content: repo.files[file]! })),
            ],
          },
        },
      });
      expect(refused.statusCode, refused.body).toBe(400);

      const created = await post(
        { idea: IDEA, context: { repository: digest } },
        { 'idempotency-key': `context-${repo.name}` },
      );
      expect(created.statusCode, created.body).toBe(202);
      const id = created.json().data.projectId as string;
      const final = await waitFor(
        async () => {
          const res = await send({
            method: 'GET',
            url: `/api/v1/projects/${id}`,
            headers: bearer(key),
          });
          return res.json().data.status === 'in_progress' ? undefined : res;
        },
        { timeoutMs: 30_000, intervalMs: 50, what: `project ${id} to end` },
      );
      expect(final.json().data.status).toBe('completed');
      const documents = final.json().data.project.documents as { filename: string }[];
      for (const url of ['trace', 'revisions', `documents/${documents[0]!.filename}`]) {
        await send({ method: 'GET', url: `/api/v1/projects/${id}/${url}`, headers: bearer(key) });
      }

      const provenance = (
        await send({
          method: 'GET',
          url: `/api/v1/projects/${id}/provenance`,
          headers: bearer(key),
        })
      ).json().data.context.repository;
      expect(provenance.files.map((f: { path: string }) => f.path)).toEqual(
        digest.files.map((f) => f.path),
      );
      for (const file of provenance.files)
        expect(Object.keys(file).sort()).toEqual(['bytes', 'path', 'redactions']);
      expect(provenance.redactions).toBeGreaterThan(0);
      // Issue 27: one planted secret of each format, each counted.
      if (repo === PLANTED_REPOSITORY) {
        expect(provenance.redactions).toBeGreaterThanOrEqual(PLANTED_SECRETS.length);
      }
      expect(provenance.redactions).toBe(
        provenance.files.reduce((n: number, f: { redactions: number }) => n + f.redactions, 0),
      );

      const dump = await dumpDatabase(runtime.database);
      expect(dump.get('public.project_contexts')).toContain(digest.files[0]!.path);
      // Where a secret is found, named without quoting pages of text.
      for (const secret of repo.secrets) {
        const tables = [...dump].filter(([, text]) => text.includes(secret)).map(([t]) => t);
        expect(tables, `${secret} in the database`).toEqual([]);
        expect(responses.filter((r) => r.includes(secret)).length, `${secret} in a response`).toBe(
          0,
        );
        expect(lines.filter((l) => l.includes(secret)).length, `${secret} in the log`).toBe(0);
      }
      // The log says what happened, and never carries a body.
      expect(lines.some((line) => line.includes(id))).toBe(true);
      expect(lines.join('\n')).not.toContain(digest.files[0]!.content.slice(0, 40));

      expect(
        (await send({ method: 'DELETE', url: `/api/v1/projects/${id}`, headers: bearer(key) }))
          .statusCode,
      ).toBe(204);
      const left = await runtime.database.db
        .select()
        .from(projectContexts)
        .where(eq(projectContexts.projectId, id));
      expect(left).toEqual([]);
    },
  );
});
