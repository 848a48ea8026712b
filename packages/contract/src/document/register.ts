/**
 * The brief's register as its tree holds it: each assumption `A-n` and open question `Q-n`
 * with the columns of its row (docs/clarify.md#answer-later). Read from the tree, whoever
 * wrote the brief: the offline engine's tables, or a model's tables, lists or paragraphs.
 */
import type { Nodes, Root, TableRow } from 'mdast';
import { toString as plainText } from 'mdast-util-to-string';
import type { RegisterEntry } from './types.ts';
import { visit } from './walk.ts';

/** An assumption or open question of a brief, with what its row says besides its text. */
export interface RegisterItem {
  id: string;
  kind: 'assumption' | 'question';
  /** The assumption or the question, as written. */
  text: string;
  /** The assumption's default chosen, when its row gives one. */
  default?: string;
  /** What the answer changes (a question's Impact column), when its row gives one. */
  impact?: string;
  /** The feature a question affects, when its row names one. */
  affects?: string;
}

const cellTexts = (row: TableRow | RegisterEntry) =>
  (row.children as Nodes[]).map((cell) => plainText(cell).replace(/\s+/g, ' ').trim());

/** The value of the first column whose header matches, when the row has one that is not empty. */
function column(headers: readonly string[], cells: readonly string[], pattern: RegExp) {
  const at = headers.findIndex((header, i) => i > 0 && pattern.test(header));
  const value = at === -1 ? undefined : cells[at];
  return value === undefined || value === '' ? undefined : value;
}

/**
 * The open questions and assumptions a brief's tree defines, in document order. A table's
 * columns are found by their headers (Assumption/Question, Default, Impact, Affects); an
 * entry written as a list item or a paragraph gives its title alone.
 *
 * @example
 * registerItems(parseDocument(brief, { filename: 'PROJECT_BRIEF.md' }))[0];
 * // { id: 'A-1', kind: 'assumption', text: 'Who the users are', default: 'Small teams' }
 */
export function registerItems(tree: Root): RegisterItem[] {
  const items: RegisterItem[] = [];
  const seen = new Set<string>();
  const add = (entry: RegisterEntry, headers: readonly string[] | undefined) => {
    if (entry.register !== 'assumption' && entry.register !== 'question') return;
    if (seen.has(entry.id)) return;
    seen.add(entry.id);
    const item: RegisterItem = { id: entry.id, kind: entry.register, text: entry.title };
    if (entry.form === 'row' && headers !== undefined) {
      const cells = cellTexts(entry);
      const text = column(headers, cells, /assumption|question/i) ?? entry.title;
      const fallback = entry.register === 'assumption' ? /default|choice/i : /impact|why/i;
      const detail = column(headers, cells, fallback);
      const affects = column(headers, cells, /affects/i);
      item.text = text;
      if (detail !== undefined && entry.register === 'assumption') item.default = detail;
      if (detail !== undefined && entry.register === 'question') item.impact = detail;
      if (affects !== undefined) item.affects = affects;
    }
    if (item.text !== '') items.push(item);
  };
  visit(tree, (node) => {
    if (node.type === 'table') {
      const [head, ...rows] = node.children as Nodes[];
      const headers = head?.type === 'tableRow' ? cellTexts(head) : undefined;
      for (const row of rows) if (row.type === 'registerEntry') add(row, headers);
      return false;
    }
    if (node.type === 'registerEntry') {
      add(node, undefined);
      return false;
    }
    return undefined;
  });
  return items;
}
