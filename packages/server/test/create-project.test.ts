import type { ProjectType } from '@pgs/contract';
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { CreatedKey } from '../src/accounts/service.ts';
import { documentPlan } from '../src/runs/catalogue.ts';
import { priceOf, priceWithoutType } from '../src/runs/pricing.ts';
import { projects } from '../src/storage/schema.ts';
import { creation, header, IN_PROGRESS_KEYS } from './helpers/creation.ts';
import { backends, harnessFor, roomy } from './helpers/harness.ts';

/**
 * Issue 3 items 1, 3, 4, 7, 8 and docs/api.md "Creating projects": POST /api/v1/projects
 * end to end with the real queue, workers and offline engine (credits and simulated
 * outcomes: create-project-credits.test.ts).
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const words = (markdown: string) => markdown.split(/\s+/).filter((w) => /\w/.test(w)).length;

/** The price of the kinds of a type's plan that were generated (the docs/api.md table). */
function priceOfGenerated(type: ProjectType, kinds: readonly string[]): number {
  return documentPlan(type)
    .filter((doc) => kinds.includes(doc.kind))
    .reduce((sum, doc) => sum + doc.credits, 0);
}

describe.each(await backends())('POST /api/v1/projects on %s', (backend) => {
  const harness = harnessFor(backend, {
    generation: 'workers',
    rules: roomy('status', 'create', 'credits'),
  });

  const { create, get, credits, settle, projectsOf, ledgerOf } = creation(harness);

  describe('a project from an idea', () => {
    const idea =
      'A web dashboard where community gardeners share compost schedules, seed swaps and watering rotas for their allotments.';
    let key: CreatedKey;
    let projectId: string;
    let completed: LightMyRequestResponse;

    it('answers 202 with the in_progress envelope, Location and Retry-After', async () => {
      key = await harness().createKey('test', { credits: 500 });
      const res = await create(key, { idea });
      expect(res.statusCode).toBe(202);
      const body = res.json();
      expect(Object.keys(body).sort()).toEqual(['data', 'success']);
      expect(body.success).toBe(true);
      expect(Object.keys(body.data).sort()).toEqual(IN_PROGRESS_KEYS);
      expect(body.data.projectId).toMatch(UUID);
      expect(body.data.status).toBe('in_progress');
      expect(Number.isInteger(body.data.estimatedCompletionMs)).toBe(true);
      expect(body.data.estimatedCompletionMs).toBeGreaterThanOrEqual(0);
      projectId = body.data.projectId;
      expect(header(res, 'location')).toBe(`/api/v1/projects/${projectId}`);
      const retryAfter = Number(header(res, 'retry-after'));
      expect(Number.isInteger(retryAfter)).toBe(true);
      expect(retryAfter).toBeGreaterThanOrEqual(10);
      expect(retryAfter).toBeLessThanOrEqual(30);
      // Not a replay: there was no Idempotency-Key.
      expect(res.headers['idempotent-replayed']).toBeUndefined();
    });

    it('polls to completed with ≥ 5 documents from ≥ 3 stages, each a full page', async () => {
      completed = await settle(key, projectId);
      const { data } = completed.json();
      expect(data.status).toBe('completed');
      expect(Object.keys(data).sort()).toEqual(['metadata', 'project', 'projectId', 'status']);
      expect(data.projectId).toBe(projectId);
      const { project } = data;
      expect(project.type).toBe('web');
      expect(typeof project.name).toBe('string');
      expect(project.name.length).toBeGreaterThan(0);
      expect(project.description.length).toBeGreaterThan(0);
      expect(typeof project.questionnaire.targetAudience).toBe('string');
      expect(typeof project.questionnaire.monetization).toBe('string');
      expect(project.questionnaire.techStack.length).toBeGreaterThan(0);

      const docs = project.documents as Array<Record<string, unknown>>;
      expect(docs.length).toBeGreaterThanOrEqual(5);
      expect(new Set(docs.map((d) => d.stage)).size).toBeGreaterThanOrEqual(3);
      // Exactly the web plan, each kind once.
      expect(docs.map((d) => d.type).sort()).toEqual(
        documentPlan('web')
          .map((d) => d.kind)
          .sort(),
      );
      for (const doc of docs) {
        expect(Object.keys(doc).sort()).toEqual([
          'content',
          'filename',
          'generated_at',
          'stage',
          'tokens_used',
          'type',
        ]);
        const planned = documentPlan('web').find((d) => d.kind === doc.type);
        expect(doc.filename).toBe(planned?.filename);
        expect(doc.stage).toBe(planned?.stage);
        const content = doc.content as string;
        expect(content, `${doc.type} is markdown with a title`).toMatch(/^# /);
        expect(content, `${doc.type} has sections`).toMatch(/^## /m);
        expect(words(content), `${doc.type} word count`).toBeGreaterThanOrEqual(450);
        expect(new Date(doc.generated_at as string).toISOString()).toBe(doc.generated_at);
        expect(Number.isInteger(doc.tokens_used)).toBe(true);
        expect(doc.tokens_used as number).toBeGreaterThan(0);
        // Specific to this idea and consistent with the chosen name.
        expect(content, `${doc.type} names the project`).toContain(project.name);
        expect(content, `${doc.type} has no placeholders`).not.toMatch(
          /lorem ipsum|\bTODO\b|\bTBD\b|\{\{|\[insert/i,
        );
      }
      const all = docs.map((d) => d.content as string).join('\n');
      for (const word of ['gardeners', 'compost', 'allotments']) {
        expect(all.toLowerCase(), `the documents mention "${word}"`).toContain(word);
      }
      const brief = docs.find((d) => d.type === 'project-brief')?.content as string;
      expect(brief.toLowerCase()).toMatch(/compost|gardeners/);
    });

    it('metadata counts the documents and charges exactly their catalogue prices', async () => {
      const { data } = completed.json();
      const kinds = (data.project.documents as Array<{ type: string }>).map((d) => d.type);
      expect(data.metadata.documentsGenerated).toBe(kinds.length);
      expect(data.metadata.creditsConsumed).toBe(priceOfGenerated('web', kinds));
      expect(data.metadata.creditsConsumed).toBe(priceOf('web'));
      expect(Number.isInteger(data.metadata.generationTimeMs)).toBe(true);
      expect(data.metadata.generationTimeMs).toBeGreaterThanOrEqual(0);
      expect(await credits(key)).toEqual({
        mode: 'test',
        balance: 500 - data.metadata.creditsConsumed,
        reserved: 0,
      });
      // No type was asked for: the dearest type's price was held until the definition chose
      // web, and the difference released at completion.
      const movements = (await ledgerOf(key)).filter((m) => m.projectId === projectId);
      expect(movements.map((m) => [m.movementKey, m.amount]).sort()).toEqual(
        [
          [`project:${projectId}:consume`, 0],
          [`project:${projectId}:release`, priceWithoutType() - priceOf('web')],
          [`project:${projectId}:reserve`, -priceWithoutType()],
        ].sort(),
      );
    });

    it('is stable until a revision: the same bytes and ETag on every read, 304 for If-None-Match', async () => {
      const first = await get(key, projectId);
      const second = await get(key, projectId);
      expect(first.statusCode).toBe(200);
      expect(second.body).toBe(first.body);
      const etag = header(first, 'etag');
      expect(header(second, 'etag')).toBe(etag);
      expect(first.body).toBe(completed.body);
      expect(header(first, 'cache-control')).toBe('private, no-cache');
      // The bytes served are the ones serialized once at completion.
      const [row] = await harness()
        .database.db.select()
        .from(projects)
        .where(eq(projects.id, projectId));
      expect(first.body).toBe(row?.resultBody);
      expect(row?.resultEtag).toBe(etag);

      const notModified = await get(key, projectId, { 'if-none-match': etag });
      expect(notModified.statusCode).toBe(304);
      expect(notModified.body).toBe('');
      expect(header(notModified, 'etag')).toBe(etag);
    });
  });

  describe('project types', () => {
    const cases: Array<{
      what: string;
      body: Record<string, unknown>;
      type: ProjectType;
      expected: string[];
      absent: string[];
    }> = [
      {
        what: 'an idea mentioning an "iPhone app" is inferred mobile',
        body: {
          idea: 'An iPhone app that lets boulderers log their climbing sessions and grade progress at the gym.',
        },
        type: 'mobile',
        expected: ['screens', 'navigation', 'offline-and-permissions'],
        absent: ['api-design', 'mcp-tools'],
      },
      {
        what: 'an idea mentioning an "MCP server" is inferred mcp',
        body: {
          idea: 'An MCP server that exposes a bakery inventory so the owner can ask about flour stock and orders.',
        },
        type: 'mcp',
        expected: ['mcp-tools', 'mcp-resources-and-prompts', 'mcp-transport-and-clients'],
        absent: ['api-design', 'screens'],
      },
      {
        what: 'an idea with no hint is inferred web',
        body: {
          idea: 'A place for neighbours to lend each other ladders, drills and garden tools.',
        },
        type: 'web',
        expected: ['api-design', 'data-model'],
        absent: ['screens', 'mcp-tools'],
      },
      {
        what: 'a given type wins over the vocabulary of the idea',
        body: {
          idea: 'An iPhone app for choirs to share rehearsal notes and sheet music between singers.',
          type: 'web',
        },
        type: 'web',
        expected: ['api-design', 'data-model'],
        absent: ['screens', 'navigation', 'offline-and-permissions'],
      },
    ];

    it.each(cases)(
      '$what, with its type-specific documents',
      async ({ body, type, expected, absent }) => {
        const key = await harness().createKey('test', { credits: 100 });
        const res = await create(key, body);
        expect(res.statusCode).toBe(202);
        const final = await settle(key, res.json().data.projectId);
        const { data } = final.json();
        expect(data.status).toBe('completed');
        expect(data.project.type).toBe(type);
        const kinds = (data.project.documents as Array<{ type: string }>).map((d) => d.type);
        expect(kinds.sort()).toEqual(
          documentPlan(type)
            .map((d) => d.kind)
            .sort(),
        );
        for (const kind of expected) expect(kinds).toContain(kind);
        for (const kind of absent) expect(kinds).not.toContain(kind);
        expect(data.metadata.creditsConsumed).toBe(priceOf(type));
        expect(await credits(key)).toEqual({
          mode: 'test',
          balance: 100 - priceOf(type),
          reserved: 0,
        });
      },
    );

    it('a given name is kept and used in every document', async () => {
      const key = await harness().createKey('test', { credits: 100 });
      const name = 'Trellis Board';
      const res = await create(key, {
        idea: 'A shared planner for allotment societies to split plots, tools and watering duty.',
        name,
      });
      expect(res.statusCode).toBe(202);
      const { data } = (await settle(key, res.json().data.projectId)).json();
      expect(data.status).toBe('completed');
      expect(data.project.name).toBe(name);
      for (const doc of data.project.documents) expect(doc.content).toContain(name);
    });

    it('accepts the boundaries: an idea of 10 and of 5,000 characters', async () => {
      const key = await harness().createKey('test', { credits: 200 });
      const longest = 'A web tool for allotment societies. '.repeat(200).slice(0, 5_000);
      for (const idea of ['Dog walker', longest]) {
        expect([10, 5_000]).toContain(idea.length);
        const res = await create(key, { idea });
        expect(res.statusCode, `idea of ${idea.length} characters`).toBe(202);
        const { data } = (await settle(key, res.json().data.projectId)).json();
        expect(data.status).toBe('completed');
      }
    });
  });

  describe('validation', () => {
    const idea = 'A recipe box that plans a week of dinners from what is in the fridge.';
    const cases: Array<{
      what: string;
      body: unknown;
      mode?: 'live' | 'test';
      missing?: string[];
      invalid?: string;
    }> = [
      { what: 'missing idea', body: { type: 'web' }, missing: ['idea'] },
      { what: 'an empty body object', body: {}, missing: ['idea'] },
      { what: 'an idea of 9 characters', body: { idea: 'Dog walks' }, invalid: 'idea' },
      { what: 'an idea of 5,001 characters', body: { idea: 'x'.repeat(5_001) }, invalid: 'idea' },
      { what: 'an idea that is not a string', body: { idea: 1234567890123 }, invalid: 'idea' },
      { what: "type 'desktop'", body: { idea, type: 'desktop' }, invalid: 'type' },
      { what: 'an empty name', body: { idea, name: '' }, invalid: 'name' },
      { what: 'a name of 81 characters', body: { idea, name: 'n'.repeat(81) }, invalid: 'name' },
      { what: 'an unknown field', body: { idea, colour: 'green' }, invalid: 'colour' },
      {
        what: 'simulate.durationMs 600001',
        body: { idea, simulate: { outcome: 'completed', durationMs: 600_001 } },
        invalid: 'simulate.durationMs',
      },
      {
        what: 'simulate.durationMs −1',
        body: { idea, simulate: { outcome: 'completed', durationMs: -1 } },
        invalid: 'simulate.durationMs',
      },
      {
        what: "simulate.outcome 'maybe'",
        body: { idea, simulate: { outcome: 'maybe', durationMs: 10 } },
        invalid: 'simulate.outcome',
      },
      {
        what: 'simulate without outcome',
        body: { idea, simulate: { durationMs: 10 } },
        missing: ['simulate.outcome'],
      },
      {
        what: 'simulate with a live key',
        body: { idea, simulate: { outcome: 'completed', durationMs: 0 } },
        mode: 'live',
        invalid: 'simulate',
      },
    ];

    it.each(cases)(
      '$what → 400 VALIDATION_ERROR; no project, no credit movement',
      async ({ body, mode = 'test', missing, invalid }) => {
        const key = await harness().createKey(mode, { credits: 100 });
        const res = await create(key, body);
        expect(res.statusCode).toBe(400);
        const { error } = res.json();
        expect(error.code).toBe('VALIDATION_ERROR');
        if (missing) expect(error.details.missing_fields).toEqual(missing);
        if (invalid) {
          expect(Object.keys(error.details.invalid_fields ?? {})).toContain(invalid);
          expect(typeof error.details.invalid_fields[invalid]).toBe('string');
        }
        expect(await projectsOf(key)).toEqual([]);
        expect((await ledgerOf(key)).map((m) => m.kind)).toEqual(['grant']);
        expect(await credits(key)).toEqual({ mode, balance: 100, reserved: 0 });
      },
    );

    it('a live key without simulate is accepted', async () => {
      const key = await harness().createKey('live', { credits: 100 });
      const res = await create(key, { idea });
      expect(res.statusCode).toBe(202);
      const { data } = (await settle(key, res.json().data.projectId)).json();
      expect(data.status).toBe('completed');
      expect(await credits(key)).toEqual({
        mode: 'live',
        balance: 100 - priceOf('web'),
        reserved: 0,
      });
    });
  });
});
