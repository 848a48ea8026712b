/**
 * What documents cost in credits: each kind's price in the contract's catalogue, scaled by
 * the project's detail level (docs/api.md, "Credits" and "Detail levels"). The arithmetic is
 * the contract's, so the console shows what the server charges.
 */
import {
  DETAIL_LEVELS,
  type DetailLevel,
  documentCredits,
  type ProjectType,
  projectCredits,
} from '@pgs/contract';
import { type DocumentKind, documentPlan, type PlanOptions } from './catalogue.ts';

/** How much a project's documents say: `standard` is the catalogue's documents as they are. */
export type Detail = DetailLevel;

/** The detail levels, shortest first. */
export const DETAILS: readonly Detail[] = DETAIL_LEVELS;

/**
 * What a level scales (docs/api.md, "Detail levels"): each document's price in credits
 * (rounded up, at least 1) and its output allowance (`maxOutputTokens`) with the length it
 * is asked for.
 */
export { DETAIL_SCALE } from '@pgs/contract';

/** Credits one document costs at a detail level. @example creditsOf(requirements, 'brief'); // 4 */
export function creditsOf(doc: Pick<DocumentKind, 'credits'>, detail: Detail = 'standard'): number {
  return documentCredits(doc.credits, detail);
}

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
  return projectCredits(type, detail, plan);
}

/**
 * Credits reserved for a project whose type the model will choose: the dearest type's
 * price. What the chosen type's documents do not use is released at completion.
 */
export function priceWithoutType(detail: Detail = 'standard', plan: PlanOptions = {}): number {
  return projectCredits(undefined, detail, plan);
}

/** Credits for the documents of this plan that exist. */
export function priceOfKinds(
  type: ProjectType,
  kinds: Iterable<string>,
  detail: Detail = 'standard',
  plan: PlanOptions = {},
): number {
  const wanted = new Set(kinds);
  return documentPlan(type, plan)
    .filter((doc) => wanted.has(doc.kind))
    .reduce((sum, doc) => sum + creditsOf(doc, detail), 0);
}
