import type { ProjectCreateParams, ProjectType } from '@pgs/client';

/** One row of the credits table: what a kind of document costs and the types that have it. */
interface DocumentPrice {
  credits: number;
  /** `grounded`: only a project created with a codebase digest has it (docs/brownfield.md). */
  types: 'all' | ProjectType | 'grounded';
  /**
   * Whether a revision may rewrite it: the requirements and every document that builds on
   * them in the catalogue (docs/revisions.md), which is every kind but the brief.
   */
  revisable: boolean;
}

/**
 * The credits table of docs/api.md ("Credits"), kind by kind. The API does not publish
 * prices (the 402 answer carries the price only after the fact), so the console keeps this
 * copy, the only one it has; a test compares it with that table, so the two cannot drift
 * apart unnoticed.
 *
 * @example
 * DOCUMENT_PRICES['product-requirements'].credits; // 8
 */
export const DOCUMENT_PRICES: Readonly<Record<string, DocumentPrice>> = {
  'project-brief': { credits: 5, types: 'all', revisable: false },
  // The console creates no grounded project and its revisions send no digest, the only
  // revisions that rewrite this one: none of its prices counts it.
  'codebase-overview': { credits: 5, types: 'grounded', revisable: false },
  'product-requirements': { credits: 8, types: 'all', revisable: true },
  'user-stories': { credits: 5, types: 'all', revisable: true },
  architecture: { credits: 8, types: 'all', revisable: true },
  'data-model': { credits: 6, types: 'web', revisable: true },
  'api-design': { credits: 6, types: 'web', revisable: true },
  screens: { credits: 6, types: 'mobile', revisable: true },
  navigation: { credits: 4, types: 'mobile', revisable: true },
  'offline-and-permissions': { credits: 5, types: 'mobile', revisable: true },
  'mcp-tools': { credits: 6, types: 'mcp', revisable: true },
  'mcp-resources-and-prompts': { credits: 5, types: 'mcp', revisable: true },
  'mcp-transport-and-clients': { credits: 4, types: 'mcp', revisable: true },
  'implementation-plan': { credits: 6, types: 'all', revisable: true },
  readme: { credits: 3, types: 'all', revisable: true },
};

/** Credits every revision costs for reading its change request (docs/revisions.md). @example REVISION_FEE; // 2 */
export const REVISION_FEE = 2;

/**
 * How much a project's documents say (`detail` of `projects.create`): `standard` is the
 * documents as the credits table prices them.
 */
export type Detail = NonNullable<ProjectCreateParams['detail']>;

/**
 * What a level scales each document's price by (docs/api.md, "Detail levels"), as the
 * server's catalogue does: a document costs `ceil(credits × scale)`, at least 1.
 *
 * @example
 * DETAIL_SCALE.brief; // 0.5
 */
export const DETAIL_SCALE: Readonly<Record<Detail, number>> = {
  brief: 0.5,
  standard: 1,
  deep: 1.5,
};

/**
 * The detail levels, shortest first, each with the line the New project form says of it.
 *
 * @example
 * DETAILS.map((level) => level.value); // ['brief', 'standard', 'deep']
 */
export const DETAILS: readonly { value: Detail; label: string; hint: string }[] = [
  {
    value: 'brief',
    label: 'Brief',
    hint: 'About half the length: the essentials, with every ID and criterion kept.',
  },
  { value: 'standard', label: 'Standard', hint: 'The default documents.' },
  { value: 'deep', label: 'Deep', hint: 'More depth: edge cases, failure modes, rationale.' },
];

/**
 * Credits one document costs at a level: its price scaled, rounded up (per document, never
 * on the total), at least 1.
 *
 * @example
 * documentCredits(5, 'brief'); // 3
 */
export function documentCredits(credits: number, detail: Detail = 'standard'): number {
  return Math.max(1, Math.ceil(credits * DETAIL_SCALE[detail]));
}

const TYPES: readonly ProjectType[] = ['web', 'mobile', 'mcp'];

function sumOf(type: ProjectType, detail: Detail, keep: (price: DocumentPrice) => boolean): number {
  let total = 0;
  for (const price of Object.values(DOCUMENT_PRICES)) {
    if ((price.types === 'all' || price.types === type) && keep(price)) {
      total += documentCredits(price.credits, detail);
    }
  }
  return total;
}

/**
 * Credits a project of each type costs at the standard level: the sum of its documents' prices.
 *
 * @example
 * PRICES.web; // 47
 */
export const PRICES: Readonly<Record<ProjectType, number>> = Object.fromEntries(
  TYPES.map((type) => [type, sumOf(type, 'standard', () => true)]),
) as Record<ProjectType, number>;

/**
 * The credits reserved when a project is created: its type's price at the level, or without
 * a type the dearest type's at that level (what the chosen type does not use is released at
 * completion).
 *
 * @example
 * priceOf(undefined); // 50
 * priceOf('web', 'brief'); // 25
 */
export function priceOf(type: ProjectType | undefined, detail: Detail = 'standard'): number {
  if (type !== undefined) return sumOf(type, detail, () => true);
  return Math.max(...TYPES.map((each) => sumOf(each, detail, () => true)));
}

/** What a revision reserves, split the way the Revise form explains it. */
export interface RevisionPrice {
  /** The analysis fee, always charged when the revision completes. */
  fee: number;
  /** Every document it may rewrite; only those it does rewrite are charged. */
  documents: number;
  /** `fee + documents`: what is held from the balance while it runs. */
  total: number;
}

/**
 * What revising a project of `type` reserves: the analysis fee plus every document the
 * revision may rewrite, at the project's detail level. At the end the fee and the documents
 * rewritten are charged and the rest released; a failed or cancelled revision is refunded
 * whole.
 *
 * @example
 * revisionPrice('web'); // { fee: 2, documents: 42, total: 44 }
 */
export function revisionPrice(type: ProjectType, detail: Detail = 'standard'): RevisionPrice {
  const documents = sumOf(type, detail, (price) => price.revisable);
  return { fee: REVISION_FEE, documents, total: REVISION_FEE + documents };
}
