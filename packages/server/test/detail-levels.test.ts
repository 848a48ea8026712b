import { describe, expect, it } from 'vitest';
import { auditLedger } from '../src/credits/audit.ts';
import { documentPlan } from '../src/runs/catalogue.ts';
import { priceOf } from '../src/runs/pricing.ts';
import { documentPromptOf } from '../src/runs/prompts/documents/index.ts';
import { buildTrace } from '../src/runs/trace/index.ts';
import {
  competent,
  generate,
  isDefinition,
  kindOf,
  respondWith,
  setupFor,
} from './helpers/ai-harness.ts';

// Detail levels (issue 21 item 5): the price, the documents' length, and what a model is asked.

const IDEA = 'A booking app for a dental clinic with SMS appointment reminders and medical records';

describe('detail levels with the offline engine', () => {
  // A live key on the offline engine: the engine every test key and the embedded default use.
  const s = setupFor([{ provider: 'offline', model: 'pgs-offline' }]);

  it('a brief project costs the brief price and its documents are shorter, with every ID kept', async () => {
    const before = await s.h.credits(s.key);
    const standard = await generate(s, { idea: IDEA, type: 'web' });
    const brief = await generate(s, { idea: IDEA, type: 'web', detail: 'brief' });
    expect(standard.data.status).toBe('completed');
    expect(brief.data.status).toBe('completed');
    expect(brief.data.metadata.creditsConsumed).toBe(priceOf('web', 'brief'));
    expect(brief.provenance.detail).toBe('brief');
    expect(standard.provenance.detail).toBe('standard');
    expect(standard.data.metadata.creditsConsumed).toBe(priceOf('web'));
    expect(await s.h.credits(s.key)).toEqual({
      ...before,
      balance: before.balance - priceOf('web') - priceOf('web', 'brief'),
      reserved: 0,
    });

    type Doc = { filename: string; content: string };
    const docsOf = (run: typeof brief) => run.data.project.documents as Doc[];
    const length = (docs: Doc[]) => docs.reduce((n, d) => n + d.content.length, 0);
    expect(length(docsOf(brief))).toBeLessThan(length(docsOf(standard)) * 0.85);
    const ids = (docs: Doc[]) =>
      buildTrace(docs)
        .nodes.map((n) => n.id)
        .sort();
    expect(ids(docsOf(brief))).toEqual(ids(docsOf(standard)));
    // The gate and the trace find no more in a brief project than in a standard one.
    const findings = (run: typeof brief) =>
      run.provenance.documents.reduce(
        (n: number, p: { findings: unknown[] }) => n + p.findings.length,
        0,
      );
    expect(findings(brief)).toBeLessThanOrEqual(findings(standard));
    expect((await auditLedger(s.h.database.db)).drift).toEqual([]);
  });

  it('refuses an unknown level, naming the field', async () => {
    const res = await s.h.createProject(s.key, { idea: IDEA, detail: 'short' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('VALIDATION_ERROR');
    expect(JSON.stringify(res.json().error.details)).toContain('detail');
  });
});

describe('detail levels with a model', () => {
  const s = setupFor([{ provider: 'anthropic', model: 'claude-sonnet-4-5' }]);

  it('asks each document for its length, with its output allowance scaled', async () => {
    respondWith(s, competent);
    const { data } = await generate(s, { idea: IDEA, type: 'mcp', detail: 'deep' });
    expect(data.status).toBe('completed');
    expect(data.metadata.creditsConsumed).toBe(priceOf('mcp', 'deep'));
    const documents = s.fake.calls.filter((call) => !isDefinition(call));
    expect(documents).toHaveLength(documentPlan('mcp').length);
    for (const call of documents) {
      const allowance = documentPromptOf(kindOf(call)!).maxOutputTokens;
      expect(call.maxOutputTokens, kindOf(call)).toBe(Math.min(16_000, allowance * 1.5));
      expect(call.prompt).toContain('Length: deep.');
    }
  });
});
