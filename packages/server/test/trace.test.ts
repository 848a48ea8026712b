import { definitionsOf, parseDocument } from '@pgs/contract/document';
import { describe, expect, it } from 'vitest';
import { creation, header } from './helpers/creation.ts';
import { bearer, harnessFor, roomy } from './helpers/harness.ts';
import { completedWithPlan, planDocument } from './helpers/tasks.ts';

/**
 * Issue 17 item 5: `GET /api/v1/projects/{projectId}/trace` on projects run to their end by
 * the real queue and the offline engine: the graph read from the stored documents, with the
 * same keys, isolation, envelope and caching as the other project routes.
 */

const IDEA =
  'A web dashboard where community gardeners share compost schedules, seed swaps and watering rotas for their allotments.';

describe('the trace of a project', () => {
  const harness = harnessFor('pglite', {
    generation: 'workers',
    rules: roomy('status', 'create', 'downloads'),
  });
  const { create, settle } = creation(harness);
  const traceOf = (key: { key: string }, id: string, headers: Record<string, string> = {}) =>
    harness().request({
      method: 'GET',
      url: `/api/v1/projects/${id}/trace`,
      headers: { ...bearer(key.key), ...headers },
    });

  it('serves the graph of a completed project: nodes, citations, coverage and findings', async () => {
    const key = await harness().createKey('test', { credits: 100 });
    const id = (await create(key, { idea: IDEA, type: 'web' })).json().data.projectId;
    await settle(key, id);

    const res = await traceOf(key, id);
    expect(res.statusCode, res.body).toBe(200);
    expect(header(res, 'cache-control')).toBe('private, no-cache');
    const { data } = res.json();
    const requirements = data.nodes.filter((n: { kind: string }) => n.kind === 'requirement');
    expect(requirements.length).toBeGreaterThan(0);
    for (const node of requirements) {
      expect(node.document).toBe('PRODUCT_REQUIREMENTS.md');
      expect(node.id).toMatch(/^FR-\d+$/);
    }
    // Stories and the plan cite requirements: edges from their IDs or documents to FRs.
    expect(data.edges.some((e: { to: string }) => e.to.startsWith('FR-'))).toBe(true);
    expect(data.coverage.totals.frs).toBe(requirements.length);
    expect(data.coverage.requirements.map((r: { id: string }) => r.id)).toEqual(
      requirements.map((r: { id: string }) => r.id),
    );
    for (const finding of data.findings) {
      expect(['critical', 'high', 'medium', 'low']).toContain(finding.severity);
      expect(finding.message.length).toBeGreaterThan(10);
    }

    // The same bytes again (made once), and 304 for its ETag.
    const again = await traceOf(key, id);
    expect(again.body).toBe(res.body);
    const cached = await traceOf(key, id, { 'if-none-match': header(res, 'etag') });
    expect(cached.statusCode).toBe(304);
    expect(cached.body).toBe('');
  });

  it('follows a Gherkin project: its criteria are scenarios, traced and checked as such', async () => {
    const h = harness();
    const key = await h.createKey('test', { credits: 100 });
    const refused = await create(key, { idea: IDEA, requirementStyle: 'cucumber' });
    expect(refused.statusCode).toBe(400);
    expect(JSON.stringify(refused.json().error.details)).toContain('requirementStyle');
    const created = await create(key, { idea: IDEA, type: 'web', requirementStyle: 'gherkin' });
    expect(created.statusCode, created.body).toBe(202);
    const id = created.json().data.projectId;
    const done = (await settle(key, id)).json().data;
    expect(done.status).toBe('completed');

    // The requirements hold scenarios with their FR-n.m IDs, the document model reads them.
    const requirements = done.project.documents.find(
      (d: { type: string }) => d.type === 'product-requirements',
    ).content as string;
    const criteria = definitionsOf(
      parseDocument(requirements, { filename: 'PRODUCT_REQUIREMENTS.md' }),
      'criterion',
    );
    expect(criteria.length).toBeGreaterThan(0);
    for (const criterion of criteria) {
      expect(criterion.id).toMatch(/^FR-\d+\.\d+$/);
      expect(criterion.scenario?.steps.map((s) => s.keyword)).toEqual(
        expect.arrayContaining(['When', 'Then']),
      );
    }
    expect(requirements).not.toContain('THE SYSTEM SHALL');

    // The trace: every requirement has criteria, a story and a task; no scenario is incomplete.
    const { data } = (await traceOf(key, id)).json();
    const ids = data.nodes.map((n: { id: string }) => n.id);
    expect(ids).toEqual(expect.arrayContaining(criteria.map((c) => c.id)));
    expect(data.coverage.totals).toMatchObject({
      withCriterion: data.coverage.totals.frs,
      withTask: data.coverage.totals.frs,
      mustsWithStory: data.coverage.totals.musts,
    });
    expect(data.findings.filter((f: { rule: string }) => f.rule === 'scenario-incomplete')).toEqual(
      [],
    );

    // Its settings say the style, as they say the detail level.
    const provenance = await h.request({
      method: 'GET',
      url: `/api/v1/projects/${id}/provenance`,
      headers: bearer(key.key),
    });
    expect(provenance.json().data).toMatchObject({
      requirementStyle: 'gherkin',
      detail: 'standard',
    });
  });

  it("reads the criteria in the project's stored style: one scenario does not make an EARS project Gherkin", async () => {
    const key = await harness().createKey('test');
    const requirements = [
      '# Product Requirements: Demo\n\n## Functional requirements\n\n### FR-1 Reminders (Must)\n',
      '- **FR-1.1** Scenario: A reminder falls due',
      '  - **When** a reminder falls due',
      '  - **Then** the system sends one email',
      '',
      '**FR-1.2** WHEN a reminder fails THE SYSTEM SHALL say why.',
      '',
    ].join('\n');
    const id = await completedWithPlan(harness().database, key, [
      {
        kind: 'product-requirements',
        filename: 'PRODUCT_REQUIREMENTS.md',
        stage: 'requirements',
        content: requirements,
      },
      planDocument(1),
    ]);
    const res = await traceOf(key, id);
    expect(res.statusCode, res.body).toBe(200);
    const ids = res.json().data.nodes.map((n: { id: string }) => n.id);
    expect(ids).toEqual(expect.arrayContaining(['FR-1.1', 'FR-1.2']));
    const scenarios = res
      .json()
      .data.findings.filter((f: { rule: string }) => f.rule === 'scenario-incomplete');
    expect(scenarios).toEqual([]);
  });

  it('is 409 while in progress or failed, and 404 for another account or mode', async () => {
    const h = harness();
    const key = await h.createKey('test', { credits: 100 });
    const running = await h.seedProject(key, { status: 'in_progress' });
    const failed = await h.seedProject(key, { status: 'failed' });
    for (const id of [running, failed]) {
      const res = await traceOf(key, id);
      expect(res.statusCode).toBe(409);
      expect(res.json().error.code).toBe('PROJECT_NOT_COMPLETED');
    }
    const done = await h.seedProject(key, { status: 'completed' });
    expect((await traceOf(key, done)).statusCode).toBe(200);
    const stranger = await h.createKey('test');
    const otherMode = await h.createKey('live', { accountId: key.accountId });
    for (const other of [stranger, otherMode]) {
      const res = await traceOf(other, done);
      expect(res.statusCode).toBe(404);
      expect(res.json().error.code).toBe('RESOURCE_NOT_FOUND');
    }
  });
});
