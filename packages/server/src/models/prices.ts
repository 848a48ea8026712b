/**
 * What a model call costs: a price table per engine (`provider:model`) in USD per million
 * tokens, and the arithmetic from a call's token usage to dollars. Pure: the table an
 * operator supplies (`PGS_MODEL_PRICES`) is read by config.ts and handed in.
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

/** A call's tokens, as the AI SDK reports them. */
export interface TokenUsage {
  /** All input tokens, cached and cache-write ones included. */
  readonly inputTokens: number;
  /** Of `inputTokens`, those read from the prompt cache. */
  readonly cachedInputTokens?: number | undefined;
  /** Of `inputTokens`, those written to the prompt cache. */
  readonly cacheWriteTokens?: number | undefined;
  readonly outputTokens: number;
}

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

// The documented snapshot ids: OpenAI's `gpt-4.1-2025-04-14`, Anthropic's
// `claude-sonnet-4-5-20250929`. Other providers' names are their servers' own.
const SNAPSHOT_DATE = new Map<string, RegExp>([
  ['openai', /-20\d\d-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/],
  ['anthropic', /-20\d\d(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])$/],
]);

/**
 * The price of an engine (`provider:model`), or `undefined` when the table does not know it:
 * an unknown price is never guessed. An exact entry wins; else a dated OpenAI or Anthropic
 * snapshot takes the price of its undated alias. `offline` always costs 0.
 *
 * @example
 * priceOf(DEFAULT_PRICES, 'anthropic:claude-sonnet-4-5-20250929'); // the claude-sonnet-4-5 price
 * priceOf(DEFAULT_PRICES, 'openai-compatible:llama3.1'); // undefined
 */
export function priceOf(table: PriceTable, engine: string): ModelPrice | undefined {
  if (engine === 'offline' || engine.startsWith('offline:')) return OFFLINE_PRICE;
  const exact = entry(table, engine);
  if (exact !== undefined) return exact;
  const colon = engine.indexOf(':');
  const date = colon === -1 ? undefined : SNAPSHOT_DATE.get(engine.slice(0, colon));
  if (date === undefined || !date.test(engine)) return undefined;
  return entry(table, engine.replace(date, ''));
}

function entry(table: PriceTable, engine: string): ModelPrice | undefined {
  // An own property only: an engine named like `constructor` is not priced by Object.prototype.
  return Object.hasOwn(table, engine) ? table[engine] : undefined;
}

// Prices are held exactly as integer picodollars per token (USD per million tokens × 10⁶),
// and sums in BigInt, so no float drift accumulates; dollars are rounded once at the end.
const PICO_PER_MICRO = 1_000_000n;

const picoPerToken = (usdPerMillion: number) => BigInt(Math.round(usdPerMillion * 1e6));

// Providers report whole, non-negative counts; anything else counts as none.
const tokens = (count: number | undefined) =>
  count !== undefined && Number.isFinite(count) && count > 0 ? BigInt(Math.round(count)) : 0n;

const usd = (micro: bigint) => Number(micro) / 1e6;

/**
 * What a call cost, in USD rounded to the micro-dollar (6 decimals). `inputTokens` is all
 * input: the uncached part is input − cached − cache-write, floored at 0, billed at `input`;
 * cached tokens at `cachedInput`; cache-write tokens at `cacheWrite` (at `input` when null).
 *
 * @example
 * costUsd(DEFAULT_PRICES['openai:gpt-4.1']!, { inputTokens: 10_000, cachedInputTokens: 8_000, outputTokens: 500 });
 * // 2,000 × $2 + 8,000 × $0.50 + 500 × $8 per million = 0.012
 */
export function costUsd(price: ModelPrice, usage: TokenUsage): number {
  const cached = tokens(usage.cachedInputTokens);
  const written = tokens(usage.cacheWriteTokens);
  const rest = tokens(usage.inputTokens) - cached - written;
  const uncached = rest > 0n ? rest : 0n;
  const pico =
    uncached * picoPerToken(price.input) +
    cached * picoPerToken(price.cachedInput) +
    written * picoPerToken(price.cacheWrite ?? price.input) +
    tokens(usage.outputTokens) * picoPerToken(price.output);
  // Half a micro-dollar rounds up.
  return usd((pico + PICO_PER_MICRO / 2n) / PICO_PER_MICRO);
}

/**
 * The most a call can cost, for a budget: every input token at the dearer of the input and
 * cache-write prices (no cache discount, and a prompt written to Anthropic's cache still
 * fits) and the whole output allowance used; rounded up to the micro-dollar.
 *
 * @example
 * worstCaseCostUsd(DEFAULT_PRICES['anthropic:claude-sonnet-4-5']!, 100_000, 8_000); // 0.495
 */
export function worstCaseCostUsd(
  price: ModelPrice,
  inputTokens: number,
  maxOutputTokens: number,
): number {
  const input = Math.max(price.input, price.cacheWrite ?? price.input);
  const pico =
    tokens(inputTokens) * picoPerToken(input) +
    tokens(maxOutputTokens) * picoPerToken(price.output);
  return usd((pico + PICO_PER_MICRO - 1n) / PICO_PER_MICRO);
}

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
