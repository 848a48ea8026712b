import {
  TRACE_SEVERITIES,
  type TraceFinding,
  type TraceRequirementCoverage,
  type TraceSeverity,
} from '@pgs/client';

// What the Trace section of a completed project shows, as plain data: the matrix's columns,
// its gaps, and the findings grouped by severity.

/** A column of the coverage matrix after the requirement and its priority. */
export interface CoverageColumn {
  key: 'criteria' | 'stories' | 'components' | 'tasks';
  /** The column's header. */
  label: string;
  /** The `coverage.totals` member that counts the requirements this column reaches. */
  total: 'withCriterion' | 'withStory' | 'withComponent' | 'withTask';
}

/** The matrix's columns, in the order the documents build on each other. */
export const COVERAGE_COLUMNS: readonly CoverageColumn[] = [
  { key: 'criteria', label: 'Criteria', total: 'withCriterion' },
  { key: 'stories', label: 'Stories', total: 'withStory' },
  { key: 'components', label: 'Components', total: 'withComponent' },
  { key: 'tasks', label: 'Tasks', total: 'withTask' },
];

/** A requirement's priority, `undefined` when the text states none. */
export type Priority = NonNullable<TraceRequirementCoverage['priority']>;

// Keyed by the contract's enums so that a new value breaks the build here until handled.
const PRIORITY_LABELS = {
  must: 'Must',
  should: 'Should',
  could: 'Could',
  wont: "Won't",
} as const satisfies Record<Priority, string>;

const SEVERITY_LABELS = {
  critical: 'Critical',
  high: 'High',
  medium: 'Medium',
  low: 'Low',
} as const satisfies Record<TraceSeverity, string>;

/**
 * A priority as the requirements write it; none reads as a dash.
 *
 * @example
 * priorityLabel('wont'); // "Won't"
 */
export function priorityLabel(priority: Priority | undefined): string {
  return priority === undefined ? '—' : PRIORITY_LABELS[priority];
}

/**
 * A severity as a word. @example severityLabel('high'); // 'High'
 */
export function severityLabel(severity: TraceSeverity): string {
  return SEVERITY_LABELS[severity];
}

/**
 * The columns where nothing reaches the requirement.
 *
 * @example
 * gapsOf({ id: 'FR-1', title: 'x', criteria: [], stories: ['US-1'], components: [], tasks: ['T-1'] }); // ['Criteria', 'Components']
 */
export function gapsOf(requirement: TraceRequirementCoverage): string[] {
  return COVERAGE_COLUMNS.filter((column) => requirement[column.key].length === 0).map(
    (column) => column.label,
  );
}

/** The findings of one severity. */
export interface FindingGroup {
  severity: TraceSeverity;
  label: string;
  findings: TraceFinding[];
}

/**
 * The findings grouped by severity, the worst first; a severity with none is left out.
 *
 * @example
 * findingGroups(trace.findings).map((g) => `${g.label}: ${g.findings.length}`);
 */
export function findingGroups(findings: readonly TraceFinding[]): FindingGroup[] {
  return TRACE_SEVERITIES.map((severity) => ({
    severity,
    label: severityLabel(severity),
    findings: findings.filter((finding) => finding.severity === severity),
  })).filter((group) => group.findings.length > 0);
}

/**
 * The findings counted in one sentence.
 *
 * @example
 * findingsSummary(trace.findings); // '23 findings: 18 high, 5 medium.'
 */
export function findingsSummary(findings: readonly TraceFinding[]): string {
  if (findings.length === 0) return 'No findings: the checks found nothing to fix.';
  const counts = findingGroups(findings).map(
    (group) => `${group.findings.length} ${group.severity}`,
  );
  const noun = findings.length === 1 ? 'finding' : 'findings';
  return `${findings.length} ${noun}: ${counts.join(', ')}.`;
}

/**
 * Where a finding is, as far as it is known: `PRODUCT_REQUIREMENTS.md › Functional requirements`.
 *
 * @example
 * whereOf({ rule: 'numbering', severity: 'medium', message: '…', document: 'README.md' }); // 'README.md'
 */
export function whereOf(finding: TraceFinding): string {
  return [finding.document, finding.section].filter((part) => part).join(' › ');
}
