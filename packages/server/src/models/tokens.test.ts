import { countTokens as countWhole } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { countTokens } from './tokens.ts';

describe('countTokens', () => {
  it('counts ordinary long text exactly as the whole-text encoder does', () => {
    const text = Array.from(
      { length: 400 },
      (_, i) =>
        `Line ${i}: the appointment service books visits for pets.\n\tconst x${i} = f(${i});`,
    ).join('\n');
    expect(text.length).toBeGreaterThan(10_000);
    expect(countTokens(text)).toBe(countWhole(text));
  });

  it('counts a run without breaks in pieces, within a token per piece of the whole count', () => {
    const text = 'é'.repeat(6_000);
    const pieces = Math.ceil(text.length / 2_048);
    expect(Math.abs(countTokens(text) - countWhole(text))).toBeLessThanOrEqual(pieces);
  });
});
