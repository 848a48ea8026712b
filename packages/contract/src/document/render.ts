/**
 * The one writer of markdown: a document tree (mdast with GFM and the PGS nodes) to its
 * text, with `mdast-util-to-markdown`. A PGS node writes its children as the mdast it
 * stands for, so nothing is lost; text is escaped so it reads back as the same text (a
 * pipe in a cell, a backtick, a fence, `*`, `<`), and an ID-like string in text is written
 * `US\-1` so it reads back as text, not as an ID.
 */
import type { ListItem, Paragraph, Parents, Root } from 'mdast';
import { gfmToMarkdown } from 'mdast-util-gfm';
import {
  type Handle,
  type Options,
  type State,
  toMarkdown,
  type Unsafe,
} from 'mdast-util-to-markdown';
import type { Definition } from './types.ts';

/** Writes a definition as the mdast it stands for. */
const definition: Handle = (node: Definition, parent, state: State, info) => {
  switch (node.form) {
    case 'section':
      return state.containerFlow(node as unknown as Root, info);
    case 'paragraph': {
      const paragraph: Paragraph = { type: 'paragraph', children: node.children };
      return state.handle(paragraph, parent, state, info);
    }
    case 'item': {
      const item: ListItem = {
        type: 'listItem',
        spread: node.spread ?? null,
        checked: node.checked ?? null,
        children: node.children,
      };
      // The list item handler numbers an ordered item by its index in the list.
      const list =
        parent && 'children' in parent
          ? { ...parent, children: parent.children.map((child) => (child === node ? item : child)) }
          : parent;
      return state.handle(item, list as Parents, state, info);
    }
    case 'row':
      // A table writes its rows itself; a row is never handled alone.
      return '';
  }
};

const ID_START = '(?:FR|NFR|US|T|G|R|A|Q)';

/** An ID-like string in text (`US-1` quoted from a user) is escaped (`US\-1`): it is not an ID. */
const ID_HYPHEN: Unsafe = {
  character: '-',
  before: String.raw`\b${ID_START}`,
  after: String.raw`\d`,
  inConstruct: 'phrasing',
  notInConstruct: [
    'autolink',
    'destinationLiteral',
    'destinationRaw',
    'titleQuote',
    'titleApostrophe',
  ],
};

/**
 * A link's destination written bare that opens with `<` (`[a](<x>)`) reads as a destination
 * in angle brackets, `x`: the `<` there is escaped (`[a](\<x>)`).
 */
const DESTINATION_ANGLE: Unsafe = {
  character: '<',
  before: String.raw`\(`,
  inConstruct: 'destinationRaw',
};

/** Any case of a word, as an unsafe pattern needs it (its expression has no `i` flag). */
const anyCase = (word: string) =>
  [...word].map((c) => `[${c.toLowerCase()}${c.toUpperCase()}]`).join('');

/**
 * The colon of a script scheme in text (`javascript:`) is escaped (`javascript\:`), so no
 * reader that links bare schemes follows it and no check for one finds it; a `data` only when
 * a media type follows ("Data: PostgreSQL" is a label), as `inertText` defangs them.
 */
const SCHEME_COLONS: Unsafe[] = [
  {
    character: ':',
    before: `(?:${['javascript', 'vbscript', 'livescript'].map(anyCase).join('|')})[ \\t]*`,
    inConstruct: 'phrasing',
  },
  {
    character: ':',
    before: `${anyCase('data')}[ \\t]*`,
    after: String.raw`[\w.+-]*\/|,`,
    inConstruct: 'phrasing',
  },
];

const GFM = gfmToMarkdown({ tablePipeAlign: false });
const gfmHandler = (type: 'paragraph' | 'table') =>
  GFM.extensions?.find((extension) => extension.handlers?.[type])?.handlers?.[type] as Handle;
const gfmTable = gfmHandler('table');
const gfmParagraph = gfmHandler('paragraph');

/**
 * A paragraph as GFM writes it; a task-list item's first paragraph follows its checkbox
 * (`- [ ] `), not a line break, so its text is escaped as what follows a space: GFM reads
 * `- [ ] 1. Setup` and `- [ ] # 2` as text after the box, and the default writer, which
 * writes the paragraph as the item's opening line before it adds the box, escapes them
 * (`1\. Setup`) where no reader needs it and line-by-line readers of task lists (Kiro's
 * `- [ ] 1. …`) do not match.
 */
const paragraph: Handle = (node, parent, state, info) => {
  const item = parent?.type === 'listItem' ? parent : undefined;
  const boxed =
    item !== undefined &&
    typeof item.checked === 'boolean' &&
    item.children.find((child) => child.type !== 'definition') === node;
  return gfmParagraph(node, parent, state, boxed ? { ...info, before: ' ' } : info);
};

/**
 * A table as GFM writes it unpadded, its delimiter cells three dashes (`| --- |`) as PGS has
 * always written them and as models answer, where the unpadded writer puts one (`| - |`).
 * The delimiter row is the table's second line (a cell never holds a line break).
 */
const table: Handle = (node, parent, state, info) => {
  const lines = (gfmTable as Handle)(node, parent, state, info).split('\n');
  if (lines[1] !== undefined) lines[1] = lines[1].replace(/(?<=\| ?)(:?)-(:?)(?= ?\|)/g, '$1---$2');
  return lines.join('\n');
};

/**
 * Text as the default writer escapes it, but a `<` that could open HTML (`<script`, `<img`,
 * `</`) written as a character reference, `&#x3C;`, rather than `\<`: the stored markdown is
 * read by renderers, previews and agents that do not all honour a backslash before `<`, and
 * no tag a user wrote survives in it as text that reads as a tag (docs/security.md).
 */
const text: Handle = (node, parent, state, info) => {
  const siblings = parent ? parent.children : [];
  const index = state.indexStack[state.indexStack.length - 1] ?? 0;
  const value = (node as { value: string }).value;
  // Only the patterns whose character is there can match (see `unsafeIn`).
  const all = state.unsafe;
  state.unsafe = unsafeIn(all, `${info.before}${value}${info.after}`);
  try {
    const written = state.safe(value, {
      ...info,
      afterNode: siblings[index + 1],
      beforeNode: siblings[index - 1],
      encode: ['<'],
    });
    return parent?.type === 'tableCell' ? cellEdges(written, index, siblings.length) : written;
  } finally {
    state.unsafe = all;
  }
};

/** Each character as a character reference: `' '` → `&#x20;`. */
const references = (run: string) =>
  [...run].map((char) => `&#x${(char.codePointAt(0) ?? 0).toString(16).toUpperCase()};`).join('');

/**
 * A cell's text as written, the spaces and tabs at the cell's ends as character references
 * (`&#x20;`): GFM trims a cell's content, and the table writer, unlike the paragraph writer
 * at a line's ends, leaves them bare. `index` is the text's place among `count` siblings.
 *
 * @example
 * cellEdges(' a\t', 0, 1); // '&#x20;a&#x9;'
 */
export function cellEdges(written: string, index: number, count: number): string {
  const blank = (at: number) => written[at] === ' ' || written[at] === '\t';
  let start = 0;
  let end = written.length;
  if (index === 0) while (start < end && blank(start)) start++;
  if (index === count - 1) while (end > start && blank(end - 1)) end--;
  if (start === 0 && end === written.length) return written;
  let slashes = 0;
  while (end - slashes > start && written[end - slashes - 1] === '\\') slashes++;
  // A bare backslash before the trailing run (odd in its own run) would escape its `&`.
  const bare = end < written.length && slashes % 2 === 1 ? '\\' : '';
  return `${references(written.slice(0, start))}${written.slice(start, end)}${bare}${references(written.slice(end))}`;
}

/**
 * The unsafe patterns that can match in a text and the characters written around it, in
 * their order: a pattern matches its character literally (`compilePattern` of
 * mdast-util-to-markdown), so one whose character is absent matches nothing, and `safe`
 * escapes exactly what it would with every pattern (round-trip.test.ts). Most text holds a
 * few of the patterns' characters, so `safe` runs a few expressions instead of all 92
 * (CommonMark's and GFM's): escaping was a third of the offline engine's CPU when it writes
 * documents.
 */
function unsafeIn(patterns: readonly Unsafe[], subject: string): Unsafe[] {
  return patterns.filter((pattern) => subject.includes(pattern.character));
}

/** How PGS writes markdown: `-` bullets, `*` emphasis, fenced code, ATX headings, tables unpadded. */
export const RENDER_OPTIONS: Options = {
  bullet: '-',
  emphasis: '*',
  strong: '*',
  fence: '`',
  fences: true,
  rule: '-',
  listItemIndent: 'one',
  setext: false,
  extensions: [
    GFM,
    {
      handlers: {
        paragraph,
        table,
        text,
        idRef: (node: { value: string }) => node.value,
        requirement: definition,
        criterion: definition,
        nfr: definition,
        story: definition,
        task: definition,
        registerEntry: definition,
        component: (node, _, state, info) => state.containerFlow(node, info),
      },
      unsafe: [ID_HYPHEN, DESTINATION_ANGLE, ...SCHEME_COLONS],
    },
  ],
};

/** What a caller may choose of how a document is written. */
export interface RenderChoices {
  /**
   * The emphasis marker: `*` (PGS's own documents), or `_` where a tool reads its files by
   * it (Kiro's `_Requirements: 1.2_` line under a task).
   */
  emphasis?: '*' | '_';
}

/**
 * Renders a document tree to markdown: the one place a PGS document's text is written from
 * its tree. `parseDocument(renderDocument(tree))` is the tree again (positions aside).
 *
 * @example
 * renderDocument(root([heading(1, 'Plan'), paragraph('Pipes | stay text')])); // '# Plan\n\nPipes | stay text\n'
 * renderDocument(root([paragraph(emphasis('Requirements: ', cite('FR-1.1')))]), { emphasis: '_' }); // '_Requirements: FR-1.1_\n'
 */
export function renderDocument(tree: Root, choices: RenderChoices = {}): string {
  return toMarkdown(
    tree,
    choices.emphasis === undefined ? RENDER_OPTIONS : { ...RENDER_OPTIONS, ...choices },
  );
}
