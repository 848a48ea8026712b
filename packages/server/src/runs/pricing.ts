/**
 * What documents cost in credits: each kind's price in the catalogue, scaled by the
 * project's detail level (docs/api.md, "Credits" and "Detail levels").
 */
import type { ProjectType } from '@pgs/contract';
import { type DocumentKind, documentPlan, type PlanOptions } from './catalogue.ts';

const TYPES: readonly ProjectType[] = ['web', 'mobile', 'mcp'];

/** How much a project's documents say: `standard` is the catalogue's documents as they are. */
export type Detail = 'brief' | 'standard' | 'deep';

/** The detail levels, shortest first. */
export const DETAILS: readonly Detail[] = ['brief', 'standard', 'deep'];

/**
 * What a level scales (docs/api.md, "Detail levels"): each document's price in credits
 * (rounded up, at least 1) and its output allowance (`maxOutputTokens`) with the length it
 * is asked for.
 */
export const DETAIL_SCALE: Readonly<Record<Detail, number>> = {
  brief: 0.5,
  standard: 1,
  deep: 1.5,
};

/** Credits one document costs at a detail level. @example creditsOf(requirements, 'brief'); // 4 */
export function creditsOf(doc: Pick<DocumentKind, 'credits'>, detail: Detail = 'standard'): number {
  return Math.max(1, Math.ceil(doc.credits * DETAIL_SCALE[detail]));
}

const sumCredits = (docs: readonly DocumentKind[], detail: Detail) =>
  docs.reduce((sum, doc) => sum + creditsOf(doc, detail), 0);

/**
 * Credits a project of this type costs when every document is generated; a grounded
 * project's plan has the codebase overview too.
 *
 * @example
 * priceOf('web', 'standard', { grounded: true }) - priceOf('web'); // 5
 */
export function priceOf(
  type: ProjectType,
  detail: Detail = 'standard',
  plan: PlanOptions = {},
): number {
  return sumCredits(documentPlan(type, plan), detail);
}

/**
 * Credits reserved for a project whose type the model will choose: the dearest type's
 * price. What the chosen type's documents do not use is released at completion.
 */
export function priceWithoutType(detail: Detail = 'standard', plan: PlanOptions = {}): number {
  return Math.max(...TYPES.map((type) => sumCredits(documentPlan(type, plan), detail)));
}

/** Credits for the documents of this plan that exist. */
export function priceOfKinds(
  type: ProjectType,
  kinds: Iterable<string>,
  detail: Detail = 'standard',
  plan: PlanOptions = {},
): number {
  const wanted = new Set(kinds);
  return sumCredits(
    documentPlan(type, plan).filter((doc) => wanted.has(doc.kind)),
    detail,
  );
}
