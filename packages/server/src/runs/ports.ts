/**
 * The ports a run sees the rest of the server through: how it ends its project or revision
 * (implemented by projects/, which starts runs and settles their credits). runs/ imports
 * neither projects/ nor storage/: the composition root (runtime.ts) hands it these.
 */

import type { Conventions } from '@pgs/contract';

/**
 * How a creation's run ends its project: completion settles the credits, a failure refunds
 * them, a stop for the project's cost limit charges what was written. Projects
 * (projects/projects.ts) is the one in the server.
 *
 * @example
 * await ends.fail(projectId, FAILURE_MESSAGES.timeout);
 */
export interface CreationEnds {
  complete(projectId: string): Promise<unknown>;
  fail(projectId: string, message: string): Promise<unknown>;
  stopForBudget(
    projectId: string,
    budget: { limitUsd: number; spentUsd: number },
  ): Promise<unknown>;
}

/**
 * How a revision's run ends it: completion carries the rest of the documents over and makes
 * the revision current; a failure refunds it. Revisions (projects/revisions.ts) is the one in
 * the server.
 *
 * @example
 * await ends.fail(projectId, 2, 'unreadable');
 */
export interface RevisionEnds {
  complete(projectId: string, revision: number): Promise<unknown>;
  fail(projectId: string, revision: number, why?: 'failed' | 'unreadable'): Promise<unknown>;
}

/**
 * `data.error.message` of failed projects: the contract says it states the refund. The run
 * chooses it; projects/result.ts reads it back for a project whose cause was not recorded.
 *
 * @example
 * FAILURE_MESSAGES.timeout; // 'The AI service timed out while generating the project. …'
 */
export const FAILURE_MESSAGES = {
  timeout:
    'The AI service timed out while generating the project. Your credits have been refunded.',
  failure: 'The AI service failed while generating the project. Your credits have been refunded.',
  exhausted:
    'The project could not be generated after several attempts. Your credits have been refunded.',
  /** A failed project whose cause was not recorded. */
  unknown: 'The project could not be generated. Your credits have been refunded.',
} as const;

/** A project as a run reads it (the columns of projects it uses). */
export interface RunProject {
  id: string;
  mode: 'live' | 'test';
  status: 'in_progress' | 'completed' | 'failed';
  idea: string;
  type: 'web' | 'mobile' | 'mcp' | null;
  name: string | null;
  description: string | null;
  questionnaire: unknown;
  requestedName: string | null;
  /** Answers to clarifying questions given at creation (docs/clarify.md). */
  answers: { question: string; answer: string }[] | null;
  typeRequested: boolean;
  simulate: unknown;
  grounded: boolean;
  detail: 'brief' | 'standard' | 'deep';
  /** How acceptance criteria are written, set at creation; revisions keep it. */
  requirementStyle: 'ears' | 'gherkin';
  maxCostMicroUsd: number | null;
  /** Whose project it is: its house conventions are the account's (docs/conventions.md). */
  accountId: string;
  /** The conventions version it was created under; null: none. Revisions keep it. */
  conventionsVersion: number | null;
  /** The documents' language (BCP 47); null: English. */
  language: string | null;
  currentRevision: number;
  revising: number | null;
}

/** A stored document: the version written in `writtenIn`, read at `revision`. */
export interface RunDocument {
  projectId: string;
  revision: number;
  writtenIn: number;
  type: string;
  filename: string;
  content: string;
  stage: string;
  tokensUsed: number;
  generatedAt: Date;
  position: number;
}

/** A revision as its run reads it: the change request, then what the impact step stored. */
export interface RunRevision {
  revision: number;
  status: 'in_progress' | 'completed' | 'failed';
  changeRequest: string;
  /** The answers to the brief's register this revision records, by ID (docs/clarify.md). */
  answers?: Record<string, string> | null;
  simulate: unknown;
  deltas: unknown;
  affected: unknown;
  questionnaire: unknown;
  register: unknown;
  retired: unknown;
}

/** How a part of a run came to be, stored once per project, revision and kind. */
export interface RunProvenance {
  projectId: string;
  revision?: number;
  kind: string;
  engine: string;
  promptVersion: string;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  costMicroUsd: number | null;
  attempts: number;
  durationMs: number;
  repairs: number;
  initialFindings: unknown[];
  findings: unknown[];
  trimmed: string[];
}

/** A codebase digest as stored: the one in force at a revision, and the revision that sent it. */
export interface RunDigest {
  name: string;
  commit: string | null;
  revision: number;
  files: readonly { path: string; content: string }[];
}

/** The events a run appends to its project's log. */
export type RunEventType = 'stage.started' | 'document.completed' | 'revision.analysed';

/**
 * Thrown by an {@link EventSink} when the run's project (or revision) has ended meanwhile
 * (cancelled, deleted): the writes with it are rolled back and the run stops.
 */
export class RunEndedError extends Error {
  override name = 'RunEndedError';
}

/**
 * Where a run appends its events. An event is appended only while the run is on: a creation
 * passes `{ whileInProgress: true }`, a revision `{ whileRevising: n }`; otherwise it throws
 * {@link RunEndedError}. Appending also wakes the project's streams on commit.
 *
 * @example
 * await events.append(projectId, 'stage.started', { stage }, { whileInProgress: true });
 */
export interface EventSink {
  append(
    projectId: string,
    type: RunEventType,
    data: Record<string, unknown>,
    guard: { whileInProgress: true } | { whileRevising: number },
  ): Promise<void>;
}

/** What a run changes of its project and revision. */
export interface RunUpdates {
  updateProject(
    projectId: string,
    values: {
      name?: string;
      description?: string;
      questionnaire?: unknown;
      type?: 'web' | 'mobile' | 'mcp';
      estimatedCompletionAt?: Date;
    },
  ): Promise<void>;
  updateRevision(
    projectId: string,
    revision: number,
    values: {
      deltas?: unknown;
      affected?: unknown;
      questionnaire?: unknown;
      register?: unknown;
      retired?: unknown;
    },
  ): Promise<void>;
}

/** The writes of one transaction: all of them are stored, or none. */
export interface RunWrites extends RunUpdates {
  events: EventSink;
  insertDocument(row: RunDocument): Promise<void>;
  insertProvenance(row: RunProvenance): Promise<void>;
}

/**
 * What a run reads and writes: its project and revision, documents, events, provenance and
 * the timings estimates come from. projects/run-store.ts implements it over the database;
 * runs/ never sees the database itself, so it runs the same on PGlite, PostgreSQL and in tests.
 *
 * @example
 * await store.write(async (w) => {
 *   await w.events.append(id, 'document.completed', data, { whileInProgress: true });
 *   await w.insertDocument(row);
 * });
 */
export interface RunStore extends RunUpdates {
  /** Runs `fn` in one transaction. */
  write<T>(fn: (writes: RunWrites) => Promise<T>): Promise<T>;
  project(id: string): Promise<RunProject | undefined>;
  revision(projectId: string, revision: number): Promise<RunRevision | undefined>;
  /** The documents of a revision (1 when not given), in their order. */
  documents(projectId: string, revision?: number): Promise<RunDocument[]>;
  /** The project's log of events, oldest first. */
  events(projectId: string): Promise<{ type: string; data: unknown }[]>;
  /** What the project's stored parts cost, in millionths of a dollar. */
  spentMicroUsd(projectId: string): Promise<number>;
  /** Measured milliseconds per `engine:kind`, a few seconds old at most. */
  generationStats(): Promise<ReadonlyMap<string, number>>;
  recordGenerationTime(key: string, ms: number): Promise<void>;
  /** The digest in force at `revision`: the latest sent at or before it. */
  digest(projectId: string, revision: number): Promise<RunDigest | undefined>;
  /** A version of an account's house conventions, as stored (docs/conventions.md). */
  conventions(
    accountId: string,
    mode: 'live' | 'test',
    version: number,
  ): Promise<Conventions | undefined>;
}
