import {
  TRACE_SEVERITIES,
  type Trace,
  type TraceFinding,
  type TraceRequirementCoverage,
} from '@pgs/client';
import type { Command } from '../context.ts';
import { UsageError } from '../errors.ts';
import { table } from '../output.ts';
import { API_OPTIONS, expectPositionals } from './common.ts';

const NAME = 'trace';

/** What a cell of the matrix says when nothing reaches the requirement there. */
export const GAP = 'GAP';
/** Longest title and component list shown in the matrix; --json has them whole. */
const MAX_TITLE = 60;
const MAX_COMPONENTS = 40;
/** IDs shown in a cell before the rest are counted ("US-1 US-2 US-3 +2"). */
const MAX_IDS = 3;

function shorten(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`;
}

function ids(list: readonly string[]): string {
  if (list.length === 0) return GAP;
  const shown = list.slice(0, MAX_IDS).join(' ');
  return list.length > MAX_IDS ? `${shown} +${list.length - MAX_IDS}` : shown;
}

const COLUMNS: readonly [string, (fr: TraceRequirementCoverage) => string][] = [
  ['ID', (fr) => fr.id],
  ['PRIORITY', (fr) => fr.priority ?? '-'],
  ['CRITERIA', (fr) => (fr.criteria.length === 0 ? GAP : String(fr.criteria.length))],
  ['STORIES', (fr) => ids(fr.stories)],
  [
    'COMPONENTS',
    (fr) => (fr.components.length === 0 ? GAP : shorten(fr.components.join(', '), MAX_COMPONENTS)),
  ],
  ['TASKS', (fr) => ids(fr.tasks)],
  ['TITLE', (fr) => shorten(fr.title, MAX_TITLE)],
];

/**
 * The coverage matrix: a header, then one aligned row per `FR-n` (ID, priority, criteria
 * count, stories, components, tasks, title), each empty cell reading {@link GAP}.
 *
 * @example
 * coverageMatrix(trace.coverage.requirements).forEach((line) => console.log(line));
 */
export function coverageMatrix(requirements: readonly TraceRequirementCoverage[]): string[] {
  return table(COLUMNS, requirements, true);
}

/**
 * The trace in words: the matrix, the totals, the latest conformance check's totals when
 * there is one, then the findings grouped by severity, the worst first.
 *
 * @example
 * traceLines(await pgs.projects.trace(id)).forEach((line) => console.log(line));
 */
export function traceLines({ coverage, findings, conformance }: Trace): string[] {
  const { requirements, totals } = coverage;
  const lines: string[] = [];
  if (requirements.length === 0) {
    lines.push('Coverage: the documents define no functional requirement (FR-n).');
  } else {
    const gaps = requirements.filter(hasGap).length;
    lines.push(
      `Coverage: ${plural(totals.frs, 'requirement')}, ${gaps === 0 ? 'no gap' : `${gaps} with a gap (${GAP})`}`,
      '',
      ...coverageMatrix(requirements),
      '',
      `Totals: ${totals.withCriterion} of ${totals.frs} with criteria, ${totals.withStory} with a story, ` +
        `${totals.withComponent} with a component, ${totals.withTask} with a task; ` +
        `${totals.mustsWithStory} of ${totals.musts} Must with a story`,
    );
  }
  if (conformance !== undefined) lines.push(conformanceLine(conformance));
  lines.push('');
  if (findings.length === 0) {
    lines.push('Findings: none');
    return lines;
  }
  const counts = TRACE_SEVERITIES.map(
    (severity) => `${findings.filter((f) => f.severity === severity).length} ${severity}`,
  );
  lines.push(`Findings: ${findings.length} (${counts.join(', ')})`);
  for (const severity of TRACE_SEVERITIES) {
    const group = findings.filter((finding) => finding.severity === severity);
    if (group.length === 0) continue;
    lines.push('', `${severity.toUpperCase()} (${group.length})`);
    for (const finding of group) lines.push(`  ${findingLine(finding)}`);
  }
  return lines;
}

/** The latest succeeded conformance check of the revision, in one line (docs/conformance.md). */
function conformanceLine(c: NonNullable<Trace['conformance']>): string {
  const at = c.createdAt.replace(/\.\d+Z$/, 'Z');
  return (
    `Conformance: ${c.tested} tested, ${c.implemented} implemented, ${c.missing} missing, ` +
    `${c.drift} drift (check ${c.checkId}, ${at})`
  );
}

function hasGap(fr: TraceRequirementCoverage): boolean {
  return [fr.criteria, fr.stories, fr.components, fr.tasks].some((list) => list.length === 0);
}

function findingLine(finding: TraceFinding): string {
  const where = [finding.document, finding.section].filter((part) => part).join(' › ');
  return `${finding.rule}: ${finding.message}${where ? ` [${where}]` : ''}`;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/**
 * `pgs trace ID`: a completed project's coverage matrix and the findings of its checks.
 *
 * @example
 * pgs trace 7d0f2c8e-4a9b-4e43-9a55-0d2b8f1c6e21
 */
export const trace: Command = {
  name: NAME,
  summary: "Show a completed project's coverage matrix and findings",
  usage: 'pgs trace ID [--json]',
  credential: 'api-key',
  help: `Reads the trace of a completed project's documents (GET /projects/{id}/trace): for each
functional requirement FR-n, its acceptance criteria and the user stories, architecture
components and plan tasks that reach it, then what the checks found, grouped by severity
(critical, high, medium, low). A requirement nothing reaches in a column reads ${GAP} there.
Long titles and component lists are shortened; --json has them whole. The IDs and rules
are described in docs/trace.md.

Arguments:
  ID                     the project id (a completed project: in progress or failed
                         exits 12)

Output: a table, one row per requirement (ID, PRIORITY, CRITERIA: their number,
STORIES, COMPONENTS, TASKS, TITLE), the totals, the latest conformance check's totals
(pgs check; once one succeeded on this revision), then one line per finding under its
severity ("rule: message [document › section]"). Exits 0 whatever the findings.
With --json, one line: the trace as the API returns it ({"nodes","edges","coverage",
"findings"}).`,
  options: { ...API_OPTIONS },
  async run(ctx) {
    const projectId = ctx.positionals[0]?.trim();
    if (!projectId) throw new UsageError('missing the project ID', `pgs ${NAME}`);
    expectPositionals(ctx.positionals, 1, NAME);
    const data = await ctx.client().projects.trace(projectId, { signal: ctx.io.signal });
    if (ctx.json) {
      ctx.print(JSON.stringify(data));
      return;
    }
    for (const line of traceLines(data)) ctx.print(line);
  },
};
