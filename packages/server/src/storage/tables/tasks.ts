/**
 * A plan's tasks as live work, their history and the revision their rows reflect.
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt } from './columns.ts';
import { projects } from './projects.ts';

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
