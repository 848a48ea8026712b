import type { components } from '@pgs/contract';
import type { Tx } from '../storage/db.ts';
import type { TaskHistoryRow, TaskRow } from '../storage/sql/tasks.ts';
import { listTaskLinksOfProject } from '../storage/sql/tracker-syncs.ts';

/** A task as the API answers it (the contract's `Task`). */
export type Task = components['schemas']['Task'];
/** A task with its history (`TaskDetail`). */
export type TaskDetail = components['schemas']['TaskDetail'];
export type TaskHistoryEntry = components['schemas']['TaskHistoryEntry'];
/** A task's issue on a tracker a sync pushed it to (`TaskLink`). */
export type TaskLink = components['schemas']['TaskLink'];

/** A task's links, and the time the newest of them last changed (none: null). */
export interface TaskLinks {
  links: TaskLink[];
  changedAt: Date | null;
}

/**
 * The tracker links of a project's tasks (of `taskIds` only, when given), by task id, read in
 * one query however many tasks (docs/trackers.md, "Each task's issue").
 *
 * @example
 * (await taskLinks(tx, projectId, ['T-3'])).get('T-3')?.links; // [{ provider: 'github', … }]
 */
export async function taskLinks(
  tx: Tx,
  projectId: string,
  taskIds?: readonly string[],
): Promise<Map<string, TaskLinks>> {
  const byTask = new Map<string, TaskLinks>();
  if (taskIds !== undefined && taskIds.length === 0) return byTask;
  for (const row of await listTaskLinksOfProject(tx, projectId, taskIds)) {
    const entry = byTask.get(row.itemId) ?? { links: [], changedAt: null };
    entry.links.push({
      provider: row.provider,
      connectionId: row.connectionId,
      externalId: row.externalId,
      key: row.externalKey,
      url: row.url,
      state: row.state,
    });
    if (entry.changedAt === null || row.updatedAt > entry.changedAt)
      entry.changedAt = row.updatedAt;
    byTask.set(row.itemId, entry);
  }
  return byTask;
}

/** The links of `taskId` in what {@link taskLinks} read: none when it has none. */
export const linksOfTask = (links: ReadonlyMap<string, TaskLinks>, taskId: string): TaskLinks =>
  links.get(taskId) ?? { links: [], changedAt: null };

/**
 * A stored task as the contract's `Task`, with its tracker links ({@link taskLinks}).
 *
 * @example
 * taskOf(row).lease; // { agent: 'claude-1', expiresAt: '2026-…' } or null
 */
export function taskOf(row: TaskRow, links: readonly TaskLink[] = []): Task {
  return {
    id: row.taskId,
    title: row.title,
    phase: row.phase,
    requirements: row.requirements,
    criteria: row.criteria,
    dependsOn: row.dependsOn,
    files: row.files,
    estimate: row.estimate,
    status: row.status,
    assignee: row.assignee,
    lease:
      row.status === 'in_progress' && row.leaseAgent !== null && row.leaseExpiresAt !== null
        ? { agent: row.leaseAgent, expiresAt: row.leaseExpiresAt.toISOString() }
        : null,
    updatedAt: row.updatedAt.toISOString(),
    links: [...links],
  };
}

/** A history row as the contract's `TaskHistoryEntry`. */
export function historyEntryOf(row: TaskHistoryRow): TaskHistoryEntry {
  return {
    at: row.at.toISOString(),
    keyId: row.keyId,
    agent: row.agent,
    from: row.fromStatus,
    to: row.toStatus,
    assignee: row.assignee,
    note: row.note,
  };
}

/**
 * A task's ETag: its id and its version, which every change moves on (a lease renewed or
 * expired too). The id is in it because every task starts at version 1: an update sent to the
 * wrong task with another task's ETag must fail, not match.
 *
 * @example
 * taskEtag(row); // '"T-3.v3"'
 */
export const taskEtag = (row: Pick<TaskRow, 'taskId' | 'version'>) =>
  `"${row.taskId}.v${row.version}"`;

/**
 * The ETag a read of the task answers: its version ({@link taskEtag}), and when it has tracker
 * links, their count and the newest one's change, so it moves exactly when the answered body
 * does (a sync or a webhook changes a link, not the task's version).
 *
 * @example
 * taskReadEtag(row, links); // '"T-3.v3.l1.1732780800000"'
 */
export function taskReadEtag(row: Pick<TaskRow, 'taskId' | 'version'>, links: TaskLinks): string {
  if (links.changedAt === null) return taskEtag(row);
  return `"${row.taskId}.v${row.version}.l${links.links.length}.${links.changedAt.getTime()}"`;
}

/**
 * The version ETag ({@link taskEtag}) a read ETag names: its links part dropped, so an
 * `If-Match` stays tied to the task's version alone.
 *
 * @example
 * versionEtagOf('"T-3.v3.l1.1732780800000"'); // '"T-3.v3"'
 */
export const versionEtagOf = (etag: string) => etag.replace(/\.l\d+\.\d+"$/, '"');

const CSV_COLUMNS = [
  'id',
  'title',
  'phase',
  'status',
  'assignee',
  'requirements',
  'criteria',
  'dependsOn',
  'files',
  'estimate',
  'leaseAgent',
  'leaseExpiresAt',
  'updatedAt',
] as const;

/**
 * A field as RFC 4180 writes it: quoted when it holds a comma, a quote or a line break. A
 * field a spreadsheet would run as a formula (`=`, `+`, `-`, `@` first) is prefixed with `'`
 * (OWASP's CSV injection advice): a plan's titles are a model's words.
 */
function csvField(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/**
 * Tasks as CSV for import into another tracker: a header line, then one line per task, lists
 * joined with spaces, CRLF line ends.
 *
 * @example
 * tasksCsv([task]).split('\r\n')[0]; // 'id,title,phase,status,…'
 */
export function tasksCsv(tasks: readonly Task[]): string {
  const lines = tasks.map((task) => {
    const values: Record<(typeof CSV_COLUMNS)[number], string> = {
      id: task.id,
      title: task.title,
      phase: task.phase,
      status: task.status,
      assignee: task.assignee ?? '',
      requirements: task.requirements.join(' '),
      criteria: task.criteria.join(' '),
      dependsOn: task.dependsOn.join(' '),
      files: task.files.join(' '),
      estimate: task.estimate ?? '',
      leaseAgent: task.lease?.agent ?? '',
      leaseExpiresAt: task.lease?.expiresAt ?? '',
      updatedAt: task.updatedAt,
    };
    return CSV_COLUMNS.map((column) => csvField(values[column])).join(',');
  });
  return `${[CSV_COLUMNS.join(','), ...lines].join('\r\n')}\r\n`;
}
