/**
 * The functional requirements of a generated requirements document, read for OpenSpec:
 * each `### FR-n <title> (Must)` group with its statement and its criteria, EARS sentences
 * (`**FR-n.m** WHEN … THE SYSTEM SHALL …`) or Gherkin scenarios (`- **FR-n.m** Scenario: …`
 * with Given/When/Then steps), and each group written back as an OpenSpec
 * requirement (`### Requirement:` with `#### Scenario:` blocks). Read from the document's
 * tree (`@pgs/contract/document`): the title and priority are the `requirement` node's
 * fields, a criterion's sentence the plain text of its nodes; the statement keeps its
 * markdown as written, cut from the source at the tree's positions.
 */
import {
  cite,
  type Definition,
  type FlowContent,
  heading,
  type Inline,
  leadingId,
  list,
  type Priority,
  paragraph,
  parseDocument,
  prose,
  type Requirement,
  requirementOf,
  type Scenario,
  strong,
} from '@pgs/contract/document';
import type { ListItem, Nodes, Paragraph, PhrasingContent, RootContent } from 'mdast';
import { toString as plainTextOf } from 'mdast-util-to-string';

/** One acceptance criterion: `FR-3.2` and its sentence on one line, or its scenario. */
export interface Criterion {
  id: string;
  /** The EARS sentence; a scenario's name. */
  text: string;
  /** Its Given/When/Then steps, when it is written as a scenario (docs/requirement-style.md). */
  scenario?: Scenario;
}

/** One requirement group of the document. */
export interface RequirementGroup {
  id: string;
  /** The heading after the ID, without separators or the priority tag. */
  title: string;
  /** `Must`, `Should`, `Could` or `Won't`, when the heading states it. */
  priority?: string;
  /** The group's own text (criteria and sub-headings aside), paragraphs as written. */
  statement: string;
  criteria: Criterion[];
}

const startOf = (node: Nodes) => node.position?.start.offset ?? 0;
const endOf = (node: Nodes) => node.position?.end.offset ?? 0;

/** A criterion of the group `id` that a paragraph's line opens with, and the node carrying it. */
function criterionLead(id: string, node: Nodes): string | undefined {
  const lead = leadingId(node);
  return lead?.includes('.') && requirementOf(lead) === id ? lead : undefined;
}

/** Whether a paragraph's child opens a line: it is the first, or follows a line break. */
function opensLine(paragraph: Paragraph, index: number): boolean {
  const before = paragraph.children[index - 1];
  if (!before) return true;
  return before.type === 'break' || (before.type === 'text' && /\n[ \t]*$/.test(before.value));
}

/** Inline nodes as one line of plain text, the separator after a criterion's ID dropped. */
function sentenceOf(nodes: readonly PhrasingContent[]): string {
  const text = nodes
    .map((node) => (node.type === 'break' ? '\n' : plainTextOf(node)))
    .join('')
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .join(' ');
  return text.startsWith(':') || text.startsWith('.') ? text.slice(1).trimStart() : text;
}

/**
 * The criteria a paragraph holds: one per line opening with one of the group's criterion
 * IDs (bold or plain), each running to the next such line; the lines before the first are
 * statement. Undefined when no line opens with one.
 */
function criteriaIn(
  id: string,
  paragraph: Paragraph,
  source: string,
): { before: string; criteria: Criterion[] } | undefined {
  const starts: { id: string; index: number }[] = [];
  paragraph.children.forEach((child, index) => {
    const found = criterionLead(id, child);
    if (found && opensLine(paragraph, index)) starts.push({ id: found, index });
  });
  const first = starts[0];
  if (!first) return undefined;
  const criteria = starts.map(({ id: criterion, index }, at) => {
    const end = starts[at + 1]?.index ?? paragraph.children.length;
    return { id: criterion, text: sentenceOf(paragraph.children.slice(index + 1, end)) };
  });
  const lead = paragraph.children[first.index]!;
  return { before: source.slice(startOf(paragraph), startOf(lead)).trim(), criteria };
}

/** A group's blocks read into its statement (as written) and its criteria. */
function readBody(
  id: string,
  blocks: readonly Nodes[],
  source: string,
): Pick<RequirementGroup, 'statement' | 'criteria'> {
  const statement: string[] = [];
  const criteria: Criterion[] = [];
  const paragraphOf = (node: Nodes): Paragraph | undefined => {
    if (node.type === 'paragraph') return node;
    if ('form' in node && node.form === 'paragraph')
      return { type: 'paragraph', children: node.children, position: node.position };
    const first = 'children' in node ? node.children[0] : undefined;
    return node.type === 'listItem' || ('form' in node && node.form === 'item')
      ? first?.type === 'paragraph'
        ? first
        : undefined
      : undefined;
  };
  /** A scenario of this group, read from its node: its steps are the tree's, not lines. */
  const scenarioOf = (node: Nodes): Criterion | undefined =>
    node.type === 'criterion' && node.scenario && requirementOf(node.id) === id
      ? { id: node.id, text: node.scenario.name, scenario: node.scenario }
      : undefined;
  for (const block of blocks) {
    if (block.type === 'heading') continue;
    const scenario = scenarioOf(block);
    if (scenario) {
      criteria.push(scenario);
      continue;
    }
    if (block.type === 'requirement' && block.form === 'section') {
      const inner = readBody(id, block.children.slice(1), source);
      if (inner.statement !== '') statement.push(inner.statement);
      criteria.push(...inner.criteria);
      continue;
    }
    if (block.type === 'list') {
      const rest: string[] = [];
      for (const item of block.children as (ListItem | Definition)[]) {
        const scenario = scenarioOf(item);
        if (scenario) {
          criteria.push(scenario);
          continue;
        }
        const paragraph = paragraphOf(item);
        const found = paragraph && criteriaIn(id, paragraph, source);
        if (found && found.before === '') criteria.push(...found.criteria);
        else rest.push(source.slice(startOf(item), endOf(item)));
      }
      if (rest.length > 0) statement.push(rest.join('\n'));
      continue;
    }
    const paragraph = paragraphOf(block);
    const found = paragraph && criteriaIn(id, paragraph, source);
    if (!found) statement.push(source.slice(startOf(block), endOf(block)));
    else {
      if (found.before !== '') statement.push(found.before);
      criteria.push(...found.criteria);
    }
  }
  return { statement: statement.join('\n\n').trim(), criteria };
}

/**
 * A group's body lines, read into its statement and criteria: a line opening with one of
 * the group's criterion IDs starts a criterion, which runs to the end of its paragraph or
 * the next one; headings inside the group (`#### Acceptance criteria`) are dropped.
 *
 * @example
 * groupBody('FR-1', ['Lets teams share.', '', '**FR-1.1** WHEN … THE SYSTEM SHALL …']).criteria[0]?.id; // 'FR-1.1'
 */
export function groupBody(
  id: string,
  lines: readonly string[],
): Pick<RequirementGroup, 'statement' | 'criteria'> {
  const source = lines.join('\n');
  return readBody(id, parseDocument(source, { defines: ['FR'] }).children, source);
}

/** The outermost requirement groups written as headings of level 2 to 4, in order. */
function groupsOf(nodes: readonly Nodes[], into: Requirement[] = []): Requirement[] {
  for (const node of nodes) {
    const heading = 'form' in node && node.form === 'section' ? node.children[0] : undefined;
    const depth = heading?.type === 'heading' ? heading.depth : 0;
    if (node.type === 'requirement' && depth >= 2 && depth <= 4) into.push(node);
    else if ('children' in node) groupsOf(node.children as FlowContent[], into);
  }
  return into;
}

/**
 * The requirement groups of a requirements document, in order: a heading (level 2 to 4)
 * that opens with `FR-n` starts one, and it runs to the next heading as high as its own.
 *
 * @example
 * requirementGroups('### FR-2 Celebrate streaks (Must)\n\n**FR-2.1** WHEN …')[0]?.title; // 'Celebrate streaks'
 */
export function requirementGroups(markdown: string): RequirementGroup[] {
  const tree = parseDocument(markdown, { defines: ['FR'] });
  return groupsOf(tree.children).map((group) => {
    const [, ...body] = group.children as Nodes[];
    return {
      id: group.id,
      title: group.title,
      ...(group.priority ? { priority: PRIORITY_WORD[group.priority] } : {}),
      ...readBody(group.id, body, markdown),
    };
  });
}

/** A priority as OpenSpec's metadata writes it. */
const PRIORITY_WORD: Record<Priority, string> = {
  must: 'Must',
  should: 'Should',
  could: 'Could',
  wont: "Won't",
};

/** One bullet of a scenario. */
export interface Step {
  keyword: 'GIVEN' | 'WHEN' | 'AND' | 'BUT' | 'THEN';
  text: string;
}

/**
 * A Gherkin scenario's steps as OpenSpec writes them: the keywords in capitals.
 *
 * @example
 * scenarioSteps({ name: 'Due', steps: [{ keyword: 'When', text: 'a visit is due' }] }); // [{ keyword: 'WHEN', text: 'a visit is due' }]
 */
export const scenarioSteps = (scenario: Scenario): Step[] =>
  scenario.steps.map((step) => ({
    keyword: step.keyword.toUpperCase() as Step['keyword'],
    text: step.text,
  }));

/**
 * An EARS sentence as scenario steps: `WHILE`/`WHERE` clauses become GIVEN, `WHEN`/`IF`
 * clauses WHEN (then AND), the response THEN; a sentence with no condition (`THE SYSTEM
 * SHALL …`) is THEN alone. Undefined when the sentence has no `<subject> SHALL` to split on.
 *
 * @example
 * earsSteps('IF a field is missing THEN THE SYSTEM SHALL refuse it.');
 * // [{ keyword: 'WHEN', text: 'a field is missing' }, { keyword: 'THEN', text: 'the system SHALL refuse it.' }]
 */
export function earsSteps(sentence: string, subject?: string): Step[] | undefined {
  const subjects = ['the system', ...(subject ? [escapeRegExp(subject)] : [])].join('|');
  const response = new RegExp(
    String.raw`(?:^|[\s,])(?:THEN\s+)?((?:${subjects})\s+(?:SHALL|MUST)\b.*)$`,
    'is',
  ).exec(sentence);
  if (!response) return undefined;
  const then = response[1]!.replace(/^the system\b/i, 'the system');
  const before = sentence.slice(0, response.index).trim();
  if (before === '') return [{ keyword: 'THEN', text: then }];
  const lead = /^(WHILE|WHERE|WHEN|IF)\s+/i.exec(before);
  if (!lead) return undefined;
  const steps: Step[] = [];
  // Later clauses split only on upper-case keywords: a lower-case "when" is part of the text.
  const clauses = `${lead[1]!.toUpperCase()} ${before.slice(lead[0].length)}`.split(
    /\s+(?=(?:WHILE|WHERE|WHEN|IF)\s)/,
  );
  for (const clause of clauses) {
    const [, keyword, text] = /^(\S+)\s+(.*)$/s.exec(clause)!;
    const condition = text!.replace(/[\s,]+$/, '');
    if (keyword === 'WHILE' || keyword === 'WHERE')
      steps.push({ keyword: 'GIVEN', text: condition });
    else
      steps.push({
        keyword: steps.some((s) => s.keyword === 'WHEN') ? 'AND' : 'WHEN',
        text: condition,
      });
  }
  steps.push({ keyword: 'THEN', text: then });
  return steps;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const NORMATIVE = /\b(?:SHALL|MUST)\b/;

/** Inline nodes as a sentence lists them: `a`, `a and b`, `a, b and c`. */
const listed = (items: readonly Inline[]): Inline[] =>
  items.flatMap((item, i) => (i === 0 ? [item] : [i === items.length - 1 ? ' and ' : ', ', item]));

/** A requirement's or a scenario's name as inline nodes: its ID cited, then its title as text. */
export const requirementName = (id: string, title: string): Inline[] =>
  title === '' ? [cite(id)] : [cite(id), ' ', title];

/**
 * A requirement group in OpenSpec's form, as blocks of a document tree: `### Requirement:
 * FR-n <title>`, its statement, its priority as metadata, then one `#### Scenario: FR-n.m`
 * per criterion. OpenSpec wants a SHALL or MUST in every requirement's text; a statement
 * without one gets a sentence saying that the system meets the criteria (the requirement is
 * its criteria). The statement is the group's markdown read by the one parser; the title and
 * the criteria are text, written escaped.
 *
 * @example
 * renderDocument(root(openspecRequirement({ id: 'FR-1', title: 'Share', statement: 'Teams share.', criteria: [] }))).split('\n')[0];
 * // '### Requirement: FR-1 Share'
 */
export function openspecRequirement(group: RequirementGroup, subject?: string): RootContent[] {
  const blocks: RootContent[] = [
    heading(3, 'Requirement: ', ...requirementName(group.id, group.title)),
  ];
  const statement = group.statement.trim();
  if (statement !== '') blocks.push(...parseDocument(statement, { defines: ['FR'] }).children);
  if (!NORMATIVE.test(statement) && group.criteria.length > 0) {
    const ids = group.criteria.map((c) => cite(c.id));
    blocks.push(paragraph('The system SHALL meet ', ...listed(ids), '.'));
  }
  if (group.priority) blocks.push(paragraph(strong('Priority'), `: ${group.priority}`));
  for (const criterion of group.criteria) {
    const steps = criterion.scenario
      ? scenarioSteps(criterion.scenario)
      : earsSteps(criterion.text, subject);
    // A Gherkin criterion keeps its name after its ID; an EARS one has only its ID.
    const name = criterion.scenario
      ? requirementName(criterion.id, criterion.text)
      : [cite(criterion.id)];
    blocks.push(
      heading(4, 'Scenario: ', ...name),
      steps && steps.length > 0
        ? list(steps.map((step) => [strong(step.keyword), ' ', ...prose(step.text)]))
        : paragraph(...prose(criterion.text)),
    );
  }
  return blocks;
}
