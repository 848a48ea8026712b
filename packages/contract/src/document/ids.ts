/**
 * What an ID is in a PGS document, and which document may define which IDs. The only
 * patterns over text in the document model live here and in `parse.ts`, and they read the
 * text of the tree (never markdown): an ID inside code is code, and an escaped one (`US\-1`,
 * as the renderer writes an ID-like string of user text) is text.
 */

/** The ID prefixes the documents use, each defined by one document (see {@link ownedPrefixes}). */
export type IdPrefix = 'G' | 'A' | 'Q' | 'R' | 'FR' | 'NFR' | 'US' | 'T';

/** Every prefix, in the order the documents are written. */
export const ID_PREFIXES: readonly IdPrefix[] = ['G', 'A', 'Q', 'R', 'FR', 'NFR', 'US', 'T'];

/** What a defined ID stands for: the prefix as a word (`FR-3` a requirement, `FR-3.1` a criterion). */
export type IdKind =
  | 'goal'
  | 'assumption'
  | 'question'
  | 'risk'
  | 'requirement'
  | 'criterion'
  | 'nfr'
  | 'story'
  | 'task';

// Only FR has the `.m` form (its acceptance criteria). ASCII hyphen only: `FR‑3` with a
// non-breaking hyphen is not an ID, so a model that writes one is told (unknown or
// uncovered) rather than silently forgiven. `FR-03` is read as written.
const ID_SOURCE = String.raw`(?:FR-\d+(?:\.\d+)?|(?:G|A|Q|R|NFR|US|T)-\d+)\b`;

/** Every ID of a text, as the parser reads them (global: use with `matchAll`). */
export const ID_PATTERN = new RegExp(String.raw`\b${ID_SOURCE}`, 'g');
const EXACT_ID = new RegExp(`^${ID_SOURCE}$`);

const KINDS: Record<IdPrefix, IdKind> = {
  G: 'goal',
  A: 'assumption',
  Q: 'question',
  R: 'risk',
  FR: 'requirement',
  NFR: 'nfr',
  US: 'story',
  T: 'task',
};

/**
 * Whether a string is an ID as the documents write them (`FR-3`, `FR-3.1`, `T-12`).
 *
 * @example
 * isId('FR-3.1'); // true
 */
export function isId(text: string): boolean {
  return EXACT_ID.test(text);
}

/**
 * Every ID a piece of plain text mentions, in order, repeats included (`FR‑3` with a
 * non-breaking hyphen is none). For text already taken out of a tree (a cell, a title); a
 * document's citations are its `idRef` nodes.
 *
 * @example
 * idsIn('Depends on T-1, T-2 and FR-3.1.'); // ['T-1', 'T-2', 'FR-3.1']
 */
export function idsIn(text: string): string[] {
  return [...text.matchAll(ID_PATTERN)].map((match) => match[0]);
}

/**
 * The prefix of an ID.
 *
 * @example
 * prefixOf('FR-3.1'); // 'FR'
 */
export const prefixOf = (id: string): IdPrefix => id.slice(0, id.indexOf('-')) as IdPrefix;

/**
 * What an ID stands for.
 *
 * @example
 * kindOf('FR-3.1'); // 'criterion'
 */
export const kindOf = (id: string): IdKind =>
  id.includes('.') ? 'criterion' : KINDS[prefixOf(id)];

/**
 * The requirement group an ID belongs to: `FR-3.1` and `FR-3` → `FR-3`; other IDs → undefined.
 *
 * @example
 * requirementOf('FR-3.1'); // 'FR-3'
 */
export function requirementOf(id: string): string | undefined {
  if (prefixOf(id) !== 'FR') return undefined;
  const dot = id.indexOf('.');
  return dot === -1 ? id : id.slice(0, dot);
}

/**
 * The part a core document plays, from its filename. `codebase` is a grounded project's
 * codebase overview: a description of code that exists, written before any ID.
 */
export type DocumentRole =
  | 'brief'
  | 'requirements'
  | 'stories'
  | 'architecture'
  | 'plan'
  | 'codebase';

const ROLES: Record<string, DocumentRole> = {
  'project-brief.md': 'brief',
  'product-requirements.md': 'requirements',
  'user-stories.md': 'stories',
  'architecture.md': 'architecture',
  'implementation-plan.md': 'plan',
  'codebase-overview.md': 'codebase',
};

const OWNERS: Record<DocumentRole, readonly IdPrefix[]> = {
  brief: ['G', 'A', 'Q', 'R'],
  requirements: ['FR', 'NFR'],
  stories: ['US'],
  architecture: [],
  plan: ['T'],
  codebase: [],
};

/**
 * The role of a document, whichever way its filename is spelled (`PRODUCT_REQUIREMENTS.md`,
 * `docs/product-requirements.md`); undefined for design documents and the README.
 *
 * @example
 * documentRole('IMPLEMENTATION_PLAN.md'); // 'plan'
 */
export function documentRole(filename: string): DocumentRole | undefined {
  const base = filename.split('/').pop() ?? filename;
  return ROLES[base.toLowerCase().replaceAll('_', '-')];
}

/**
 * The prefixes a document may define. Each prefix belongs to one document, so a
 * traceability table in the architecture (`| FR-2 | Booking service |`) cites FR-2 instead
 * of defining it a second time; documents without a role define nothing.
 *
 * @example
 * ownedPrefixes('product-requirements.md'); // ['FR', 'NFR']
 */
export function ownedPrefixes(filename: string): readonly IdPrefix[] {
  const role = documentRole(filename);
  return role ? OWNERS[role] : [];
}
