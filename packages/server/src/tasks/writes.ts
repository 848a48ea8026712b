/**
 * The rules of changing a task (docs/tasks.md): a conditional update, a claim of the next
 * ready task and a lease renewal, each inside the transaction of a project opened for
 * writing (its row locked first, then task rows).
 */
import type { components } from '@pgs/contract';
import { DomainError } from '../errors.ts';
import type { Tx } from '../storage/db.ts';
import {
  findLeasedTask,
  findTaskRow,
  listTaskHistory,
  lockNextReadyTask,
  type NewTaskHistoryRow,
  type TaskRow,
  updateTaskRow,
} from '../storage/sql/tasks.ts';
import { recordTaskHistory, type TaskDispatcher } from './notify.ts';
import type { TaskCaller } from './open.ts';
import {
  historyEntryOf,
  linksOfTask,
  type TaskDetail,
  taskEtag,
  taskLinks,
  taskOf,
  taskReadEtag,
  versionEtagOf,
} from './representation.ts';
import { checkTransition } from './transitions.ts';

export type UpdateTaskRequest = components['schemas']['UpdateTaskRequest'];
export type ClaimTaskRequest = components['schemas']['ClaimTaskRequest'];

/** A task as one read or write left it, with the ETag of that version and its links. */
export interface TaskAnswer<T = TaskDetail> {
  task: T;
  etag: string;
}

/** The lease a claim gives when it names none: long enough for a task, short enough to recover. */
export const DEFAULT_LEASE_SECONDS = 900;

/** One write's setting: the caller, the opened project's id, the time, who hears of it. */
export interface WriteScope {
  tx: Tx;
  caller: TaskCaller;
  projectId: string;
  at: Date;
  dispatcher: TaskDispatcher | undefined;
}

/** The project's task `taskId`; 404 when the plan has no such task. */
export async function taskRow(tx: Tx, projectId: string, taskId: string): Promise<TaskRow> {
  const row = await findTaskRow(tx, projectId, taskId);
  if (row === undefined) {
    throw new DomainError('RESOURCE_NOT_FOUND', 'The plan has no task with this identifier.', {
      resource_type: 'task',
      resource_id: taskId,
    });
  }
  return row;
}

/** The task with its history, its tracker links and its read ETag (version and links). */
export async function answerOf(tx: Tx, projectId: string, row: TaskRow): Promise<TaskAnswer> {
  const history = await listTaskHistory(tx, projectId, [row.taskId]);
  const links = linksOfTask(await taskLinks(tx, projectId, [row.taskId]), row.taskId);
  return {
    task: { ...taskOf(row, links.links), history: history.map(historyEntryOf) },
    etag: taskReadEtag(row, links),
  };
}

/**
 * Changes a task's status, assignee or adds a note, only if `ifMatch` is its current ETag
 * (428 without one, 412 when stale) and the move is allowed (409, naming those that are).
 */
export async function updateTask(
  scope: WriteScope,
  taskId: string,
  ifMatch: string | undefined,
  change: UpdateTaskRequest,
): Promise<TaskAnswer> {
  const { tx, caller, projectId: id, at } = scope;
  const row = await taskRow(tx, id, taskId);
  // After the project and the task are found: a foreign or missing one answers 404 first.
  if (ifMatch === undefined || ifMatch.trim() === '') {
    throw new DomainError(
      'PRECONDITION_REQUIRED',
      'Send the ETag of your last read of the task as If-Match.',
      { missing_fields: ['If-Match'] },
    );
  }
  if (!ifMatches(ifMatch, taskEtag(row))) throw stale(row);
  const to = change.status ?? row.status;
  checkTransition(row.taskId, row.status, to);
  const assignee = change.assignee === undefined ? row.assignee : change.assignee;
  if (to === row.status && assignee === row.assignee && change.note === undefined) {
    return answerOf(tx, id, row);
  }
  // Leaving in_progress ends the lease: nobody holds the task any more. Entering it leases
  // the task as a claim would, to its assignee (else the caller's key), so work started by
  // hand returns to the pool when nobody renews it, instead of being held for ever.
  const lease =
    to !== 'in_progress'
      ? { leaseAgent: null, leaseExpiresAt: null }
      : row.status === 'in_progress'
        ? {}
        : {
            leaseAgent: assignee ?? caller.keyId,
            leaseExpiresAt: new Date(at.getTime() + DEFAULT_LEASE_SECONDS * 1000),
          };
  const updated = await updateTaskRow(tx, id, row.taskId, row.version, {
    status: to,
    assignee,
    ...lease,
    updatedAt: at,
  });
  if (updated === undefined) throw stale(row);
  await record(scope, row, { to, assignee, note: change.note });
  return answerOf(tx, id, updated);
}

/**
 * Claims for `agent` the first task in plan order that is `todo` with every dependency done,
 * leased for `leaseSeconds`; the task the agent already holds, when it holds one (a retried
 * claim). Undefined when no task is ready.
 */
export async function claimTask(
  scope: WriteScope,
  request: ClaimTaskRequest,
): Promise<TaskRow | undefined> {
  const { tx, projectId: id, at } = scope;
  const leaseExpiresAt = new Date(
    at.getTime() + (request.leaseSeconds ?? DEFAULT_LEASE_SECONDS) * 1000,
  );
  const held = await findLeasedTask(tx, id, request.agent);
  const row = held ?? (await lockNextReadyTask(tx, id));
  if (row === undefined) return undefined;
  const updated = await updateTaskRow(tx, id, row.taskId, row.version, {
    status: 'in_progress',
    assignee: held === undefined ? request.agent : row.assignee,
    leaseAgent: request.agent,
    leaseExpiresAt,
    updatedAt: at,
  });
  // The row is locked by this transaction: nothing else can have moved it on.
  if (updated === undefined) throw new Error(`task ${row.taskId} changed under its lock`);
  if (held === undefined) {
    await record(scope, row, {
      agent: request.agent,
      to: 'in_progress',
      assignee: request.agent,
    });
  }
  return updated;
}

/** Extends the lease `agent` holds on a task in progress; 409 LEASE_NOT_HELD otherwise. */
export async function renewLease(
  scope: WriteScope,
  taskId: string,
  request: ClaimTaskRequest,
): Promise<TaskAnswer> {
  const { tx, projectId: id, at } = scope;
  const row = await taskRow(tx, id, taskId);
  if (row.status !== 'in_progress' || row.leaseAgent !== request.agent) {
    throw new DomainError(
      'LEASE_NOT_HELD',
      row.status === 'in_progress' && row.leaseAgent !== null
        ? `Task ${row.taskId} is leased to another agent.`
        : `${request.agent} holds no lease on task ${row.taskId}: it is ${row.status}.`,
      {
        resource_type: 'task',
        resource_id: row.taskId,
        status: row.status,
        lease_agent: row.leaseAgent,
      },
    );
  }
  const seconds = request.leaseSeconds ?? DEFAULT_LEASE_SECONDS;
  const updated = await updateTaskRow(tx, id, row.taskId, row.version, {
    leaseExpiresAt: new Date(at.getTime() + seconds * 1000),
    updatedAt: at,
  });
  if (updated === undefined) throw stale(row);
  return answerOf(tx, id, updated);
}

/** A change's history entry, and its `task.updated` when the status moved. */
async function record(
  { tx, caller, projectId, at, dispatcher }: WriteScope,
  row: TaskRow,
  change: {
    agent?: string;
    to: TaskRow['status'];
    assignee: string | null;
    note?: string | undefined;
  },
): Promise<void> {
  const entry: NewTaskHistoryRow = {
    projectId,
    taskId: row.taskId,
    at,
    keyId: caller.keyId,
    agent: change.agent ?? null,
    fromStatus: row.status,
    toStatus: change.to,
    assignee: change.assignee,
    note: change.note ?? null,
  };
  await recordTaskHistory(tx, projectId, [entry], { ...caller, dispatcher });
}

/**
 * `If-Match` as RFC 9110 reads it: `*`, or a list of ETags compared strongly, by the task's
 * version alone (a read ETag's links part is dropped: a sync does not make it stale).
 */
function ifMatches(ifMatch: string, etag: string): boolean {
  return ifMatch
    .split(',')
    .map((tag) => tag.trim())
    .some((tag) => tag === '*' || versionEtagOf(tag) === etag);
}

function stale(row: TaskRow): DomainError {
  return new DomainError(
    'PRECONDITION_FAILED',
    `Task ${row.taskId} changed since that ETag was read; read it again and retry with its new ETag.`,
    { resource_type: 'task', resource_id: row.taskId, etag: taskEtag(row) },
  );
}
