import {
  DOCUMENT_KINDS,
  type DocumentKindName,
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
 * A kind of generated document: the contract's entry (title, file, stage, price, sections)
 * and what the workflow adds to it: what it needs before it can be written and its size.
 */
export interface DocumentKind {
  /** `data.project.documents[].type` */
  readonly kind: string;
  readonly title: string;
  readonly filename: string;
  readonly stage: Stage;
  /** Kinds whose content this one builds on; it starts when they are stored. */
  readonly dependsOn: readonly string[];
  /** Credits charged when this document is generated (the price table in docs/api.md). */
  readonly credits: number;
  /** What the document must cover, in order; it guides both the AI prompt and the offline engine. */
  readonly sections: readonly string[];
  /** Relative size, used to spread a simulated duration and as a prior for estimates. */
  readonly weight: number;
}

/** The contract's entry of `kind` with the workflow's parts. */
function kindOf(
  kind: DocumentKindName,
  dependsOn: readonly string[],
  weight: number,
): DocumentKind {
  const { title, filename, stage, credits, sections } = DOCUMENT_KINDS[kind];
  return { kind, title, filename, stage, dependsOn, credits, sections, weight };
}

const brief = kindOf('project-brief', [], 3);
const requirements = kindOf('product-requirements', ['project-brief'], 5);
// Stories cite the FRs they serve, so they are written after the requirements.
const stories = kindOf('user-stories', ['product-requirements'], 4);
// Components cite the requirements they implement.
const architecture = kindOf('architecture', ['product-requirements'], 5);

/** The kind that describes the codebase a grounded project changes. */
export const CODEBASE_OVERVIEW_KIND = 'codebase-overview';

// It is written from the repository digest, not from other documents.
const codebaseOverview = kindOf(CODEBASE_OVERVIEW_KIND, [], 4);

/**
 * The architecture of a grounded project: it starts from the system as it is, which the
 * codebase overview describes.
 */
const groundedArchitecture: DocumentKind = {
  ...architecture,
  dependsOn: [...architecture.dependsOn, CODEBASE_OVERVIEW_KIND],
  sections: GROUNDED_ARCHITECTURE_SECTIONS,
};

const planning = (dependsOn: readonly string[]) => kindOf('implementation-plan', dependsOn, 4);
const readme = (dependsOn: readonly string[]) => kindOf('readme', dependsOn, 2);

/** The kinds that only one type gets: its design documents. */
type DesignKind = {
  [K in DocumentKindName]: (typeof DOCUMENT_KINDS)[K]['types'] extends ProjectType ? K : never;
}[DocumentKindName];

/**
 * What each design document builds on, with its weight: a design kind added to the
 * contract's catalogue fails the build until it is given its place here.
 */
const DESIGN_KINDS: Readonly<Record<DesignKind, DocumentKind>> = {
  'data-model': kindOf('data-model', ['architecture'], 4),
  // Its authentication follows the architecture; its resources are the data model's entities.
  'api-design': kindOf('api-design', ['architecture', 'data-model'], 4),
  // Screens serve the stories and follow the architecture's client.
  screens: kindOf('screens', ['product-requirements', 'user-stories', 'architecture'], 4),
  navigation: kindOf('navigation', ['screens'], 3),
  // What works offline, and which permission each screen asks for.
  'offline-and-permissions': kindOf('offline-and-permissions', ['architecture', 'screens'], 3),
  // One tool per story's action, inside the architecture's components.
  'mcp-tools': kindOf('mcp-tools', ['architecture', 'user-stories'], 4),
  // Its prompts name the real tools.
  'mcp-resources-and-prompts': kindOf('mcp-resources-and-prompts', ['mcp-tools'], 3),
  'mcp-transport-and-clients': kindOf(
    'mcp-transport-and-clients',
    ['architecture', 'mcp-tools'],
    3,
  ),
};

/**
 * A type's plan: the shared documents, its design documents, then the plan (which builds on
 * the architecture, the stories and every design document) and the README (on the plan and
 * the design documents). A grounded plan adds the codebase overview after the brief, and
 * its architecture and plan build on it (docs/brownfield.md).
 */
function planOf(design: readonly DocumentKind[], grounded: boolean): readonly DocumentKind[] {
  const kinds = design.map((doc) => doc.kind);
  const overview = grounded ? [CODEBASE_OVERVIEW_KIND] : [];
  return [
    brief,
    ...(grounded ? [codebaseOverview] : []),
    requirements,
    stories,
    grounded ? groundedArchitecture : architecture,
    ...design,
    planning(['architecture', 'user-stories', ...kinds, ...overview]),
    readme(['implementation-plan', ...kinds]),
  ];
}

/** A type's design documents: the contract's kinds that only this type gets. */
const designOf = (type: ProjectType): readonly DocumentKind[] =>
  (Object.keys(DOCUMENT_KINDS) as DocumentKindName[])
    .filter((kind): kind is DesignKind => DOCUMENT_KINDS[kind].types === type)
    .map((kind) => DESIGN_KINDS[kind]);

const plansOf = (grounded: boolean) =>
  Object.fromEntries(
    PROJECT_TYPES.map((type) => [type, planOf(designOf(type), grounded)]),
  ) as Record<ProjectType, readonly DocumentKind[]>;

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
