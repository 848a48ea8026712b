/**
 * The catalogue of document kinds: what each is called, the file it is stored as, the stage
 * that writes it, its sections, which project types get it and what it costs (docs/api.md,
 * "Credits"; credits.ts prices a project from it). The server plans and charges from it, the offline engine
 * writes its sections and the console shows its prices, so all three read this one table.
 * Data and arithmetic only, no runtime dependency: the SDK bundles it as it is.
 */
import type { components } from './generated/types.ts';

type ProjectType = components['schemas']['ProjectType'];

/** The stages of the workflow, in order; a document belongs to one. */
export const STAGES = [
  'project-brief',
  'requirements',
  'design',
  'planning',
  'documentation',
] as const;
/** One of {@link STAGES}: `'design'`. */
export type Stage = (typeof STAGES)[number];

/** One kind of document as every side sees it. */
export interface DocumentKindInfo {
  /** The heading the document starts with: `'Product Requirements'`. */
  readonly title: string;
  /** `data.project.documents[].filename`. */
  readonly filename: string;
  readonly stage: Stage;
  /** Credits a standard document of this kind costs. */
  readonly credits: number;
  /**
   * The project types that get it: every type, one, or only a project created with a
   * codebase digest (`grounded`, docs/brownfield.md).
   */
  readonly types: 'all' | ProjectType | 'grounded';
  /**
   * Whether a revision may rewrite it because the requirements changed: every kind that
   * builds on them (docs/revisions.md). The codebase overview is rewritten only by a
   * revision that sends a new digest.
   */
  readonly revisable: boolean;
  /**
   * The kinds whose content it builds on: it is written once they are stored. `'design'`
   * stands for every design document of the plan (the kinds only one type gets); a kind the
   * plan lacks is left out (the codebase overview is in grounded plans only). Every name is
   * checked against the catalogue at build time.
   */
  readonly buildsOn: readonly string[];
  /** Relative size: it spreads a simulated run's duration and is a prior for estimates. */
  readonly weight: number;
  /**
   * The ancestors it reads as a digest (the IDs they define with their titles) rather than in
   * full; only kinds that define IDs can be digested (docs/cost.md, "Context where it pays").
   */
  readonly digests: readonly string[];
  /** The `##` sections it covers, in order. */
  readonly sections: readonly string[];
}

/**
 * Every kind of document, in the order a project's plan lists them (the key is
 * `data.project.documents[].type`).
 *
 * @example
 * DOCUMENT_KINDS['product-requirements'].credits; // 8
 * DOCUMENT_KINDS['user-stories'].sections; // ['Epics', 'Stories', 'Edge cases']
 */
export const DOCUMENT_KINDS = {
  'project-brief': {
    title: 'Project Brief',
    filename: 'PROJECT_BRIEF.md',
    stage: 'project-brief',
    credits: 5,
    types: 'all',
    revisable: false,
    buildsOn: [],
    weight: 3,
    digests: [],
    sections: [
      'Overview',
      'Problem',
      'Target audience',
      'Goals and success metrics',
      'Scope',
      'Risks',
      'Assumptions and open questions',
    ],
  },
  'codebase-overview': {
    title: 'Codebase Overview',
    filename: 'CODEBASE_OVERVIEW.md',
    // Reading what exists belongs with setting the scope: it starts with the brief.
    stage: 'project-brief',
    credits: 5,
    types: 'grounded',
    revisable: false,
    // It is written from the repository digest, not from other documents.
    buildsOn: [],
    weight: 4,
    digests: [],
    sections: [
      'Summary',
      'Stack',
      'Components',
      'Data stores and external services',
      'Entry points and routes',
      'Data model',
      'Tests and conventions',
      'Where a change lands',
    ],
  },
  'product-requirements': {
    title: 'Product Requirements',
    filename: 'PRODUCT_REQUIREMENTS.md',
    stage: 'requirements',
    credits: 8,
    types: 'all',
    revisable: true,
    buildsOn: ['project-brief'],
    weight: 5,
    digests: [],
    sections: [
      'Summary',
      'Personas',
      'Key entities',
      'Functional requirements',
      'Non-functional requirements',
      'Out of scope',
    ],
  },
  'user-stories': {
    title: 'User Stories',
    filename: 'USER_STORIES.md',
    stage: 'requirements',
    credits: 5,
    types: 'all',
    revisable: true,
    // Stories cite the FRs they serve, so they are written after the requirements.
    buildsOn: ['product-requirements'],
    weight: 4,
    digests: ['project-brief'],
    sections: ['Epics', 'Stories', 'Edge cases'],
  },
  architecture: {
    title: 'Architecture',
    filename: 'ARCHITECTURE.md',
    stage: 'design',
    credits: 8,
    types: 'all',
    revisable: true,
    // Components cite the requirements they implement; a grounded architecture starts from
    // the system as it is, which the codebase overview describes.
    buildsOn: ['product-requirements', 'codebase-overview'],
    weight: 5,
    digests: ['project-brief'],
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
  },
  'data-model': {
    title: 'Data Model',
    filename: 'DATA_MODEL.md',
    stage: 'design',
    credits: 6,
    types: 'web',
    revisable: true,
    buildsOn: ['architecture'],
    weight: 4,
    digests: ['project-brief'],
    sections: ['Entities', 'Relationships', 'Tables', 'Indexes', 'Retention and privacy'],
  },
  'api-design': {
    title: 'API Design',
    filename: 'API_DESIGN.md',
    stage: 'design',
    credits: 6,
    types: 'web',
    revisable: true,
    // Its authentication follows the architecture; its resources are the data model's entities.
    buildsOn: ['architecture', 'data-model'],
    weight: 4,
    digests: ['project-brief'],
    sections: [
      'Conventions',
      'Authentication',
      'Resources and endpoints',
      'Errors',
      'Pagination and limits',
      'Versioning',
    ],
  },
  screens: {
    title: 'Screens',
    filename: 'SCREENS.md',
    stage: 'design',
    credits: 6,
    types: 'mobile',
    revisable: true,
    // Screens serve the stories and follow the architecture's client.
    buildsOn: ['product-requirements', 'user-stories', 'architecture'],
    weight: 4,
    digests: ['project-brief'],
    sections: ['Screen inventory', 'Screen details', 'Empty and error states', 'Accessibility'],
  },
  navigation: {
    title: 'Navigation',
    filename: 'NAVIGATION.md',
    stage: 'design',
    credits: 4,
    types: 'mobile',
    revisable: true,
    buildsOn: ['screens'],
    weight: 3,
    digests: ['project-brief'],
    sections: ['Navigation structure', 'Routes', 'Deep links', 'Back behaviour'],
  },
  'offline-and-permissions': {
    title: 'Offline Support and Permissions',
    filename: 'OFFLINE_AND_PERMISSIONS.md',
    stage: 'design',
    credits: 5,
    types: 'mobile',
    revisable: true,
    // What works offline, and which permission each screen asks for.
    buildsOn: ['architecture', 'screens'],
    weight: 3,
    digests: ['project-brief'],
    sections: [
      'Offline behaviour',
      'Local data model',
      'Sync API',
      'Sync and conflicts',
      'Device permissions',
      'Privacy',
    ],
  },
  'mcp-tools': {
    title: 'MCP Tools',
    filename: 'MCP_TOOLS.md',
    stage: 'design',
    credits: 6,
    types: 'mcp',
    revisable: true,
    // One tool per story's action, inside the architecture's components.
    buildsOn: ['architecture', 'user-stories'],
    weight: 4,
    digests: ['project-brief'],
    sections: ['Tool catalogue', 'Input schemas', 'Results and errors', 'Safety'],
  },
  'mcp-resources-and-prompts': {
    title: 'MCP Resources and Prompts',
    filename: 'MCP_RESOURCES_AND_PROMPTS.md',
    stage: 'design',
    credits: 5,
    types: 'mcp',
    revisable: true,
    // Its prompts name the real tools.
    buildsOn: ['mcp-tools'],
    weight: 3,
    digests: ['project-brief'],
    sections: ['Resources', 'Resource templates', 'Prompts', 'Subscriptions'],
  },
  'mcp-transport-and-clients': {
    title: 'Transport and Client Configuration',
    filename: 'MCP_TRANSPORT_AND_CLIENTS.md',
    stage: 'design',
    credits: 4,
    types: 'mcp',
    revisable: true,
    buildsOn: ['architecture', 'mcp-tools'],
    weight: 3,
    digests: ['project-brief'],
    sections: ['Transports', 'Authentication', 'Client configuration', 'Troubleshooting'],
  },
  'implementation-plan': {
    title: 'Implementation Plan',
    filename: 'IMPLEMENTATION_PLAN.md',
    stage: 'planning',
    credits: 6,
    types: 'all',
    revisable: true,
    // It turns the architecture, the stories and every design document into tasks; it cites
    // the stories (a digest).
    buildsOn: ['architecture', 'user-stories', 'design', 'codebase-overview'],
    weight: 4,
    digests: ['project-brief', 'user-stories'],
    sections: ['Milestones', 'Tasks', 'Dependencies', 'Testing strategy', 'Release checklist'],
  },
  readme: {
    title: 'README',
    filename: 'README.md',
    stage: 'documentation',
    credits: 3,
    types: 'all',
    revisable: true,
    // It summarises: it names stories and tasks (digests).
    buildsOn: ['implementation-plan', 'design'],
    weight: 2,
    digests: ['project-brief', 'user-stories', 'implementation-plan'],
    sections: [
      'About',
      'Features',
      'Tech stack',
      'Getting started',
      'Project structure',
      'Contributing',
    ],
  },
} as const satisfies Record<string, DocumentKindInfo>;

/** A kind of document: `'product-requirements'`. */
export type DocumentKindName = keyof typeof DOCUMENT_KINDS;

/** In a kind's `buildsOn`: every design document of the plan. */
export const DESIGN_DOCUMENTS = 'design';

type Named<F extends 'buildsOn' | 'digests'> = (typeof DOCUMENT_KINDS)[DocumentKindName][F][number];
/** A misspelt or removed kind in a `buildsOn` or `digests` list fails the build here. */
type Unknown = Exclude<
  Named<'buildsOn'> | Named<'digests'>,
  DocumentKindName | typeof DESIGN_DOCUMENTS
>;
const everyNameIsAKind: [Unknown] extends [never] ? true : Unknown = true;
void everyNameIsAKind;

/**
 * The sections of a kind, as a union of their titles: a writer keyed by it misses none.
 *
 * @example
 * const writers: Record<SectionsOf<'user-stories'>, () => string> = { Epics, Stories, 'Edge cases': edges };
 */
export type SectionsOf<K extends DocumentKindName> = (typeof DOCUMENT_KINDS)[K]['sections'][number];

/**
 * The architecture of a grounded project starts from the system as it is, which the
 * codebase overview describes.
 *
 * @example
 * GROUNDED_ARCHITECTURE_SECTIONS[0]; // 'Current system'
 */
export const GROUNDED_ARCHITECTURE_SECTIONS = [
  'Current system',
  ...DOCUMENT_KINDS.architecture.sections,
] as const;

/** What decides a plan besides its type: a codebase digest at creation (`context.repository`). */
export interface PlanScope {
  grounded?: boolean;
}

/**
 * The kinds a project of `type` gets, in its plan's order.
 *
 * @example
 * documentKindsOf('web'); // ['project-brief', 'product-requirements', 'user-stories', 'architecture', 'data-model', …]
 * documentKindsOf('web', { grounded: true })[1]; // 'codebase-overview'
 */
export function documentKindsOf(type: ProjectType, scope: PlanScope = {}): DocumentKindName[] {
  return (Object.keys(DOCUMENT_KINDS) as DocumentKindName[]).filter((kind) => {
    const { types } = DOCUMENT_KINDS[kind];
    return types === 'all' || types === type || (types === 'grounded' && scope.grounded === true);
  });
}
