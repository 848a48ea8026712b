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
    sections: ['Epics', 'Stories', 'Edge cases'],
  },
  architecture: {
    title: 'Architecture',
    filename: 'ARCHITECTURE.md',
    stage: 'design',
    credits: 8,
    types: 'all',
    revisable: true,
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
    sections: ['Entities', 'Relationships', 'Tables', 'Indexes', 'Retention and privacy'],
  },
  'api-design': {
    title: 'API Design',
    filename: 'API_DESIGN.md',
    stage: 'design',
    credits: 6,
    types: 'web',
    revisable: true,
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
    sections: ['Screen inventory', 'Screen details', 'Empty and error states', 'Accessibility'],
  },
  navigation: {
    title: 'Navigation',
    filename: 'NAVIGATION.md',
    stage: 'design',
    credits: 4,
    types: 'mobile',
    revisable: true,
    sections: ['Navigation structure', 'Routes', 'Deep links', 'Back behaviour'],
  },
  'offline-and-permissions': {
    title: 'Offline Support and Permissions',
    filename: 'OFFLINE_AND_PERMISSIONS.md',
    stage: 'design',
    credits: 5,
    types: 'mobile',
    revisable: true,
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
    sections: ['Tool catalogue', 'Input schemas', 'Results and errors', 'Safety'],
  },
  'mcp-resources-and-prompts': {
    title: 'MCP Resources and Prompts',
    filename: 'MCP_RESOURCES_AND_PROMPTS.md',
    stage: 'design',
    credits: 5,
    types: 'mcp',
    revisable: true,
    sections: ['Resources', 'Resource templates', 'Prompts', 'Subscriptions'],
  },
  'mcp-transport-and-clients': {
    title: 'Transport and Client Configuration',
    filename: 'MCP_TRANSPORT_AND_CLIENTS.md',
    stage: 'design',
    credits: 4,
    types: 'mcp',
    revisable: true,
    sections: ['Transports', 'Authentication', 'Client configuration', 'Troubleshooting'],
  },
  'implementation-plan': {
    title: 'Implementation Plan',
    filename: 'IMPLEMENTATION_PLAN.md',
    stage: 'planning',
    credits: 6,
    types: 'all',
    revisable: true,
    sections: ['Milestones', 'Tasks', 'Dependencies', 'Testing strategy', 'Release checklist'],
  },
  readme: {
    title: 'README',
    filename: 'README.md',
    stage: 'documentation',
    credits: 3,
    types: 'all',
    revisable: true,
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
