import { describe, expect, it } from 'vitest';
import { auditLedger } from '../src/credits/audit.ts';
import { DEFAULT_PRICES, priceOf, worstCaseCostUsd } from '../src/models/prices.ts';
import { documentPlan } from '../src/runs/catalogue.ts';
import { priceOfKinds } from '../src/runs/pricing.ts';
import { documentPromptOf } from '../src/runs/prompts/documents/index.ts';
import { competent, generate, IDEA, respondWith, setupFor } from './helpers/ai-harness.ts';

// maxCostUsd (issue 21): a project stops before a model call that could pass its budget,
// settled as a cancellation, with the ledger exact. Against the wire-protocol fake with a
// priced model (anthropic:claude-sonnet-4-5 at the default prices).

const SONNET = priceOf(DEFAULT_PRICES, 'anthropic:claude-sonnet-4-5')!;

describe('a budget on model calls', () => {
  const s = setupFor([{ provider: 'anthropic', model: 'claude-sonnet-4-5' }]);

  it('stops the project before a call that could pass it: budget_exceeded, stored documents charged, the rest released', async () => {
    respondWith(s, competent);
    // The brief and the requirements fit (each call holds its worst case: the whole output
    // allowance); the README's allowance alone with what is spent by then does not, so the
    // run ends before the last document, wherever the holds of parallel documents meet.
    const prd = documentPromptOf('product-requirements');
    const limit = 0.16;
    expect(worstCaseCostUsd(SONNET, 4_000, prd.maxOutputTokens)).toBeLessThan(limit - 0.02);
    const before = await s.h.credits(s.key);
    const { data, provenance } = await generate(s, { type: 'web', maxCostUsd: limit });

    expect(data.status).toBe('failed');
    expect(data.error.code).toBe('budget_exceeded');
    expect(data.error.message).toContain('budget of $0.1600');
    const spent = provenance.totals.costUsd as number;
    expect(spent).toBeGreaterThan(0);
    expect(spent).toBeLessThanOrEqual(limit);
    expect(data.error.message).toContain(`model calls cost $${spent.toFixed(4)}`);

    // What was stored is charged, as a cancellation charges it; nothing stays reserved.
    const kinds = provenance.documents.map((part: { kind: string }) => part.kind);
    expect(kinds).toContain('project-brief');
    expect(kinds).toContain('product-requirements');
    expect(kinds.length).toBeLessThan(documentPlan('web').length);
    const charged = priceOfKinds('web', kinds);
    expect(data.error.message).toContain(`${charged} credits were charged`);
    const after = await s.h.credits(s.key);
    expect(after).toEqual({ ...before, balance: before.balance - charged, reserved: 0 });
    const drift = (await auditLedger(s.h.database.db)).drift.filter(
      (d) => d.accountId === s.key.accountId,
    );
    expect(drift).toEqual([]);
  });

  it('is kept by a project whose calls fit: it completes', async () => {
    respondWith(s, competent);
    const { data, provenance } = await generate(s, { type: 'mcp', maxCostUsd: 50 });
    expect(data.status).toBe('completed');
    expect(provenance.totals.costUsd).toBeLessThan(50);
  });

  it('refuses a budget that is not a positive amount, in the envelope', async () => {
    for (const maxCostUsd of [0, -1, '1', 1e9]) {
      const res = await s.h.createProject(s.key, { idea: IDEA, maxCostUsd });
      expect(res.statusCode, String(maxCostUsd)).toBe(400);
      expect(res.json()).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR' } });
    }
  });
});

describe('a budget without a known price', () => {
  const s = setupFor([{ provider: 'openai', model: 'gpt-fake-1' }]);

  it('is refused at creation, naming the field and the unpriced model; nothing is reserved', async () => {
    const before = await s.h.credits(s.key);
    const res = await s.h.createProject(s.key, { idea: IDEA, maxCostUsd: 1 });
    expect(res.statusCode).toBe(400);
    const { error } = res.json();
    expect(error.code).toBe('VALIDATION_ERROR');
    expect(error.details.invalid_fields.maxCostUsd).toContain('openai:gpt-fake-1');
    expect(error.request_id).toBeTruthy();
    expect(await s.h.credits(s.key)).toEqual(before);
    // Without a budget the same model is fine: its cost is simply unknown (null).
    expect((await s.h.createProject(s.key, { idea: IDEA })).statusCode).toBe(202);
  });
});
