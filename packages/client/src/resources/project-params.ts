/** The parameters, options and small types of the projects resource. */
import type {
  ArchiveLayout,
  CreateProjectRequest,
  ProjectContext,
  ProjectInProgress,
  ProjectState,
  ProjectStatus,
  ProjectType,
  ProvenanceResponse,
  TraceSeverity,
} from '@pgs/contract';
import type { RequestOptions } from '../core.ts';

/** Body of `projects.create`. */
export interface ProjectCreateParams {
  /** The project idea in plain words, 10 to 5,000 characters. */
  idea: string;
  /** `web`, `mobile` or `mcp`; inferred from the idea when absent. */
  type?: ProjectType | undefined;
  /** The project's name (1 to 80 characters); generated when absent. */
  name?: string | undefined;
  /**
   * Test keys only: end as `outcome` after about `durationMs` (0 to 600,000), to
   * exercise every state without waiting on a model.
   */
  simulate?: { outcome: 'completed' | 'failed'; durationMs?: number | undefined } | undefined;
  /**
   * A limit in USD on what the project's model calls may cost: it ends `failed` with
   * `error.code` `budget_exceeded` before a call that could pass it (the documents stored
   * are charged, the rest released). Refused (400) when a model the key may call has no
   * known price.
   */
  maxCostUsd?: number | undefined;
  /**
   * How much the documents say: `brief` (about half the length, half the price), `standard`
   * (the default) or `deep` (more depth, one and a half times the price).
   */
  detail?: 'brief' | 'standard' | 'deep' | undefined;
  /**
   * The existing codebase the project is grounded in: `{ repository: { name, commit?, files } }`.
   * Build it with `buildRepositoryDigest` of `@pgs/repository` (Node), which picks
   * what explains the system within a token budget and redacts secrets; the server
   * refuses secret files, binary text and bad paths, and redacts again before storing.
   */
  context?: ProjectContext | undefined;
  /**
   * Answers to clarifying questions (`ideas.clarify`), facts of the definition and of every
   * document: `{ question, answer }`, `question` a question's `id` (or its text, for a
   * question of your own); at most ten, one line each.
   */
  answers?: CreateProjectRequest['answers'] | undefined;
  /**
   * The documents' language, a BCP 47 tag (`de`, `pt-BR`): models write headings and prose
   * in it (IDs, EARS keywords and file names stay as their formats require); the offline
   * engine writes English and says so in provenance (`writtenInEnglish`). Absent: the
   * account's conventions decide, else English.
   */
  language?: string | undefined;
  /** `false`: ignore the account's house conventions (`conventions.get()`) for this project. */
  conventions?: false | undefined;
  /**
   * How acceptance criteria are written: `ears` (`WHEN … THE SYSTEM SHALL …`) or `gherkin`
   * (Given/When/Then scenarios keeping their `FR-n.m` IDs). Absent: the account's
   * conventions decide, else `ears`. Revisions keep it.
   */
  requirementStyle?: CreateProjectRequest['requirementStyle'] | undefined;
}

/** The in-progress status of a project just created, with what came with the 202. */
export interface ProjectCreated extends ProjectInProgress {
  /** The project's status URL (the `Location` header), absolute. */
  location: string;
  /** Seconds the server suggests before the first poll (`Retry-After`, 10 to 30). */
  retryAfter: number | undefined;
  /** True when the server replayed its answer to an earlier request with the same idempotency key. */
  replayed: boolean;
}

/** What `projects.getWithRevision` answers: the status, and which revision it describes. */
export interface ProjectStatusWithRevision {
  status: ProjectStatus;
  /** The `PGS-Revision` header: the revision the status describes (1 for the creation). */
  revision: number;
}

/** Query of `projects.list`. */
export interface ProjectListParams {
  /** Projects per page, 1 to 100 (server default 20). */
  limit?: number | undefined;
  /** Only projects in this state. */
  status?: ProjectState | undefined;
  /** Start after this project (the last `projectId` of the previous page). */
  startingAfter?: string | undefined;
}

/** A layout of `projects.archive`: where each document goes in the zip (the contract's list). */
export type { ArchiveLayout };

/** Options of the reads of a project's results: `document`, `archive`, `trace`, `provenance`. */
export interface ResultReadOptions extends RequestOptions {
  /**
   * Read this revision (`?revision=n`) instead of the current one. A completed revision
   * never changes; one in progress or failed is a `ConflictError` (`PROJECT_NOT_COMPLETED`),
   * one the project does not have a `NotFoundError`.
   */
  revision?: number | undefined;
}

/** Options of `projects.archive`. */
export interface ArchiveOptions extends ResultReadOptions {
  /**
   * `plain` (default): `<slug>/<filename>`; `kiro`, `spec-kit`, `agents`, `openspec`
   * (OpenSpec's `openspec/` tree, with a change folder per revision): see docs/api.md.
   */
  layout?: ArchiveLayout | undefined;
}

// Keyed by TraceSeverity so that a new severity in the contract breaks the build here until handled.
const SEVERITY_RANK = { critical: 0, high: 1, medium: 2, low: 3 } as const satisfies Record<
  TraceSeverity,
  number
>;

/**
 * The severities of a trace finding, the worst first, to group `projects.trace()`'s findings.
 *
 * @example
 * for (const severity of TRACE_SEVERITIES) console.log(severity, findings.filter((f) => f.severity === severity).length);
 */
export const TRACE_SEVERITIES = Object.keys(SEVERITY_RANK) as readonly TraceSeverity[];

/**
 * How a project was generated (`projects.provenance()`): its state, then for the definition
 * (null until it is written) and each document stored so far, the engine, the prompt
 * version, the tokens, the model calls and what the quality gate found.
 */
export type Provenance = ProvenanceResponse['data'];
