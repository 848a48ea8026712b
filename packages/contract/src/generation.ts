/**
 * `@pgs/contract/generation`: what one generation call is about, as typed data. The server's
 * prompts render it as text for a model (a JSON block, `<pgs-context>`); the offline engine
 * (`@pgs/offline`) takes it as it is. Both sides import it from here, so the server and the
 * engine cannot drift apart on a member. Types only: nothing runs.
 *
 * @example
 * import type { DocumentContext } from '@pgs/contract/generation';
 * const call: DocumentContext = { task: 'document', idea, definition, document, related: [] };
 */
import type { components } from './generated/types.ts';

type ProjectType = components['schemas']['ProjectType'];
type RequirementStyle = components['schemas']['RequirementStyle'];

/** One requirement delta, discriminated on `op` (the contract's `RequirementDelta`). */
export type RequirementDelta = components['schemas']['RequirementDelta'];

/**
 * What the first stage settles about a project: the contract's name, description, type
 * and questionnaire (its three named members and the further ones PGS fills).
 *
 * @example
 * const definition: ProjectDefinition = { name: 'HabitLoop', description, type: 'web', questionnaire };
 */
export interface ProjectDefinition {
  name: string;
  description: string;
  type: ProjectType;
  questionnaire: {
    targetAudience: string;
    monetization: string;
    techStack: string[];
    platforms: string[];
    coreFeatures: string[];
    constraints: string[];
    successMetrics: string[];
    /**
     * Each capability, qualifier and number the idea states, and the core feature that
     * carries it (docs/document-formats.md). Absent on definitions made before these members.
     */
    ideaCoverage?: IdeaTerm[];
    /** The things the product stores or manipulates. */
    keyEntities?: string[];
    /** External services the idea names or clearly implies. */
    integrations?: Integration[];
    /** What the first release deliberately does not do. */
    nonGoals?: string[];
    /** Facts the idea leaves unknown, each with the default chosen (the brief's `A-n`). */
    assumptions?: string[];
    /** Questions only the client can answer, with why they matter (the brief's `Q-n`). */
    openQuestions?: string[];
    /**
     * The answers that closed an `A-n` or `Q-n` (the brief's `D-n`), from the revisions that
     * answered the register (docs/clarify.md#answer-later); absent until one did.
     */
    decisions?: Decision[];
  };
}

/** A decision of the register (`D-n`): the answer that closed a question or an assumption. */
export interface Decision {
  /** `D-n`, numbered in the order the answers came. */
  id: string;
  /** The `Q-n` or `A-n` it closed. */
  answers: string;
  /** The entry as the brief stated it. */
  question: string;
  /** The answer, in the client's words. */
  answer: string;
}

/**
 * House conventions as a client sets them (`PUT /conventions`, docs/conventions.md); every
 * member optional. `applyConventions` (`@pgs/contract`) applies them to a definition.
 */
export interface Conventions {
  /** Free markdown: the team's rules in its own words, carried into every prompt. */
  markdown?: string;
  stack?: { required?: string[]; forbidden?: string[] };
  /** Standards the documents must address ("GDPR", "HIPAA", "SOC 2", "PCI DSS"). */
  compliance?: string[];
  /** The documents' language, BCP 47 canonical (`de`, `pt-BR`); absent: English. */
  language?: string;
  requirementStyle?: 'ears' | 'gherkin';
  detail?: 'brief' | 'standard' | 'deep';
  /** Naming rules ("Tables are plural snake_case"). */
  naming?: string[];
  /** Sections the team wants in its documents, with what each holds. */
  sections?: { title: string; content: string }[];
}

/** A term of the idea (as written) and the core feature that carries it: `{ term: 'by SMS', feature }`. */
export interface IdeaTerm {
  term: string;
  feature: string;
}

/** An external service and what the product uses it for: `{ name: 'Stripe', purpose: 'take payments' }`. */
export interface Integration {
  name: string;
  purpose: string;
}

/** A document the workflow asks for: `{ kind: 'user-stories', title, filename, stage, sections }`. */
export interface DocumentRequest {
  kind: string;
  title: string;
  filename: string;
  stage: string;
  sections: readonly string[];
}

/** An earlier document a later one builds on (its full text travels in the prompt): `{ kind, title }`. */
export interface RelatedDocument {
  kind: string;
  title: string;
}

/** A requirement group as the impact step sees it: `{ id: 'FR-3', title: 'SMS reminders' }`. */
export interface RequirementRef {
  id: string;
  title: string;
}

/**
 * A slot of the requirement register: the ID and priority of the requirement group that a
 * core feature (same index in `questionnaire.coreFeatures`) became. It keeps IDs and
 * priorities stable when features are added or removed: `{ id: 'FR-4', priority: 'Must' }`.
 */
export interface RequirementSlot {
  id: string;
  priority: 'Must' | 'Should' | 'Could';
}

/**
 * The stories and tasks of the revision being changed, each with what it is about
 * (`stableIdsOf` of `@pgs/contract/document` reads them from the documents).
 *
 * @example
 * const ids: StableIds = { stories: [{ id: 'US-1', key: 'FR-1#0' }], tasks: [], retired: ['FR-2'] };
 */
export interface StableIds {
  /** `US-n` with its key (the requirement groups it cites, and its rank among those citing them). */
  stories: { id: string; key: string }[];
  tasks: { id: string; key: string }[];
  /** Every ID removed by any revision so far: never given out again. */
  retired: string[];
}

/**
 * A codebase digest as a run holds it: already checked and redacted by the server, and fitted
 * to the prompts' budget (the files a prompt carries, in the digest's order).
 *
 * @example
 * const source: RepositorySource = { name: 'vetbook-api', commit: null, files: [{ path: 'package.json', content: '{}' }] };
 */
export interface RepositorySource {
  name: string;
  commit: string | null;
  files: readonly { path: string; content: string }[];
}

/** The definition call: the idea, and what the client pinned. */
export interface DefinitionContext {
  task: 'definition';
  idea: string;
  /** The type the request asked for; absent, the model chooses. */
  type?: ProjectType;
  requestedName?: string;
  /** The codebase a grounded project changes. */
  repository?: RepositorySource;
  /** Answers to clarifying questions (docs/clarify.md): facts, never assumptions. */
  answers?: { question: string; answer: string }[];
  /** The house conventions the project follows (docs/conventions.md). */
  conventions?: Conventions;
}

/** A document call: the project as its definition settled it, and the document asked for. */
export interface DocumentContext {
  task: 'document';
  idea: string;
  definition: ProjectDefinition;
  document: DocumentRequest;
  /** The earlier documents the prompt carries. */
  related: RelatedDocument[];
  /** How much the document says; absent means `standard`. */
  detail?: 'brief' | 'standard' | 'deep';
  /** The house conventions the project follows (docs/conventions.md). */
  conventions?: Conventions;
  /** The documents' language (BCP 47) when it is not English; the offline engine writes English. */
  language?: string;
  /** How acceptance criteria are written; absent means `ears` (docs/requirement-style.md). */
  requirementStyle?: RequirementStyle;
  /** The codebase a grounded project changes. */
  repository?: RepositorySource;
}

/**
 * A revision's first step: the change request read against the requirements of the
 * revision it changes, answered with requirement deltas (docs/revisions.md).
 */
export interface ImpactContext {
  task: 'impact';
  idea: string;
  changeRequest: string;
  definition: ProjectDefinition;
  /** The requirement groups (`FR-n`) of the revision being changed, with their titles. */
  requirements: RequirementRef[];
  /** The number an ADDED requirement takes first (above every ID ever used). */
  nextNumber: number;
}

/**
 * Rewriting one document for a revision: its previous version, the deltas, and the
 * definition with the deltas applied (`register` parallel to its core features).
 */
export interface RevisionContext {
  task: 'revision';
  idea: string;
  definition: ProjectDefinition;
  register: RequirementSlot[];
  document: DocumentRequest;
  related: RelatedDocument[];
  deltas: RequirementDelta[];
  /** The document as the revision being changed holds it. */
  previous: string;
  ids: StableIds;
  /** The house conventions the project follows (docs/conventions.md). */
  conventions?: Conventions;
  /** The documents' language (BCP 47) when it is not English; the offline engine writes English. */
  language?: string;
  /** How acceptance criteria are written; absent means `ears`: a revision keeps the project's. */
  requirementStyle?: RequirementStyle;
  /** The codebase a grounded project changes. */
  repository?: RepositorySource;
  /**
   * The decisions this revision records, when it answers the brief's register instead of a
   * change request (docs/clarify.md#answer-later); the definition already holds them.
   */
  answers?: Decision[];
}

/**
 * Everything a generation call is about, discriminated on `task`. A prompt renders it as a
 * JSON block for a model; the offline engine is handed it as it is.
 */
export type GenerationContext =
  | DefinitionContext
  | DocumentContext
  | ImpactContext
  | RevisionContext;
