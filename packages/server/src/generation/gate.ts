/**
 * The quality gate every document passes through, whichever engine wrote it. It checks
 * what can be checked mechanically and cheaply; its findings go back to the model once
 * for a repair, and whatever remains is recorded in the document's provenance.
 */

/** One fault the gate found. */
export interface Finding {
  /** A stable rule name, e.g. `missing-section`. */
  rule:
    | 'missing-section'
    | 'placeholder'
    | 'missing-name'
    | 'unknown-id'
    | 'uncovered-requirement'
    | 'empty';
  /** What is wrong, written for the model that repairs it (and for a person reading provenance). */
  message: string;
}

export interface GateInput {
  kind: string;
  content: string;
  projectName: string;
  /** The `## ` headings the kind requires, in order. */
  sections: readonly string[];
  /**
   * Requirement IDs this document may cite: those defined by the earlier documents it was
   * given (product requirements: FR, NFR; user stories: US).
   */
  knownIds: ReadonlySet<string>;
  /** The prefixes this document defines itself (requirements: FR and NFR; stories: US). */
  defines: readonly string[];
  /** For the implementation plan: the FRs that must each be covered by a task. */
  mustCover?: readonly string[];
}

const PLACEHOLDERS: ReadonlyArray<[RegExp, string]> = [
  [/\bTODO\b/, 'TODO'],
  [/\bTBD\b/, 'TBD'],
  [/\blorem ipsum\b/i, 'lorem ipsum'],
  [/\[\s*insert\b[^\]]*\]/i, '[insert …]'],
  [/<\s*your[\s_-][^>]*>/i, '<your …>'],
  [/\bto be (?:decided|determined)\b/i, 'to be decided'],
];

/** Normalizes a heading for comparison: case, numbering, trailing punctuation, markup. */
const normal = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[*_`]/g, '')
    .replace(/^\s*(?:\d+(?:\.\d+)*\.?|[ivx]+\.)\s+/, '')
    .replace(/[\s:.]+$/, '')
    .replace(/\s+/g, ' ')
    .trim();

/** Text outside fenced code blocks: placeholders in a code sample (`<your-token>`) are fine there. */
function prose(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
}

/**
 * Checks a document; an empty list means it passed.
 *
 * @example
 * checkDocument({ kind: 'readme', content, projectName: 'HabitLoop', sections: ['About'], knownIds: new Set(), defines: [] });
 */
export function checkDocument(input: GateInput): Finding[] {
  const { content } = input;
  if (content.trim() === '') return [{ rule: 'empty', message: 'The document is empty.' }];
  const findings: Finding[] = [];

  const headings = new Set(
    [...content.matchAll(/^##[ \t]+(.+?)[ \t]*#*[ \t]*$/gm)].map((m) => normal(m[1]!)),
  );
  const missing = input.sections.filter((section) => !headings.has(normal(section)));
  if (missing.length > 0) {
    findings.push({
      rule: 'missing-section',
      message: `Required sections are missing (each must be a "## " heading with exactly this text): ${missing.map((s) => `"${s}"`).join(', ')}.`,
    });
  }

  const text = prose(content);
  for (const [pattern, label] of PLACEHOLDERS) {
    const match = pattern.exec(text);
    if (match) {
      findings.push({
        rule: 'placeholder',
        message: `Placeholder text "${match[0]}" (${label}) must be replaced by the actual content.`,
      });
    }
  }

  if (!content.toLowerCase().includes(input.projectName.toLowerCase())) {
    findings.push({
      rule: 'missing-name',
      message: `The project's name, "${input.projectName}", does not appear in the document.`,
    });
  }

  const unknown = new Set<string>();
  for (const match of content.matchAll(/\b(FR|NFR|US)-(\d+)\b/g)) {
    const id = match[0];
    if (input.defines.includes(match[1]!)) continue;
    if (!input.knownIds.has(id)) unknown.add(id);
  }
  if (unknown.size > 0) {
    findings.push({
      rule: 'unknown-id',
      message: `These requirement IDs are cited but defined in none of the earlier documents: ${[...unknown].join(', ')}. Cite only IDs that exist${input.knownIds.size > 0 ? ` (${[...input.knownIds].join(', ')})` : ''}.`,
    });
  }

  if (input.mustCover && input.mustCover.length > 0) {
    const cited = new Set([...content.matchAll(/\bFR-\d+\b/g)].map((m) => m[0]));
    const uncovered = input.mustCover.filter((id) => !cited.has(id));
    if (uncovered.length > 0) {
      findings.push({
        rule: 'uncovered-requirement',
        message: `No task covers these functional requirements: ${uncovered.join(', ')}. Every FR needs at least one task that cites it.`,
      });
    }
  }
  return findings;
}

/** The IDs with a given prefix that a text mentions, e.g. every `FR-n` of the requirements. */
export function idsIn(content: string, prefixes: readonly string[]): string[] {
  const found = new Set<string>();
  for (const match of content.matchAll(/\b(FR|NFR|US)-(\d+)\b/g)) {
    if (prefixes.includes(match[1]!)) found.add(match[0]);
  }
  return [...found];
}
