/**
 * Connections to issue trackers, the links of tasks to their issues, syncs and the
 * deliveries a tracker's webhook brought.
 */
import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { accounts } from './accounts.ts';
import { createdAt } from './columns.ts';
import { projects } from './projects.ts';

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
