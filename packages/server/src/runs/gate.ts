/**
 * The quality gate every document passes through, whichever engine wrote it. It checks
 * the form (sections, placeholders, the name, an answer cut off) and, through the trace
 * graph, the substance (docs/trace.md); critical and high findings go back to the model
 * once for a repair, and whatever remains is recorded in the document's provenance.
 */
import { inertText, parseShared, visit } from '@pgs/contract/document';
import { toString as plainText } from 'mdast-util-to-string';
import { parse as parseYaml } from 'yaml';
import { wishFindings } from '../models/sdk/offline-model.ts';
import {
  buildTrace,
  checkTrace,
  normalHeading,
  type Finding as TraceFinding,
} from './trace/index.ts';

/** How bad a finding is: critical and high ones trigger the one repair. */
export type Severity = TraceFinding['severity'];

/** One fault the gate found. */
export interface Finding {
  /**
   * A stable rule name: the form rules here (`missing-section`, `placeholder`,
   * `missing-name`, `empty`, `truncated`) or a trace rule (docs/trace.md).
   */
  rule: FormRule | TraceFinding['rule'] | RevisionRule | HouseRule | ReadingRule;
  severity: Severity;
  /** What is wrong, written for the model that repairs it (and for a person reading provenance). */
  message: string;
}

type FormRule = 'missing-section' | 'placeholder' | 'missing-name' | 'empty' | 'truncated';

/**
 * What a project's house conventions and language add (runs/house-gate.ts): a forbidden
 * technology named, a compliance standard without its section, a document not in the language.
 */
export type HouseRule = 'forbidden-technology' | 'missing-compliance' | 'language';

/**
 * What a revision adds (runs/revision-gate.ts): an ID of the previous revision dropped
 * without a REMOVED delta, a retired ID back, an unaffected requirement's text changed.
 */
export type RevisionRule = 'id-dropped' | 'id-reused' | 'requirement-changed';

/**
 * What the offline reading's tests add to a model's answers (issue 29, item 4): a revision's
 * delta on a requirement the change request does not name (runs/impact.ts), and a requirement
 * made Must that carries only a wish the idea puts off ({@link wishMustFindings}).
 */
export type ReadingRule = 'unnamed-requirement' | 'wish-as-must';

/** The severity of each form rule. */
const FORM_SEVERITY: Record<FormRule, Severity> = {
  empty: 'critical',
  truncated: 'critical',
  'missing-section': 'high',
  placeholder: 'high',
  'missing-name': 'medium',
};

export interface GateInput {
  kind: string;
  content: string;
  projectName: string;
  /** The `## ` headings the kind requires, in order. */
  sections: readonly string[];
  /** The document's filename: its tree is then the one the trace reads. */
  filename?: string;
}

const PLACEHOLDERS: ReadonlyArray<[RegExp, string]> = [
  [/\bTODO\b/, 'TODO'],
  [/\bTBD\b/, 'TBD'],
  [/\blorem ipsum\b/i, 'lorem ipsum'],
  [/\[\s*insert\b[^\]]*\]/i, '[insert …]'],
  [/<\s*your[\s_-][^>]*>/i, '<your …>'],
  [/\bto be (?:decided|determined)\b/i, 'to be decided'],
];

/**
 * What the gate reads of a document's tree: its `##` headings, and its text outside fenced
 * code blocks (placeholders in a code sample, `<your-token>`, are fine there).
 */
function outline(markdown: string, filename?: string): { headings: Set<string>; prose: string } {
  const headings = new Set<string>();
  const fences: { start: number; end: number }[] = [];
  // Parsed as the trace parses the document, when its filename is known: one tree serves both.
  const tree = parseShared(markdown, filename === undefined ? { defines: [] } : { filename });
  visit(tree, (node) => {
    if (node.type === 'heading' && node.depth === 2) headings.add(normalHeading(plainText(node)));
    const start = node.position?.start.offset;
    const end = node.position?.end.offset;
    if (node.type === 'code' && !node.data?.indented && start !== undefined && end !== undefined)
      fences.push({ start, end });
  });
  let prose = markdown;
  for (const fence of fences.reverse())
    prose = `${prose.slice(0, fence.start)}${prose.slice(fence.end)}`;
  return { headings, prose };
}

/**
 * Checks a document; an empty list means it passed.
 *
 * @example
 * checkDocument({ kind: 'readme', content, projectName: 'HabitLoop', sections: ['About'], knownIds: new Set(), defines: [] });
 */
export function checkDocument(input: GateInput): Finding[] {
  const { content } = input;
  if (content.trim() === '') {
    return [{ rule: 'empty', severity: FORM_SEVERITY.empty, message: 'The document is empty.' }];
  }
  const findings: Finding[] = [];

  const { headings, prose } = outline(content, input.filename);
  const missing = input.sections.filter((section) => !headings.has(normalHeading(section)));
  if (missing.length > 0) {
    findings.push({
      rule: 'missing-section',
      severity: FORM_SEVERITY['missing-section'],
      message: `Required sections are missing (each must be a "## " heading with exactly this text): ${missing.map((s) => `"${s}"`).join(', ')}.`,
    });
  }

  const text = prose;
  for (const [pattern, label] of PLACEHOLDERS) {
    const match = pattern.exec(text);
    if (match) {
      findings.push({
        rule: 'placeholder',
        severity: FORM_SEVERITY.placeholder,
        message: `Placeholder text "${match[0]}" (${label}) must be replaced by the actual content.`,
      });
    }
  }

  // A name with markup is written neutralised (user-text.ts): either form counts.
  const names = [input.projectName, inertText(input.projectName)].map((n) => n.toLowerCase());
  if (!names.some((name) => content.toLowerCase().includes(name))) {
    findings.push({
      rule: 'missing-name',
      severity: FORM_SEVERITY['missing-name'],
      message: `The project's name, "${input.projectName}", does not appear in the document.`,
    });
  }

  return findings;
}

/**
 * The finding for an answer cut off by the output limit (finish reason `length`) even after
 * it was asked to continue: never stored as if complete.
 */
export const TRUNCATED: Finding = {
  rule: 'truncated',
  severity: FORM_SEVERITY.truncated,
  message:
    'The document was cut off by the length limit before it ended. Write the complete document again, shorter: keep every required section and every ID, and cut prose, not structure.',
};

/** Which document answers for a trace rule that concerns coverage (the FR's own is elsewhere). */
const COVERAGE_OWNER: Partial<Record<TraceFinding['rule'], string>> = {
  'must-without-story': 'user-stories',
  'fr-without-component': 'architecture',
  'fr-without-task': 'implementation-plan',
};

/**
 * The trace rules' findings that concern `kind`'s document (`filename`): those it answers
 * for (a plan for tasks, stories for Must requirements, the architecture for components)
 * and those found in it. Earlier documents' own faults were theirs to repair.
 *
 * @example
 * const findings = await traceFindings(documents, 'implementation-plan', 'IMPLEMENTATION_PLAN.md', features);
 */
export async function traceFindings(
  documents: readonly { filename: string; content: string }[],
  kind: string,
  filename: string,
  coreFeatures: readonly string[],
  retired: readonly string[] = [],
  /** How the project's criteria are written (docs/requirement-style.md); default `ears`. */
  requirementStyle: 'ears' | 'gherkin' = 'ears',
): Promise<Finding[]> {
  const trace = buildTrace(documents);
  const all = await checkTrace(trace, { coreFeatures, parseYaml, retired, requirementStyle });
  return all
    .filter((finding) => {
      const owner = COVERAGE_OWNER[finding.rule];
      return owner === undefined ? finding.document === filename : owner === kind;
    })
    .map(({ rule, severity, message }) => ({ rule, severity, message }));
}

/**
 * The requirements a document defines that it makes Must while they carry only a capability
 * the idea puts off ("later", "maybe", "nice to have", "v2"), by the offline reading's test;
 * high, so the document is repaired once.
 *
 * @example
 * wishMustFindings('REQUIREMENTS.md', markdown, 'A habit tracker.\n- Log habits\n- v2: export PDFs');
 */
export function wishMustFindings(filename: string, content: string, idea: string): Finding[] {
  const requirements = buildTrace([{ filename, content }]).coverage.requirements;
  return wishFindings(idea, requirements).map((message) => ({
    rule: 'wish-as-must',
    severity: 'high',
    message,
  }));
}

/** Whether findings call for the repair: any critical or high one. */
export const needsRepair = (findings: readonly Finding[]) =>
  findings.some((finding) => finding.severity === 'critical' || finding.severity === 'high');

const WEIGHT: Record<Severity, number> = { critical: 1000, high: 100, medium: 10, low: 1 };

/** A single figure to compare two sets of findings: worse findings weigh more. */
export const findingsWeight = (findings: readonly Finding[]) =>
  findings.reduce((sum, finding) => sum + WEIGHT[finding.severity], 0);
