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
  varchar,
} from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

/** An account owns API keys, projects and one credit balance per mode. */
export const accounts = pgTable('accounts', {
  id: text('id').primaryKey(),
  name: text('name'),
  createdAt: createdAt(),
});

/** API keys; only a SHA-256 hash of the secret is kept. */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id),
    mode: text('mode', { enum: ['live', 'test'] }).notNull(),
    keyHash: text('key_hash').notNull().unique(),
    prefix: text('prefix').notNull(),
    name: text('name'),
    createdAt: createdAt(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [
    index('api_keys_account_idx').on(t.accountId),
    check('api_keys_mode_check', sql`${t.mode} in ('live', 'test')`),
  ],
);

/** The current balance per account and mode; changed only together with a ledger entry. */
export const creditBalances = pgTable(
  'credit_balances',
  {
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id),
    mode: text('mode', { enum: ['live', 'test'] }).notNull(),
    balance: bigint('balance', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.mode] })],
);

/**
 * Every credit movement. `movementKey` is unique, so a movement retried after a crash
 * (for example `project:<id>:refund`) is recorded once.
 */
export const creditLedger = pgTable(
  'credit_ledger',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id),
    mode: text('mode', { enum: ['live', 'test'] }).notNull(),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    kind: text('kind').notNull(),
    projectId: uuid('project_id'),
    movementKey: text('movement_key').notNull().unique(),
    createdAt: createdAt(),
  },
  (t) => [index('credit_ledger_account_idx').on(t.accountId, t.mode)],
);

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

/**
 * Idempotency keys of POST requests, per account and mode, kept 24 hours. A row is
 * `processing` while its first request runs, then holds the response to replay.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    accountId: text('account_id').notNull(),
    mode: text('mode', { enum: ['live', 'test'] }).notNull(),
    key: text('key').notNull(),
    operation: text('operation').notNull(),
    requestHash: text('request_hash').notNull(),
    state: text('state', { enum: ['processing', 'done'] }).notNull(),
    responseStatus: integer('response_status'),
    responseHeaders: jsonb('response_headers'),
    responseBody: text('response_body'),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.accountId, t.mode, t.key] }),
    index('idempotency_keys_expires_idx').on(t.expiresAt),
  ],
);

/** Measured generation time per document kind (moving average), for estimates. */
export const generationStats = pgTable('generation_stats', {
  kind: text('kind').primaryKey(),
  samples: integer('samples').notNull(),
  avgMs: doublePrecision('avg_ms').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Rate-limit counters when they live in PostgreSQL: rate-limiter-flexible's own table,
 * created here so processes starting together never race to create it.
 */
export const rateLimits = pgTable('rate_limits', {
  key: varchar('key', { length: 255 }).primaryKey(),
  points: integer('points').notNull().default(0),
  expire: bigint('expire', { mode: 'number' }),
});

/**
 * Where an account (in one mode) wants to be told of its projects' final events. The
 * signing secret is kept as issued (`whsec_…`): it is needed in clear to sign, and is
 * shown to the client only when the endpoint is created.
 */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id),
    mode: text('mode', { enum: ['live', 'test'] }).notNull(),
    url: text('url').notNull(),
    /** The event types sent to it, a JSON array of strings. */
    events: jsonb('events').$type<string[]>().notNull(),
    secret: text('secret').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('webhook_endpoints_owner_idx').on(t.accountId, t.mode)],
);

/** Every attempt at delivering a webhook message, kept with its endpoint. */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    endpointId: text('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    /** `msg_<ULID>`: the `webhook-id` header, the same on every attempt of one message. */
    messageId: text('message_id').notNull(),
    eventType: text('event_type').notNull(),
    projectId: uuid('project_id').notNull(),
    /** 1 for the first attempt. */
    attempt: integer('attempt').notNull(),
    statusCode: integer('status_code'),
    error: text('error'),
    durationMs: integer('duration_ms').notNull(),
    attemptedAt: timestamp('attempted_at', { withTimezone: true }).notNull(),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    /** `succeeded`, `retrying` (another attempt is scheduled) or `failed` (no more attempts). */
    state: text('state', { enum: ['succeeded', 'retrying', 'failed'] }).notNull(),
  },
  (t) => [
    index('webhook_deliveries_endpoint_idx').on(t.endpointId, t.id),
    // The retention sweep finds old attempts by time.
    index('webhook_deliveries_attempted_idx').on(t.attemptedAt),
  ],
);

/** A task's state, as docs/tasks.md draws the machine. */
export const TASK_STATUSES = ['todo', 'in_progress', 'blocked', 'done', 'obsolete'] as const;

/**
 * The plan of a completed project as live work (docs/tasks.md): one row per task `T-n` of
 * its implementation plan, holding what the plan says of it (read once from the document
 * when the tasks are materialised) and its state, which people and agents change. `version`
 * grows with every change and is the ETag, so a stale write is refused (412).
 */
export const projectTasks = pgTable(
  'project_tasks',
  {
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    taskId: text('task_id').notNull(),
    /** Its place in the plan: the order `next` hands tasks out in. */
    position: integer('position').notNull(),
    title: text('title').notNull(),
    /** The plan's slice (the `###` heading of its table). */
    phase: text('phase').notNull(),
    requirements: text('requirements').array().notNull(),
    criteria: text('criteria').array().notNull(),
    dependsOn: text('depends_on').array().notNull(),
    files: text('files').array().notNull(),
    estimate: text('estimate'),
    status: text('status', { enum: TASK_STATUSES }).notNull().default('todo'),
    assignee: text('assignee'),
    /** The agent holding the lease, and until when: set by a claim, renewed, expired to todo. */
    leaseAgent: text('lease_agent'),
    leaseExpiresAt: timestamp('lease_expires_at', { withTimezone: true }),
    version: integer('version').notNull().default(1),
    /** The revision whose plan last changed the row: one that leaves a task as it was does not write it (its ETag holds). */
    revision: integer('revision').notNull().default(1),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.taskId] }),
    index('project_tasks_order_idx').on(t.projectId, t.position),
    check(
      'project_tasks_status_check',
      sql`${t.status} in ('todo', 'in_progress', 'blocked', 'done', 'obsolete')`,
    ),
  ],
);

/** Every change of a task: who (a key, an agent, or PGS itself), when, from, to and why. */
export const projectTaskHistory = pgTable(
  'project_task_history',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    taskId: text('task_id').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
    /** The API key that made the change; null when PGS did (a lease expired, a revision). */
    keyId: text('key_id'),
    agent: text('agent'),
    /** Who the task is assigned to after the change. */
    assignee: text('assignee'),
    fromStatus: text('from_status', { enum: TASK_STATUSES }),
    toStatus: text('to_status', { enum: TASK_STATUSES }).notNull(),
    note: text('note'),
  },
  (t) => [index('project_task_history_task_idx').on(t.projectId, t.taskId, t.id)],
);

/**
 * Which revision's plan a project's task rows reflect: absent until they are first
 * materialised (at completion, or on the first task request for a project completed before
 * tasks existed), so "no tasks yet" and "a plan without tasks" are told apart.
 */
export const projectTaskPlans = pgTable('project_task_plans', {
  projectId: uuid('project_id')
    .primaryKey()
    .references(() => projects.id, { onDelete: 'cascade' }),
  revision: integer('revision').notNull(),
  syncedAt: timestamp('synced_at', { withTimezone: true }).notNull(),
});

/** The trackers PGS can push a plan to (docs/trackers.md). */
export const TRACKER_PROVIDERS = ['github', 'linear', 'jira'] as const;

/**
 * A connection to an issue tracker, per account and mode: a GitHub repository, a Linear team
 * or a Jira project. `credentials` and `webhookSecret` are sealed (AES-256-GCM, the key from
 * configuration; `v1.<keyId>.<iv>.<ciphertext>.<tag>`), never stored or returned in clear.
 */
export const trackerConnections = pgTable(
  'tracker_connections',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id),
    mode: text('mode', { enum: ['live', 'test'] }).notNull(),
    provider: text('provider', { enum: TRACKER_PROVIDERS }).notNull(),
    name: text('name').notNull(),
    /** GitHub Enterprise Server, a Jira site, or a fake in tests; null for the public API. */
    baseUrl: text('base_url'),
    /** `{ owner, repo }`, `{ team }` or `{ projectKey }`, with what verification learnt (ids). */
    target: jsonb('target').$type<Record<string, string>>().notNull(),
    credentials: text('credentials').notNull(),
    webhookSecret: text('webhook_secret').notNull(),
    /** When the periodic reconcile last read the tracker. */
    reconciledAt: timestamp('reconciled_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('tracker_connections_owner_idx').on(t.accountId, t.mode)],
);

/**
 * What a connection's tracker holds for a project's item (`T-3`, `FR-2`): the mapping that
 * makes a sync idempotent. `digest` is a hash of what PGS last wrote, so an unchanged item is
 * not written again; `state` is the open or closed state as last seen.
 */
export const trackerLinks = pgTable(
  'tracker_links',
  {
    connectionId: text('connection_id')
      .notNull()
      .references(() => trackerConnections.id, { onDelete: 'cascade' }),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    itemId: text('item_id').notNull(),
    externalId: text('external_id').notNull(),
    /** What people call it on the tracker: `#12`, `ENG-12`, `PGS-12`. */
    externalKey: text('external_key').notNull(),
    url: text('url').notNull(),
    digest: text('digest').notNull(),
    state: text('state', { enum: ['open', 'closed'] }).notNull(),
    /** The tracker's own updated-at of the issue when last read (reconcile: newest wins). */
    externalUpdatedAt: timestamp('external_updated_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.connectionId, t.projectId, t.itemId] }),
    index('tracker_links_external_idx').on(t.connectionId, t.externalId),
  ],
);

/** One push of a project to a tracker: its status and one item per ID (docs/trackers.md). */
export const projectSyncs = pgTable(
  'project_syncs',
  {
    id: text('id').primaryKey(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    connectionId: text('connection_id')
      .notNull()
      .references(() => trackerConnections.id, { onDelete: 'cascade' }),
    scope: text('scope', { enum: ['tasks', 'requirements', 'all'] }).notNull(),
    dryRun: boolean('dry_run').notNull().default(false),
    status: text('status', { enum: ['queued', 'running', 'succeeded', 'failed'] }).notNull(),
    /** `[{ id, action, externalId, url, error? }]`, in plan order. */
    items: jsonb('items').$type<unknown[]>().notNull().default(sql`'[]'::jsonb`),
    error: jsonb('error').$type<{ code: string; message: string }>(),
    /**
     * The token of the attempt that holds a running sync (each claim gives a new one): every
     * write of the sync is conditional on it, so a worker taken over stops writing. Never shown.
     */
    attempt: text('attempt'),
    createdAt: createdAt(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [index('project_syncs_project_idx').on(t.projectId, t.createdAt)],
);

/**
 * Deliveries a tracker's webhook already brought, so a replay changes nothing; swept with
 * the other retention.
 */
export const trackerDeliveries = pgTable(
  'tracker_deliveries',
  {
    connectionId: text('connection_id')
      .notNull()
      .references(() => trackerConnections.id, { onDelete: 'cascade' }),
    deliveryId: text('delivery_id').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.connectionId, t.deliveryId] })],
);

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

/**
 * House conventions (docs/conventions.md), per account and mode, versioned: every `PUT`
 * writes a new version, and a project records the version it was written under.
 */
export const accountConventions = pgTable(
  'account_conventions',
  {
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id),
    mode: text('mode', { enum: ['live', 'test'] }).notNull(),
    version: integer('version').notNull(),
    /** The conventions as given: `{ markdown?, stack?, compliance?, language?, … }`. */
    body: jsonb('body').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.mode, t.version] })],
);
