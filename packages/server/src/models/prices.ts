/**
 * What a model call costs: the price of an engine (`provider:model`) in a price table, and
 * the arithmetic from a call's token usage to dollars. Pure: the table (price-table.ts) is
 * read by config.ts and handed in.
 */
import { type ModelPrice, OFFLINE_PRICE, type PriceTable } from '../price-table.ts';

// The table is re-exported so that the room's users find prices in one place; config.ts, a
// leaf that may import no room, takes it from price-table.ts.
export {
  DEFAULT_PRICES,
  loadPriceTable,
  type ModelPrice,
  OFFLINE_PRICE,
  PRICED_PROVIDERS,
  PRICES_AS_OF,
  type PricedProvider,
  type PriceTable,
  PriceTableError,
} from '../price-table.ts';

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
