/**
 * A project and everything written for it: documents, revisions, contexts, events,
 * provenance and conformance checks; and the measured generation times used for estimates.
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { accounts } from './accounts.ts';
import { createdAt } from './columns.ts';

/** A project and its generation state. */
export const projects = pgTable(
  'projects',
  {
    id: uuid('id').primaryKey(),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id),
    mode: text('mode', { enum: ['live', 'test'] }).notNull(),
    status: text('status', { enum: ['in_progress', 'completed', 'failed'] }).notNull(),
    idea: text('idea').notNull(),
    type: text('type', { enum: ['web', 'mobile', 'mcp'] }),
    name: text('name'),
    description: text('description'),
    questionnaire: jsonb('questionnaire'),
    /** The name the client asked for, if any; the definition stage keeps it. */
    requestedName: text('requested_name'),
    /**
     * Answers to clarifying questions given at creation (docs/clarify.md), facts the
     * definition keeps: `[{ question, answer }]`, or null.
     */
    answers: jsonb('answers').$type<{ question: string; answer: string }[]>(),
    /**
     * Whether the client chose the type. When it did not, `type` holds a provisional type
     * (inferred from the idea) until the definition stage settles it.
     */
    typeRequested: boolean('type_requested').notNull().default(true),
    /**
     * The house conventions' version this project was written under (docs/conventions.md),
     * or null: none set for its account and mode, or `conventions: false` at creation.
     */
    conventionsVersion: integer('conventions_version'),
    /** The documents' language (BCP 47) asked for at creation or by the conventions; null: English. */
    language: text('language'),
    /** How acceptance criteria are written (docs/requirement-style.md). */
    requirementStyle: text('requirement_style', { enum: ['ears', 'gherkin'] })
      .notNull()
      .default('ears'),
    /** Test keys only: `{ outcome, durationMs }` asked for at creation. */
    simulate: jsonb('simulate'),
    errorCode: text('error_code'),
    errorMessage: text('error_message'),
    creditsReserved: integer('credits_reserved').notNull().default(0),
    creditsConsumed: integer('credits_consumed'),
    /**
     * Whether it was created with a codebase digest (`project_contexts`): its documents
     * describe what exists and plan a change, and only such a project takes a new digest
     * on a revision.
     */
    grounded: boolean('grounded').notNull().default(false),
    /** How much its documents say (`brief`, `standard`, `deep`): their length and price. */
    detail: text('detail', { enum: ['brief', 'standard', 'deep'] })
      .notNull()
      .default('standard'),
    /** `maxCostUsd` in millionths of a dollar: the limit on its model calls; null for none. */
    maxCostMicroUsd: bigint('max_cost_micro_usd', { mode: 'number' }),
    generationTimeMs: integer('generation_time_ms'),
    estimatedCompletionAt: timestamp('estimated_completion_at', { withTimezone: true }),
    /** The last event's `seq` (see `project_events`). */
    eventSeq: integer('event_seq').notNull().default(0),
    /**
     * The revision the status answers (the latest completed one; 1 until a revision
     * completes): `result_body` is its body.
     */
    currentRevision: integer('current_revision').notNull().default(1),
    /** The revision running now, if any (docs/revisions.md): events and documents of a run check it. */
    revising: integer('revising'),
    /** The current revision's completed response body, serialized once. */
    resultBody: text('result_body'),
    resultEtag: text('result_etag'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [
    index('projects_account_idx').on(t.accountId, t.mode, t.createdAt),
    check('projects_status_check', sql`${t.status} in ('in_progress', 'completed', 'failed')`),
  ],
);

/** Generated documents, stored the moment each exists. */
export const documents = pgTable(
  'documents',
  {
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id),
    /** The revision this row belongs to: a completed revision holds every document of the project. */
    revision: integer('revision').notNull().default(1),
    /** The revision that wrote the text (lower than `revision` for a document carried over). */
    writtenIn: integer('written_in').notNull().default(1),
    type: text('type').notNull(),
    filename: text('filename').notNull(),
    content: text('content').notNull(),
    stage: text('stage').notNull(),
    tokensUsed: integer('tokens_used').notNull(),
    generatedAt: timestamp('generated_at', { withTimezone: true }).notNull(),
    position: integer('position').notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.revision, t.type] })],
);

/**
 * The revisions of a project after its creation (revision 1 is the project row itself):
 * a change request, the requirement deltas read from it, and the run that rewrote the
 * documents they touch (docs/revisions.md).
 */
export const projectRevisions = pgTable(
  'project_revisions',
  {
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    revision: integer('revision').notNull(),
    status: text('status', { enum: ['in_progress', 'completed', 'failed'] }).notNull(),
    changeRequest: text('change_request').notNull(),
    /**
     * Answers to the project's open questions and assumptions that made this revision
     * (`POST …/answers`, docs/clarify.md): `{ "Q-1": "…", "A-3": "…" }`, or null.
     */
    answers: jsonb('answers').$type<Record<string, string>>(),
    /** Test keys only: `{ outcome, durationMs }`, as at creation. */
    simulate: jsonb('simulate'),
    /** The requirement deltas, once the impact step has read them. */
    deltas: jsonb('deltas'),
    /** The document kinds the deltas touch (rewritten), once known. */
    affected: jsonb('affected'),
    /** The definition with the deltas applied, and its requirement register. */
    questionnaire: jsonb('questionnaire'),
    register: jsonb('register'),
    /** Every requirement ID removed by this or an earlier revision: never given out again. */
    retired: jsonb('retired'),
    /**
     * What the revision did to the plan's tasks (`{ added, reopened, obsoleted }`, task IDs),
     * once the tasks were brought up to its plan: at its completion, or on the first task
     * request of a project whose tasks had not been read (docs/tasks.md).
     */
    taskChanges: jsonb('task_changes'),
    creditsReserved: integer('credits_reserved').notNull().default(0),
    creditsConsumed: integer('credits_consumed'),
    generationTimeMs: integer('generation_time_ms'),
    errorCode: text('error_code'),
    errorMessage: text('error_message'),
    estimatedCompletionAt: timestamp('estimated_completion_at', { withTimezone: true }),
    resultBody: text('result_body'),
    resultEtag: text('result_etag'),
    createdAt: createdAt(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.revision] }),
    check(
      'project_revisions_status_check',
      sql`${t.status} in ('in_progress', 'completed', 'failed')`,
    ),
  ],
);

/**
 * The codebase digests a grounded project was given (docs/api.md, "context"), redacted
 * before storage: one at creation (revision 1), and one for each revision that sent a new
 * one. A revision reads the latest whose `revision` is not above its own. Never served
 * back except as the file list; deleted with the project (cascade).
 */
export const projectContexts = pgTable(
  'project_contexts',
  {
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    revision: integer('revision').notNull(),
    /** The repository's name as the client gave it. */
    name: text('name').notNull(),
    commit: text('commit'),
    /** `[{ path, content, bytes, redactions }]`, in the order sent; `content` is redacted. */
    files: jsonb('files')
      .$type<{ path: string; content: string; bytes: number; redactions: number }[]>()
      .notNull(),
    /** The files' `bytes` added up: UTF-8 size of the stored (redacted) text. */
    totalBytes: integer('total_bytes').notNull(),
    /** Secrets replaced before storage, all files together (the builder's and the server's). */
    redactions: integer('redactions').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.revision] })],
);

/**
 * What happened to a project, in order: the event stream replays them after a
 * `Last-Event-ID`, so they are stored, not only sent.
 */
export const projectEvents = pgTable(
  'project_events',
  {
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    /**
     * 1, 2, 3… per project, in commit order: taken from `projects.event_seq` under the
     * project row's lock, so a reader that saw n never later finds a smaller one committed.
     */
    seq: integer('seq').notNull(),
    /** `stage.started`, `document.completed`, `project.completed`, `project.failed`. */
    type: text('type').notNull(),
    data: jsonb('data').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.seq] })],
);

/**
 * How each part of a project was generated: the definition (`kind = 'definition'`) and
 * every document. Written in the transaction that stores the part.
 */
export const provenance = pgTable(
  'provenance',
  {
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id),
    revision: integer('revision').notNull().default(1),
    kind: text('kind').notNull(),
    /** `offline` or `provider:model`: the model that wrote the final answer. */
    engine: text('engine').notNull(),
    /** The prompt's `kind@version+system@n`. */
    promptVersion: text('prompt_version').notNull(),
    /** All input tokens of every call, the cached and cache-written ones included. */
    inputTokens: integer('input_tokens').notNull(),
    outputTokens: integer('output_tokens').notNull(),
    /** Of `input_tokens`, those the provider's prompt cache served. */
    cacheReadTokens: integer('cache_read_tokens').notNull().default(0),
    /** Of `input_tokens`, those written to the provider's prompt cache. */
    cacheWriteTokens: integer('cache_write_tokens').notNull().default(0),
    /**
     * What the calls cost, in millionths of a dollar at the prices known when they were made;
     * null when a model had no price (never a guess), and for rows written before costs were.
     */
    costMicroUsd: bigint('cost_micro_usd', { mode: 'number' }),
    /** Model calls made, every model and retry included, repairs and corrections too. */
    attempts: integer('attempts').notNull(),
    durationMs: integer('duration_ms').notNull(),
    /** Repair (documents) or correction (definition) calls made after a first answer. */
    repairs: integer('repairs').notNull(),
    /** What the quality gate found in the first answer (before any repair). */
    initialFindings: jsonb('initial_findings').notNull(),
    /** What the gate still finds in the stored answer. */
    findings: jsonb('findings').notNull(),
    /** Earlier documents cut or left out of the prompt to fit its token budget. */
    trimmed: jsonb('trimmed').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.revision, t.kind] })],
);

/** Measured generation time per document kind (moving average), for estimates. */
export const generationStats = pgTable('generation_stats', {
  kind: text('kind').primaryKey(),
  samples: integer('samples').notNull(),
  avgMs: doublePrecision('avg_ms').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * A check of a repository against a project's spec (docs/conformance.md): stored per
 * revision, with the report once it is made.
 */
export const conformanceChecks = pgTable(
  'conformance_checks',
  {
    id: text('id').primaryKey(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    revision: integer('revision').notNull(),
    status: text('status', { enum: ['queued', 'running', 'succeeded', 'failed'] }).notNull(),
    /** The repository digest the check read (its files are data, never instructions). */
    context: jsonb('context').$type<unknown>().notNull(),
    report: jsonb('report').$type<unknown>(),
    error: jsonb('error').$type<{ code: string; message: string }>(),
    createdAt: createdAt(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [index('conformance_checks_project_idx').on(t.projectId, t.createdAt)],
);
