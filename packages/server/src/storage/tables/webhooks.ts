/**
 * Webhook endpoints an account registers and the deliveries made to them.
 */
import { bigint, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './accounts.ts';
import { createdAt } from './columns.ts';

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
