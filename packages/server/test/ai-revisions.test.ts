import { describe, expect, it } from 'vitest';
import {
  competent,
  expectNoSecrets,
  generate,
  isDefinition,
  kindOf,
  setupFor,
  usageOf,
  waitFor,
} from './helpers/ai-harness.ts';
import { bearer } from './helpers/harness.ts';

/**
 * Issue 18 through a real provider package against the fake (Anthropic's Messages protocol:
 * structured output as a forced tool): the impact step is one structured call carrying the
 * change request and the current requirements; only the affected documents are asked for,
 * each from its current text and the deltas; provenance of the revision records every call.
 */

const IDEA =
  'A web app for small veterinary clinics to book appointments online, keep medical records for each pet, and send vaccine reminders by SMS.';
const CHANGE = 'Add SMS reminders two days before each appointment; drop the medical records';

describe('revisions with a model', () => {
  const s = setupFor([{ provider: 'anthropic', model: 'claude-fake-1' }]);
  const api = (method: 'GET' | 'POST', url: string, body?: unknown) =>
    s.h.request({
      method,
      url: `/api/v1${url}`,
      headers: {
        ...bearer(s.key.key),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
  const revised = (id: string, n: number) =>
    waitFor(async () => {
      const data = (await api('GET', `/projects/${id}/revisions/${n}`)).json().data;
      return data.status === 'in_progress' ? undefined : data;
    }, `revision ${n} of ${id}`);

  it('reads the change request once, rewrites only what it touches, and records every call', async () => {
    const { id } = await generate(s, { idea: IDEA, type: 'web' });
    s.fake.reset();
    s.fake.respond(competent);
    const res = await api('POST', `/projects/${id}/revisions`, { changeRequest: CHANGE });
    expect(res.statusCode, res.body).toBe(202);
    const done = await revised(id, 2);
    expect(done.status, JSON.stringify(done)).toBe('completed');

    const [impact, ...rewrites] = s.fake.calls;
    expect(isDefinition(impact!)).toBe(true);
    expect(impact!.prompt).toContain(CHANGE);
    expect(impact!.prompt).toMatch(/- FR-1: /);
    expect(impact!.prompt).toMatch(/- FR-2: .*medical records/i);
    expect(impact!.prompt).toContain('continue from FR-4');
    // Only the documents the deltas touch, each asked for once (no repair was needed).
    expect(rewrites.map(kindOf).sort()).toEqual(
      done.project.documents
        .filter((d: { filename: string }) => done.documentsChanged.includes(d.filename))
        .map((d: { type: string }) => d.type)
        .sort(),
    );
    expect(rewrites.map(kindOf)).not.toContain('project-brief');
    for (const call of rewrites) {
      expect(call.prompt).toContain('<current-document>');
      expect(call.prompt).toMatch(/- ADDED FR-4 "/);
      expect(call.prompt).toMatch(/- REMOVED FR-2 "/);
      expect(call.prompt).toMatch(/change only what the change requires/i);
    }

    // Provenance of revision 2: the impact call, each rewrite with its usage, and the
    // carried-over brief as it was written in revision 1.
    const provenance = (await api('GET', `/projects/${id}/provenance?revision=2`)).json().data;
    const byKind = new Map(provenance.documents.map((p: { kind: string }) => [p.kind, p] as const));
    expect(byKind.get('impact')).toMatchObject({
      engine: 'anthropic:claude-fake-1',
      promptVersion: expect.stringMatching(/^impact@\d+\+system@\d+$/),
      inputTokens: usageOf(impact!).input,
      outputTokens: usageOf(impact!).output,
    });
    for (const call of rewrites) {
      expect(byKind.get(kindOf(call)!)).toMatchObject({
        engine: 'anthropic:claude-fake-1',
        promptVersion: expect.stringMatching(/^revise@\d+\+/),
        inputTokens: usageOf(call).input,
      });
    }
    expect(byKind.get('project-brief')).toBeDefined();
    expectNoSecrets(s, JSON.stringify(provenance), JSON.stringify(done));
  });

  it('corrects once an answer that removes a requirement the request does not name (issue 29, item 4)', async () => {
    const { id } = await generate(s, { idea: IDEA, type: 'web' });
    s.fake.reset();
    type Answer = { deltas: { op: string; id: string }[] };
    const answers: Answer[] = [];
    s.fake.respond((call) => {
      if (!isDefinition(call)) return competent(call);
      if (answers[0]) return { kind: 'json', value: answers[0], usage: usageOf(call) };
      const right = (competent(call) as { value: Answer }).value;
      answers.push(right);
      // The medical records are FR-2; this answer removes the appointments (FR-1) instead.
      const wrong = right.deltas.map((d) => (d.op === 'removed' ? { ...d, id: 'FR-1' } : d));
      return { kind: 'json', value: { deltas: wrong }, usage: usageOf(call) };
    });
    await api('POST', `/projects/${id}/revisions`, { changeRequest: CHANGE });
    const done = await revised(id, 2);
    expect(done.status, JSON.stringify(done)).toBe('completed');
    const impacts = s.fake.calls.filter(isDefinition);
    expect(impacts).toHaveLength(2);
    expect(impacts[1]!.prompt).toMatch(
      /FR-1 \("[^"]*appointments[^"]*"\) was removed, but the request removes only "the medical records"/,
    );
    const provenance = (await api('GET', `/projects/${id}/provenance?revision=2`)).json().data;
    const impact = provenance.documents.find((p: { kind: string }) => p.kind === 'impact');
    expect(impact.inputTokens).toBe(usageOf(impacts[0]!).input + usageOf(impacts[1]!).input);
    const removed = done.deltas.filter((d: { op: string }) => d.op === 'removed');
    expect(removed).toMatchObject([
      { id: 'FR-2', title: expect.stringMatching(/medical records/i) },
    ]);
  });

  it('fails and refunds a revision whose change request the model finds nothing in', async () => {
    const { id } = await generate(s, { idea: IDEA, type: 'web' });
    const before = (await api('GET', '/credits')).json().data.balance;
    s.fake.reset();
    s.fake.respond((call) =>
      isDefinition(call)
        ? { kind: 'json', value: { deltas: [] }, usage: usageOf(call) }
        : competent(call),
    );
    await api('POST', `/projects/${id}/revisions`, { changeRequest: 'Make it better' });
    const failed = await revised(id, 2);
    expect(failed.status).toBe('failed');
    expect(failed.error.message).toMatch(/found nothing in the change request/);
    expect(s.fake.calls).toHaveLength(1);
    expect((await api('GET', '/credits')).json().data.balance).toBe(before);
  });
});
