import type { ProjectType } from '@pgs/contract';
import { CODEBASE_OVERVIEW_SECTIONS } from '../models/offline/codebase/index.ts';

// Kept importable from here, where the plan that follows from the type lives.
export { inferProjectType } from './project-type.ts';

/** The stages of the workflow, in order; a document belongs to one. */
export const STAGES = [
  'project-brief',
  'requirements',
  'design',
  'planning',
  'documentation',
] as const;
export type Stage = (typeof STAGES)[number];

/** A kind of generated document and what it needs before it can be written. */
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

const brief: DocumentKind = {
  kind: 'project-brief',
  title: 'Project Brief',
  filename: 'PROJECT_BRIEF.md',
  stage: 'project-brief',
  dependsOn: [],
  credits: 5,
  weight: 3,
  sections: [
    'Overview',
    'Problem',
    'Target audience',
    'Goals and success metrics',
    'Scope',
    'Risks',
    'Assumptions and open questions',
  ],
};

const requirements: DocumentKind = {
  kind: 'product-requirements',
  title: 'Product Requirements',
  filename: 'PRODUCT_REQUIREMENTS.md',
  stage: 'requirements',
  dependsOn: ['project-brief'],
  credits: 8,
  weight: 5,
  sections: [
    'Summary',
    'Personas',
    'Key entities',
    'Functional requirements',
    'Non-functional requirements',
    'Out of scope',
  ],
};

const stories: DocumentKind = {
  kind: 'user-stories',
  title: 'User Stories',
  filename: 'USER_STORIES.md',
  stage: 'requirements',
  // Stories cite the FRs they serve, so they are written after the requirements.
  dependsOn: ['product-requirements'],
  credits: 5,
  weight: 4,
  sections: ['Epics', 'Stories', 'Edge cases'],
};

const architecture: DocumentKind = {
  kind: 'architecture',
  title: 'Architecture',
  filename: 'ARCHITECTURE.md',
  stage: 'design',
  // Components cite the requirements they implement.
  dependsOn: ['product-requirements'],
  credits: 8,
  weight: 5,
  sections: [
    'Context',
    'Components',
    'Integrations',
    'Technology choices',
    'Data flow',
    'Security',
    'Deployment',
    'Observability',
  ],
};

/** The kind that describes the codebase a grounded project changes. */
export const CODEBASE_OVERVIEW_KIND = 'codebase-overview';

const codebaseOverview: DocumentKind = {
  kind: CODEBASE_OVERVIEW_KIND,
  title: 'Codebase Overview',
  filename: 'CODEBASE_OVERVIEW.md',
  // Reading what exists belongs with setting the scope: it starts with the brief.
  stage: 'project-brief',
  // It is written from the repository digest, not from other documents.
  dependsOn: [],
  credits: 5,
  weight: 4,
  // The offline engine's reader renders the same sections (models/offline/codebase).
  sections: CODEBASE_OVERVIEW_SECTIONS,
};

/**
 * The architecture of a grounded project: it starts from the system as it is, which the
 * codebase overview describes.
 */
const groundedArchitecture: DocumentKind = {
  ...architecture,
  dependsOn: [...architecture.dependsOn, CODEBASE_OVERVIEW_KIND],
  sections: ['Current system', ...architecture.sections],
};

const planning = (dependsOn: readonly string[]): DocumentKind => ({
  kind: 'implementation-plan',
  title: 'Implementation Plan',
  filename: 'IMPLEMENTATION_PLAN.md',
  stage: 'planning',
  dependsOn,
  credits: 6,
  weight: 4,
  sections: ['Milestones', 'Tasks', 'Dependencies', 'Testing strategy', 'Release checklist'],
});

const readme = (dependsOn: readonly string[]): DocumentKind => ({
  kind: 'readme',
  title: 'README',
  filename: 'README.md',
  stage: 'documentation',
  dependsOn,
  credits: 3,
  weight: 2,
  sections: [
    'About',
    'Features',
    'Tech stack',
    'Getting started',
    'Project structure',
    'Contributing',
  ],
});

const dataModel: DocumentKind = {
  kind: 'data-model',
  title: 'Data Model',
  filename: 'DATA_MODEL.md',
  stage: 'design',
  dependsOn: ['architecture'],
  credits: 6,
  weight: 4,
  sections: ['Entities', 'Relationships', 'Tables', 'Indexes', 'Retention and privacy'],
};

const apiDesign: DocumentKind = {
  kind: 'api-design',
  title: 'API Design',
  filename: 'API_DESIGN.md',
  stage: 'design',
  // Its authentication follows the architecture; its resources are the data model's entities.
  dependsOn: ['architecture', 'data-model'],
  credits: 6,
  weight: 4,
  sections: [
    'Conventions',
    'Authentication',
    'Resources and endpoints',
    'Errors',
    'Pagination and limits',
    'Versioning',
  ],
};

const screens: DocumentKind = {
  kind: 'screens',
  title: 'Screens',
  filename: 'SCREENS.md',
  stage: 'design',
  // Screens serve the stories and follow the architecture's client.
  dependsOn: ['product-requirements', 'user-stories', 'architecture'],
  credits: 6,
  weight: 4,
  sections: ['Screen inventory', 'Screen details', 'Empty and error states', 'Accessibility'],
};

const navigation: DocumentKind = {
  kind: 'navigation',
  title: 'Navigation',
  filename: 'NAVIGATION.md',
  stage: 'design',
  dependsOn: ['screens'],
  credits: 4,
  weight: 3,
  sections: ['Navigation structure', 'Routes', 'Deep links', 'Back behaviour'],
};

const offlineAndPermissions: DocumentKind = {
  kind: 'offline-and-permissions',
  title: 'Offline Support and Permissions',
  filename: 'OFFLINE_AND_PERMISSIONS.md',
  stage: 'design',
  // What works offline, and which permission each screen asks for.
  dependsOn: ['architecture', 'screens'],
  credits: 5,
  weight: 3,
  sections: [
    'Offline behaviour',
    'Local data model',
    'Sync API',
    'Sync and conflicts',
    'Device permissions',
    'Privacy',
  ],
};

const mcpTools: DocumentKind = {
  kind: 'mcp-tools',
  title: 'MCP Tools',
  filename: 'MCP_TOOLS.md',
  stage: 'design',
  // One tool per story's action, inside the architecture's components.
  dependsOn: ['architecture', 'user-stories'],
  credits: 6,
  weight: 4,
  sections: ['Tool catalogue', 'Input schemas', 'Results and errors', 'Safety'],
};

const mcpResources: DocumentKind = {
  kind: 'mcp-resources-and-prompts',
  title: 'MCP Resources and Prompts',
  filename: 'MCP_RESOURCES_AND_PROMPTS.md',
  stage: 'design',
  // Its prompts name the real tools.
  dependsOn: ['mcp-tools'],
  credits: 5,
  weight: 3,
  sections: ['Resources', 'Resource templates', 'Prompts', 'Subscriptions'],
};

const mcpTransport: DocumentKind = {
  kind: 'mcp-transport-and-clients',
  title: 'Transport and Client Configuration',
  filename: 'MCP_TRANSPORT_AND_CLIENTS.md',
  stage: 'design',
  dependsOn: ['architecture', 'mcp-tools'],
  credits: 4,
  weight: 3,
  sections: ['Transports', 'Authentication', 'Client configuration', 'Troubleshooting'],
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

const DESIGN: Record<ProjectType, readonly DocumentKind[]> = {
  web: [dataModel, apiDesign],
  mobile: [screens, navigation, offlineAndPermissions],
  mcp: [mcpTools, mcpResources, mcpTransport],
};

const plansOf = (grounded: boolean) =>
  Object.fromEntries(
    Object.entries(DESIGN).map(([type, design]) => [type, planOf(design, grounded)]),
  ) as Record<ProjectType, readonly DocumentKind[]>;

const PLANS = plansOf(false);
const GROUNDED_PLANS = plansOf(true);

/** What else than its type decides a project's plan. */
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
