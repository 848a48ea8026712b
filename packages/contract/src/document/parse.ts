/**
 * The one reader of markdown: a document's text into its tree (mdast with GFM, plus the PGS
 * nodes of `types.ts`). Structure comes from a real CommonMark + GFM parse, so an ID inside
 * code, inline code or HTML is not an ID, and neither is an escaped one (`US\-1`): the
 * renderer escapes ID-like strings of text, so user text that quotes an ID stays text.
 */
import type { Code, List, Nodes, Parents, PhrasingContent, Root, Text } from 'mdast';
import type { CompileContext, Extension, Token } from 'mdast-util-from-markdown';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';
import { documentRole, ID_PATTERN, ID_PREFIXES, type IdPrefix, ownedPrefixes } from './ids.ts';
import { structure } from './structure.ts';
import type { IdRef } from './types.ts';

export interface ParseOptions {
  /**
   * The document's filename: it decides which prefixes the document may define
   * (`ownedPrefixes`: the requirements define FR and NFR, the plan T…) and whether it has
   * components (the architecture). Without one, every prefix is defined where it is written.
   */
  filename?: string;
  /** The prefixes this document may define, overriding the filename's. */
  defines?: readonly IdPrefix[];
  /** Whether architecture components are read, overriding the filename's. */
  components?: boolean;
}

/**
 * Marks an escaped character in text that would otherwise join an ID (`US\-1`) or a GFM
 * autolink literal (`www\.a.co`, `https\://`, `a\@b.co`), so neither reader sees one there;
 * removed once IDs are read. A noncharacter, which no document has reason to hold.
 */
const ESCAPED = '\uFDD0';

/**
 * The escaped characters marked. The GFM reader finds autolink literals in the text after
 * escapes are resolved (mdast-util-gfm-autolink-literal), so without the mark the escapes
 * the renderer writes for them would not keep text as text.
 */
const MARKED = new Set(['-', '.', ':', '@']);

/** Keeps an escape visible to the ID and autolink readers: `\-` is text, never part of an ID. */
const escapes: Extension = {
  exit: {
    characterEscapeValue(this: CompileContext, token: Token) {
      const tail = this.stack.pop() as Text;
      const value = this.sliceSerialize(token);
      tail.value += MARKED.has(value) ? `${ESCAPED}${value}` : value;
      if (tail.position) tail.position.end = { ...token.end };
    },
  },
};

/** Offsets of the first character of each line, for positions of the IDs read out of text. */
function lineStarts(source: string): number[] {
  const starts = [0];
  for (let index = source.indexOf('\n'); index !== -1; index = source.indexOf('\n', index + 1))
    starts.push(index + 1);
  return starts;
}

interface Reading {
  source: string;
  lines: number[];
}

function pointAt(reading: Reading, offset: number) {
  let low = 0;
  let high = reading.lines.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if ((reading.lines[middle] ?? 0) <= offset) low = middle;
    else high = middle - 1;
  }
  return { line: low + 1, column: offset - (reading.lines[low] ?? 0) + 1, offset };
}

const isBoundary = (char: string | undefined) => char === undefined || !/\w/.test(char);

/** Where an ID of a text node is written, when it is written as is (not through a reference). */
function locate(reading: Reading, node: Text, id: string, from: number): number | undefined {
  const end = node.position?.end.offset ?? reading.source.length;
  for (let at = reading.source.indexOf(id, from); at !== -1 && at + id.length <= end; ) {
    if (isBoundary(reading.source[at - 1]) && isBoundary(reading.source[at + id.length])) return at;
    at = reading.source.indexOf(id, at + 1);
  }
  return undefined;
}

/** A text node as text and `idRef` nodes, its escape marks removed, each where it is written. */
function splitText(reading: Reading, node: Text): PhrasingContent[] {
  const matches = [...node.value.matchAll(ID_PATTERN)];
  const clean = (value: string) => value.replaceAll(ESCAPED, '');
  if (matches.length === 0) {
    return node.value.includes(ESCAPED) ? [{ ...node, value: clean(node.value) }] : [node];
  }
  const parts: PhrasingContent[] = [];
  let last = 0;
  // Where the source of the next piece starts, while every ID so far was found in the source.
  let from: number | undefined = node.position?.start.offset;
  const piece = (value: string, to: number | undefined) => {
    if (value === '') return;
    const text: Text = { type: 'text', value: clean(value) };
    if (from !== undefined && to !== undefined)
      text.position = { start: pointAt(reading, from), end: pointAt(reading, to) };
    parts.push(text);
  };
  for (const match of matches) {
    const at = from === undefined ? undefined : locate(reading, node, match[0], from);
    piece(node.value.slice(last, match.index), at);
    const ref: IdRef = { type: 'idRef', value: match[0] };
    if (at !== undefined)
      ref.position = { start: pointAt(reading, at), end: pointAt(reading, at + match[0].length) };
    parts.push(ref);
    from = at === undefined ? undefined : at + match[0].length;
    last = match.index + match[0].length;
  }
  piece(node.value.slice(last), node.position?.end.offset);
  return parts;
}

/** Whether a code block is written with a fence (``` or ~~~) rather than indented. */
const isFenced = (reading: Reading, node: Code) =>
  /^[ \t>]*(?:`{3,}|~{3,})/.test(reading.source.slice(node.position?.start.offset ?? 0));

/**
 * Whether a list is loose as mdast defines it: an item spread, or a blank line between two
 * items. mdast-util-from-markdown also counts a blank line after the last item when the list
 * is in a block quote (`> - a\n>\n> * b`), where at the top level it does not.
 */
const isSpread = (node: List) =>
  node.children.some(
    (item, index) =>
      item.spread === true ||
      (index > 0 &&
        (item.position?.start.line ?? 0) - (node.children[index - 1]?.position?.end.line ?? 0) > 1),
  );

/** A link's, image's or definition's destination, title and alt without escape marks. */
function unmark(node: Record<string, unknown>): void {
  for (const key of ['url', 'title', 'alt']) {
    const value = node[key];
    if (typeof value === 'string' && value.includes(ESCAPED))
      node[key] = value.replaceAll(ESCAPED, '');
  }
}

/**
 * Every text node of the tree split into text and `idRef` nodes, each indented code block
 * marked (`data.indented`): the renderer writes fences only; and each list's `spread` read
 * again (`isSpread`).
 */
function readIds(reading: Reading, node: Parents): void {
  const children: Nodes[] = [];
  for (const child of node.children as Nodes[]) {
    if (child.type === 'list' && child.spread) child.spread = isSpread(child);
    if ('url' in child || 'alt' in child) unmark(child as unknown as Record<string, unknown>);
    if (child.type === 'text') children.push(...splitText(reading, child));
    else if (child.type === 'code' && !isFenced(reading, child)) {
      children.push({ ...child, data: { ...child.data, indented: true } });
    } else {
      if ('children' in child) readIds(reading, child);
      children.push(child);
    }
  }
  (node as { children: Nodes[] }).children = children;
}

/**
 * Parses a document into its tree: mdast with GFM, its IDs in text as `idRef` nodes and its
 * definitions, components and register entries as PGS nodes (see `types.ts`). The only
 * place a PGS document's markdown is read.
 *
 * @example
 * const tree = parseDocument('### FR-3 Reminders (Must)\n\n**FR-3.1** WHEN …', { filename: 'PRODUCT_REQUIREMENTS.md' });
 * tree.children[0]?.type; // 'requirement'
 */
export function parseDocument(markdown: string, options: ParseOptions = {}): Root {
  const root = fromMarkdown(markdown, {
    extensions: [gfm()],
    mdastExtensions: [gfmFromMarkdown(), escapes],
  });
  readIds({ source: markdown, lines: lineStarts(markdown) }, root);
  const owns = new Set(
    options.defines ??
      (options.filename === undefined ? ID_PREFIXES : ownedPrefixes(options.filename)),
  );
  const components =
    options.components ??
    (options.filename === undefined || documentRole(options.filename) === 'architecture');
  return structure(root, { owns, components });
}

/**
 * A markdown fragment of user text (an idea's phrase, a name) with every ID in it escaped
 * (`US-1` → `US\-1`): it renders the same, and reads back as text, never as an ID a
 * revision would renumber or the trace would follow.
 *
 * @example
 * escapeIds('Forms for T-1 visas, `T-2` kept'); // 'Forms for T\-1 visas, `T-2` kept'
 */
export function escapeIds(markdown: string): string {
  // Most user text holds no hyphen before a digit, so has no ID to look for.
  if (!/-\d/.test(markdown)) return markdown;
  const hyphens: number[] = [];
  const visit = (node: Nodes): void => {
    const start = node.position?.start.offset;
    if (node.type === 'idRef' && start !== undefined) hyphens.push(start + node.value.indexOf('-'));
    if ('children' in node) for (const child of node.children) visit(child);
  };
  const root = fromMarkdown(markdown, {
    extensions: [gfm()],
    mdastExtensions: [gfmFromMarkdown(), escapes],
  });
  readIds({ source: markdown, lines: lineStarts(markdown) }, root);
  visit(root);
  let out = markdown;
  for (const at of hyphens.sort((a, b) => b - a)) out = `${out.slice(0, at)}\\${out.slice(at)}`;
  return out;
}
