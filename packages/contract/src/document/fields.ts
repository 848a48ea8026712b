/**
 * The typed fields of a PGS node, read from its children: one function for the parser and
 * for the builders, so a tree built in code and the same tree parsed back carry the same
 * fields.
 */
import type { Nodes, TableCell } from 'mdast';
import { toString as plainText } from 'mdast-util-to-string';
import { kindOf, prefixOf, requirementOf } from './ids.ts';
import type { Position } from './types.ts';
import {
  type Component,
  DEFINITION_TYPE,
  type Definition,
  type DefinitionType,
  type FlowContent,
  type Form,
  isDefinition,
  type Priority,
  type Scenario,
  type ScenarioStep,
  type StepKeyword,
} from './types.ts';

const MOSCOW = `(must|should|could|won['’]?t)`;
const STATED = new RegExp(String.raw`\bpriority\b\W{0,6}${MOSCOW}\b`, 'i');
const BRACKETED = new RegExp(String.raw`[([]\s*${MOSCOW}(?:\s+have)?\s*[)\]]`, 'i');
const CELL = new RegExp(String.raw`^${MOSCOW}(?:\s+have)?$`, 'i');

const REGISTERS = { G: 'goal', R: 'risk', A: 'assumption', Q: 'question' } as const;

/** What a node's own text holds: its text values and the IDs it cites, nested definitions aside. */
interface OwnText {
  texts: string[];
  ids: string[];
}

function ownText(children: readonly Nodes[], into: OwnText = { texts: [], ids: [] }): OwnText {
  for (const child of children) {
    if (child.type === 'text') into.texts.push(child.value);
    else if (child.type === 'idRef') into.ids.push(child.value);
    else if ('children' in child && !isDefinition(child)) ownText(child.children, into);
  }
  return into;
}

/**
 * The text after the ID, without separators or a priority tag, cut on a word at 120
 * characters.
 *
 * @example
 * titleOf('FR-3 Reminders (Must)', 'FR-3'); // 'Reminders'
 */
export function titleOf(text: string, id: string): string {
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

/** The text a definition's title is read from, by its form. */
function titleText(form: Form, id: string): string {
  switch (form.form) {
    case 'section':
      return plainText(form.children[0]).trim();
    case 'item': {
      const first = form.children[0];
      return first?.type === 'paragraph' ? (plainText(first).split('\n')[0] ?? '') : '';
    }
    case 'paragraph':
      return plainText({ type: 'paragraph', children: form.children }).replace(/\s+/g, ' ');
    case 'row': {
      const cells = form.children.map((cell) => plainText(cell).trim());
      const rest = (cells[0] ?? '').slice(id.length).trim();
      return rest !== '' || cells.length < 2 ? rest : (cells[1] ?? '');
    }
  }
}

function priorityOf(own: OwnText, form: Form): Priority | undefined {
  const text = own.texts.join(' ');
  const cells = form.form === 'row' ? form.children.map((cell) => plainText(cell).trim()) : [];
  const word =
    STATED.exec(text)?.[1] ??
    BRACKETED.exec(text)?.[1] ??
    cells.map((cell) => CELL.exec(cell)?.[1]).find(Boolean);
  return word ? (word.toLowerCase().replace(/[^a-z]/g, '') as Priority) : undefined;
}

const SCENARIO = /^scenario(?:\s+outline)?\s*:\s*/i;
const STEP = /^(given|when|then|and|but)\b[\s:]*/i;

/** A block's text as lines: soft line breaks and hard ones (`break` nodes) both end a line. */
function linesOf(node: Nodes): string[] {
  if (!('children' in node)) return [plainText(node)];
  let text = '';
  const walk = (children: readonly Nodes[]) => {
    for (const child of children) {
      if (child.type === 'break') text += '\n';
      else if ('children' in child) walk(child.children);
      else text += plainText(child);
    }
  };
  walk(node.children);
  return text.split('\n');
}

/** A step, when a line opens with a Gherkin keyword: `When a visit is due` → When, `a visit is due`. */
function stepOf(line: string): ScenarioStep | undefined {
  const text = line.replace(/\s+/g, ' ').trim();
  const match = STEP.exec(text);
  if (!match) return undefined;
  const word = match[1]!.toLowerCase();
  const keyword = `${word[0]!.toUpperCase()}${word.slice(1)}` as StepKeyword;
  return { keyword, text: text.slice(match[0].length).trim() };
}

/**
 * A criterion's scenario, when it is written as one: its first line (after the ID) opens
 * with `Scenario:`, or steps follow it, either as lines of its paragraph or as the items of
 * a list inside its item (`- **FR-2.1** Scenario: …` then `  - **Given** …`).
 */
function scenarioOf(form: Form, id: string): Scenario | undefined {
  if (form.form !== 'item' && form.form !== 'paragraph') return undefined;
  const first: Nodes | undefined =
    form.form === 'paragraph' ? { type: 'paragraph', children: form.children } : form.children[0];
  if (first?.type !== 'paragraph') return undefined;
  const [head = '', ...more] = linesOf(first);
  const lead = head.trimStart();
  const named = (lead.startsWith(id) ? lead.slice(id.length) : lead)
    .replace(/^[\s:.,;)*\-–—]+/, '')
    .replace(/\s+/g, ' ')
    .trim();
  const declared = SCENARIO.test(named);
  // Lines of its own paragraph are steps only under a `Scenario:` line: an EARS sentence
  // wrapped before its THEN is not one.
  const steps = declared ? more.map(stepOf).filter((step) => step !== undefined) : [];
  if (form.form === 'item') {
    for (const block of form.children.slice(1)) {
      if (block.type !== 'list') continue;
      for (const item of block.children) {
        const paragraph = 'children' in item ? item.children[0] : undefined;
        const step =
          paragraph?.type === 'paragraph' ? stepOf(linesOf(paragraph).join(' ')) : undefined;
        if (step) steps.push(step);
      }
    }
  }
  if (!declared && steps.length === 0) return undefined;
  return { name: named.replace(SCENARIO, ''), steps };
}

const unique = (ids: readonly string[], self?: string) =>
  [...new Set(ids)].filter((id) => id !== self);

const idsOfCell = (cell: TableCell | undefined) => (cell ? unique(ownText([cell]).ids) : []);

/** A task's cells by the plan's column names, when its row sits under them. */
function taskFields(
  cites: readonly string[],
  form: Form,
  columns: readonly string[] | undefined,
): Pick<Extract<Definition, { type: 'task' }>, 'implements' | 'dependsOn' | 'estimate'> {
  const column = (name: string) => columns?.findIndex((c) => c.trim().toLowerCase() === name);
  const at = (index: number | undefined) =>
    form.form === 'row' && index !== undefined && index >= 0 ? form.children[index] : undefined;
  const implementsCell = at(column('implements'));
  const dependsCell = at(column('depends on'));
  const estimate = plainText(at(column('estimate'))).trim();
  return {
    implements: implementsCell
      ? idsOfCell(implementsCell)
      : cites.filter((id) => prefixOf(id) !== 'T'),
    dependsOn: dependsCell ? idsOfCell(dependsCell) : cites.filter((id) => prefixOf(id) === 'T'),
    ...(estimate === '' ? {} : { estimate }),
  };
}

/**
 * A definition node for an ID written in a form: its type from the ID and its fields read
 * from the form's children. `columns` are the header cells of the table a row sits in.
 *
 * @example
 * definitionNode('FR-2', { form: 'paragraph', children: [...] }).type; // 'requirement'
 */
export function definitionNode(
  id: string,
  form: Form & { position?: Position | undefined },
  columns?: readonly string[],
): Definition {
  const type: DefinitionType = DEFINITION_TYPE[kindOf(id)];
  const own = ownText(form.children as Nodes[]);
  const cites = unique(own.ids, id);
  const base = { id, title: titleOf(titleText(form, id), id), cites, ...form };
  switch (type) {
    case 'requirement':
    case 'story': {
      const priority = priorityOf(own, form);
      return { type, ...base, ...(priority ? { priority } : {}) } as Definition;
    }
    case 'criterion': {
      const scenario = scenarioOf(form, id);
      // A scenario's title is its name: its steps are not part of it.
      return {
        type,
        ...base,
        ...(scenario ? { title: titleOf(scenario.name, id), scenario } : {}),
        requirement: requirementOf(id) ?? id,
      } as Definition;
    }
    case 'task':
      return { type, ...base, ...taskFields(cites, form, columns) } as Definition;
    case 'registerEntry':
      return {
        type,
        ...base,
        register: REGISTERS[prefixOf(id) as keyof typeof REGISTERS],
      } as Definition;
    default:
      return { type, ...base } as Definition;
  }
}

/**
 * A component node: a heading and the blocks it heads, named by the heading.
 *
 * @example
 * componentNode([heading(3, 'Booking service'), paragraph('Implements: ', cite('FR-1'))]).implements; // ['FR-1']
 */
export function componentNode(children: FlowContent[], position?: Position): Component {
  return {
    type: 'component',
    ...(position ? { position } : {}),
    name: plainText(children[0]).trim(),
    implements: unique(ownText(children).ids),
    children,
  };
}
