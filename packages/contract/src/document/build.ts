/**
 * Building a document tree in code, so a writer never concatenates markdown: the blocks and
 * inlines of mdast, and the PGS definitions with their fields read as the parser reads them
 * (`fields.ts`). Strings given to a builder are text: whatever they hold (pipes, backticks,
 * fences, `*`, `<`, an ID a user quoted) is written escaped and reads back as the same text.
 * IDs meant as IDs are `cite('FR-2')`, or `prose('… FR-2 …')` for a writer's own sentence.
 */
import type {
  Blockquote,
  Code,
  Emphasis,
  Heading,
  InlineCode,
  Link,
  List,
  ListItem,
  Paragraph,
  PhrasingContent,
  Root,
  RootContent,
  Strong,
  Table,
  TableCell,
  TableRow,
  Text,
} from 'mdast';
import { componentNode, definitionNode } from './fields.ts';
import { ID_PATTERN } from './ids.ts';
import type {
  Component,
  Criterion,
  FlowContent,
  IdRef,
  Nfr,
  Priority,
  RegisterEntry,
  Requirement,
  StepKeyword,
  Story,
  Task,
  Written,
} from './types.ts';

/** Inline content as builders take it: a string is text. */
export type Inline = string | PhrasingContent;

/**
 * Text: written escaped, read back as the same string, never as markup or an ID.
 *
 * @example
 * text('a | b `c` US-1'); // { type: 'text', value: 'a | b `c` US-1' }
 */
export const text = (value: string): Text => ({ type: 'text', value });

/**
 * An ID cited in text.
 *
 * @example
 * paragraph('Implements ', cite('FR-2'), '.');
 */
export const cite = (id: string): IdRef => ({ type: 'idRef', value: id });

/**
 * A writer's own sentence, its IDs cited (`'Depends on T-2'` → text and `cite('T-2')`).
 * Not for user text, whose ID-like strings are text: use `text` or a plain string.
 *
 * @example
 * paragraph(...prose('Built after T-2 and T-3.'));
 */
export function prose(value: string): PhrasingContent[] {
  const parts: PhrasingContent[] = [];
  let last = 0;
  for (const match of value.matchAll(ID_PATTERN)) {
    if (match.index > last) parts.push(text(value.slice(last, match.index)));
    parts.push(cite(match[0]));
    last = match.index + match[0].length;
  }
  if (last < value.length) parts.push(text(value.slice(last)));
  return parts;
}

/**
 * Inline content normalised as the parser gives it back: strings as text, adjacent texts
 * joined, empty ones dropped.
 *
 * @example
 * phrasing(['a', 'b', cite('FR-1')]); // [text('ab'), cite('FR-1')]
 */
export function phrasing(parts: readonly Inline[]): PhrasingContent[] {
  const out: PhrasingContent[] = [];
  for (const part of parts) {
    const node = typeof part === 'string' ? text(part) : part;
    if (node.type === 'text' && node.value === '') continue;
    const previous = out.at(-1);
    if (node.type === 'text' && previous?.type === 'text')
      out[out.length - 1] = text(previous.value + node.value);
    else out.push(node);
  }
  return out;
}

/** @example root([heading(1, 'Plan'), paragraph('…')]) */
export const root = (children: readonly RootContent[]): Root => ({
  type: 'root',
  children: [...children],
});

/** @example heading(2, 'Tasks') */
export const heading = (depth: Heading['depth'], ...content: Inline[]): Heading => ({
  type: 'heading',
  depth,
  children: phrasing(content),
});

/** @example paragraph('Built after ', cite('T-2'), '.') */
export const paragraph = (...content: Inline[]): Paragraph => ({
  type: 'paragraph',
  children: phrasing(content),
});

/** @example strong('Priority') */
export const strong = (...content: Inline[]): Strong => ({
  type: 'strong',
  children: phrasing(content),
});

/** @example emphasis('optional') */
export const emphasis = (...content: Inline[]): Emphasis => ({
  type: 'emphasis',
  children: phrasing(content),
});

/** @example inlineCode('npm test') */
export const inlineCode = (value: string): InlineCode => ({ type: 'inlineCode', value });

/** @example link('https://example.com', 'the site') */
export const link = (url: string, ...content: Inline[]): Link => ({
  type: 'link',
  url,
  title: null,
  children: phrasing(content),
});

/** A fenced code block. @example code('json', '{}') */
export const code = (lang: string | null, value: string): Code => ({
  type: 'code',
  lang,
  meta: null,
  value,
});

/** @example blockquote([paragraph('Quoted')]) */
export const blockquote = (children: readonly FlowContent[]): Blockquote => ({
  type: 'blockquote',
  children: [...children],
});

/**
 * A tight list of one-paragraph items (or items of blocks).
 *
 * @example
 * list(['First', ['Second with ', cite('FR-1')]]);
 */
export function list(
  items: readonly (Inline | readonly Inline[] | ListItem | Definition)[],
  options: { ordered?: boolean; start?: number } = {},
): List {
  const ordered = options.ordered ?? false;
  return {
    type: 'list',
    ordered,
    start: ordered ? (options.start ?? 1) : null,
    spread: false,
    children: items.map((item) => {
      if (typeof item === 'object' && 'type' in item && item.type !== 'text' && isBlockItem(item))
        return item;
      const content = Array.isArray(item) ? item : [item as Inline];
      return listItem([paragraph(...content)]);
    }),
  } as List;
}

type Definition = Requirement | Criterion | Nfr | Story | Task | RegisterEntry;

const isBlockItem = (node: { type: string }): node is ListItem | Definition =>
  node.type === 'listItem' || 'form' in node;

/** @example listItem([paragraph('Text')]) */
export const listItem = (children: readonly FlowContent[], checked?: boolean): ListItem => ({
  type: 'listItem',
  spread: false,
  checked: checked ?? null,
  children: [...children],
});

const cell = (content: Inline | readonly Inline[]): TableCell => ({
  type: 'tableCell',
  children: phrasing(Array.isArray(content) ? content : [content as Inline]),
});

const row = (cells: readonly (Inline | readonly Inline[])[]): TableRow => ({
  type: 'tableRow',
  children: cells.map(cell),
});

/**
 * A table: a header row, then body rows of cells (or rows built already: tasks, entries).
 *
 * @example
 * table(['Name', 'Use'], [['PostgreSQL', 'the store | the queue']]);
 */
export function table(
  headers: readonly (Inline | readonly Inline[])[],
  rows: readonly (readonly (Inline | readonly Inline[])[] | Written<Task | RegisterEntry, 'row'>)[],
): Table {
  return {
    type: 'table',
    align: headers.map(() => null),
    children: [
      row(headers),
      ...rows.map((body) => (Array.isArray(body) ? row(body) : (body as Task | RegisterEntry))),
    ],
  } as Table;
}

const priorityWord: Record<Priority, string> = {
  must: 'Must',
  should: 'Should',
  could: 'Could',
  wont: 'Won’t',
};

/** What a section-form definition is built from. */
export interface SectionInput {
  id: string;
  title: Inline | readonly Inline[];
  priority?: Priority;
  /** The heading's depth; 3 by default (`### FR-2 …`). */
  depth?: Heading['depth'];
  /** The blocks under the heading. */
  body?: readonly FlowContent[];
}

function section(input: SectionInput) {
  const title = Array.isArray(input.title) ? input.title : [input.title as Inline];
  const tag = input.priority ? [` (${priorityWord[input.priority]})`] : [];
  const head = heading(input.depth ?? 3, cite(input.id), ' ', ...title, ...tag);
  return definitionNode(input.id, { form: 'section', children: [head, ...(input.body ?? [])] });
}

/**
 * A requirement group: `### FR-n <title> (<Priority>)` and its body (criteria among it).
 *
 * @example
 * requirement({ id: 'FR-2', title: 'Reminders', priority: 'must', body: [criterion('FR-2.1', 'WHEN …')] });
 */
export const requirement = (input: SectionInput) =>
  section(input) as Written<Requirement, 'section'>;

/**
 * A user story: `### US-n <title> (<Priority>)` and its body.
 *
 * @example
 * story({ id: 'US-1', title: 'Book a visit', body: [paragraph('Criteria: ', cite('FR-1.1'))] });
 */
export const story = (input: SectionInput) => section(input) as Written<Story, 'section'>;

/**
 * An acceptance criterion: a paragraph opening with its bold ID.
 *
 * @example
 * criterion('FR-2.1', 'WHEN a visit is due THE SYSTEM SHALL send one reminder.');
 */
export const criterion = (id: string, ...content: Inline[]): Written<Criterion, 'paragraph'> =>
  definitionNode(id, {
    form: 'paragraph',
    children: phrasing([strong(cite(id)), ' ', ...content]),
  }) as Written<Criterion, 'paragraph'>;

/** A step as {@link scenario} takes it: its keyword, then its text. */
export type StepInput = readonly [keyword: StepKeyword, ...content: Inline[]];

/**
 * An acceptance criterion as a Gherkin scenario: a list item opening with its bold ID and
 * `Scenario: <name>`, its steps a list inside it, each opening with its bold keyword. Put
 * it in a `list` with the other criteria of its group.
 *
 * @example
 * list([scenario('FR-2.1', 'A visit falls due', [['When', 'a visit falls due'], ['Then', 'one reminder is sent']])]);
 * // - **FR-2.1** Scenario: A visit falls due
 * //   - **When** a visit falls due
 * //   - **Then** one reminder is sent
 */
export function scenario(
  id: string,
  name: Inline | readonly Inline[],
  steps: readonly StepInput[],
): Written<Criterion, 'item'> {
  const title = Array.isArray(name) ? name : [name as Inline];
  const head = paragraph(strong(cite(id)), ' Scenario: ', ...title);
  const body = steps.map(([keyword, ...content]) => [strong(keyword), ' ', ...content]);
  return definitionNode(id, {
    form: 'item',
    spread: false,
    checked: null,
    children: steps.length === 0 ? [head] : [head, list(body)],
  }) as Written<Criterion, 'item'>;
}

/**
 * A non-functional requirement: a paragraph opening with its bold ID.
 *
 * @example
 * nfr('NFR-1', '(Performance) Answers within 2 seconds.');
 */
export const nfr = (id: string, ...content: Inline[]): Written<Nfr, 'paragraph'> =>
  definitionNode(id, {
    form: 'paragraph',
    children: phrasing([strong(cite(id)), ' ', ...content]),
  }) as Written<Nfr, 'paragraph'>;

/** The columns of the plan's task tables. */
export const TASK_COLUMNS = ['ID', 'Task', 'Implements', 'Depends on', 'Estimate'] as const;

/** What a task row is built from. */
export interface TaskInput {
  id: string;
  task: Inline | readonly Inline[];
  implements: readonly string[];
  dependsOn: readonly string[];
  estimate: string;
}

const idList = (ids: readonly string[]): PhrasingContent[] =>
  ids.length === 0
    ? [text('none')]
    : ids.flatMap((id, i) => (i === 0 ? [cite(id)] : [text(', '), cite(id)]));

/**
 * A task: a row under {@link TASK_COLUMNS} (`| T-4 | Write … | FR-2.1 | T-3 | 2 d |`).
 *
 * @example
 * taskTable([task({ id: 'T-1', task: 'Set up CI', implements: [], dependsOn: [], estimate: '1 d' })]);
 */
export function task(input: TaskInput): Written<Task, 'row'> {
  const cells = [cite(input.id)],
    taskCell = Array.isArray(input.task) ? input.task : [input.task as Inline];
  return definitionNode(
    input.id,
    {
      form: 'row',
      children: [
        cells,
        taskCell,
        idList(input.implements),
        idList(input.dependsOn),
        [input.estimate],
      ].map((content) => cell(content as Inline[])),
    },
    TASK_COLUMNS,
  ) as Written<Task, 'row'>;
}

/** @example taskTable([task({ … })]) */
export const taskTable = (tasks: readonly Written<Task, 'row'>[]): Table =>
  table([...TASK_COLUMNS], tasks);

/**
 * A register entry of the brief (goal, risk, assumption, question): a row opening with its ID.
 *
 * @example
 * table(['ID', 'Assumption'], [registerEntry('A-1', ['Owners have a phone'])]);
 */
export const registerEntry = (
  id: string,
  cells: readonly (Inline | readonly Inline[])[],
): Written<RegisterEntry, 'row'> =>
  definitionNode(id, {
    form: 'row',
    children: [cite(id), ...cells].map((c) => cell(c as Inline)),
  }) as Written<RegisterEntry, 'row'>;

/**
 * A component of the architecture: `### <name>` and its body, under `## Components`.
 *
 * @example
 * component('Booking service', [paragraph('Implements: ', cite('FR-1'))]);
 */
export const component = (name: string, body: readonly FlowContent[] = []): Component =>
  componentNode([heading(3, name), ...body]);
