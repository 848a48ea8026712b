import type { PartProvenance } from '@pgs/client';
import { describe, expect, it } from 'vitest';
import { cacheShare, dollars, type Usage, unknownCostNote } from './usage.ts';

const usage = (inputTokens: number, cachedInputTokens: number): Usage => ({
  inputTokens,
  cachedInputTokens,
  cacheWriteTokens: 0,
  outputTokens: 0,
  costUsd: 0,
});

const part = (engine: string, costUsd: number | null) =>
  ({ kind: 'readme', engine, costUsd }) as PartProvenance;

describe('dollars', () => {
  it('to the millionth, $0 for nothing, unknown (or what is asked) for null', () => {
    expect(dollars(0.004213)).toBe('$0.004213');
    expect(dollars(0.000001)).toBe('$0.000001');
    expect(dollars(0.0105)).toBe('$0.010500');
    expect(dollars(12.5)).toBe('$12.500000');
    // A sum of floats is shown to the micro-dollar the API means.
    expect(dollars(0.1 + 0.2)).toBe('$0.300000');
    expect(dollars(0)).toBe('$0');
    expect(dollars(null)).toBe('unknown');
    expect(dollars(null, '-')).toBe('-');
  });
});

describe('cacheShare', () => {
  it('rounds to a whole percent, never to 0 % or 100 % when neither is true', () => {
    expect(cacheShare(usage(32_800, 20_000))).toBe(
      'Cache served 61 % of input tokens (20000 of 32800).',
    );
    expect(cacheShare(usage(1000, 0))).toBe('Cache served 0 % of input tokens (0 of 1000).');
    expect(cacheShare(usage(100_000, 1))).toMatch(/^Cache served 1 % /);
    expect(cacheShare(usage(100_000, 99_999))).toMatch(/^Cache served 99 % /);
    expect(cacheShare(usage(500, 500))).toMatch(/^Cache served 100 % /);
    expect(cacheShare(usage(0, 0))).toBeUndefined();
  });
});

describe('unknownCostNote', () => {
  it('nothing when every cost is known', () => {
    expect(unknownCostNote([part('openai:gpt-4.1', 0.01), part('offline', 0)])).toBeUndefined();
  });

  it('names each engine once, and says where prices are set', () => {
    const note = unknownCostNote([
      part('openai-compatible:a', null),
      part('openai:gpt-4.1', 0.01),
      part('openai-compatible:b', null),
      part('openai-compatible:a', null),
    ]);
    expect(note).toBe(
      'unknown: no price is known for openai-compatible:a and openai-compatible:b (or a model ' +
        'tried before them, or parts stored before PGS recorded costs). PGS_MODEL_PRICES on the ' +
        'server sets prices (docs/cost.md).',
    );
  });

  it('never says the offline engine lacks a price', () => {
    expect(unknownCostNote([part('offline', null)])).toMatch(
      /^unknown: the offline engine is free, but a model tried before it has no price /,
    );
  });
});
