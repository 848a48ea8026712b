import { describe, expect, it } from 'vitest';
import {
  competent,
  generate,
  isDefinition,
  kindOf,
  respondWith,
  setupFor,
  waitFor,
} from './helpers/ai-harness.ts';
import type { FakeAiCall } from './helpers/fake-ai.ts';
import { bearer } from './helpers/harness.ts';

/**
 * Issue 32, items 3 and 4: house conventions per account and mode (versioned, through the real
 * app, every answer checked against the contract by the harness), applied to a new project by
 * the offline engine and carried into every prompt of a model; the language asked, written by
 * a model and checked by the gate, and said to be English where the offline engine wrote.
 * Item 7: with the fake provider, the conventions, the language and the answers reach every
 * prompt of a creation, of a revision (its impact step too) and of an answers revision.
 */

const IDEA = 'A booking tool for dog groomers with SMS reminders the day before';

type Doc = { filename: string; type: string; content: string };
type Part = { kind: string; promptVersion: string; findings: { rule: string }[] };

describe('house conventions with the offline engine', () => {
  const s = setupFor([{ provider: 'offline', model: 'pgs-offline' }]);
  const api = (method: 'GET' | 'PUT', url: string, body?: unknown) =>
    s.h.request({
      method,
      url: `/api/v1${url}`,
      headers: bearer(s.key.key),
      ...(body === undefined ? {} : { payload: body as Record<string, unknown> }),
    });

  it('are versioned per account and mode: 404 before any, each PUT a version, the same body the same one', async () => {
    const none = await api('GET', '/conventions');
    expect(none.statusCode).toBe(404);
    expect(none.json().error).toMatchObject({
      code: 'RESOURCE_NOT_FOUND',
      details: { resource_type: 'conventions' },
    });
    const first = await api('PUT', '/conventions', { language: 'pt-br', compliance: ['GDPR'] });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().data).toMatchObject({
      version: 1,
      language: 'pt-BR',
      compliance: ['GDPR'],
    });
    // A retried PUT (the same conventions, members in another order) keeps the version.
    const again = await api('PUT', '/conventions', { compliance: ['GDPR'], language: 'pt-BR' });
    expect(again.json().data.version).toBe(1);
    const second = await api('PUT', '/conventions', { naming: ['Tables are plural snake_case'] });
    expect(second.json().data).toMatchObject({
      version: 2,
      naming: ['Tables are plural snake_case'],
    });
    expect(second.json().data).not.toHaveProperty('language');
    expect((await api('GET', '/conventions')).json().data.version).toBe(2);
    expect((await api('GET', '/conventions/versions/1')).json().data.language).toBe('pt-BR');
    expect((await api('GET', '/conventions/versions/9')).statusCode).toBe(404);
  });

  it('refuse bad input in the envelope, naming the field', async () => {
    for (const [body, field] of [
      [{ language: '1234' }, 'language'],
      [{ language: 'de de' }, 'language'],
      [{ detail: 'huge' }, 'detail'],
      [{ compliance: Array.from({ length: 11 }, (_, i) => `S${i}`) }, 'compliance'],
      [{ stack: { required: ['MongoDB'], forbidden: ['mongodb'] } }, 'stack'],
      [{ sections: [{ title: 'Ops\n## Injected', content: 'x' }] }, 'sections'],
      [{ extra: true }, 'extra'],
    ] as const) {
      const res = await api('PUT', '/conventions', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error.code).toBe('VALIDATION_ERROR');
      expect(JSON.stringify(res.json().error.details)).toContain(field);
    }
    const project = await s.h.createProject(s.key, { idea: IDEA, language: '1234' });
    expect(project.statusCode).toBe(400);
    expect(project.json().error.details.invalid_fields).toHaveProperty('language');
  });

  it('shape a new project: stack, compliance, naming, sections, detail and language recorded', async () => {
    const put = await api('PUT', '/conventions', {
      // The engine's own default database forbidden, another required in its place.
      stack: { required: ['MySQL'], forbidden: ['PostgreSQL'] },
      compliance: ['GDPR', 'SOC 2'],
      language: 'de',
      detail: 'brief',
      naming: ['Tables are plural snake_case'],
      sections: [{ title: 'Observability', content: 'Every request carries a trace id.' }],
    });
    const { version } = put.json().data as { version: number };
    const run = await generate(s, { idea: IDEA, type: 'web' });
    expect(run.data.status).toBe('completed');
    expect(run.provenance).toMatchObject({
      conventionsVersion: version,
      language: 'de',
      detail: 'brief',
    });
    // The offline engine writes English and says so, part by part.
    expect(run.provenance.writtenInEnglish).toEqual(
      expect.arrayContaining(['definition', 'architecture']),
    );
    const { questionnaire } = run.data.project;
    expect(questionnaire.techStack[0]).toBe('MySQL');
    expect(questionnaire.constraints).toEqual(
      expect.arrayContaining(['Compliance: GDPR', 'Compliance: SOC 2']),
    );
    const docs = run.data.project.documents as Doc[];
    const architecture = docs.find((d) => d.type === 'architecture')!.content;
    expect(architecture).toContain('| MySQL |');
    expect(architecture).toMatch(/^### GDPR$/m);
    expect(architecture).toMatch(/^### SOC 2$/m);
    expect(architecture).toContain('Tables are plural snake_case');
    // The architecture has an Observability section of its own: the team's text closes it.
    expect(architecture).toContain('\n\nEvery request carries a trace id.\n');
    expect(architecture.match(/^## Observability$/gm)).toHaveLength(1);
    for (const doc of docs) expect(doc.content, doc.filename).not.toMatch(/postgres/i);
    const parts = run.provenance.documents as Part[];
    for (const part of parts)
      expect(
        part.findings.map((f) => f.rule),
        part.kind,
      ).not.toEqual(
        expect.arrayContaining([
          expect.stringMatching(/^(?:missing-compliance|forbidden-technology)$/),
        ]),
      );
  });

  it('yield to the idea where it names another technology, recorded as a finding', async () => {
    await api('PUT', '/conventions', { stack: { required: ['PostgreSQL'] } });
    const run = await generate(s, {
      idea: 'A booking tool for dog groomers built on MySQL with SMS reminders the day before',
      type: 'web',
    });
    // Not put first over the idea's choice; the clash is said, not hidden.
    expect(run.data.project.questionnaire.techStack[0]).not.toBe('PostgreSQL');
    expect(run.provenance.definition.findings).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          rule: 'conventions',
          message: expect.stringContaining(
            'names MySQL where the house conventions require PostgreSQL',
          ),
        }),
      ]),
    );
  });

  it('are left out with conventions: false; a request keeps what it sets and takes the rest, Gherkin included', async () => {
    await api('PUT', '/conventions', {
      detail: 'deep',
      language: 'fr',
      requirementStyle: 'gherkin',
    });
    const out = await generate(s, { idea: IDEA, type: 'web', conventions: false });
    expect(out.provenance).toMatchObject({
      conventionsVersion: null,
      language: null,
      detail: 'standard',
      requirementStyle: 'ears',
      writtenInEnglish: [],
    });
    const own = await generate(s, { idea: IDEA, type: 'web', detail: 'brief', language: 'DE' });
    expect(own.provenance).toMatchObject({ detail: 'brief', language: 'de' });
    expect(own.provenance.conventionsVersion).toEqual(expect.any(Number));
    // A project that sets no style of its own takes the conventions': Gherkin scenarios.
    expect(own.provenance.requirementStyle).toBe('gherkin');
    const requirements = (own.data.project.documents as Doc[]).find(
      (d) => d.type === 'product-requirements',
    )!.content;
    expect(requirements).toMatch(/^- \*\*FR-1\.1\*\* Scenario: .+\n {2}- \*\*(?:Given|When)\*\* /m);
    expect(requirements).not.toContain('THE SYSTEM SHALL');
  });
});

describe('house conventions, language and answers with a model', () => {
  const s = setupFor([{ provider: 'anthropic', model: 'claude-sonnet-4-5' }]);
  const ANSWER = 'Google Workspace single sign-on only';
  const api = (method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown) =>
    s.h.request({
      method,
      url: `/api/v1${url}`,
      headers: bearer(s.key.key),
      ...(body === undefined ? {} : { payload: body as Record<string, unknown> }),
    });
  /** Every call carries the conventions first, the HIPAA rule and the creation's answer. */
  const expectHoused = (calls: readonly FakeAiCall[]) => {
    expect(calls.length).toBeGreaterThan(0);
    for (const call of calls) {
      // First in the user message: the most stable words of the project's prompts, cached.
      const block = call.prompt.indexOf('<pgs-conventions>\n');
      expect(block, kindOf(call)).toBeGreaterThan(-1);
      expect(block).toBeLessThan(call.prompt.indexOf('<pgs-context>'));
      expect(call.prompt).toContain('"HIPAA"');
      expect(call.prompt, kindOf(call)).toContain(ANSWER);
    }
  };
  // One project under conventions, in German, with an answer given at creation: written once,
  // by the first test that asks for it (the revision's test alone writes it too).
  let written: ReturnType<typeof generate> | undefined;
  const housed = () => {
    written ??= (async () => {
      respondWith(s, competent);
      const put = await api('PUT', '/conventions', {
        stack: { forbidden: ['MongoDB'] },
        compliance: ['HIPAA'],
        language: 'de',
      });
      expect(put.statusCode).toBe(200);
      return generate(s, {
        idea: IDEA,
        type: 'mcp',
        answers: [{ question: 'sign-in', answer: ANSWER }],
      });
    })();
    return written;
  };
  const revised = (id: string, n: number) =>
    waitFor(async () => {
      const data = (await api('GET', `/projects/${id}/revisions/${n}`)).json().data;
      return data.status === 'in_progress' ? undefined : data;
    }, `revision ${n} of ${id}`);

  it('carries the conventions and the answers first in every prompt, asks for the language, and the gate checks it', async () => {
    const run = await housed();
    expect(run.data.status).toBe('completed');
    // The definition and every document write, repairs included.
    expectHoused(s.fake.calls);
    expect(s.fake.calls.filter(isDefinition).length).toBeGreaterThan(0);
    for (const call of s.fake.calls)
      if (!isDefinition(call)) expect(call.prompt).toContain('Write the document in German (de)');
    const parts = run.provenance.documents as Part[];
    for (const part of parts) expect(part.promptVersion).toMatch(/\+conventions@\d+/);
    // The fake model answers in English: the gate finds it, document by document.
    expect(parts.every((part) => part.findings.some((f) => f.rule === 'language'))).toBe(true);
    expect(run.provenance.writtenInEnglish).toEqual([]);
    // Asked for HIPAA in a section of its own, the architecture has one.
    const architecture = (run.data.project.documents as Doc[]).find(
      (d) => d.type === 'architecture',
    )!;
    expect(architecture.content).toMatch(/^### HIPAA$/m);
  });

  it('carries them into a revision: its impact step and every rewrite, and an answers revision’s rewrites', async () => {
    const { id } = await housed();
    respondWith(s, competent);
    const change = await api('POST', `/projects/${id}/revisions`, {
      changeRequest: 'Add a waiting list that offers a cancelled slot to the next client by SMS',
    });
    expect(change.statusCode, change.body).toBe(202);
    expect((await revised(id, 2)).status).toBe('completed');
    const [impact, ...rewrites] = s.fake.calls;
    expect(isDefinition(impact!)).toBe(true);
    expectHoused(s.fake.calls);
    expect(impact!.prompt).toContain('written in German (de)');
    for (const call of rewrites) expect(call.prompt).toContain('Write the document in German (de)');
    const provenance = (await api('GET', `/projects/${id}/provenance?revision=2`)).json().data;
    const parts = provenance.documents as Part[];
    expect(parts.find((p) => p.kind === 'impact')!.promptVersion).toMatch(
      /^impact@\d+\+conventions@\d+\+/,
    );

    // Answered later: no model reads the answers; every rewrite is given them, as facts.
    const questions = (await api('GET', `/projects/${id}/questions`)).json().data.questions;
    const asked = (questions as { id: string }[]).find((q) => q.id.startsWith('Q-'))!;
    respondWith(s, competent);
    const answered = await api('POST', `/projects/${id}/answers`, {
      answers: { [asked.id]: 'Salons of up to 20 groomers' },
    });
    expect(answered.statusCode, answered.body).toBe(202);
    expect((await revised(id, 3)).status).toBe('completed');
    expect(s.fake.calls.filter(isDefinition)).toEqual([]);
    expectHoused(s.fake.calls);
    for (const call of s.fake.calls) {
      expect(call.prompt, kindOf(call)).toMatch(/<answers>\n.*Salons of up to 20 groomers/);
      expect(call.prompt).toContain('Write the document in German (de)');
    }
  });
});
