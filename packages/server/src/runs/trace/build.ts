/**
 * Merges the parsed documents of one project into a trace graph: every defined ID once,
 * every citation, and for each functional requirement the criteria, stories, components
 * and tasks that reach it. The checker and the API both read this one shape.
 */
import {
  documentRole,
  isId,
  type ParseOptions,
  parseDocument,
  prefixOf,
  requirementOf,
} from './parse.ts';
import type { Coverage, CoverageTotals, Finding, Trace, TraceEdge, TraceNode } from './types.ts';

/** One document to merge; `defines` overrides the prefixes its filename owns. */
export interface TraceDocument {
  filename: string;
  content: string;
  defines?: ParseOptions['defines'];
}

/**
 * Builds the trace of a project's documents. The first definition of an ID wins; each
 * later one is a `duplicate-id` finding, since a citation of it could mean either.
 *
 * @example
 * buildTrace([{ filename: 'product-requirements.md', content }]).coverage.totals.frs; // 5
 */
export function buildTrace(documents: readonly TraceDocument[]): Trace {
  const parsed = documents.map((document) =>
    parseDocument(
      document.filename,
      document.content,
      document.defines ? { defines: document.defines } : {},
    ),
  );
  const nodes = new Map<string, TraceNode>();
  const repeats: TraceNode[] = [];
  for (const node of parsed.flatMap((document) => document.defines)) {
    if (nodes.has(node.id)) repeats.push(node);
    else nodes.set(node.id, node);
  }
  const edges = parsed.flatMap((document) => document.cites);
  return {
    nodes: [...nodes.values()],
    edges,
    coverage: coverageOf([...nodes.values()], edges),
    findings: repeats.map((repeat) => duplicate(nodes.get(repeat.id)!, repeat)),
    documents: parsed.map(
      ({ filename, prefixes, sections, codeBlocks, sectionsText, criteria }) => ({
        filename,
        prefixes,
        sections,
        codeBlocks,
        sectionsText,
        criteria,
      }),
    ),
  };
}

const where = (node: TraceNode) =>
  `${node.document}${node.section ? ` (section "${node.section}", line ${node.line})` : ` (line ${node.line})`}`;

function duplicate(first: TraceNode, repeat: TraceNode): Finding {
  return {
    rule: 'duplicate-id',
    severity: 'medium',
    message:
      `${repeat.id} is defined twice: first in ${where(first)}, again in ${where(repeat)}. ` +
      `Define each ID once; elsewhere mention it inside a sentence instead of starting a heading, ` +
      `list item, table row or bold paragraph with it.`,
    document: repeat.document,
    section: repeat.section,
    ids: [repeat.id],
  };
}

/**
 * A heading's text as headings are compared (the gate's required sections, the plan's Tasks
 * section): its plain text (the tree's, markup already gone) lowercase, without numbering or
 * trailing punctuation, spaces collapsed.
 *
 * @example
 * normalHeading('2. Tasks:'); // 'tasks'
 */
export const normalHeading = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/^\s*(?:\d+(?:\.\d+)*\.?|[ivx]+\.)\s+/, '')
    .replace(/[\s:.]+$/, '')
    .replace(/\s+/g, ' ')
    .trim();

/**
 * Whether a citation comes from a task in the plan's Tasks section: a task mentioned in the
 * release checklist or the milestones does not implement anything.
 *
 * @example
 * isTaskCitation({ from: 'T-4', to: 'FR-2', document: 'implementation-plan.md', section: 'Tasks' }); // true
 */
export function isTaskCitation(edge: TraceEdge): boolean {
  return (
    isId(edge.from) &&
    prefixOf(edge.from) === 'T' &&
    documentRole(edge.document) === 'plan' &&
    /^tasks\b/.test(normalHeading(edge.section))
  );
}

function coverageOf(
  nodes: readonly TraceNode[],
  edges: readonly TraceEdge[],
): { requirements: Coverage[]; totals: CoverageTotals } {
  const requirements = new Map<string, Coverage>();
  for (const node of nodes) {
    if (node.kind !== 'requirement') continue;
    requirements.set(node.id, {
      id: node.id,
      title: node.title,
      ...(node.priority ? { priority: node.priority } : {}),
      criteria: [],
      stories: [],
      components: [],
      tasks: [],
    });
  }
  for (const node of nodes) {
    if (node.kind === 'criterion')
      requirements.get(requirementOf(node.id)!)?.criteria.push(node.id);
  }
  const add = (list: string[], item: string) => {
    if (!list.includes(item)) list.push(item);
  };
  for (const edge of edges) {
    const group = requirementOf(edge.to);
    const entry = group === undefined ? undefined : requirements.get(group);
    if (!entry) continue;
    if (isId(edge.from) && prefixOf(edge.from) === 'US') add(entry.stories, edge.from);
    if (documentRole(edge.document) === 'architecture') {
      add(entry.components, edge.subsection ?? (edge.section || edge.document));
    }
    if (isTaskCitation(edge)) add(entry.tasks, edge.from);
  }
  const list = [...requirements.values()];
  const count = (test: (entry: Coverage) => boolean) => list.filter(test).length;
  const musts = list.filter((entry) => entry.priority === 'must');
  return {
    requirements: list,
    totals: {
      frs: list.length,
      withCriterion: count((entry) => entry.criteria.length > 0),
      withStory: count((entry) => entry.stories.length > 0),
      withComponent: count((entry) => entry.components.length > 0),
      withTask: count((entry) => entry.tasks.length > 0),
      musts: musts.length,
      mustsWithStory: musts.filter((entry) => entry.stories.length > 0).length,
    },
  };
}
