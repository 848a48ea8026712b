import { describe, expect, it } from 'vitest';
import { CONTINUE_MESSAGE } from '../src/runs/prompts/render.ts';
import {
  competent,
  generate,
  IDEA,
  isDefinition,
  kindOf,
  setupFor,
  usageOf,
} from './helpers/ai-harness.ts';
import type { FakeAiCall, FakeAiReply } from './helpers/fake-ai.ts';

/**
 * Issue 17 items 1 and 6, through a real provider package against the fake: the definition
 * is checked for the idea's terms and corrected once; pinned fields and soft rules never fail
 * a project; an answer cut off by the output limit is continued, and one cut again is
 * recorded and repaired, never stored as if complete.
 */

/** A definition of the idea with every member the schema asks for and every word of the idea. */
function fullDefinition(call: FakeAiCall): Record<string, unknown> {
  const reply = competent(call) as Extract<FakeAiReply, { kind: 'json' }>;
  const value = reply.value as { description: string; questionnaire: Record<string, unknown> };
  const features = value.questionnaire.coreFeatures as string[];
  return {
    ...value,
    description: `${value.description} It is ${IDEA.toLowerCase()}.`,
    questionnaire: {
      ...value.questionnaire,
      ideaCoverage: [{ term: IDEA, feature: features[0] }],
      keyEntities: ['session', 'mentor'],
      integrations: [],
      nonGoals: ['Group sessions'],
      assumptions: ['Sessions last one hour'],
      openQuestions: ['Which currencies are accepted?'],
    },
  };
}

const json = (call: FakeAiCall, value: unknown): FakeAiReply => ({
  kind: 'json',
  value,
  usage: usageOf(call),
});

describe('the definition keeps the idea, and never fails a project for a soft rule', () => {
  const s = setupFor([{ provider: 'openai', model: 'gpt-fake-1' }]);

  it('a model that answers another type than the pinned one is not corrected for it; the pinned type holds', async () => {
    s.fake.reset();
    s.fake.respond((call) =>
      isDefinition(call) ? json(call, { ...fullDefinition(call), type: 'web' }) : competent(call),
    );
    const { data, provenance } = await generate(s, { type: 'mobile' });
    expect(data.status).toBe('completed');
    expect(data.project.type).toBe('mobile');
    expect(s.fake.calls.filter(isDefinition)).toHaveLength(1);
    expect(provenance.definition).toMatchObject({ repairs: 0, initialFindings: [], findings: [] });
  });

  it('words of the idea the definition leaves out go into the one correction', async () => {
    s.fake.reset();
    s.fake.respond((call) => {
      if (!isDefinition(call)) return competent(call);
      const value = fullDefinition(call);
      if (call.prompt.includes('did not pass validation')) return json(call, value);
      // The first answer forgets the mentors and what the sessions cost ("paid", and "pay",
      // which keeps "paid" by its lemma).
      const text = JSON.stringify(value).replace(/mentor|paid|\bpay\b/gi, 'coach');
      return json(call, JSON.parse(text));
    });
    const { data, provenance } = await generate(s, {});
    expect(data.status).toBe('completed');
    const definitions = s.fake.calls.filter(isDefinition);
    expect(definitions).toHaveLength(2);
    // The idea's first word of a stem is the one quoted ("mentoring" before "mentors").
    expect(definitions[1]!.prompt).toMatch(
      /leaves out these words of the idea: .*"mentor(?:ing|s)"/,
    );
    expect(definitions[1]!.prompt).toContain('"paid"');
    expect(provenance.definition.initialFindings).toMatchObject([
      { rule: 'idea-term', severity: 'high' },
    ]);
    expect(provenance.definition.findings).toEqual([]);
  });

  it('a soft rule still broken after the correction is accepted and recorded; the project completes', async () => {
    s.fake.reset();
    s.fake.respond((call) => {
      if (!isDefinition(call)) return competent(call);
      const value = fullDefinition(call) as { questionnaire: { coreFeatures: string[] } };
      // Two core features, both times: the rules want at least three.
      value.questionnaire.coreFeatures = value.questionnaire.coreFeatures.slice(0, 2);
      return json(call, value);
    });
    const { data, provenance } = await generate(s, {});
    expect(data.status).toBe('completed');
    expect(s.fake.calls.filter(isDefinition)).toHaveLength(2);
    expect(provenance.definition.repairs).toBe(1);
    expect(provenance.definition.findings).toMatchObject([
      { rule: 'soft-rule', severity: 'medium' },
    ]);
    expect(provenance.definition.findings[0].message).toContain('coreFeatures');
  });

  it('a wish of the idea that the requirements make Must goes into the one repair (issue 29, item 4)', async () => {
    s.fake.reset();
    s.fake.respond((call) => {
      const reply = competent(call);
      if (kindOf(call) !== 'product-requirements' || reply.kind !== 'text') return reply;
      if (call.prompt.includes('is Must, but the idea puts')) return reply;
      return { ...reply, text: reply.text.replace(/\((?:Should|Could)\)$/gm, '(Must)') };
    });
    const idea = `${IDEA}. Maybe later: run group workshops for mentees.`;
    const { data, provenance } = await generate(s, { idea });
    expect(data.status).toBe('completed');
    const requirements = s.fake.calls.filter((call) => kindOf(call) === 'product-requirements');
    expect(requirements).toHaveLength(2);
    expect(requirements[1]!.prompt).toMatch(
      /FR-\d+ \("Run group workshops for mentees"\) is Must, but the idea puts "run group workshops for mentees" off/,
    );
    const written = provenance.documents.find(
      (p: { kind: string }) => p.kind === 'product-requirements',
    );
    expect(written.repairs).toBe(1);
    expect(written.initialFindings).toMatchObject([{ rule: 'wish-as-must', severity: 'high' }]);
    expect(written.findings).toEqual([]);
  });
});

describe('an answer cut off by the output limit', () => {
  const s = setupFor([{ provider: 'anthropic', model: 'claude-fake' }]);

  it('is continued from where it stopped, and stored whole', async () => {
    s.fake.reset();
    s.fake.respond((call) => {
      const reply = competent(call);
      if (reply.kind !== 'text' || kindOf(call) !== 'readme') return reply;
      if (call.prompt.includes(CONTINUE_MESSAGE)) {
        return { ...reply, text: reply.text.slice(reply.text.length / 2) };
      }
      return { ...reply, text: reply.text.slice(0, reply.text.length / 2), cut: true };
    });
    const { data, provenance } = await generate(s, { type: 'web' });
    expect(data.status).toBe('completed');
    const readme = s.fake.calls.filter((c) => !isDefinition(c) && kindOf(c) === 'readme');
    expect(readme).toHaveLength(2);
    const whole = competent(readme[0]!) as { text: string };
    const stored = data.project.documents.find((d: { type: string }) => d.type === 'readme');
    expect(stored.content.trim()).toBe(whole.text.trim());
    const part = provenance.documents.find((p: { kind: string }) => p.kind === 'readme');
    expect(part.initialFindings.map((f: { rule: string }) => f.rule)).not.toContain('truncated');
    const sum = readme.map(usageOf).reduce((a, b) => a + b.input + b.output, 0);
    expect(stored.tokens_used).toBe(sum);
  });

  it('cut again after the continuation: a critical finding, and the repair asks for a complete, shorter document', async () => {
    s.fake.reset();
    let repaired = false;
    s.fake.respond((call) => {
      const reply = competent(call);
      if (reply.kind !== 'text' || kindOf(call) !== 'readme') return reply;
      if (call.prompt.includes('A review of your document')) {
        repaired = true;
        return reply;
      }
      return { ...reply, text: reply.text.slice(0, 200), cut: true };
    });
    const { data, provenance } = await generate(s, { type: 'web' });
    expect(data.status).toBe('completed');
    expect(repaired).toBe(true);
    const part = provenance.documents.find((p: { kind: string }) => p.kind === 'readme');
    expect(part.initialFindings[0]).toMatchObject({ rule: 'truncated', severity: 'critical' });
    expect(part.repairs).toBe(1);
    expect(part.findings.map((f: { rule: string }) => f.rule)).not.toContain('truncated');
  });
});
