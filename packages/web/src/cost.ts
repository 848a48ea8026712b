import type { PartProvenance, Provenance } from '@pgs/client';
import { type Authorship, OFFLINE_ENGINE } from './provenance.ts';

// What a project's model calls cost, in words (docs/cost.md): dollars, tokens and the share
// the prompt cache served. A null cost is "unknown", never an estimate. Numbers are written
// the English way (53,412), as the rest of the console's text is.

const counts = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const cents = new Intl.NumberFormat('en-US', {
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

/**
 * An amount in US dollars: cents from $1 up, four decimals under it (a project's calls are
 * often a fraction of a cent each), and an amount under $0.0001 to the millionth the API
 * gives, so it never reads as zero. Exactly zero is `$0`.
 *
 * @example
 * formatUsd(0.227); // '$0.2270'
 * formatUsd(1234.5); // '$1,234.50'
 * formatUsd(0.000042); // '$0.000042'
 */
export function formatUsd(usd: number): string {
  if (!Number.isFinite(usd)) return 'unknown';
  if (usd === 0) return '$0';
  const sign = usd < 0 ? '-' : '';
  const amount = Math.abs(usd);
  // Rounded first, so $0.99996 reads $1.00 rather than $1.0000.
  if (Math.round(amount * 1e4) >= 1e4) return `${sign}$${cents.format(amount)}`;
  if (amount >= 0.0001) return `${sign}$${amount.toFixed(4)}`;
  return `${sign}$${amount.toFixed(6).replace(/0+$/, '')}`;
}

/**
 * A cost from the API: `unknown` when it is null (a model without a price).
 *
 * @example
 * formatCost(null); // 'unknown'
 * formatCost(0.0312); // '$0.0312'
 */
export function formatCost(usd: number | null): string {
  return usd === null ? 'unknown' : formatUsd(usd);
}

/**
 * A count with thousands separators.
 *
 * @example
 * formatCount(53412); // '53,412'
 */
export function formatCount(n: number): string {
  return counts.format(n);
}

/**
 * `part` as a share of `whole`, rounded to a whole percent: `60 %` (a no-break space before
 * the sign). A share that is neither none nor all never rounds to `0 %` or `100 %`.
 * `undefined` when `whole` is not positive.
 *
 * @example
 * formatShare(32_047, 53_412); // '60 %'
 * formatShare(1, 1_000); // '1 %'
 */
export function formatShare(part: number, whole: number): string | undefined {
  if (!(whole > 0)) return undefined;
  let percent = Math.round((part / whole) * 100);
  if (part > 0 && part < whole) percent = Math.min(99, Math.max(1, percent));
  // A no-break space: "60" and "%" never end up on two lines.
  return `${percent}\u00a0%`;
}

/** The tokens and cost of some parts of a project, as `totals` and each part carry them. */
export type Usage = Pick<
  PartProvenance,
  'inputTokens' | 'cachedInputTokens' | 'cacheWriteTokens' | 'outputTokens' | 'costUsd'
>;

/** What a project cost, for its page: the line, and why the cost is unknown when it is. */
export interface CostSummary {
  line: string;
  /** `unpriced`: the cost is null (a model without a price, or calls before costs were kept). */
  reason?: 'unpriced';
}

/**
 * What the project's model calls cost, in one line, or `undefined` when no part is recorded.
 * A project the offline engine wrote alone costs nothing in model fees; else the cost (or
 * `unknown`), the input tokens with the share the prompt cache served, and the output.
 *
 * @example
 * projectCost(provenance, authorship(provenance))?.line;
 * // 'Model cost $0.2270 · 53,412 input tokens (60 % from the prompt cache) · 9,726 output tokens'
 */
export function projectCost(provenance: Provenance, who: Authorship): CostSummary | undefined {
  if (who.kind === 'unknown') return undefined;
  const { totals } = provenance;
  // Only a cost recorded as 0: a fallback from a model without a price leaves it null.
  if (who.kind === 'offline' && totals.costUsd === 0) {
    return { line: "Model cost $0 · no model fees: PGS's offline engine wrote it" };
  }
  const cache = cacheNote(totals);
  const line = [
    `Model cost ${formatCost(totals.costUsd)}`,
    `${formatCount(totals.inputTokens)} input tokens${cache === undefined ? '' : ` (${cache})`}`,
    `${formatCount(totals.outputTokens)} output tokens`,
  ].join(' · ');
  return totals.costUsd === null ? { line, reason: 'unpriced' } : { line };
}

function cacheNote(usage: Usage): string | undefined {
  const share = `${formatShare(usage.cachedInputTokens, usage.inputTokens)} from the prompt cache`;
  const writes = formatCount(usage.cacheWriteTokens);
  const read = usage.cachedInputTokens > 0;
  const written = usage.cacheWriteTokens > 0;
  if (read && written) return `${share}, ${writes} written to it`;
  if (read) return share;
  if (written) return `${writes} written to the prompt cache`;
  return undefined;
}

/**
 * What one document's model calls cost, for a small line by its quality line.
 *
 * @example
 * documentCost(part); // 'This document: $0.0312 · 7,210 input tokens, 5,120 from the cache · 1,340 output'
 * documentCost(offlinePart); // 'This document: $0, no model fees (the offline engine)'
 */
export function documentCost(part: PartProvenance): string {
  if (part.engine === OFFLINE_ENGINE && part.costUsd === 0) {
    return 'This document: $0, no model fees (the offline engine)';
  }
  const read = part.cachedInputTokens > 0;
  const input = [
    `${formatCount(part.inputTokens)} input tokens`,
    ...(read ? [`${formatCount(part.cachedInputTokens)} from the cache`] : []),
    ...(part.cacheWriteTokens > 0
      ? [`${formatCount(part.cacheWriteTokens)} written to ${read ? 'it' : 'the cache'}`]
      : []),
  ].join(', ');
  const cost = part.costUsd === null ? 'cost unknown' : formatUsd(part.costUsd);
  return `This document: ${cost} · ${input} · ${formatCount(part.outputTokens)} output`;
}
