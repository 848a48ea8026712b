/**
 * The model price table: its shape, the providers' list prices and the loader of an
 * operator's override file (`PGS_MODEL_PRICES`). A leaf beside config.ts, which reads the
 * file and must import no room; what a call costs at these prices is models/prices.ts.
 */

/** The day the default prices below were the providers' published list prices. */
export const PRICES_AS_OF = '2025-10-15';

/** Providers whose models an operator may price (`offline` is always free). */
export const PRICED_PROVIDERS = ['openai', 'anthropic', 'openai-compatible'] as const;
export type PricedProvider = (typeof PRICED_PROVIDERS)[number];

/** One model's price, each field in USD per million tokens. */
export interface ModelPrice {
  /** Input tokens read neither from nor into the prompt cache. */
  readonly input: number;
  /** Input tokens read from the prompt cache (Anthropic: cache hits). */
  readonly cachedInput: number;
  /**
   * Input tokens written to the prompt cache (Anthropic: 5-minute cache writes); `null` when
   * the provider bills them as ordinary input (OpenAI).
   */
  readonly cacheWrite: number | null;
  readonly output: number;
}

/** Prices by engine, `provider:model` as in `PGS_MODELS` (e.g. `openai:gpt-4.1-mini`). */
export type PriceTable = Readonly<Record<string, ModelPrice>>;

/** The built-in offline engine is not a model: it costs nothing, a known price, not a guess. */
export const OFFLINE_PRICE: ModelPrice = Object.freeze({
  input: 0,
  cachedInput: 0,
  cacheWrite: 0,
  output: 0,
});

// OpenAI bills a cache write as ordinary input, hence `cacheWrite: null`.
const openai = (input: number, cachedInput: number, output: number): ModelPrice =>
  Object.freeze({ input, cachedInput, cacheWrite: null, output });

// Anthropic's published columns, in its order: base input, 5-minute cache write (1.25×),
// cache hit (0.1×), output. Written out rather than multiplied, so they read as published.
const anthropic = (
  input: number,
  cacheWrite: number,
  cachedInput: number,
  output: number,
): ModelPrice => Object.freeze({ input, cachedInput, cacheWrite, output });

/**
 * The providers' list prices on {@link PRICES_AS_OF}, standard tier (no batch, flex or
 * priority; Anthropic's long-context tier above 200K input tokens is not modelled). They are
 * defaults for an operator to override (`PGS_MODEL_PRICES`), not a quote: negotiated rates,
 * price changes and new models are the operator's to enter. `openai-compatible` models have
 * no default price: what a self-hosted or third-party server costs is unknown here.
 *
 * @example
 * DEFAULT_PRICES['openai:gpt-4.1-mini']; // { input: 0.4, cachedInput: 0.1, cacheWrite: null, output: 1.6 }
 */
export const DEFAULT_PRICES: PriceTable = Object.freeze({
  'openai:gpt-5': openai(1.25, 0.125, 10),
  'openai:gpt-5-mini': openai(0.25, 0.025, 2),
  'openai:gpt-5-nano': openai(0.05, 0.005, 0.4),
  'openai:gpt-4.1': openai(2, 0.5, 8),
  'openai:gpt-4.1-mini': openai(0.4, 0.1, 1.6),
  'openai:gpt-4.1-nano': openai(0.1, 0.025, 0.4),
  'openai:gpt-4o': openai(2.5, 1.25, 10),
  // The first gpt-4o snapshot kept its launch price and has no cache discount: without this
  // row it would fall back to the alias's lower price.
  'openai:gpt-4o-2024-05-13': openai(5, 5, 15),
  'openai:gpt-4o-mini': openai(0.15, 0.075, 0.6),
  'openai:o3': openai(2, 0.5, 8),
  'openai:o4-mini': openai(1.1, 0.275, 4.4),
  'anthropic:claude-opus-4-1': anthropic(15, 18.75, 1.5, 75),
  'anthropic:claude-opus-4-0': anthropic(15, 18.75, 1.5, 75),
  'anthropic:claude-sonnet-4-5': anthropic(3, 3.75, 0.3, 15),
  'anthropic:claude-sonnet-4-0': anthropic(3, 3.75, 0.3, 15),
  'anthropic:claude-3-7-sonnet-latest': anthropic(3, 3.75, 0.3, 15),
  'anthropic:claude-haiku-4-5': anthropic(1, 1.25, 0.1, 5),
  'anthropic:claude-3-5-haiku-latest': anthropic(0.8, 1, 0.08, 4),
  // Snapshots whose alias is not the snapshot id minus its date (Anthropic's `-0` and
  // `-latest` aliases), so the date fallback of priceOf cannot find them.
  'anthropic:claude-opus-4-20250514': anthropic(15, 18.75, 1.5, 75),
  'anthropic:claude-sonnet-4-20250514': anthropic(3, 3.75, 0.3, 15),
  'anthropic:claude-3-7-sonnet-20250219': anthropic(3, 3.75, 0.3, 15),
  'anthropic:claude-3-5-haiku-20241022': anthropic(0.8, 1, 0.08, 4),
});

/** An override file that cannot be used; the message is one line naming the key and field. */
export class PriceTableError extends Error {
  override name = 'PriceTableError';
}

const FIELDS = ['input', 'cachedInput', 'cacheWrite', 'output'] as const;

/**
 * Validates an operator's price file (already parsed JSON) and merges it over
 * {@link DEFAULT_PRICES}: each key replaces the default entry whole. A file's entry is
 * `{ input, cachedInput?, cacheWrite?, output }`; an absent `cachedInput` bills cached tokens
 * as input, an absent or null `cacheWrite` bills cache writes as input. Throws
 * {@link PriceTableError}; its message starts with `source` and quotes no value of the file.
 *
 * @example
 * const table = loadPriceTable({ 'openai-compatible:llama3.1': { input: 0, output: 0 } });
 */
export function loadPriceTable(json: unknown, source = 'PGS_MODEL_PRICES'): PriceTable {
  function fail(message: string): never {
    throw new PriceTableError(`${source}: ${message}`);
  }
  if (!isObject(json)) {
    fail(
      `expected a JSON object of "provider:model" keys, each a price in USD per million tokens, got ${kind(json)}`,
    );
  }
  const merged: Record<string, ModelPrice> = { ...DEFAULT_PRICES };
  for (const [key, value] of Object.entries(json)) {
    const name = quote(key);
    const colon = key.indexOf(':');
    const provider = colon === -1 ? key : key.slice(0, colon);
    if (provider === 'offline') {
      fail(`${name} takes no price: the offline engine is not a model and always costs 0`);
    }
    if (
      colon === -1 ||
      !(PRICED_PROVIDERS as readonly string[]).includes(provider) ||
      !/^\S+$/.test(key.slice(colon + 1))
    ) {
      fail(
        `${name} is not a "provider:model" key with a provider of ${PRICED_PROVIDERS.join(', ')}`,
      );
    }
    if (!isObject(value)) {
      fail(`${name} must be an object { input, cachedInput?, cacheWrite?, output }`);
    }
    for (const field of Object.keys(value)) {
      if (!(FIELDS as readonly string[]).includes(field)) {
        fail(`${name} has an unknown field ${quote(field)}: expected ${FIELDS.join(', ')}`);
      }
    }
    const amount = (field: (typeof FIELDS)[number], optional: boolean): number | null => {
      const raw = value[field];
      if (raw === undefined || raw === null) {
        if (optional) return null;
        fail(`${name}.${field} is missing: it must be a non-negative number`);
      }
      if (typeof raw !== 'number' || !Number.isFinite(raw) || raw < 0) {
        fail(`${name}.${field} must be a non-negative number${optional ? ' or null' : ''}`);
      }
      return raw;
    };
    const input = amount('input', false)!;
    const cachedInput = amount('cachedInput', true);
    const cacheWrite = amount('cacheWrite', true);
    const output = amount('output', false)!;
    merged[key] = Object.freeze({ input, cachedInput: cachedInput ?? input, cacheWrite, output });
  }
  return Object.freeze(merged);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function kind(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}

// A key or field name, quoted (escapes keep it on one line) and cut short: the message names
// it, never the file at large.
function quote(text: string): string {
  return JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}…` : text);
}
