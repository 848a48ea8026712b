import {
  DESIGN_DOCUMENTS,
  DOCUMENT_KINDS,
  type DocumentKindName,
  documentKindsOf,
  GROUNDED_ARCHITECTURE_SECTIONS,
  PROJECT_TYPES,
  type ProjectType,
  type Stage,
} from '@pgs/contract';

/** The stages of the workflow, in order; a document belongs to one. */
export { STAGES, type Stage } from '@pgs/contract';
// Kept importable from here, where the plan that follows from the type lives.
export { inferProjectType } from './project-type.ts';

/**
 * A kind of generated document as one plan has it: the contract's entry (title, file, stage,
 * price, sections, size), with what it builds on resolved among the plan's own kinds.
 */
export interface DocumentKind {
  /** `data.project.documents[].type` */
  readonly kind: string;
  readonly title: string;
  readonly filename: string;
  readonly stage: Stage;
  /** Kinds of the plan whose content this one builds on; it starts when they are stored. */
  readonly dependsOn: readonly string[];
  /** Credits charged when this document is generated (the price table in docs/api.md). */
  readonly credits: number;
  /** What the document must cover, in order; it guides both the AI prompt and the offline engine. */
  readonly sections: readonly string[];
  /** Relative size, used to spread a simulated duration and as a prior for estimates. */
  readonly weight: number;
}

/** The kind that describes the codebase a grounded project changes. */
export const CODEBASE_OVERVIEW_KIND = 'codebase-overview';

/** Whether a kind is a design document: one that only one type gets. */
const isDesign = (kind: DocumentKindName) =>
  (PROJECT_TYPES as readonly string[]).includes(DOCUMENT_KINDS[kind].types);

/**
 * A plan: the contract's kinds of the type, in its order, each with what it builds on among
 * them. A grounded plan has the codebase overview, and its architecture starts with the
 * current system (docs/brownfield.md).
 */
function planOf(type: ProjectType, grounded: boolean): readonly DocumentKind[] {
  const kinds = documentKindsOf(type, { grounded });
  const design = kinds.filter(isDesign);
  return kinds.map((kind): DocumentKind => {
    const { title, filename, stage, credits, sections, buildsOn, weight } = DOCUMENT_KINDS[kind];
    return {
      kind,
      title,
      filename,
      stage,
      dependsOn: buildsOn.flatMap((dep: DocumentKindName | typeof DESIGN_DOCUMENTS) =>
        dep === DESIGN_DOCUMENTS ? design : kinds.includes(dep) ? [dep] : [],
      ),
      credits,
      sections: grounded && kind === 'architecture' ? GROUNDED_ARCHITECTURE_SECTIONS : sections,
      weight,
    };
  });
}

const plansOf = (grounded: boolean) =>
  Object.fromEntries(PROJECT_TYPES.map((type) => [type, planOf(type, grounded)])) as Record<
    ProjectType,
    readonly DocumentKind[]
  >;

const PLANS = plansOf(false);
const GROUNDED_PLANS = plansOf(true);

/** What else than its type decides a project's plan (the contract's `PlanScope`). */
export interface PlanOptions {
  /**
   * Created with a codebase digest (`context.repository`): the plan adds the codebase
   * overview and plans the idea as a change to what exists.
   */
  grounded?: boolean;
}

/**
 * The documents generated for a project type, in a dependency order.
 *
 * @example
 * documentPlan('mcp').map((d) => d.kind); // ['project-brief', 'product-requirements', …]
 * documentPlan('web', { grounded: true })[1]?.kind; // 'codebase-overview'
 */
export function documentPlan(
  type: ProjectType,
  options: PlanOptions = {},
): readonly DocumentKind[] {
  return (options.grounded ? GROUNDED_PLANS : PLANS)[type];
}

/**
 * The kinds a document builds on, directly or through others.
 *
 * @example
 * ancestors(documentPlan('web'), readme); // Set { 'implementation-plan', 'architecture', … }
 */
export function ancestors(plan: readonly DocumentKind[], doc: DocumentKind): Set<string> {
  const byKind = new Map(plan.map((d) => [d.kind, d]));
  const found = new Set<string>();
  const visit = (kind: string) => {
    for (const dep of byKind.get(kind)?.dependsOn ?? []) {
      if (!found.has(dep)) {
        found.add(dep);
        visit(dep);
      }
    }
  };
  visit(doc.kind);
  return found;
}

/**
 * The order in which a plan's documents are given to the documents that build on them: the
 * ones most documents read first (the brief and the requirements, then the architecture…),
 * ties in the plan's order. Every prompt lists the documents it reads in this one order, so
 * two prompts share their beginning up to the first document only one of them reads, and a
 * provider's prompt cache serves that beginning (docs/cost.md).
 *
 * @example
 * contextOrder(documentPlan('web')).map((d) => d.kind);
 * // ['project-brief', 'product-requirements', 'architecture', 'data-model', 'user-stories', …]
 */
export function contextOrder(plan: readonly DocumentKind[]): readonly DocumentKind[] {
  const readers = new Map(plan.map((d) => [d.kind, 0]));
  for (const doc of plan) {
    for (const kind of ancestors(plan, doc)) readers.set(kind, (readers.get(kind) ?? 0) + 1);
  }
  return plan
    .map((doc, index) => ({ doc, index }))
    .sort((a, b) => readers.get(b.doc.kind)! - readers.get(a.doc.kind)! || a.index - b.index)
    .map(({ doc }) => doc);
}
