/**
 * Accounts and what is kept per account and mode: API keys, credits with their ledger,
 * idempotency keys, rate-limit counters and house conventions.
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
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
import { createdAt } from './columns.ts';

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
