import type { ProjectType } from '@pgs/client';

/**
 * Credits a project of each type costs: the sum of its documents' prices in the table of
 * docs/api.md ("Credits"). The API does not publish prices (the 402 answer carries the
 * price only after the fact), so the console keeps this copy; a test compares it with
 * that table, so the two cannot drift apart unnoticed.
 *
 * @example
 * PRICES.web; // 47
 */
export const PRICES: Readonly<Record<ProjectType, number>> = { web: 47, mobile: 50, mcp: 50 };

/**
 * The credits reserved when a project is created: its type's price, or without a type the
 * dearest type's (what the chosen type does not use is released at completion).
 *
 * @example
 * priceOf(undefined); // 50
 */
export function priceOf(type: ProjectType | undefined): number {
  return type === undefined ? Math.max(...Object.values(PRICES)) : PRICES[type];
}
