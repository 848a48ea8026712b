import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CreatedKey } from '../src/accounts/service.ts';
import { insertProject } from '../src/storage/sql/projects.ts';
import { DIGEST, FIXTURE_SECRET, SPEC_DOCUMENTS } from './fixtures/conformance.ts';
import { bearer, harnessFor } from './helpers/harness.ts';
import { completedWithPlan } from './helpers/tasks.ts';

/**
 * Issue 31, item 5: a repository checked against a project's spec through the real app. The
 * spec and the repository are the report builder's fixture (FR-1 tested, FR-2 implemented,
 * FR-3 missing, an admin route, a table and a component the spec never names); every answer
 * is checked against the contract by the harness.
 */

const KINDS: Record<string, string> = {
  'PRODUCT_REQUIREMENTS.md': 'product-requirements',
  'ARCHITECTURE.md': 'architecture',
  'IMPLEMENTATION_PLAN.md': 'implementation-plan',
};

describe('conformance checks', () => {
  const harness = harnessFor('pglite');
  let key: CreatedKey;
  let other: CreatedKey;
  let project: string;
  beforeAll(async () => {
    key = await harness().createKey('test');
    other = await harness().createKey('test');
    const documents = SPEC_DOCUMENTS.map((doc) => ({ ...doc, kind: KINDS[doc.filename]! }));
    project = await completedWithPlan(harness().database, key, documents);
  });
  const call = (
    method: 'GET' | 'POST',
    path: string,
    options: { body?: unknown; as?: CreatedKey } = {},
  ) =>
    harness().request({
      method,
      url: `/api/v1/projects/${path}`,
      headers: {
        ...bearer((options.as ?? key).key),
        ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(options.body === undefined ? {} : { payload: JSON.stringify(options.body) }),
    });
  const check = (body: unknown = { context: { repository: DIGEST } }, id = project) =>
    call('POST', `${id}/conformance`, { body });

  it('answers 202 with Location and the check, whose report reads the spec against the code', async () => {
    const res = await check();
    expect(res.statusCode, res.body).toBe(202);
    const created = res.json().data;
    expect(res.headers.location).toBe(`/api/v1/projects/${project}/conformance/${created.id}`);
    expect(created).toMatchObject({
      projectId: project,
      revision: 1,
      status: 'succeeded',
      repository: { name: 'petpal', commit: 'abc1234', files: DIGEST.files.length, citations: 2 },
      totals: { requirements: 3, tested: 1, implemented: 1, missing: 1, criteriaCited: 1 },
      error: null,
    });
    // Made before the answer: the check is already done when the 202 arrives.

    const read = await call('GET', `${project}/conformance/${created.id}`);
    expect(read.statusCode).toBe(200);
    const { report } = read.json().data;
    const status = Object.fromEntries(
      report.requirements.map((r: { id: string; status: string }) => [r.id, r.status]),
    );
    expect(status).toEqual({ 'FR-1': 'tested', 'FR-2': 'implemented', 'FR-3': 'missing' });
    expect(report.criteria.find((c: { id: string }) => c.id === 'FR-1.1').tests[0]).toMatchObject({
      path: 'test/pets.test.ts',
      line: 3,
    });
    expect(report.drift.routes).toEqual([
      { method: 'GET', path: '/admin/export', file: 'src/routes/admin.ts' },
    ]);
    expect(report.suggestedChange).toContain('GET /admin/export');
    // The suggestion is a revision's change request as it stands.
    expect(report.suggestedChange.length).toBeLessThanOrEqual(4000);
  });

  it('replays its 202 for a retried POST with the same Idempotency-Key, storing one check', async () => {
    const post = () =>
      harness().request({
        method: 'POST',
        url: `/api/v1/projects/${project}/conformance`,
        headers: {
          ...bearer(key.key),
          'content-type': 'application/json',
          'idempotency-key': 'conformance-retry-1',
        },
        payload: JSON.stringify({ context: { repository: DIGEST } }),
      });
    const before = (await call('GET', `${project}/conformance`)).json().data.length;
    const first = await post();
    const again = await post();
    expect(first.statusCode, first.body).toBe(202);
    expect(again.statusCode).toBe(202);
    expect(again.json().data.id).toBe(first.json().data.id);
    expect(again.headers.location).toBe(first.headers.location);
    expect((await call('GET', `${project}/conformance`)).json().data).toHaveLength(before + 1);
  });

  it('never answers a secret of the digest, in a file or a cited line', async () => {
    const res = await check();
    const read = await call('GET', `${project}/conformance/${res.json().data.id}`);
    const list = await call('GET', `${project}/conformance`);
    for (const body of [res.body, read.body, list.body]) {
      expect(body).not.toContain(FIXTURE_SECRET);
    }
    expect(read.body).toContain('[redacted:');
  });

  it('lists the checks latest first, without reports, and shows the latest on the trace', async () => {
    const latest = (await check()).json().data;
    const res = await call('GET', `${project}/conformance`);
    expect(res.statusCode).toBe(200);
    const list = res.json().data as { id: string; report?: unknown }[];
    expect(list[0]!.id).toBe(latest.id);
    expect(list.length).toBeGreaterThanOrEqual(2);
    expect(list.every((item) => item.report === undefined)).toBe(true);

    const trace = await call('GET', `${project}/trace`);
    expect(trace.statusCode, trace.body).toBe(200);
    expect(trace.json().data.conformance).toEqual({
      checkId: latest.id,
      createdAt: latest.createdAt,
      tested: 1,
      implemented: 1,
      missing: 1,
      drift: latest.totals.drift,
    });
  });

  it("answers 404 for another account's project and for a check it does not have", async () => {
    const created = (await check()).json().data;
    for (const res of [
      await call('POST', `${project}/conformance`, {
        body: { context: { repository: DIGEST } },
        as: other,
      }),
      await call('GET', `${project}/conformance/${created.id}`, { as: other }),
      await call('GET', `${project}/conformance`, { as: other }),
      await call('GET', `${project}/conformance/chk_${'0'.repeat(26)}`),
    ]) {
      expect(res.statusCode, res.body).toBe(404);
      expect(res.json()).toMatchObject({ success: false, error: { code: 'RESOURCE_NOT_FOUND' } });
    }
  });

  it('refuses bad input with 400 in the envelope, naming the field', async () => {
    const cases: [unknown, string][] = [
      [{}, 'context'],
      [{ context: { repository: { name: 'x', files: [] } } }, 'files'],
      [{ context: { repository: { ...DIGEST, files: [{ path: '../x', content: '' }] } } }, 'path'],
      [
        { context: { repository: { ...DIGEST, files: [{ path: '.env', content: 'A=1' }] } } },
        'path',
      ],
      [
        {
          context: {
            repository: { ...DIGEST, citations: [{ id: 'US-1', path: 'a', line: 1, text: '' }] },
          },
        },
        'id',
      ],
      [
        {
          context: {
            repository: {
              ...DIGEST,
              citations: [{ id: 'FR-1', path: '/etc/x', line: 1, text: '' }],
            },
          },
        },
        'citations[0].path',
      ],
    ];
    for (const [body, field] of cases) {
      const res = await check(body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 120)).toBe(400);
      expect(res.json()).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR' } });
      expect(res.json().error.request_id ?? res.headers['x-request-id']).toBeTruthy();
      expect(JSON.stringify(res.json().error.details)).toContain(field);
    }
    const badId = await call('GET', `${project}/conformance/not-a-check`);
    expect(badId.statusCode).toBe(400);
  });

  it('answers 409 while the project has no completed spec', async () => {
    const id = randomUUID();
    await insertProject(harness().database.db, {
      id,
      accountId: key.accountId,
      mode: key.mode,
      status: 'in_progress',
      idea: 'An idea still being written down for the check',
      type: 'web',
      questionnaire: {},
    });
    const res = await check(undefined, id);
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().error.code).toBe('PROJECT_NOT_COMPLETED');
  });
});
