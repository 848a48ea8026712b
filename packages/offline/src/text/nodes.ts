/**
 * The offline writers' builders of document trees (`@pgs/contract/document`): paragraphs,
 * lists, tables, code and inline code as mdast nodes, rendered once by the contract's
 * renderer, so no writer escapes anything by hand.
 *
 * Two kinds of string reach a writer. Its own sentences (the literal parts of a `t` or `p`
 * template) are prose: the IDs they name (`NFR-3`) are cited. The facts' strings (a name, a
 * requirement's text, IDs the engine joined: `'FR-1.1, FR-1.2'`) are inert markdown
 * fragments (user-text.ts: what the user wrote, neutralised, an ID they quoted escaped);
 * each is read once into phrasing nodes (`fragment`): the user's words are text nodes (a
 * pipe, a stray backtick or `*`, a quoted `US-1` are written escaped by the renderer), what
 * they wrote as markdown stays what it was (a code span is code), and the engine's IDs are
 * citations. Nothing is read back from rendered markdown.
 *
 * @example
 * blocks(p`${f.name} keeps ${listing(plurals)} (NFR-3):`, table(['Name', 'Use'], [[tech, why]]));
 */
import {
  code as codeNode,
  definitionNode,
  type FlowContent,
  heading,
  inlineCode,
  list,
  listItem,
  paragraph,
  parseDocument,
  phrasing,
  plainText,
  prose,
  strong,
  table as tableNode,
  text,
  withoutPositions,
} from '@pgs/contract/document';
import type { Code, Heading, InlineCode, List, Paragraph, PhrasingContent, Table } from 'mdast';

export type { FlowContent } from '@pgs/contract/document';

/** Inline content as the writers give it: a string is a fragment of the facts (see above). */
export type Inline = string | PhrasingContent | readonly Inline[];

/** What `blocks` takes: blocks, runs of blocks, or nothing (`false`, `undefined`, `''`). */
export type BlockPart = FlowContent | readonly BlockPart[] | false | undefined | null | '';

/**
 * What may make a fragment more than words, so that it is read as markdown: an escape, code,
 * emphasis, a tag or autolink, a link or image, strikethrough, a character reference, an
 * underscore that is not inside a word (`created_by` is words).
 */
const MARKUP = /[\\`*<[\]~]|&#?[A-Za-z0-9]+;|(?:^|[^\p{L}\p{N}])_|_(?:$|[^\p{L}\p{N}])/u;

/**
 * A fragment of the facts as phrasing nodes: plain words as text with the IDs they hold
 * cited (the engine writes IDs unescaped; a user's are escaped in the facts), anything with
 * markup read as the markdown it is (a code span stays code, `&lt;` is `<`, `US\-1` is text).
 *
 * @example
 * fragment('Reminders (FR-2.1)'); // [text('Reminders ('), cite('FR-2.1'), text(')')]
 */
export function fragment(value: string): PhrasingContent[] {
  if (!MARKUP.test(value)) return prose(value);
  const [, lead = '', body = '', trail = ''] = /^(\s*)([\s\S]*?)(\s*)$/.exec(value) ?? [];
  const tree = parseDocument(body, { defines: [], components: false });
  const only = tree.children.length === 1 ? tree.children[0] : undefined;
  // Built, not read: the nodes carry no positions of the fragment they came from.
  const read =
    only?.type === 'paragraph' ? withoutPositions(only).children : [text(plainText(body))];
  return phrasing([lead, ...read, trail]);
}

/**
 * Inline content as phrasing nodes: strings read by `fragment`, nodes kept, runs flattened.
 *
 * @example
 * inline(['Run ', ic('npm test'), '.']);
 */
export function inline(...parts: readonly Inline[]): PhrasingContent[] {
  const out: PhrasingContent[] = [];
  for (const part of parts) {
    if (typeof part === 'string') out.push(...fragment(part));
    else if (Array.isArray(part)) out.push(...inline(...(part as readonly Inline[])));
    else out.push(part as PhrasingContent);
  }
  return phrasing(out);
}

/**
 * A writer's sentence as phrasing: the literal parts are its prose (IDs cited), each value
 * is inline content (a fact's string, a node, a run of them).
 *
 * @example
 * t`Lists of ${f.main.plural} are paged with ${ic('cursor')} (NFR-2).`;
 */
export function t(
  literals: TemplateStringsArray,
  ...values: readonly (Inline | number)[]
): PhrasingContent[] {
  const parts: PhrasingContent[] = [];
  literals.forEach((literal, index) => {
    parts.push(...prose(literal));
    const value = values[index];
    if (value !== undefined)
      parts.push(...inline(typeof value === 'number' ? String(value) : value));
  });
  return phrasing(parts);
}

const isTemplate = (value: TemplateStringsArray | Inline): value is TemplateStringsArray =>
  Array.isArray(value) && Object.hasOwn(value, 'raw');

/**
 * A paragraph of a writer's sentence (`t`), or of inline content.
 *
 * @example
 * p`${f.name} keeps only what its features need:`;
 * p(f.description);
 */
export function p(
  first: TemplateStringsArray | Inline,
  ...values: readonly (Inline | number)[]
): Paragraph {
  const template = isTemplate(first) ? first : undefined;
  return paragraph(
    ...(template ? t(template, ...values) : inline(first as Inline, ...(values as Inline[]))),
  );
}

/**
 * Blocks in order, runs flattened and absent ones (and lists of no items) dropped.
 *
 * @example
 * blocks(p`Intro:`, rows.length > 0 && table(['A'], rows), [h3('More'), p('…')]);
 */
export function blocks(...parts: readonly BlockPart[]): FlowContent[] {
  const out: FlowContent[] = [];
  for (const part of parts) {
    if (part === false || part === undefined || part === null || part === '') continue;
    if (Array.isArray(part)) out.push(...blocks(...(part as readonly BlockPart[])));
    // A list of no items writes nothing, so it is not a block.
    else if (!((part as FlowContent).type === 'list' && (part as List).children.length === 0))
      out.push(part as FlowContent);
  }
  return out;
}

/** @example h3(screen.name) */
export const h3 = (...content: readonly Inline[]): Heading => heading(3, ...inline(...content));

/** @example bold(tab.name) */
export const bold = (...content: readonly Inline[]) => strong(...inline(...content));

/**
 * Inline code of a path, a command or a name; the facts' escapes are undone (code shows
 * its text as is).
 *
 * @example
 * ic('npm test');
 */
export const ic = (value: string): InlineCode => inlineCode(plainText(value));

/**
 * A fenced code block; the facts' escapes are undone, trailing white space dropped.
 *
 * @example
 * code('json', JSON.stringify(body, null, 2));
 */
export const code = (language: string, value: string): Code =>
  codeNode(language, plainText(value.trimEnd()));

/** @example bullets([t`First`, 'Second']) */
export const bullets = (items: readonly Inline[]): List => list(items.map((item) => inline(item)));

/** @example numbered([t`First`, t`Then`]) */
export const numbered = (items: readonly Inline[]): List =>
  list(
    items.map((item) => inline(item)),
    { ordered: true },
  );

/**
 * A task list, every item still open (`- [ ] …`).
 *
 * @example
 * checklist([t`Every Must requirement passes`]);
 */
export const checklist = (items: readonly Inline[]): List => ({
  ...list([]),
  children: items.map((item) => listItem([paragraph(...inline(item))], false)),
});

/** A cell on one line: a line break in a fact is a space, as a table has no other. */
function cell(content: Inline): PhrasingContent[] {
  return inline(content).map((node) =>
    node.type === 'text' ? text(node.value.replace(/\r\n?|\n/g, ' ')) : node,
  );
}

/**
 * A table of inline cells; a pipe in a cell (code included) is escaped by the renderer.
 *
 * @example
 * table(['Name', 'Use'], [['TCP | UDP', ic('a|b')]]);
 */
export const table = (headers: readonly Inline[], rows: readonly (readonly Inline[])[]): Table =>
  tableNode(
    headers.map(cell),
    rows.map((row) => row.map(cell)),
  );

/**
 * The items of a list in a sentence, as `listing` of words.ts: `a, b and c`.
 *
 * @example
 * listingOf(paths.map(ic)); // [ic('a'), ', ', ic('b'), ' and ', ic('c')]
 */
export function listingOf(items: readonly Inline[], conjunction = 'and'): Inline[] {
  if (items.length <= 1) return items.length === 1 ? [items[0] as Inline] : [];
  return items.flatMap((item, index) =>
    index === 0 ? [item] : index === items.length - 1 ? [` ${conjunction} `, item] : [', ', item],
  );
}

/**
 * Items joined by a separator, as `Array.join` of words.
 *
 * @example
 * joined(tools.map((tool) => ic(tool.name)), ', ');
 */
export const joined = (items: readonly Inline[], separator: string): Inline[] =>
  items.flatMap((item, index) => (index === 0 ? [item] : [separator, item]));

/**
 * A table whose body rows define the ID their first cell opens with (the plan's tasks): each
 * such row is the PGS definition the parser would read there, its fields from its cells.
 *
 * @example
 * definingTable(['ID', 'Task', 'Implements', 'Depends on', 'Estimate'], [['T-1', 'Set up CI', 'none', 'none', '1 d']]);
 */
export function definingTable(
  headers: readonly string[],
  rows: readonly (readonly Inline[])[],
): Table {
  const grid = table(headers, rows);
  const children = grid.children.map((row, index) => {
    const first = row.children[0]?.children[0];
    if (index === 0 || first?.type !== 'idRef') return row;
    return definitionNode(first.value, { form: 'row', children: row.children }, headers);
  });
  return { ...grid, children } as Table;
}
