/**
 * Reads one generated markdown document into the pieces of the trace graph: the IDs it
 * defines, the IDs it cites (and from where), its sections and its fenced code. Structure
 * comes from a real CommonMark + GFM parse (headings, list items, table rows, paragraphs),
 * never from patterns over the raw text, so an ID inside code or a table cell is read for
 * what it is.
 */
import type { Code, Heading, ListItem, Nodes, Paragraph, Root, Table } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { toString as plainText } from 'mdast-util-to-string';
import { gfm } from 'micromark-extension-gfm';
import type {
  CodeBlock,
  IdKind,
  IdPrefix,
  ParsedDocument,
  Priority,
  SectionText,
  TraceEdge,
  TraceNode,
} from './types.ts';

// Only FR has the `.m` form (its acceptance criteria). ASCII hyphen only: `FR‑3` with a
// non-breaking hyphen is not an ID, so a model that writes one is told (unknown or
// uncovered) rather than silently forgiven. `FR-03` is read as written; check.ts flags it.
const ID_SOURCE = String.raw`(?:FR-\d+(?:\.\d+)?|(?:G|A|Q|R|NFR|US|T)-\d+)\b`;
const ID = new RegExp(String.raw`\b${ID_SOURCE}`, 'g');
const LEADING_ID = new RegExp(`^${ID_SOURCE}`);
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
 * The part a core document plays in the trace, from its filename. `codebase` is a grounded
 * project's codebase overview: a description of code that exists, written before any ID.
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
 * Every ID a piece of plain text mentions, in order, repeats included: the same reading of an
 * ID as the parser's own (`FR‑3` with a non-breaking hyphen is none).
 *
 * @example
 * idsIn('Depends on T-1, T-2 and FR-3.1.'); // ['T-1', 'T-2', 'FR-3.1']
 */
export function idsIn(text: string): string[] {
  return [...text.matchAll(ID)].map((match) => match[0]);
}

/** `FR-3.1` → `FR`. */
export const prefixOf = (id: string): IdPrefix => id.slice(0, id.indexOf('-')) as IdPrefix;

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

const kindOf = (id: string): IdKind => (id.includes('.') ? 'criterion' : KINDS[prefixOf(id)]);

/** A definition being read: its node, and the text it owns (for the priority). */
interface Draft {
  node: TraceNode;
  text: string[];
  cells: string[];
}

interface Context {
  filename: string;
  source: string;
  owns: ReadonlySet<IdPrefix>;
  section: string;
  subsection: string | undefined;
  /** Definitions made by headings, innermost last; each ends at a heading as high as its own. */
  scopes: Array<{ depth: number; draft: Draft }>;
  drafts: Draft[];
  cites: Map<string, TraceEdge>;
  /**
   * Whether its text is read for citations. Not in the codebase overview: what looks like an
   * ID there (a ticket key, a version tag in the code it quotes) belongs to the code.
   */
  readsCitations: boolean;
  codeBlocks: CodeBlock[];
  sections: string[];
}

export interface ParseOptions {
  /** The prefixes this document may define; by default those its filename owns (`ownedPrefixes`). */
  defines?: readonly IdPrefix[];
}

/**
 * Parses one document. An ID is defined where it is the first thing of a heading, of a
 * list item, of a table row's first cell (header row aside) or of a bold run opening a
 * paragraph, in a document that owns its prefix; every other mention is a citation from
 * the innermost enclosing definition (or from the document itself).
 *
 * @example
 * parseDocument('product-requirements.md', '### FR-3 Reminders\n\n**FR-3.1** WHEN … (G-1)').defines[1]?.id; // 'FR-3.1'
 */
export function parseDocument(
  filename: string,
  markdown: string,
  options: ParseOptions = {},
): ParsedDocument {
  const root = fromMarkdown(markdown, {
    extensions: [gfm()],
    mdastExtensions: [gfmFromMarkdown()],
  });
  const context: Context = {
    filename,
    source: markdown,
    owns: new Set(options.defines ?? ownedPrefixes(filename)),
    section: '',
    subsection: undefined,
    scopes: [],
    drafts: [],
    cites: new Map(),
    readsCitations: documentRole(filename) !== 'codebase',
    codeBlocks: [],
    sections: [],
  };
  for (const child of root.children) walk(context, child, undefined);
  return {
    filename,
    prefixes: [...context.owns],
    sections: context.sections,
    defines: context.drafts.map(finish),
    cites: [...context.cites.values()],
    codeBlocks: context.codeBlocks,
    sectionsText: sizes(root),
  };
}

function walk(context: Context, node: Nodes, owner: Draft | undefined): void {
  switch (node.type) {
    case 'heading':
      heading(context, node);
      break;
    case 'listItem':
      listItem(context, node, owner);
      break;
    case 'table':
      table(context, node, owner);
      break;
    case 'paragraph':
      paragraph(context, node, owner);
      break;
    case 'code':
      code(context, node);
      break;
    case 'text':
      text(context, node.value, owner);
      break;
    default:
      // Inline code and HTML are leaves with a value, not text: IDs in them are not read.
      if ('children' in node) for (const child of node.children) walk(context, child, owner);
  }
}

/** Fenced blocks only: an indented block names no language and is rarely meant as code to check. */
function code(context: Context, node: Code): void {
  if (!/^(?:`{3,}|~{3,})/.test(context.source.slice(node.position?.start.offset ?? 0))) return;
  context.codeBlocks.push({
    lang: (node.lang ?? '').toLowerCase(),
    value: node.value,
    section: context.section,
    line: node.position?.start.line ?? 0,
  });
}

function heading(context: Context, node: Heading): void {
  const title = plainText(node).trim();
  if (node.depth <= 2) {
    context.section = node.depth === 2 ? title : '';
    context.subsection = undefined;
    if (node.depth === 2) context.sections.push(title);
  } else if (node.depth === 3) {
    context.subsection = title;
  }
  while ((context.scopes.at(-1)?.depth ?? 0) >= node.depth) context.scopes.pop();
  const draft = define(context, leadingId(node), node, title);
  if (draft) context.scopes.push({ depth: node.depth, draft });
  for (const child of node.children) walk(context, child, undefined);
}

function listItem(context: Context, node: ListItem, owner: Draft | undefined): void {
  const first = node.children[0];
  const draft =
    first?.type === 'paragraph'
      ? define(context, leadingId(first), node, plainText(first).split('\n')[0] ?? '')
      : undefined;
  for (const child of node.children) walk(context, child, draft ?? owner);
}

function table(context: Context, node: Table, owner: Draft | undefined): void {
  node.children.forEach((row, index) => {
    const cells = row.children.map((cell) => plainText(cell).trim());
    const [first, second] = row.children;
    // The header row names columns; it defines nothing.
    const id = index > 0 && first ? leadingId(first) : undefined;
    const rest = id ? (cells[0] ?? '').slice(id.length).trim() : '';
    const draft = define(context, id, row, rest !== '' || !second ? rest : (cells[1] ?? ''));
    draft?.cells.push(...cells);
    for (const cell of row.children) walk(context, cell, draft ?? owner);
  });
}

function paragraph(context: Context, node: Paragraph, owner: Draft | undefined): void {
  const first = node.children[0];
  const id = first?.type === 'strong' ? leadingId(first) : undefined;
  const enclosing = owner ?? context.scopes.at(-1)?.draft;
  // `- **T-4** Write …`: the list item already defined T-4; its paragraph is the same definition.
  const draft =
    id !== undefined && id !== enclosing?.node.id
      ? define(context, id, node, plainText(node).replace(/\s+/g, ' '))
      : undefined;
  for (const child of node.children) walk(context, child, draft ?? owner);
}

function text(context: Context, value: string, owner: Draft | undefined): void {
  const enclosing = owner ?? context.scopes.at(-1)?.draft;
  enclosing?.text.push(value);
  if (!context.readsCitations) return;
  const from = enclosing?.node.id ?? context.filename;
  for (const [to] of value.matchAll(ID)) {
    if (to === from) continue;
    const edge: TraceEdge = {
      from,
      to,
      document: context.filename,
      section: context.section,
      ...(context.subsection === undefined ? {} : { subsection: context.subsection }),
    };
    const key = [from, to, edge.section, edge.subsection ?? ''].join('\u0000');
    if (!context.cites.has(key)) context.cites.set(key, edge);
  }
}

/** The ID a node starts with: its first leaf must be text opening with one. */
function leadingId(node: Nodes): string | undefined {
  let leaf: Nodes = node;
  while ('children' in leaf) {
    const first: Nodes | undefined = leaf.children[0];
    if (!first) return undefined;
    leaf = first;
  }
  return leaf.type === 'text' ? LEADING_ID.exec(leaf.value.trimStart())?.[0] : undefined;
}

function define(
  context: Context,
  id: string | undefined,
  node: Nodes,
  text: string,
): Draft | undefined {
  if (id === undefined || !context.owns.has(prefixOf(id))) return undefined;
  const draft: Draft = {
    node: {
      id,
      kind: kindOf(id),
      document: context.filename,
      section: context.section,
      ...(context.subsection === undefined ? {} : { subsection: context.subsection }),
      title: titleOf(text, id),
      line: node.position?.start.line ?? 0,
    },
    text: [],
    cells: [],
  };
  context.drafts.push(draft);
  return draft;
}

const MOSCOW = `(must|should|could|won['’]?t)`;
const STATED = new RegExp(String.raw`\bpriority\b\W{0,6}${MOSCOW}\b`, 'i');
const BRACKETED = new RegExp(String.raw`[([]\s*${MOSCOW}(?:\s+have)?\s*[)\]]`, 'i');
const CELL = new RegExp(String.raw`^${MOSCOW}(?:\s+have)?$`, 'i');

function finish(draft: Draft): TraceNode {
  if (draft.node.kind !== 'requirement') return draft.node;
  const own = draft.text.join(' ');
  const word =
    STATED.exec(own)?.[1] ??
    BRACKETED.exec(own)?.[1] ??
    draft.cells.map((cell) => CELL.exec(cell)?.[1]).find(Boolean);
  if (!word) return draft.node;
  const priority = word.toLowerCase().replace(/[^a-z]/g, '') as Priority;
  return { ...draft.node, priority };
}

/** The text after the ID, without separators or a priority tag, cut on a word at 120 characters. */
function titleOf(text: string, id: string): string {
  const start = text.trimStart();
  const title = (start.startsWith(id) ? start.slice(id.length) : start)
    .replace(BRACKETED, '')
    .replace(/\s+/g, ' ')
    .replace(/^[\s:.,;|)*\-–—]+/, '')
    .replace(/[\s:.,;|(*\-–—]+$/, '');
  if (title.length <= 120) return title;
  const cut = title.slice(0, 119);
  const space = cut.lastIndexOf(' ');
  return `${(space > 60 ? cut.slice(0, space) : cut).replace(/[\s,;:.\-–—]+$/, '')}…`;
}

/** Plain-text size of each `##` section, heading excluded; a section ends at the next `#` or `##`. */
function sizes(root: Root): SectionText[] {
  const result: SectionText[] = [];
  let current: SectionText | undefined;
  for (const child of root.children) {
    if (child.type === 'heading' && child.depth <= 2) {
      current =
        child.depth === 2
          ? { section: plainText(child).trim(), line: child.position?.start.line ?? 0, chars: 0 }
          : undefined;
      if (current) result.push(current);
      continue;
    }
    if (current) current.chars += plainText(child).replace(/\s+/g, ' ').trim().length;
  }
  return result;
}
