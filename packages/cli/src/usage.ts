import type { PartProvenance, Provenance } from '@pgs/client';

// What a project's parts used and cost, in the CLI's words (docs/cost.md): dollars to the
// millionth as the API gives them, "unknown" for a null cost (no known price: never a
// guess), and the share of input the prompt cache served.

/** The engine name of PGS's built-in engine in provenance. */
export const OFFLINE_ENGINE = 'offline';

/** The tokens and cost of a part, or of parts added up (a provenance's `totals`). */
export type Usage = Provenance['totals'];

/**
 * The definition (once written), then the documents in the order they were stored.
 *
 * @example
 * partsOf(await pgs.projects.provenance(id)).map((part) => part.kind); // ['definition', 'project-brief', …]
 */
export function partsOf(provenance: Provenance): PartProvenance[] {
  return [...(provenance.definition ? [provenance.definition] : []), ...provenance.documents];
}

/**
 * An amount in US dollars as the API gives it, to the millionth: `$0.004213`; exactly
 * zero is `$0`; null (a model without a known price) is `unknown`, or `whenNull`.
 *
 * @example
 * dollars(0.004213); // '$0.004213'
 * dollars(null, '-'); // '-'
 */
export function dollars(usd: number | null, whenNull = 'unknown'): string {
  if (usd === null) return whenNull;
  if (usd === 0) return '$0';
  return `$${usd.toFixed(6)}`;
}

/**
 * The share of input tokens the prompt cache served, as a sentence, or undefined when no
 * input was reported. A share that is neither none nor all never rounds to 0 % or 100 %.
 *
 * @example
 * cacheShare({ inputTokens: 32_800, cachedInputTokens: 20_000, … }); // 'Cache served 61 % of input tokens (20000 of 32800).'
 */
export function cacheShare(usage: Usage): string | undefined {
  const { inputTokens: all, cachedInputTokens: cached } = usage;
  if (!(all > 0)) return undefined;
  let percent = Math.round((cached / all) * 100);
  if (cached > 0 && cached < all) percent = Math.min(99, Math.max(1, percent));
  return `Cache served ${percent} % of input tokens (${cached} of ${all}).`;
}

function and(words: readonly string[]): string {
  if (words.length <= 1) return words.join('');
  return `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;
}

/** Why the offline engine's parts cost `$0`. */
export const OFFLINE_FREE_NOTE =
  "$0: the offline engine, PGS's built-in engine with no AI model, is free.";

/**
 * Why some parts' cost is unknown, in one line: which engines have no known price, and
 * that `PGS_MODEL_PRICES` on the server sets prices; undefined when every cost is known.
 *
 * @example
 * unknownCostNote(partsOf(provenance)); // 'unknown: no price is known for openai-compatible:llama3.1:8b (…). PGS_MODEL_PRICES …'
 */
export function unknownCostNote(parts: readonly PartProvenance[]): string | undefined {
  const unknown = parts.filter((part) => part.costUsd === null);
  // A part's cost is null when any model called for it had no price: the one whose answer
  // was stored (its engine) or one tried before it fell back; or when it was stored before
  // PGS recorded costs. The offline engine's own price is a known 0.
  const engines = [...new Set(unknown.map((part) => part.engine))];
  const unpriced = engines.filter((engine) => engine !== OFFLINE_ENGINE);
  const reasons: string[] = [];
  if (unpriced.length > 0) {
    reasons.push(
      `no price is known for ${and(unpriced)} (or a model tried before ` +
        `${unpriced.length === 1 ? 'it' : 'them'}, or parts stored before PGS recorded costs)`,
    );
  }
  if (engines.includes(OFFLINE_ENGINE)) {
    reasons.push(
      'the offline engine is free, but a model tried before it has no price ' +
        '(or parts stored before PGS recorded costs)',
    );
  }
  if (reasons.length === 0) return undefined;
  return `unknown: ${reasons.join('; ')}. PGS_MODEL_PRICES on the server sets prices (docs/cost.md).`;
}
