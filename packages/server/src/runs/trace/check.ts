/**
 * The checks a trace must pass before the documents are served: every core feature has a
 * requirement, every requirement has criteria, a story, a component and a task, IDs are
 * defined once and numbered plainly, tasks can be ordered, code parses and no section is
 * an empty heading. Findings are written for the model that repairs a document and for
 * the person who reads them; the same trace gives the same findings in the same order.
 */
import { checkCodeBlocks } from './code-blocks.ts';
import { type DocumentRole, documentRole, isId, prefixOf, requirementOf } from './parse.ts';
import { type RequirementStyle, SCENARIO_FORM, scenarioFindings, styleOf } from './scenarios.ts';
import type { Finding, IdPrefix, Severity, Trace, TraceEdge, TraceNode } from './types.ts';
import { unmatched } from './words.ts';

/**
 * Severities, worst first; findings come out in this order.
 *
 * @example
 * SEVERITIES.indexOf('high') < SEVERITIES.indexOf('medium'); // true
 */
export const SEVERITIES = [
  'critical',
  'high',
  'medium',
  'low',
] as const satisfies readonly Severity[];

/**
 * Whether the findings are worth a repair round: any critical or high one.
 *
 * @example
 * needsRepair([{ rule: 'numbering', severity: 'medium', message: '…' }]); // false
 */
export function needsRepair(findings: readonly Finding[]): boolean {
  return findings.some((finding) => finding.severity === 'critical' || finding.severity === 'high');
}

export interface CheckOptions {
  /** The project's core features; each must have an FR group. */
  coreFeatures?: readonly string[];
  /** Parses YAML and throws on invalid input; YAML blocks are skipped without it. */
  parseYaml?: (text: string) => unknown;
  /** Below this many characters of text a `##` section counts as near-empty. Default 40. */
  minSectionChars?: number;
  /** IDs a revision retired (docs/revisions.md): their numbers are gaps on purpose. */
  retired?: Iterable<string>;
  /**
   * How the project's criteria are written (docs/requirement-style.md); absent, read from the
   * criteria themselves (Gherkin when any is a scenario).
   */
  requirementStyle?: RequirementStyle;
}

const HOME: Record<IdPrefix, string> = {
  G: 'the project brief',
  A: 'the project brief',
  Q: 'the project brief',
  R: 'the project brief',
  FR: 'the product requirements',
  NFR: 'the product requirements',
  US: 'the user stories',
  T: "the implementation plan's Tasks section",
};

/**
 * Checks a trace. Rules that relate documents run only once the documents they need are in
 * the trace (no "FR-1 has no task" while the plan is still unwritten). Async because the
 * mermaid grammars parse asynchronously.
 *
 * @example
 * const findings = await checkTrace(buildTrace(documents), { coreFeatures: ['Reminders'] });
 */
export async function checkTrace(trace: Trace, options: CheckOptions = {}): Promise<Finding[]> {
  const roles = new Set(trace.documents.map((document) => documentRole(document.filename)));
  const has = (role: DocumentRole) => roles.has(role);
  const nodes = new Map(trace.nodes.map((node) => [node.id, node]));
  const style = styleOf(trace, options.requirementStyle);
  const findings: Finding[] = [
    ...(has('requirements') ? features(trace, options.coreFeatures ?? [], style) : []),
    ...requirementGaps(trace, nodes, has, style),
    ...scenarioFindings(trace, style),
    ...numbering(trace.nodes, new Set(options.retired ?? [])),
    ...unknown(trace, nodes),
    ...orphanCriteria(trace.nodes, nodes),
    ...trace.findings,
    ...dependencies(trace.edges, nodes),
    ...emptySections(trace, options.minSectionChars ?? 40),
  ];
  for (const document of trace.documents) {
    findings.push(...(await checkCodeBlocks(document.filename, document.codeBlocks, options)));
  }
  // Stable: within a severity, the order above (and document order inside each rule).
  return findings.sort((a, b) => SEVERITIES.indexOf(a.severity) - SEVERITIES.indexOf(b.severity));
}

const label = (node: TraceNode) => (node.title ? `${node.id} ("${node.title}")` : node.id);
const at = (node: TraceNode) => ({ document: node.document, section: node.section });

/** What a group's criteria are, as a repair is told. */
const CRITERIA: Record<RequirementStyle, string> = {
  ears: 'EARS criteria',
  gherkin: 'Gherkin scenarios as its criteria',
};

function features(
  trace: Trace,
  coreFeatures: readonly string[],
  style: RequirementStyle,
): Finding[] {
  const requirements = trace.nodes.filter((node) => node.kind === 'requirement');
  const listed = requirements.map((node) => `${node.id} ${node.title}`).join('; ') || 'none';
  return unmatched(coreFeatures, requirements).map((feature) => ({
    rule: 'feature-without-fr',
    severity: 'high',
    message:
      `The core feature "${feature}" has no functional requirement group: no FR title shares a ` +
      `word with it (FRs: ${listed}). Add an FR-n group named after the feature, with ${CRITERIA[style]}.`,
    ...(requirements[0] ? { document: requirements[0].document } : {}),
  }));
}

function requirementGaps(
  trace: Trace,
  nodes: ReadonlyMap<string, TraceNode>,
  has: (role: DocumentRole) => boolean,
  style: RequirementStyle,
): Finding[] {
  const findings: Finding[] = [];
  for (const entry of trace.coverage.requirements) {
    const node = nodes.get(entry.id)!;
    const gap = (rule: Finding['rule'], message: string): void => {
      findings.push({ rule, severity: 'high', message, ...at(node), ids: [node.id] });
    };
    if (entry.criteria.length === 0) {
      gap(
        'fr-without-criterion',
        `${label(node)} has no acceptance criteria. Add at least one numbered criterion under it, ` +
          (style === 'gherkin'
            ? `a scenario: ${SCENARIO_FORM.replaceAll('FR-n', node.id).replace('.m', '.1')}.`
            : `e.g. "**${node.id}.1** WHEN <trigger> THE SYSTEM SHALL <response>".`),
      );
    }
    if (has('stories') && entry.priority === 'must' && entry.stories.length === 0) {
      gap(
        'must-without-story',
        `${label(node)} is a Must requirement, but no user story cites it or its criteria. ` +
          `Add a story (US-n) that cites ${node.id} or one of ${node.id}'s criteria.`,
      );
    }
    if (has('architecture') && entry.components.length === 0) {
      gap(
        'fr-without-component',
        `${label(node)} is not cited anywhere in the architecture. Name ${node.id} in the ` +
          `component that implements it.`,
      );
    }
    if (has('plan') && entry.tasks.length === 0) {
      gap(
        'fr-without-task',
        `${label(node)} is not implemented by any task: no T-n in the plan's Tasks section cites ` +
          `${node.id} or its criteria (mentions in other sections, such as the release checklist, ` +
          `do not count). Add or extend a task that cites ${node.id}.`,
      );
    }
  }
  return findings;
}

/** The number after the last `-` or `.`: `FR-3.01` → `01`. */
const lastNumber = (id: string) => id.slice(Math.max(id.lastIndexOf('-'), id.lastIndexOf('.')) + 1);

function numbering(all: readonly TraceNode[], retired: ReadonlySet<string>): Finding[] {
  const groups = new Map<string, TraceNode[]>();
  for (const node of all) {
    const key = node.kind === 'criterion' ? `${requirementOf(node.id)}.` : `${prefixOf(node.id)}-`;
    groups.set(key, [...(groups.get(key) ?? []), node]);
  }
  const findings: Finding[] = [];
  for (const [key, members] of groups) {
    const problems: string[] = [];
    const ids: string[] = [];
    const padded = members.filter((node) => /^0/.test(lastNumber(node.id)));
    if (padded.length > 0) {
      const list = padded.map((node) => node.id);
      problems.push(`${list.join(', ')} ${list.length === 1 ? 'starts' : 'start'} with a zero`);
      ids.push(...list);
    }
    const byValue = new Map<number, string[]>();
    for (const node of members) {
      const value = Number(lastNumber(node.id));
      byValue.set(value, [...(byValue.get(value) ?? []), node.id]);
    }
    for (const spellings of byValue.values()) {
      if (spellings.length < 2) continue;
      problems.push(`${spellings.join(' and ')} use the same number`);
      ids.push(...spellings);
    }
    const highest = Math.min(Math.max(...byValue.keys()), 10_000);
    const missing: string[] = [];
    for (let value = 1; value <= highest; value++) {
      if (!byValue.has(value) && !retired.has(`${key}${value}`)) missing.push(`${key}${value}`);
    }
    if (missing.length > 0) {
      const shown = missing.length > 8 ? [...missing.slice(0, 8), '…'] : missing;
      problems.push(`${shown.join(', ')} ${missing.length === 1 ? 'is' : 'are'} missing`);
    }
    if (problems.length === 0) continue;
    const first = members[0]!;
    const series = key.endsWith('.') ? `The criteria of ${key.slice(0, -1)}` : `The ${key}n IDs`;
    findings.push({
      rule: 'numbering',
      severity: 'medium',
      message:
        `${series} must run 1, 2, 3… with no gaps, no number used twice and no leading zeros: ` +
        `${problems.join('; ')}. Renumber them and update every citation.`,
      ...at(first),
      ids: [...new Set(ids.length > 0 ? ids : members.map((node) => node.id))],
    });
  }
  return findings;
}

function unknown(trace: Trace, nodes: ReadonlyMap<string, TraceNode>): Finding[] {
  // An ID whose defining document is not in the trace yet is not unknown, only unwritten.
  const written = new Set(trace.documents.flatMap((document) => document.prefixes));
  const groups = new Map<string, TraceEdge[]>();
  for (const edge of trace.edges) {
    if (nodes.has(edge.to) || isDependency(edge) || !written.has(prefixOf(edge.to))) continue;
    const key = `${edge.document}\u0000${edge.to}`;
    groups.set(key, [...(groups.get(key) ?? []), edge]);
  }
  return [...groups.values()].map((group) => {
    const { to, document, section } = group[0]!;
    const places = [...new Set(group.map((edge) => edge.section || 'the introduction'))];
    const from = [...new Set(group.map((edge) => edge.from).filter(isId))];
    const plain = to.replace(/-0+(?=\d)/, '-').replace(/\.0+(?=\d)/, '.');
    const hint = plain !== to && nodes.has(plain) ? ` Did you mean ${plain}?` : '';
    return {
      rule: 'unknown-id' as const,
      severity: 'high' as const,
      message:
        `${to} is cited in ${document} (${places.map((p) => `"${p}"`).join(', ')}` +
        `${from.length > 0 ? `, by ${from.join(', ')}` : ''}) but no document defines it.${hint} ` +
        `Cite an ID that exists, or define ${to} in ${HOME[prefixOf(to)]}.`,
      document,
      section,
      ids: [to, ...from],
    };
  });
}

function orphanCriteria(
  all: readonly TraceNode[],
  nodes: ReadonlyMap<string, TraceNode>,
): Finding[] {
  return all
    .filter((node) => node.kind === 'criterion' && !nodes.has(requirementOf(node.id)!))
    .map((node) => ({
      rule: 'unknown-id' as const,
      severity: 'high' as const,
      message:
        `The criterion ${node.id} belongs to ${requirementOf(node.id)}, which no document defines. ` +
        `Define ${requirementOf(node.id)} (a heading, list item or table row starting with it) or renumber the criterion.`,
      ...at(node),
      ids: [node.id],
    }));
}

/** Task dependencies are citations of one task by another. */
const isDependency = (edge: TraceEdge) =>
  isId(edge.from) && prefixOf(edge.from) === 'T' && prefixOf(edge.to) === 'T';

const numeric = (a: string, b: string) => a.localeCompare(b, 'en', { numeric: true });

function dependencies(
  edges: readonly TraceEdge[],
  nodes: ReadonlyMap<string, TraceNode>,
): Finding[] {
  const findings: Finding[] = [];
  const next = new Map<string, string[]>();
  const reported = new Set<string>();
  const tasks = [...nodes.keys()].filter((id) => prefixOf(id) === 'T').sort(numeric);
  for (const edge of edges.filter(isDependency)) {
    if (nodes.has(edge.to)) {
      const list = next.get(edge.from) ?? [];
      if (!list.includes(edge.to)) next.set(edge.from, [...list, edge.to].sort(numeric));
      continue;
    }
    if (reported.has(`${edge.from}>${edge.to}`)) continue;
    reported.add(`${edge.from}>${edge.to}`);
    findings.push({
      rule: 'task-dependency',
      severity: 'high',
      message:
        `${edge.from} depends on ${edge.to}, which is not a task in the plan` +
        `${tasks.length > 0 ? ` (tasks: ${tasks[0]}…${tasks.at(-1)})` : ''}. ` +
        `Point the dependency at an existing task or add ${edge.to} to the Tasks section.`,
      document: edge.document,
      section: edge.section,
      ids: [edge.from, edge.to],
    });
  }
  for (const cycle of cycles(next)) {
    const first = nodes.get(cycle[0]!)!;
    findings.push({
      rule: 'task-dependency',
      severity: 'critical',
      message:
        `Task dependencies form a cycle: ${[...cycle, cycle[0]].join(' → ')}, so no order of work ` +
        `satisfies them. Remove or reverse one of these dependencies.`,
      ...at(first),
      ids: cycle,
    });
  }
  return findings;
}

/** One cycle per back edge of a depth-first search in ID order, each rotated to start at its lowest ID. */
function cycles(next: ReadonlyMap<string, readonly string[]>): string[][] {
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const found = new Map<string, string[]>();
  const visit = (id: string): void => {
    state.set(id, 'open');
    path.push(id);
    for (const target of next.get(id) ?? []) {
      if (state.get(target) === 'open') {
        const cycle = path.slice(path.indexOf(target));
        const start = cycle.indexOf([...cycle].sort(numeric)[0]!);
        const rotated = [...cycle.slice(start), ...cycle.slice(0, start)];
        found.set(rotated.join(' '), rotated);
      } else if (!state.has(target)) {
        visit(target);
      }
    }
    path.pop();
    state.set(id, 'done');
  };
  for (const id of [...next.keys()].sort(numeric)) if (!state.has(id)) visit(id);
  return [...found.values()];
}

function emptySections(trace: Trace, minimum: number): Finding[] {
  return trace.documents.flatMap((document) =>
    document.sectionsText
      .filter((section) => section.chars < minimum)
      .map((section) => ({
        rule: 'near-empty-section' as const,
        severity: 'medium' as const,
        message:
          `The section "${section.section}" of ${document.filename} (line ${section.line}) has ` +
          `${section.chars === 0 ? 'no text' : `only ${section.chars} characters of text`} under its heading. ` +
          `Write out what it is for, specific to this project.`,
        document: document.filename,
        section: section.section,
      })),
  );
}
