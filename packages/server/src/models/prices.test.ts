import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  costUsd,
  DEFAULT_PRICES,
  loadPriceTable,
  type ModelPrice,
  OFFLINE_PRICE,
  PRICES_AS_OF,
  PriceTableError,
  priceOf,
  worstCaseCostUsd,
} from './prices.ts';

const price = (engine: string): ModelPrice => {
  const found = priceOf(DEFAULT_PRICES, engine);
  if (found === undefined) throw new Error(`no price for ${engine}`);
  return found;
};

describe('the default table', () => {
  it('is dated and covers the models the project names', () => {
    expect(PRICES_AS_OF).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    for (const engine of [
      'openai:gpt-4.1',
      'openai:gpt-4.1-mini',
      'openai:gpt-4.1-nano',
      'openai:gpt-4o',
      'openai:gpt-4o-mini',
      'openai:o3',
      'openai:o4-mini',
      'openai:gpt-5',
      'openai:gpt-5-mini',
      'openai:gpt-5-nano',
      'anthropic:claude-opus-4-1',
      'anthropic:claude-opus-4-0',
      'anthropic:claude-sonnet-4-5',
      'anthropic:claude-sonnet-4-0',
      'anthropic:claude-3-7-sonnet-latest',
      'anthropic:claude-haiku-4-5',
      'anthropic:claude-3-5-haiku-latest',
    ]) {
      expect(priceOf(DEFAULT_PRICES, engine), engine).toBeDefined();
    }
    expect(Object.isFrozen(DEFAULT_PRICES)).toBe(true);
  });

  it('bills OpenAI cache writes as input and Anthropic ones at 1.25× input, reads at 0.1×', () => {
    for (const [engine, p] of Object.entries(DEFAULT_PRICES)) {
      if (engine.startsWith('openai:')) expect(p.cacheWrite, engine).toBeNull();
      if (engine.startsWith('anthropic:')) {
        expect(p.cacheWrite, engine).toBeCloseTo(p.input * 1.25, 10);
        expect(p.cachedInput, engine).toBeCloseTo(p.input * 0.1, 10);
      }
      expect(p.cachedInput, engine).toBeLessThanOrEqual(p.input);
    }
  });

  it('is the table docs/cost.md shows, row for row, with its date', () => {
    const doc = readFileSync(new URL('../../../../docs/cost.md', import.meta.url), 'utf8');
    expect(doc).toContain(`**${PRICES_AS_OF}**`);
    const amount = (cell: string) => (cell === '= input' ? null : Number(cell.replace('$', '')));
    const rows = Object.fromEntries(
      [...doc.matchAll(/^\| `([^`]+)` \| (.+) \|$/gm)].map(([, engine, cells]) => {
        const [input, cachedInput, cacheWrite, output] = cells!.split(' | ').map(amount);
        return [engine, { input, cachedInput, cacheWrite, output }];
      }),
    );
    expect(rows).toEqual({ ...DEFAULT_PRICES, offline: OFFLINE_PRICE });
  });

  it('has no default for openai-compatible models', () => {
    expect(Object.keys(DEFAULT_PRICES).some((key) => key.startsWith('openai-compatible:'))).toBe(
      false,
    );
  });
});

describe('priceOf', () => {
  it('finds an engine by exact provider:model', () => {
    expect(priceOf(DEFAULT_PRICES, 'openai:gpt-4.1-mini')).toEqual({
      input: 0.4,
      cachedInput: 0.1,
      cacheWrite: null,
      output: 1.6,
    });
    expect(priceOf(DEFAULT_PRICES, 'anthropic:claude-sonnet-4-5')).toEqual({
      input: 3,
      cachedInput: 0.3,
      cacheWrite: 3.75,
      output: 15,
    });
  });

  it('knows nothing it was not told: unknown is undefined, never a guess', () => {
    for (const engine of [
      'openai:gpt-4.1-mega',
      'openai-compatible:llama3.1',
      'anthropic:claude-sonnet-9',
      'gpt-4.1',
      'openai:GPT-4.1',
      'anthropic:constructor',
      'constructor',
      'constructor:x-20250101',
      'toString:x-2025-01-01',
      '__proto__',
      '',
    ]) {
      expect(priceOf(DEFAULT_PRICES, engine), engine).toBeUndefined();
    }
  });

  it('prices offline at zero, a known price', () => {
    expect(priceOf(DEFAULT_PRICES, 'offline')).toEqual({
      input: 0,
      cachedInput: 0,
      cacheWrite: 0,
      output: 0,
    });
    expect(priceOf({}, 'offline:pgs-offline-1')).toBe(OFFLINE_PRICE);
  });

  it('falls back from a dated snapshot to its alias in the provider’s documented form', () => {
    expect(priceOf(DEFAULT_PRICES, 'anthropic:claude-sonnet-4-5-20250929')).toBe(
      price('anthropic:claude-sonnet-4-5'),
    );
    expect(priceOf(DEFAULT_PRICES, 'anthropic:claude-haiku-4-5-20251001')).toBe(
      price('anthropic:claude-haiku-4-5'),
    );
    expect(priceOf(DEFAULT_PRICES, 'openai:gpt-4.1-2025-04-14')).toBe(price('openai:gpt-4.1'));
    expect(priceOf(DEFAULT_PRICES, 'openai:gpt-5-mini-2025-08-07')).toBe(
      price('openai:gpt-5-mini'),
    );
    // Each provider's own date form only; not a date; not a provider with documented aliases.
    expect(priceOf(DEFAULT_PRICES, 'openai:gpt-4.1-20250414')).toBeUndefined();
    expect(priceOf(DEFAULT_PRICES, 'anthropic:claude-sonnet-4-5-2025-09-29')).toBeUndefined();
    expect(priceOf(DEFAULT_PRICES, 'anthropic:claude-sonnet-4-5-20251399')).toBeUndefined();
    expect(priceOf(DEFAULT_PRICES, 'openai:gpt-4.1-mini-12345678')).toBeUndefined();
    const table = loadPriceTable({ 'openai-compatible:qwen': { input: 1, output: 1 } });
    expect(priceOf(table, 'openai-compatible:qwen-2025-01-01')).toBeUndefined();
  });

  it('prefers an exact snapshot row to the alias (the first gpt-4o snapshot kept its price)', () => {
    expect(priceOf(DEFAULT_PRICES, 'openai:gpt-4o-2024-05-13')).toMatchObject({
      input: 5,
      output: 15,
    });
    expect(priceOf(DEFAULT_PRICES, 'openai:gpt-4o-2024-08-06')).toBe(price('openai:gpt-4o'));
    // Anthropic's `-0` and `-latest` aliases are not the snapshot id minus its date.
    expect(priceOf(DEFAULT_PRICES, 'anthropic:claude-sonnet-4-20250514')).toEqual(
      price('anthropic:claude-sonnet-4-0'),
    );
    expect(priceOf(DEFAULT_PRICES, 'anthropic:claude-3-5-haiku-20241022')).toEqual(
      price('anthropic:claude-3-5-haiku-latest'),
    );
  });
});

describe('costUsd', () => {
  it('bills an Anthropic call: uncached, cache reads at 0.1×, cache writes at 1.25×', () => {
    // Sonnet 4.5: 1,000 uncached × $3 + 20,000 read × $0.30 + 5,000 written × $3.75
    // + 2,000 output × $15, per million tokens.
    const cost = costUsd(price('anthropic:claude-sonnet-4-5'), {
      inputTokens: 26_000,
      cachedInputTokens: 20_000,
      cacheWriteTokens: 5_000,
      outputTokens: 2_000,
    });
    expect(cost).toBe(0.05775);
  });

  it('bills an OpenAI call: cache reads discounted, cache writes as input', () => {
    // gpt-4.1: 2,000 uncached + 3,000 written, all at $2; 8,000 read × $0.50; 500 × $8.
    const p = price('openai:gpt-4.1');
    expect(
      costUsd(p, {
        inputTokens: 13_000,
        cachedInputTokens: 8_000,
        cacheWriteTokens: 3_000,
        outputTokens: 500,
      }),
    ).toBe(0.018);
    expect(costUsd(p, { inputTokens: 10_000, cachedInputTokens: 8_000, outputTokens: 500 })).toBe(
      0.012,
    );
    expect(costUsd(p, { inputTokens: 1_000_000, outputTokens: 1_000_000 })).toBe(10);
  });

  it('floors the uncached part at 0 when the parts exceed the reported input', () => {
    const p = price('anthropic:claude-sonnet-4-5');
    // 10,000 read × $0.30 = $0.003, and nothing uncached.
    expect(costUsd(p, { inputTokens: 4_000, cachedInputTokens: 10_000, outputTokens: 0 })).toBe(
      0.003,
    );
  });

  it('rounds once, to the micro-dollar, with no float drift', () => {
    const nano = price('openai:gpt-5-nano');
    // 1 cached token × $0.005 per million = $0.000000005: below half a micro-dollar.
    expect(costUsd(nano, { inputTokens: 1, cachedInputTokens: 1, outputTokens: 0 })).toBe(0);
    // 100 × $0.005 per million = $0.0000005: half a micro-dollar rounds up.
    expect(costUsd(nano, { inputTokens: 100, cachedInputTokens: 100, outputTokens: 0 })).toBe(
      0.000001,
    );
    // o4-mini cached at $0.275: 3 tokens is 0.825 µ$, rounded once (not per part) with 1 output
    // token (4.4 µ$) to 5 µ$.
    expect(
      costUsd(price('openai:o4-mini'), { inputTokens: 3, cachedInputTokens: 3, outputTokens: 1 }),
    ).toBe(0.000005);
    // Float arithmetic gives 0.30000000000000004 for 0.1 + 0.2 dollars' worth.
    const p = loadPriceTable({ 'openai:x': { input: 0.1, output: 0.2 } })['openai:x']!;
    expect(costUsd(p, { inputTokens: 1_000_000, outputTokens: 1_000_000 })).toBe(0.3);
    // A large usage stays exact.
    expect(
      costUsd(price('anthropic:claude-opus-4-1'), {
        inputTokens: 1_234_567_891,
        outputTokens: 987_654_321,
      }),
    ).toBe(92_592.59244);
  });

  it('counts missing, negative or non-finite token counts as none', () => {
    const p = price('openai:gpt-4.1');
    expect(
      costUsd(p, {
        inputTokens: Number.NaN,
        cachedInputTokens: undefined,
        cacheWriteTokens: -5,
        outputTokens: Number.POSITIVE_INFINITY,
      }),
    ).toBe(0);
    expect(costUsd(OFFLINE_PRICE, { inputTokens: 50_000, outputTokens: 50_000 })).toBe(0);
  });
});

describe('worstCaseCostUsd', () => {
  it('takes every input token uncached and the whole output allowance', () => {
    // gpt-4.1-mini: 100,000 × $0.40 + 8,000 × $1.60 per million.
    expect(worstCaseCostUsd(price('openai:gpt-4.1-mini'), 100_000, 8_000)).toBe(0.0528);
  });

  it('uses the cache-write price where it is dearer than input (Anthropic)', () => {
    // Sonnet 4.5: 100,000 × $3.75 + 8,000 × $15 per million.
    expect(worstCaseCostUsd(price('anthropic:claude-sonnet-4-5'), 100_000, 8_000)).toBe(0.495);
  });

  it('rounds up to the micro-dollar, never under the real cost', () => {
    // 1 token × $0.05 per million is 0.05 µ$: a budget counts it as 1 µ$.
    expect(worstCaseCostUsd(price('openai:gpt-5-nano'), 1, 0)).toBe(0.000001);
    expect(worstCaseCostUsd(price('openai:gpt-5-nano'), 0, 0)).toBe(0);
  });
});

describe('loadPriceTable', () => {
  it('merges a file over the defaults, an entry replacing the default whole', () => {
    const table = loadPriceTable({
      'openai:gpt-4.1': { input: 1, output: 4 },
      'anthropic:claude-sonnet-4-5': { input: 2, cachedInput: 0.2, cacheWrite: 2.5, output: 10 },
      'openai-compatible:llama3.1:8b': { input: 0, cachedInput: 0, cacheWrite: null, output: 0 },
    });
    // cachedInput absent: cached tokens bill as input (no discount is assumed).
    expect(table['openai:gpt-4.1']).toEqual({
      input: 1,
      cachedInput: 1,
      cacheWrite: null,
      output: 4,
    });
    expect(priceOf(table, 'anthropic:claude-sonnet-4-5-20250929')).toEqual({
      input: 2,
      cachedInput: 0.2,
      cacheWrite: 2.5,
      output: 10,
    });
    expect(priceOf(table, 'openai-compatible:llama3.1:8b')).toEqual({
      input: 0,
      cachedInput: 0,
      cacheWrite: null,
      output: 0,
    });
    expect(table['openai:gpt-4.1-mini']).toBe(DEFAULT_PRICES['openai:gpt-4.1-mini']);
    expect(Object.isFrozen(table)).toBe(true);
    expect(loadPriceTable({})).toEqual(DEFAULT_PRICES);
  });

  it.each([
    [[], 'PGS_MODEL_PRICES: expected a JSON object of "provider:model" keys', /got an array$/],
    [null, 'PGS_MODEL_PRICES: expected a JSON object', /got null$/],
    ['x', 'PGS_MODEL_PRICES: expected a JSON object', /got a string$/],
    [
      { 'gemini:pro': { input: 1, output: 1 } },
      'PGS_MODEL_PRICES: "gemini:pro" is not a "provider:model" key',
      /openai, anthropic, openai-compatible$/,
    ],
    [
      { 'gpt-4.1': { input: 1, output: 1 } },
      'PGS_MODEL_PRICES: "gpt-4.1" is not a "provider:model" key',
      /openai-compatible$/,
    ],
    [
      { 'openai:': { input: 1, output: 1 } },
      'PGS_MODEL_PRICES: "openai:" is not a "provider:model" key',
      /openai-compatible$/,
    ],
    [
      { 'openai:gpt 4': { input: 1, output: 1 } },
      'PGS_MODEL_PRICES: "openai:gpt 4" is not a "provider:model" key',
      /openai-compatible$/,
    ],
    [
      { offline: { input: 1, output: 1 } },
      'PGS_MODEL_PRICES: "offline" takes no price',
      /always costs 0$/,
    ],
    [
      { 'openai:gpt-4.1': 2 },
      'PGS_MODEL_PRICES: "openai:gpt-4.1" must be an object',
      /\{ input, cachedInput\?, cacheWrite\?, output \}$/,
    ],
    [
      { 'openai:gpt-4.1': [2, 8] },
      'PGS_MODEL_PRICES: "openai:gpt-4.1" must be an object',
      /output \}$/,
    ],
    [
      { 'openai:gpt-4.1': { input: 2, output: 8, cached: 0.5 } },
      'PGS_MODEL_PRICES: "openai:gpt-4.1" has an unknown field "cached"',
      /expected input, cachedInput, cacheWrite, output$/,
    ],
    [
      { 'openai:gpt-4.1': { output: 8 } },
      'PGS_MODEL_PRICES: "openai:gpt-4.1".input is missing',
      /must be a non-negative number$/,
    ],
    [
      { 'openai:gpt-4.1': { input: 2, output: null } },
      'PGS_MODEL_PRICES: "openai:gpt-4.1".output is missing',
      /must be a non-negative number$/,
    ],
    [
      { 'openai:gpt-4.1': { input: 2, output: '8' } },
      'PGS_MODEL_PRICES: "openai:gpt-4.1".output must be a non-negative number',
      /number$/,
    ],
    [
      { 'openai:gpt-4.1': { input: -2, output: 8 } },
      'PGS_MODEL_PRICES: "openai:gpt-4.1".input must be a non-negative number',
      /number$/,
    ],
    [
      { 'openai:gpt-4.1': { input: Number.POSITIVE_INFINITY, output: 8 } },
      'PGS_MODEL_PRICES: "openai:gpt-4.1".input must be a non-negative number',
      /number$/,
    ],
    [
      { 'openai:gpt-4.1': { input: 2, cachedInput: Number.NaN, output: 8 } },
      'PGS_MODEL_PRICES: "openai:gpt-4.1".cachedInput must be a non-negative number or null',
      /or null$/,
    ],
    [
      { 'anthropic:claude-sonnet-4-5': { input: 3, cacheWrite: '3.75', output: 15 } },
      'PGS_MODEL_PRICES: "anthropic:claude-sonnet-4-5".cacheWrite must be a non-negative number or null',
      /or null$/,
    ],
  ])('%j → one line: %s', (json, start, end) => {
    let thrown: unknown;
    try {
      loadPriceTable(json);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(PriceTableError);
    const message = (thrown as Error).message;
    expect(message.startsWith(start), message).toBe(true);
    expect(message).toMatch(end);
    expect(message).not.toContain('\n');
  });

  it('names the source it is given, quotes no value, and keeps a long or odd key to one short line', () => {
    expect(() =>
      loadPriceTable({ 'openai:gpt-4.1': { input: 'sk-secret', output: 8 } }, 'prices.json'),
    ).toThrow(/^prices\.json: "openai:gpt-4\.1"\.input must be a non-negative number$/);
    expect(() =>
      loadPriceTable({ 'openai:gpt-4.1': { input: 'sk-secret', output: 8 } }),
    ).not.toThrow(/sk-secret/);
    let message = '';
    try {
      loadPriceTable({ [`openai:${'m'.repeat(500)}\nX`]: 1 });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/^PGS_MODEL_PRICES: "openai:m+…" is not a "provider:model" key/);
    expect(message.length).toBeLessThan(200);
    expect(message).not.toContain('\n');
  });
});
