/**
 * What a model call used of the provider, and what it cost: tokens as the providers report
 * them (prompt-cache reads and writes included), summed over attempts, priced per engine
 * (prices.ts), and the user message laid out for prompt caches (docs/cost.md).
 */

import { costUsd, type PriceTable, priceOf } from './prices.ts';
import type { ModelMessage } from './sdk/providers.ts';

/**
 * Tokens a call used, as the providers reported them, and what they cost. `input` is all
 * input tokens, the cached and cache-written ones included (the AI SDK's `inputTokens`).
 */
export interface CallUsage {
  input: number;
  output: number;
  /** Of `input`, read from the provider's prompt cache. */
  cacheRead: number;
  /** Of `input`, written to the provider's prompt cache (Anthropic bills these apart). */
  cacheWrite: number;
  /**
   * USD at the prices known when the call was made (models/prices.ts), summed over every
   * attempt that reported usage; null once one of them ran on a model without a price.
   */
  costUsd: number | null;
}

/** No tokens yet, and nothing spent. @example const usage = emptyUsage(); */
export const emptyUsage = (): CallUsage => ({
  input: 0,
  output: 0,
  cacheRead: 0,
  cacheWrite: 0,
  costUsd: 0,
});

/**
 * Two usages added up; the cost is unknown (null) when either is.
 *
 * @example
 * const total = sumUsage(first.usage, repair.usage);
 */
export function sumUsage(a: CallUsage, b: CallUsage): CallUsage {
  return {
    input: a.input + b.input,
    output: a.output + b.output,
    cacheRead: a.cacheRead + b.cacheRead,
    cacheWrite: a.cacheWrite + b.cacheWrite,
    costUsd: a.costUsd === null || b.costUsd === null ? null : roundUsd(a.costUsd + b.costUsd),
  };
}

/**
 * A user message of text parts, each part that ends a cacheable prefix marked as Anthropic
 * wants it (`cacheControl`, a cache breakpoint: at most four per request). Other providers
 * ignore the mark: OpenAI caches any repeated prefix by itself, and the prefix caches of
 * OpenAI-compatible servers (vLLM, llama.cpp) do too.
 *
 * @example
 * const message = cachedUserMessage([{ text: shared, cache: true }, { text: task, cache: false }]);
 */
export function cachedUserMessage(
  parts: readonly { text: string; cache: boolean }[],
): ModelMessage {
  return {
    role: 'user',
    content: parts.map((part) =>
      part.cache
        ? {
            type: 'text' as const,
            text: part.text,
            providerOptions: { anthropic: { cacheControl: { type: 'ephemeral' } } },
          }
        : { type: 'text' as const, text: part.text },
    ),
  };
}

/** Micro-dollars, the precision of every cost PGS reports. */
const roundUsd = (usd: number) => Math.round(usd * 1e6) / 1e6;

/** Tokens one attempt's provider reported, by kind (`input` counts all input tokens). */
export interface ReportedTokens {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

/** Usage as the AI SDK reports it (`inputTokens` is the total, cached tokens included). */
export type Reported = {
  inputTokens?: number | undefined;
  outputTokens?: number | undefined;
  inputTokenDetails?:
    | { cacheReadTokens?: number | undefined; cacheWriteTokens?: number | undefined }
    | undefined;
};

function tokensOf(reported: Reported): ReportedTokens {
  return {
    input: reported.inputTokens ?? 0,
    output: reported.outputTokens ?? 0,
    cacheRead: reported.inputTokenDetails?.cacheReadTokens ?? 0,
    cacheWrite: reported.inputTokenDetails?.cacheWriteTokens ?? 0,
  };
}

/**
 * What a provider reported for one attempt, with its cost at `engine`'s price (null when the
 * engine has no price).
 *
 * @example
 * const attempt = attemptUsage(DEFAULT_PRICES, 'openai:gpt-4.1-mini', result.totalUsage);
 */
export function attemptUsage(
  prices: PriceTable,
  engine: string,
  reported: Reported,
): { tokens: ReportedTokens; usage: CallUsage } {
  const tokens = tokensOf(reported);
  const price = priceOf(prices, engine);
  const cost =
    price === undefined
      ? null
      : costUsd(price, {
          inputTokens: tokens.input,
          cachedInputTokens: tokens.cacheRead,
          cacheWriteTokens: tokens.cacheWrite,
          outputTokens: tokens.output,
        });
  return { tokens, usage: { ...tokens, costUsd: cost } };
}
