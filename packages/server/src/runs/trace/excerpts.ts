/**
 * Pieces of one document cut along its markdown structure, for a reader who needs only what
 * concerns a few IDs (a task's context pack): the block that defines an ID, and the blocks
 * that cite one (a table row with its header, a list item, a paragraph with the code it
 * introduces, or the whole `###` part when it is small). Cut from a CommonMark + GFM parse,
 * as the trace reads documents, and given back as the document's own markdown.
 */

import { citedIds, idsIn, leadingId, parseDocument, visit } from '@pgs/contract/document';
import type { Nodes, Root, RootContent } from 'mdast';
import { toString as plainText } from 'mdast-util-to-string';

/** A piece of a document, as its markdown. */
export interface Excerpt {
  document: string;
  section: string;
  subsection?: string;
  markdown: string;
}

interface Unit {
  section: string;
  subsection: string | undefined;
  start: number;
  markdown: string;
  /** The ID the unit opens with (a heading, list item, first cell or bold opening). */
  opens: string | undefined;
  ids: Set<string>;
  /** A paragraph ending in a colon: the code or list after it belongs to it. */
  introduces: boolean;
  /** An item of a list a paragraph introduces: the paragraph's start. */
  within?: number;
  /** The `###` part holding it: where it starts and its markdown. */
  part: { start: number; markdown: string } | undefined;
}

/** Below this many characters a `###` part is given whole rather than the one block citing. */
const WHOLE_PART_CHARS = 1_200;

/**
 * One document, parsed once, asked for the pieces that concern some IDs.
 *
 * @example
 * const stories = new DocumentExcerpts('USER_STORIES.md', markdown);
 * stories.definition('US-2'); // '### US-2 View and search …\n\nAs a user …'
 */
export class DocumentExcerpts {
  readonly document: string;
  readonly #units: Unit[] = [];

  constructor(document: string, markdown: string) {
    this.document = document;
    // The blocks as written: IDs read, nothing grouped into definitions or components.
    const root: Root = parseDocument(markdown, { defines: [], components: false });
    this.#read(root, markdown);
  }

  /** The markdown that defines `id`: a heading with all under it, or the block it opens. */
  definition(id: string): string | undefined {
    return this.#units.find((unit) => unit.opens === id)?.markdown;
  }

  /**
   * The pieces citing any of `ids`, in document order, each once: the `###` part holding the
   * citation when it is small, else the citing block alone.
   */
  citing(ids: ReadonlySet<string>): Excerpt[] {
    const seen = new Set<number>();
    const excerpts: Excerpt[] = [];
    for (const unit of this.#units) {
      if (![...unit.ids].some((id) => ids.has(id))) continue;
      // Already given with the paragraph that introduces its list.
      if (unit.within !== undefined && seen.has(unit.within)) continue;
      const whole = unit.part !== undefined && unit.part.markdown.length <= WHOLE_PART_CHARS;
      const piece = whole ? unit.part! : { start: unit.start, markdown: unit.markdown };
      if (seen.has(piece.start)) continue;
      seen.add(piece.start);
      excerpts.push({
        document: this.document,
        section: unit.section,
        ...(unit.subsection === undefined ? {} : { subsection: unit.subsection }),
        markdown: piece.markdown,
      });
    }
    return excerpts;
  }

  #read(root: Root, source: string): void {
    const slice = (node: Nodes) =>
      source.slice(node.position?.start.offset ?? 0, node.position?.end.offset ?? 0);
    const startOf = (node: RootContent) => node.position?.start.offset ?? 0;
    /** Where the scope a heading opens ends: the next heading as high as it, or the end. */
    const scopeEnd = (index: number, depth: number) => {
      const next = root.children
        .slice(index + 1)
        .find((node) => node.type === 'heading' && node.depth <= depth);
      return next === undefined ? source.length : startOf(next);
    };
    let section = '';
    let subsection: string | undefined;
    let part: Unit['part'];
    let previous: Unit | undefined;
    root.children.forEach((node, index) => {
      const add = (markdown: string, opens: string | undefined, at: Nodes = node) => {
        const unit: Unit = {
          section,
          subsection,
          start: at.position?.start.offset ?? 0,
          markdown: markdown.trim(),
          introduces: introduces(node),
          opens,
          ids: idsOf(at),
          part,
        };
        this.#units.push(unit);
        previous = unit;
      };
      if (node.type === 'heading') {
        const title = plainText(node).trim();
        const end = scopeEnd(index, node.depth);
        if (node.depth <= 2) {
          section = node.depth === 2 ? title : '';
          subsection = undefined;
          part = undefined;
        } else if (node.depth === 3) {
          subsection = title;
          part = { start: startOf(node), markdown: source.slice(startOf(node), end).trim() };
        }
        // A heading opening with an ID defines it with everything under it.
        add(source.slice(startOf(node), end), leadingId(node));
      } else if ((node.type === 'code' || node.type === 'list') && previous?.introduces) {
        // "For example, to keep communities (FR-1.1):" introduces the block after it, and
        // "How X (FR-1) travels:" the steps after it: one piece with it when it cites. Its
        // items still cite on their own ("For reference:" and a list of everything).
        const introducer = previous;
        introducer.markdown = `${introducer.markdown}\n\n${slice(node).trim()}`;
        introducer.introduces = false;
        if (node.type === 'list') {
          for (const item of node.children) {
            add(slice(item), leadingId(item), item);
            previous!.within = introducer.start;
          }
          previous = introducer;
        }
      } else if (node.type === 'list') {
        for (const item of node.children) add(slice(item), leadingId(item), item);
      } else if (node.type === 'table') {
        const [header, ...rows] = node.children.filter((row) => row.type === 'tableRow');
        if (header === undefined) return;
        const head = `${slice(header)}\n|${' --- |'.repeat(header.children.length)}`;
        for (const row of rows) add(`${head}\n${slice(row)}`, leadingId(row), row);
      } else {
        const first = node.type === 'paragraph' ? node.children[0] : undefined;
        add(slice(node), first?.type === 'strong' ? leadingId(first) : undefined);
      }
    });
  }
}

/**
 * The IDs a block cites: its ID references (an ID escaped in user text is text), and the IDs
 * its code quotes, since an endpoint's `GET /v1/notes (FR-1.1)` serves the reader of FR-1.1.
 */
function idsOf(node: Nodes): Set<string> {
  const ids = new Set(citedIds(node));
  visit(node, (each) => {
    if (each.type === 'code' || each.type === 'inlineCode')
      for (const id of idsIn(each.value)) ids.add(id);
  });
  return ids;
}

/**
 * Whether a block is a paragraph ending in a colon in its own words (its last node is text,
 * not code or emphasis): "For example, to keep communities (FR-1.1):" introduces what follows.
 */
function introduces(node: Nodes): boolean {
  if (node.type !== 'paragraph') return false;
  const last = node.children.at(-1);
  return last?.type === 'text' && last.value.trimEnd().endsWith(':');
}
