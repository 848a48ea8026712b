import type { PartProvenance, Provenance } from '@pgs/client';
import { describe, expect, it } from 'vitest';
import {
  documentCost,
  formatCost,
  formatCount,
  formatShare,
  formatUsd,
  projectCost,
} from './cost.ts';
import { authorship } from './provenance.ts';

const part = (kind: string, extra: Partial<PartProvenance> = {}): PartProvenance => ({
  kind,
  engine: 'anthropic:claude-sonnet-4-5',
  promptVersion: `${kind}@2+system@3`,
  inputTokens: 7_210,
  cachedInputTokens: 5_120,
  cacheWriteTokens: 0,
  outputTokens: 1_340,
  tokensUsed: 8_550,
  costUsd: 0.0312,
  attempts: 1,
  repairs: 0,
  durationMs: 100,
  initialFindings: [],
  findings: [],
  trimmedContext: [],
  createdAt: '2026-11-25T03:35:27.000Z',
  ...extra,
});

const provenanceOf = (
  parts: PartProvenance[],
  totals: Partial<Provenance['totals']> = {},
): Provenance => ({
  projectId: '0b6f8a52-3c1e-4d3b-9a57-2f1f0b1e6f10',
  status: 'completed',
  detail: 'standard',
  conventionsVersion: null,
  language: null,
  writtenInEnglish: [],
  requirementStyle: 'ears',
  context: null,
  totals: {
    inputTokens: 53_412,
    cachedInputTokens: 32_047,
    cacheWriteTokens: 0,
    outputTokens: 9_726,
    costUsd: 0.227,
    ...totals,
  },
  definition: parts[0] ?? null,
  documents: parts.slice(1),
});

describe('formatUsd', () => {
  it.each([
    [0, '$0'],
    [0.227, '$0.2270'],
    [0.0312, '$0.0312'],
    [0.05775, '$0.0578'],
    [0.9999, '$0.9999'],
    [0.0001, '$0.0001'],
    [1, '$1.00'],
    [1.234567, '$1.23'],
    [12.5, '$12.50'],
    [1234.5, '$1,234.50'],
  ])('%d reads %s', (usd, text) => {
    expect(formatUsd(usd)).toBe(text);
  });

  it('rounds up to a dollar in cents, never $1.0000', () => {
    expect(formatUsd(0.99996)).toBe('$1.00');
  });

  it('shows an amount under a hundredth of a cent to the millionth, never as zero', () => {
    expect(formatUsd(0.000042)).toBe('$0.000042');
    expect(formatUsd(0.00006)).toBe('$0.00006');
    expect(formatUsd(0.000001)).toBe('$0.000001');
  });

  it('reads a number that is not one as unknown', () => {
    expect(formatUsd(Number.NaN)).toBe('unknown');
  });
});

describe('formatCost', () => {
  it('reads null as unknown, never a guess', () => {
    expect(formatCost(null)).toBe('unknown');
    expect(formatCost(0.0312)).toBe('$0.0312');
    expect(formatCost(0)).toBe('$0');
  });
});

describe('formatCount', () => {
  it('separates thousands', () => {
    expect(formatCount(0)).toBe('0');
    expect(formatCount(999)).toBe('999');
    expect(formatCount(53_412)).toBe('53,412');
    expect(formatCount(1_234_567)).toBe('1,234,567');
  });
});

describe('formatShare', () => {
  it('rounds to a whole percent', () => {
    expect(formatShare(32_047, 53_412)).toBe('60\u00a0%');
    expect(formatShare(1, 4)).toBe('25\u00a0%');
    expect(formatShare(0, 10)).toBe('0\u00a0%');
    expect(formatShare(10, 10)).toBe('100\u00a0%');
  });

  it('never rounds a partial share to none or all', () => {
    expect(formatShare(1, 1_000)).toBe('1\u00a0%');
    expect(formatShare(999, 1_000)).toBe('99\u00a0%');
  });

  it('has no share of nothing', () => {
    expect(formatShare(0, 0)).toBeUndefined();
  });
});

describe('projectCost', () => {
  it('says the cost, the input with the share the prompt cache served, and the output', () => {
    const provenance = provenanceOf([part('definition'), part('readme')]);
    expect(projectCost(provenance, authorship(provenance))).toEqual({
      line: 'Model cost $0.2270 · 53,412 input tokens (60\u00a0% from the prompt cache) · 9,726 output tokens',
    });
  });

  it('counts the tokens written to the prompt cache, and leaves out a cache not used', () => {
    const provenance = provenanceOf([part('definition')], { cacheWriteTokens: 4_100 });
    expect(projectCost(provenance, authorship(provenance))?.line).toBe(
      'Model cost $0.2270 · 53,412 input tokens (60\u00a0% from the prompt cache, 4,100 written to it) · 9,726 output tokens',
    );
    const written = provenanceOf([part('definition')], {
      cachedInputTokens: 0,
      cacheWriteTokens: 4_100,
    });
    expect(projectCost(written, authorship(written))?.line).toBe(
      'Model cost $0.2270 · 53,412 input tokens (4,100 written to the prompt cache) · 9,726 output tokens',
    );
    const none = provenanceOf([part('definition')], { cachedInputTokens: 0 });
    expect(projectCost(none, authorship(none))?.line).toBe(
      'Model cost $0.2270 · 53,412 input tokens · 9,726 output tokens',
    );
  });

  it('says unknown for a null cost, with the reason to give', () => {
    const provenance = provenanceOf([part('definition'), part('readme', { costUsd: null })], {
      costUsd: null,
    });
    expect(projectCost(provenance, authorship(provenance))).toEqual({
      line: 'Model cost unknown · 53,412 input tokens (60\u00a0% from the prompt cache) · 9,726 output tokens',
      reason: 'unpriced',
    });
  });

  it('says the offline engine costs nothing in model fees, without its counted tokens', () => {
    const offline = { engine: 'offline', cachedInputTokens: 0, costUsd: 0 };
    const provenance = provenanceOf([part('definition', offline), part('readme', offline)], {
      cachedInputTokens: 0,
      costUsd: 0,
    });
    expect(projectCost(provenance, authorship(provenance))).toEqual({
      line: "Model cost $0 · no model fees: PGS's offline engine wrote it",
    });
  });

  it('an offline project whose cost is unknown (a model without a price failed first) says unknown', () => {
    const offline = { engine: 'offline', costUsd: null };
    const provenance = provenanceOf([part('definition', offline)], { costUsd: null });
    expect(projectCost(provenance, authorship(provenance))?.reason).toBe('unpriced');
  });

  it('says nothing when no part is recorded', () => {
    const provenance = provenanceOf([], { inputTokens: 0, outputTokens: 0, costUsd: 0 });
    expect(projectCost(provenance, authorship(provenance))).toBeUndefined();
  });
});

describe('documentCost', () => {
  it('says what one document cost, its cached input and its output', () => {
    expect(documentCost(part('readme'))).toBe(
      'This document: $0.0312 · 7,210 input tokens, 5,120 from the cache · 1,340 output',
    );
  });

  it('counts the cache writes, and leaves out a cache not used', () => {
    expect(documentCost(part('readme', { cacheWriteTokens: 1_000 }))).toBe(
      'This document: $0.0312 · 7,210 input tokens, 5,120 from the cache, 1,000 written to it · 1,340 output',
    );
    expect(documentCost(part('readme', { cachedInputTokens: 0, cacheWriteTokens: 1_000 }))).toBe(
      'This document: $0.0312 · 7,210 input tokens, 1,000 written to the cache · 1,340 output',
    );
    expect(documentCost(part('readme', { cachedInputTokens: 0 }))).toBe(
      'This document: $0.0312 · 7,210 input tokens · 1,340 output',
    );
  });

  it('says cost unknown for a null cost', () => {
    expect(documentCost(part('readme', { costUsd: null }))).toBe(
      'This document: cost unknown · 7,210 input tokens, 5,120 from the cache · 1,340 output',
    );
  });

  it("says the offline engine's document cost nothing in model fees", () => {
    expect(documentCost(part('readme', { engine: 'offline', costUsd: 0 }))).toBe(
      'This document: $0, no model fees (the offline engine)',
    );
  });
});
