/**
 * What documents, projects and revisions cost in credits (docs/api.md, "Credits" and "Detail
 * levels"; docs/revisions.md), from the catalogue's prices: the server reserves and charges
 * these amounts and the console shows them before a click.
 */
import {
  DOCUMENT_KINDS,
  type DocumentKindName,
  documentKindsOf,
  type PlanScope,
} from './catalogue.ts';
import type { components } from './generated/types.ts';

type ProjectType = components['schemas']['ProjectType'];

/** How much a project's documents say: `detail` of createProject. */
export type DetailLevel = NonNullable<components['schemas']['CreateProjectRequest']['detail']>;

/** Every detail level, shortest first: `['brief', 'standard', 'deep']`. */
export const DETAIL_LEVELS = [
  'brief',
  'standard',
  'deep',
] as const satisfies readonly DetailLevel[];

/**
 * What a level scales each document's price (and output allowance) by.
 *
 * @example
 * DETAIL_SCALE.brief; // 0.5
 */
export const DETAIL_SCALE: Readonly<Record<DetailLevel, number>> = {
  brief: 0.5,
  standard: 1,
  deep: 1.5,
};

/** Credits every revision costs for reading its change request (docs/revisions.md). @example REVISION_FEE; // 2 */
export const REVISION_FEE = 2;

/**
 * Credits one document costs at a level: its price scaled, rounded up (per document, never
 * on a total), at least 1.
 *
 * @example
 * documentCredits('project-brief', 'brief'); // 3
 * documentCredits(6, 'deep'); // 9
 */
export function documentCredits(
  kind: DocumentKindName | number,
  detail: DetailLevel = 'standard',
): number {
  const credits = typeof kind === 'number' ? kind : DOCUMENT_KINDS[kind].credits;
  return Math.max(1, Math.ceil(credits * DETAIL_SCALE[detail]));
}

const TYPES: readonly ProjectType[] = ['web', 'mobile', 'mcp'];

const sumOf = (kinds: readonly DocumentKindName[], detail: DetailLevel) =>
  kinds.reduce((sum, kind) => sum + documentCredits(kind, detail), 0);

/**
 * The credits reserved when a project is created: its type's documents at the level, or
 * without a type the dearest type's (what the chosen type does not use is released at
 * completion).
 *
 * @example
 * projectCredits('web'); // 47
 * projectCredits(undefined, 'brief'); // 27
 * projectCredits('web', 'standard', { grounded: true }); // 52
 */
export function projectCredits(
  type: ProjectType | undefined,
  detail: DetailLevel = 'standard',
  scope: PlanScope = {},
): number {
  if (type !== undefined) return sumOf(documentKindsOf(type, scope), detail);
  return Math.max(...TYPES.map((each) => sumOf(documentKindsOf(each, scope), detail)));
}

/** What a revision reserves, split the way a client explains it. */
export interface RevisionCredits {
  /** The analysis fee, always charged when the revision completes. */
  fee: number;
  /** Every document it may rewrite; only those it does rewrite are charged. */
  documents: number;
  /** `fee + documents`: what is held from the balance while it runs. */
  total: number;
}

/** What decides a revision's documents besides the type: a grounded project, a new digest. */
export interface RevisionScope extends PlanScope {
  newDigest?: boolean;
}

/**
 * The kinds a revision of a project of `type` may rewrite: every one that builds on the
 * requirements, and with a new digest (a grounded project only) the codebase overview.
 *
 * @example
 * revisableKindsOf('web').includes('project-brief'); // false
 */
export function revisableKindsOf(type: ProjectType, scope: RevisionScope = {}): DocumentKindName[] {
  return documentKindsOf(type, scope).filter(
    (kind) => DOCUMENT_KINDS[kind].revisable || (kind === 'codebase-overview' && scope.newDigest),
  );
}

/**
 * What revising a project of `type` reserves: the analysis fee plus every document the
 * revision may rewrite, at the project's detail level. At the end the fee and the documents
 * rewritten are charged and the rest released; a failed or cancelled revision is refunded
 * whole.
 *
 * @example
 * revisionCredits('web'); // { fee: 2, documents: 42, total: 44 }
 */
export function revisionCredits(
  type: ProjectType,
  detail: DetailLevel = 'standard',
  scope: RevisionScope = {},
): RevisionCredits {
  const documents = sumOf(revisableKindsOf(type, scope), detail);
  return { fee: REVISION_FEE, documents, total: REVISION_FEE + documents };
}
