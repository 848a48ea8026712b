import { assertMatchesContract } from '@pgs/contract/testing';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedKey } from '../src/accounts/service.ts';
import { createLimiters } from '../src/limits/rules.ts';
import { documents, projects } from '../src/storage/schema.ts';
import { header } from './helpers/creation.ts';
import { backends, bearer, buildTestApp, type Harness, startHarness } from './helpers/harness.ts';

/** Seed §4.1 (getProjectStatus), §2 (fields), §3 (states), issue 2 items 3 and 4. */

const REQUEST_ID = /^req_[0-9A-HJKMNP-TV-Z]{26}$/;
const STATES = ['in_progress', 'completed', 'failed'] as const;
const DATA_KEYS = {
  in_progress: ['estimatedCompletionMs', 'projectId', 'status'],
  completed: ['metadata', 'project', 'projectId', 'status'],
  failed: ['error', 'projectId', 'status'],
} as const;

// The second app below only reads; creating a project through it is not part of this suite.

describe.each(await backends())('GET /api/v1/projects/{projectId} on %s', (backend) => {
  let h: Harness;
  /** While set, the app's clock of estimates stands still at this time. */
  let heldAt: number | undefined;
  beforeAll(async () => {
    h = await startHarness(backend, { now: () => heldAt ?? Date.now() });
  });
  afterAll(async () => h?.close());

  const get = (key: CreatedKey, id: string, headers?: Record<string, string>) =>
    h.getProject(key, id, headers);

  const projectRow = async (id: string) => {
    const [row] = await h.database.db.select().from(projects).where(eq(projects.id, id));
    return row;
  };
  const documentRows = (id: string) =>
    h.database.db.select().from(documents).where(eq(documents.projectId, id));

  describe('the three states', () => {
    it('in_progress → 200, success true, data has exactly projectId, status, estimatedCompletionMs', async () => {
      const key = await h.createKey('test');
      const id = await h.seedProject(key, { status: 'in_progress', estimatedCompletionMs: 90_000 });
      const res = await get(key, id);
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(Object.keys(body).sort()).toEqual(['data', 'success']);
      expect(body.success).toBe(true);
      expect(Object.keys(body.data).sort()).toEqual(DATA_KEYS.in_progress);
      expect(body.data.projectId).toBe(id);
      expect(body.data.status).toBe('in_progress');
      expect(Number.isInteger(body.data.estimatedCompletionMs)).toBe(true);
      expect(body.data.estimatedCompletionMs).toBeGreaterThan(80_000);
      expect(body.data.estimatedCompletionMs).toBeLessThanOrEqual(90_000);
    });

    it('completed → 200, success true, data has exactly projectId, status, project, metadata', async () => {
      const key = await h.createKey('test');
      const id = await h.seedProject(key, { status: 'completed', documents: 3 });
      const res = await get(key, id);
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(Object.keys(body).sort()).toEqual(['data', 'success']);
      expect(body.success).toBe(true);
      const { data } = body;
      expect(Object.keys(data).sort()).toEqual(DATA_KEYS.completed);
      expect(data.projectId).toBe(id);
      expect(data.status).toBe('completed');

      const { project, metadata } = data;
      expect(Object.keys(project).sort()).toEqual([
        'description',
        'documents',
        'name',
        'questionnaire',
        'type',
      ]);
      expect(project.name).toBe('TeamPulse');
      expect(project.description).toBe('A habit tracker for remote teams.');
      expect(['web', 'mobile', 'mcp']).toContain(project.type);
      expect(typeof project.questionnaire.targetAudience).toBe('string');
      expect(typeof project.questionnaire.monetization).toBe('string');
      expect(Array.isArray(project.questionnaire.techStack)).toBe(true);
      for (const item of project.questionnaire.techStack) expect(typeof item).toBe('string');
      // Members beyond the three shown may be present (seed §2.3); the seeded one survives.
      expect(project.questionnaire.platforms).toEqual(['web']);

      expect(project.documents).toHaveLength(3);
      for (const doc of project.documents) {
        expect(Object.keys(doc).sort()).toEqual([
          'content',
          'filename',
          'generated_at',
          'stage',
          'tokens_used',
          'type',
        ]);
        expect(typeof doc.type).toBe('string');
        expect(doc.filename).toMatch(/\.md$/);
        expect(doc.content).toMatch(/^# /);
        expect(new Date(doc.generated_at).toISOString()).toBe(doc.generated_at);
        expect(typeof doc.stage).toBe('string');
        expect(Number.isInteger(doc.tokens_used)).toBe(true);
      }
      expect(project.documents[0]).toMatchObject({
        type: 'project-brief',
        filename: 'PROJECT_BRIEF.md',
        stage: 'project-brief',
        tokens_used: 100,
      });

      expect(Object.keys(metadata).sort()).toEqual([
        'creditsConsumed',
        'documentsGenerated',
        'generationTimeMs',
      ]);
      expect(metadata).toEqual({
        creditsConsumed: 15,
        generationTimeMs: 1234,
        documentsGenerated: project.documents.length,
      });
    });

    it('failed → 200, success true, data has exactly projectId, status, error (generation_failed, refunded)', async () => {
      const key = await h.createKey('test');
      const id = await h.seedProject(key, { status: 'failed' });
      const res = await get(key, id);
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.success).toBe(true);
      expect(Object.keys(body.data).sort()).toEqual(DATA_KEYS.failed);
      expect(body.data.projectId).toBe(id);
      expect(body.data.status).toBe('failed');
      expect(Object.keys(body.data.error).sort()).toEqual(['code', 'message']);
      expect(body.data.error.code).toBe('generation_failed');
      expect(body.data.error.message).toMatch(/refund/i);
    });
  });

  it('every 200 carries the version, request-id and rate-limit headers, as JSON', async () => {
    const key = await h.createKey('test');
    const seen = new Set<string>();
    let expectedRemaining = 99;
    for (const status of STATES) {
      const id = await h.seedProject(key, { status });
      const before = Date.now();
      const res = await get(key, id);
      expect(res.statusCode).toBe(200);
      expect(header(res, 'content-type')).toMatch(/^application\/json\b/);
      expect(header(res, 'API-Version')).toBe('v1.0');
      expect(header(res, 'API-Supported-Versions')).toBe('v1.0');
      expect(header(res, 'API-Latest-Version')).toBe('v1.0');
      const requestId = header(res, 'X-Request-ID');
      expect(requestId).toMatch(REQUEST_ID);
      expect(seen.has(requestId)).toBe(false);
      seen.add(requestId);
      expect(header(res, 'X-RateLimit-Limit')).toBe('100');
      expect(header(res, 'X-RateLimit-Remaining')).toBe(String(expectedRemaining--));
      const reset = header(res, 'X-RateLimit-Reset');
      expect(reset).toMatch(/^\d+$/);
      // Epoch seconds of the window's end: after now, at most one minute ahead.
      expect(Number(reset)).toBeGreaterThanOrEqual(Math.floor(before / 1000));
      expect(Number(reset)).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + 60);
    }
  });

  describe('reading does not change the state', () => {
    it.each(STATES)(
      '%s: three reads leave the row, the documents and the balance as they were',
      async (status) => {
        const key = await h.createKey('test', { credits: 50 });
        const id = await h.seedProject(key, { status });
        const rowBefore = await projectRow(id);
        const docsBefore = await documentRows(id);
        const balanceBefore = (await h.accounts.getAccount(key.accountId))?.balances;
        expect(rowBefore?.status).toBe(status);

        const bodies: string[] = [];
        for (let i = 0; i < 3; i++) {
          const res = await get(key, id);
          expect(res.statusCode).toBe(200);
          expect(res.json().data.status).toBe(status);
          bodies.push(res.body);
        }

        expect(await projectRow(id)).toEqual(rowBefore);
        expect(await documentRows(id)).toEqual(docsBefore);
        expect((await h.accounts.getAccount(key.accountId))?.balances).toEqual(balanceBefore);
        if (status !== 'in_progress') {
          expect(bodies[1]).toBe(bodies[0]);
          expect(bodies[2]).toBe(bodies[0]);
        }
      },
    );
  });

  describe('estimatedCompletionMs', () => {
    it('is 0, never negative, once the estimate lies in the past', async () => {
      const key = await h.createKey('test');
      const id = await h.seedProject(key, { status: 'in_progress', estimatedCompletionMs: -5_000 });
      const res = await get(key, id);
      expect(res.statusCode).toBe(200);
      expect(res.json().data.estimatedCompletionMs).toBe(0);
      expect(Number(header(res, 'Retry-After'))).toBeGreaterThanOrEqual(10);
    });

    it('decreases between two reads by the time that passed', async () => {
      const key = await h.createKey('test');
      const id = await h.seedProject(key, {
        status: 'in_progress',
        estimatedCompletionMs: 120_000,
      });
      heldAt = Date.now();
      try {
        const first = (await get(key, id)).json().data.estimatedCompletionMs as number;
        heldAt += 1_500;
        const second = (await get(key, id)).json().data.estimatedCompletionMs as number;
        expect(first).toBeGreaterThan(115_000);
        expect(first).toBeLessThanOrEqual(120_000);
        // The server read its clock once per request: the values differ by the time between.
        expect(first - second).toBe(1_500);
      } finally {
        heldAt = undefined;
      }
    });

    it('comes with Retry-After between 10 and 30 seconds, only while in progress', async () => {
      const key = await h.createKey('test');
      for (const estimate of [1_000, 20_000, 45_000, 600_000]) {
        const id = await h.seedProject(key, {
          status: 'in_progress',
          estimatedCompletionMs: estimate,
        });
        const res = await get(key, id);
        const retryAfter = header(res, 'Retry-After');
        expect(retryAfter).toMatch(/^\d+$/);
        expect(Number(retryAfter)).toBeGreaterThanOrEqual(10);
        expect(Number(retryAfter)).toBeLessThanOrEqual(30);
      }
      for (const status of ['completed', 'failed'] as const) {
        const res = await get(key, await h.seedProject(key, { status }));
        expect(res.headers['retry-after']).toBeUndefined();
      }
    });
  });

  it('an id in upper case finds the project, and every state names it in lower case', async () => {
    const key = await h.createKey('test');
    for (const status of ['in_progress', 'completed', 'failed'] as const) {
      const id = await h.seedProject(key, { status });
      const res = await get(key, id.toUpperCase());
      expect(res.statusCode).toBe(200);
      expect(res.json().data.projectId).toBe(id);
    }
  });

  describe('ETag and conditional reads', () => {
    it.each(['completed', 'failed'] as const)(
      '%s: If-None-Match with the ETag → 304, empty body, with the request-id and rate-limit headers',
      async (status) => {
        const key = await h.createKey('test');
        const id = await h.seedProject(key, { status });
        const first = await get(key, id);
        expect(first.statusCode).toBe(200);
        const etag = header(first, 'ETag');
        expect(etag).toMatch(/^(W\/)?".+"$/);

        const cached = await get(key, id, { 'if-none-match': etag });
        expect(cached.statusCode).toBe(304);
        expect(cached.body).toBe('');
        expect(header(cached, 'X-Request-ID')).toMatch(REQUEST_ID);
        expect(header(cached, 'X-Request-ID')).not.toBe(header(first, 'X-Request-ID'));
        expect(header(cached, 'ETag')).toBe(etag);
        expect(header(cached, 'X-RateLimit-Limit')).toBe('100');
        expect(header(cached, 'X-RateLimit-Remaining')).toBe('98');
        expect(header(cached, 'X-RateLimit-Reset')).toMatch(/^\d+$/);
        expect(header(cached, 'API-Version')).toBe('v1.0');

        // A weak comparison (RFC 9110 §13.1.2) and a list containing the tag match too.
        const weak = await get(key, id, { 'if-none-match': `W/${etag}` });
        expect(weak.statusCode).toBe(304);
        const list = await get(key, id, { 'if-none-match': `"other", ${etag}` });
        expect(list.statusCode).toBe(304);

        const other = await get(key, id, { 'if-none-match': '"not-the-etag"' });
        expect(other.statusCode).toBe(200);
        expect(other.body).toBe(first.body);
        expect(header(other, 'ETag')).toBe(etag);
      },
    );

    it('the ETag of a completed project does not match another project’s', async () => {
      const key = await h.createKey('test');
      const a = await h.seedProject(key, { status: 'completed' });
      const b = await h.seedProject(key, { status: 'completed' });
      const etagA = header(await get(key, a), 'ETag');
      const res = await get(key, b, { 'if-none-match': etagA });
      expect(res.statusCode).toBe(200);
      expect(header(res, 'ETag')).not.toBe(etagA);
    });
  });

  it('a completed body is served byte-identical: on repeated reads, as stored, and by a second app', async () => {
    const key = await h.createKey('test');
    const id = await h.seedProject(key, { status: 'completed' });
    const reads = [];
    for (let i = 0; i < 3; i++) reads.push(await get(key, id));
    const [first] = reads;
    for (const res of reads) {
      expect(res.statusCode).toBe(200);
      expect(res.rawPayload.equals(first!.rawPayload)).toBe(true);
      expect(header(res, 'ETag')).toBe(header(first!, 'ETag'));
    }
    expect(first!.body).toBe((await projectRow(id))?.resultBody);

    // A second app on the same database starts with a cold cache and reads the stored bytes.
    const second = await buildTestApp(h.database, {
      limiters: await createLimiters({ kind: 'memory' }),
    });
    try {
      const url = `/api/v1/projects/${id}`;
      const res = await second.inject({ method: 'GET', url, headers: bearer(key.key) });
      assertMatchesContract('GET', url, res);
      expect(res.statusCode).toBe(200);
      expect(res.rawPayload.equals(first!.rawPayload)).toBe(true);
      expect(header(res, 'ETag')).toBe(header(first!, 'ETag'));
    } finally {
      await second.close();
    }
  });
});
