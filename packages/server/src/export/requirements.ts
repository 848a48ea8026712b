/**
 * The functional requirements of a generated requirements document, read for OpenSpec:
 * each `### FR-n <title> (Must)` group with its statement and its EARS criteria
 * (`**FR-n.m** WHEN … THE SYSTEM SHALL …`), and each group written back as an OpenSpec
 * requirement (`### Requirement:` with `#### Scenario:` blocks). Line-based, so the
 * statement keeps its markdown as written.
 */

/** One acceptance criterion: `FR-3.2` and its sentence on one line. */
export interface Criterion {
  id: string;
  text: string;
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

const HEADING = /^ {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const GROUP = /^FR-(\d+)(?![.\d])\b(.*)$/;
const PRIORITY = /\s*[([]\s*(must|should|could|won['’]?t)(?:\s+have)?\s*[)\]]\s*$/i;
/** A list item's marker, and an ID in bold or plain, then its separator. */
const CRITERION = /^\s*(?:(?:[-*+]|\d+[.)])\s+)?(\*\*|__)?(FR-\d+\.\d+)\b[:.]?\1?[:.]?\s*(.*)$/;

/**
 * A group's body lines, read into its statement and criteria: a line opening with one of
 * the group's criterion IDs starts a criterion, which runs to a blank line or the next
 * one; headings inside the group (`#### Acceptance criteria`) are dropped.
 *
 * @example
 * groupBody('FR-1', ['Lets teams share.', '', '**FR-1.1** WHEN … THE SYSTEM SHALL …']).criteria[0]?.id; // 'FR-1.1'
 */
export function groupBody(
  id: string,
  lines: readonly string[],
): Pick<RequirementGroup, 'statement' | 'criteria'> {
  const statement: string[] = [];
  const criteria: Criterion[] = [];
  let open: Criterion | undefined;
  let fence: string | undefined;
  for (const line of lines) {
    const opening = FENCE.exec(line);
    if (fence !== undefined || opening) {
      if (opening && fence === undefined) fence = opening[1];
      else if (opening && opening[1]![0] === fence![0] && opening[1]!.length >= fence!.length)
        fence = undefined;
      open = undefined;
      statement.push(line);
      continue;
    }
    const criterion = CRITERION.exec(line);
    if (criterion && criterion[2]!.startsWith(`${id}.`)) {
      open = { id: criterion[2]!, text: criterion[3]!.trim() };
      criteria.push(open);
      continue;
    }
    if (line.trim() === '') {
      open = undefined;
      statement.push('');
      continue;
    }
    if (open) {
      open.text = `${open.text} ${line.trim()}`.trim();
      continue;
    }
    if (HEADING.test(line)) continue;
    statement.push(line.trimEnd());
  }
  return {
    statement: statement
      .join('\n')
      .replace(/\n{3,}/g, '\n\n')
      .trim(),
    criteria,
  };
}

/**
 * The requirement groups of a requirements document, in order: a heading (level 2 to 4)
 * that opens with `FR-n` starts one, and it runs to the next heading as high as its own.
 *
 * @example
 * requirementGroups('### FR-2 Celebrate streaks (Must)\n\n**FR-2.1** WHEN …')[0]?.title; // 'Celebrate streaks'
 */
export function requirementGroups(markdown: string): RequirementGroup[] {
  const groups: RequirementGroup[] = [];
  let current:
    | { depth: number; head: Omit<RequirementGroup, 'statement' | 'criteria'> }
    | undefined;
  let body: string[] = [];
  let fence: string | undefined;
  const close = () => {
    if (current) groups.push({ ...current.head, ...groupBody(current.head.id, body) });
    current = undefined;
    body = [];
  };
  for (const line of markdown.split(/\r?\n/)) {
    const opening = FENCE.exec(line);
    if (opening) {
      if (fence === undefined) fence = opening[1];
      else if (opening[1]![0] === fence[0] && opening[1]!.length >= fence.length) fence = undefined;
    }
    const heading = fence === undefined && !opening ? HEADING.exec(line) : null;
    if (heading) {
      const depth = heading[1]!.length;
      const group = GROUP.exec(heading[2]!.replace(/\*\*|__/g, '').trim());
      if (current && depth <= current.depth) close();
      if (group && depth >= 2 && depth <= 4 && !current) {
        const priority = PRIORITY.exec(group[2]!)?.[1];
        const title = group[2]!
          .replace(PRIORITY, '')
          .replace(/^[\s:.,;|)\-–—]+/, '')
          .trim();
        current = {
          depth,
          head: {
            id: `FR-${group[1]}`,
            title,
            ...(priority ? { priority: capitalise(priority) } : {}),
          },
        };
        continue;
      }
    }
    if (current) body.push(line);
  }
  close();
  return groups;
}

const capitalise = (word: string) =>
  word[0]!.toUpperCase() + word.slice(1).toLowerCase().replace(/['’]/, "'");

/** One bullet of a scenario. */
export interface Step {
  keyword: 'GIVEN' | 'WHEN' | 'AND' | 'THEN';
  text: string;
}

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

const listed = (ids: readonly string[]) =>
  ids.length <= 1 ? (ids[0] ?? '') : `${ids.slice(0, -1).join(', ')} and ${ids.at(-1)}`;

/**
 * A requirement group in OpenSpec's form: `### Requirement: FR-n <title>`, its statement,
 * its priority as metadata, then one `#### Scenario: FR-n.m` per criterion. OpenSpec wants a
 * SHALL or MUST in every requirement's text; a statement without one gets a sentence saying
 * that the system meets the criteria (the requirement is its criteria).
 *
 * @example
 * openspecRequirement({ id: 'FR-1', title: 'Share', statement: 'Teams share.', criteria: [] }).split('\n')[0];
 * // '### Requirement: FR-1 Share'
 */
export function openspecRequirement(group: RequirementGroup, subject?: string): string {
  const parts = [`### Requirement: ${requirementName(group.id, group.title)}\n`];
  const statement = group.statement.trim();
  if (statement !== '') parts.push(`${statement}\n`);
  if (!NORMATIVE.test(statement) && group.criteria.length > 0) {
    parts.push(`The system SHALL meet ${listed(group.criteria.map((c) => c.id))}.\n`);
  }
  if (group.priority) parts.push(`**Priority**: ${group.priority}\n`);
  for (const criterion of group.criteria) {
    const steps = earsSteps(criterion.text, subject);
    parts.push(
      `#### Scenario: ${criterion.id}\n`,
      steps
        ? `${steps.map((step) => `- **${step.keyword}** ${step.text}`).join('\n')}\n`
        : `${criterion.text}\n`,
    );
  }
  return parts.join('\n');
}

/** The name OpenSpec matches a requirement on: its ID and title, never its priority. */
export const requirementName = (id: string, title: string) =>
  title === '' ? id : `${id} ${title}`;
