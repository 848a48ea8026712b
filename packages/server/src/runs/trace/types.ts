/**
 * The shapes of the trace graph: what the parser reads out of the generated documents and
 * what the checker reports. Plain data (arrays, strings), so a trace can be stored as JSON
 * and served as it is.
 */

import type { IdKind, IdPrefix, Priority, StepKeyword } from '@pgs/contract/document';

/** The ID prefixes, their kinds and MoSCoW priorities: the document model's (`@pgs/contract/document`). */
export type { IdKind, IdPrefix, Priority } from '@pgs/contract/document';

/** An ID where a document defines it. */
export interface TraceNode {
  id: string;
  kind: IdKind;
  /** The filename of the defining document, as given. */
  document: string;
  /** The enclosing `##` heading's text; `''` before the first one. */
  section: string;
  /** The enclosing `###` heading's text, when there is one inside the section. */
  subsection?: string;
  /** The rest of the defining heading, list item, row or paragraph, at most 120 characters. */
  title: string;
  /** 1-based line of the definition. */
  line: number;
  /** Requirements only, when their text states one. */
  priority?: Priority;
}

/** One citation: `from` mentions `to`. */
export interface TraceEdge {
  /** The ID whose definition encloses the mention, or the document's filename when none does. */
  from: string;
  to: string;
  document: string;
  section: string;
  subsection?: string;
}

/** A fenced code block, kept so its syntax can be checked. */
export interface CodeBlock {
  /** The info string's first word, lowercased; `''` when the fence names none. */
  lang: string;
  value: string;
  section: string;
  /** 1-based line of the opening fence. */
  line: number;
}

/** The size of one `##` section. */
export interface SectionText {
  section: string;
  line: number;
  /** Characters of plain text under the heading (whitespace runs count as one). */
  chars: number;
}

/** An acceptance criterion as written: whether it is a scenario, and its steps' keywords. */
export interface CriterionForm {
  id: string;
  section: string;
  line: number;
  /** The keywords of its steps in order (`Given`, `When`, `Then`, `And`, `But`); absent when it is no scenario (an EARS sentence). */
  steps?: StepKeyword[];
}

/** A parsed document without its definitions and citations, which the trace holds merged. */
export type DocumentOutline = Omit<ParsedDocument, 'defines' | 'cites'>;

/** What one document contributes to the trace. */
export interface ParsedDocument {
  filename: string;
  /** The prefixes it may define (by default, from its filename). */
  prefixes: IdPrefix[];
  /** The `##` headings, in order. */
  sections: string[];
  /** Every definition in document order, repeats included (the merge reports them). */
  defines: TraceNode[];
  cites: TraceEdge[];
  codeBlocks: CodeBlock[];
  sectionsText: SectionText[];
  /** Its acceptance criteria as written (requirement style, docs/requirement-style.md). */
  criteria: CriterionForm[];
}

/** What the trace knows about one functional requirement group (`FR-n`). */
export interface Coverage {
  id: string;
  title: string;
  priority?: Priority;
  /** Its criteria (`FR-n.m`) that some document defines. */
  criteria: string[];
  /** Stories citing it or one of its criteria. */
  stories: string[];
  /** Architecture sections (the `###` heading when there is one, else the `##`) citing it. */
  components: string[];
  /** Tasks defined in the plan's Tasks section citing it or one of its criteria. */
  tasks: string[];
}

export interface CoverageTotals {
  frs: number;
  withCriterion: number;
  withStory: number;
  withComponent: number;
  withTask: number;
  musts: number;
  mustsWithStory: number;
}

/** How bad a finding is; `SEVERITIES` in check.ts gives the order. */
export type Severity = 'critical' | 'high' | 'medium' | 'low';

export type Rule =
  | 'feature-without-fr'
  | 'fr-without-criterion'
  | 'numbering'
  | 'must-without-story'
  | 'fr-without-component'
  | 'fr-without-task'
  | 'unknown-id'
  | 'duplicate-id'
  | 'task-dependency'
  | 'code-block'
  | 'near-empty-section'
  | 'scenario-incomplete';

/** One fault in the documents, written for the model that repairs them and for a person. */
export interface Finding {
  rule: Rule;
  severity: Severity;
  message: string;
  document?: string;
  section?: string;
  ids?: string[];
}

/** The merged graph of a project's documents. */
export interface Trace {
  /** First definitions only, in document order. */
  nodes: TraceNode[];
  edges: TraceEdge[];
  coverage: { requirements: Coverage[]; totals: CoverageTotals };
  /** What the merge itself found (`duplicate-id`). */
  findings: Finding[];
  /** Per document: its sections, their sizes and its code blocks (nodes and edges are above). */
  documents: DocumentOutline[];
}
