import type { components } from '@pgs/contract';
import { DomainError } from '../errors.ts';
import type { Db, Tx } from '../storage/db.ts';
import type { Mode } from '../storage/sql/accounts.ts';
import { listDocuments } from '../storage/sql/projects.ts';
import {
  expireLeases,
  findLeasedTask,
  findTaskProject,
  findTaskRow,
  hasExpiredLease,
  listTaskHistory,
  listTaskRows,
  lockNextReadyTask,
  type NewTaskHistoryRow,
  type TaskRow,
  updateTaskRow,
} from '../storage/sql/tasks.ts';
import { SourcesCache, type TaskContext } from './context.ts';
import { recordTaskHistory, type TaskAudience, type TaskDispatcher } from './notify.ts';
import { syncTasks } from './plan.ts';
import { type RequirementCriteria, type TraceProgress, traceProgress } from './progress.ts';
import { historyEntryOf, type Task, type TaskDetail, taskEtag, taskOf } from './representation.ts';
import { checkTransition } from './transitions.ts';

/**
 * Which of a project's tasks {@link Tasks.list} answers: the query of `GET …/tasks`.
 *
 * @example
 * await tasks.list(caller, projectId, { status: 'todo', requirement: 'FR-3' });
 */
export interface TaskQuery {
  status?: components['schemas']['TaskStatus'] | undefined;
  /** A requirement (`FR-3`, `NFR-1`) or criterion (`FR-3.1`) the task implements. */
  requirement?: string | undefined;
  assignee?: string | undefined;
}

/** Who asks: an API key of an account in one mode. */
export interface TaskCaller {
  keyId: string;
  accountId: string;
  mode: Mode;
}

export type UpdateTaskRequest = components['schemas']['UpdateTaskRequest'];
export type ClaimTaskRequest = components['schemas']['ClaimTaskRequest'];

/** A project open for task work: its canonical id and the revision its tasks reflect. */
interface OpenProject {
  id: string;
  revision: number;
}

/** A task as one read or write left it, with the ETag of that version. */
export interface TaskAnswer<T = TaskDetail> {
  task: T;
  etag: string;
}

/** The lease a claim gives when it names none: long enough for a task, short enough to recover. */
export const DEFAULT_LEASE_SECONDS = 900;

/**
 * The plan of a completed project as live work (docs/tasks.md): the rules of reading,
 * changing and claiming tasks, shared by the REST routes and (later) the MCP tools, so both
 * refuse the same things the same way (DomainError codes). Every operation first brings the
 * project's tasks up to date in its transaction: read from the plan if they never were (a
 * project completed before tasks existed, or a revision completed since), and expired leases
 * returned to `todo`, by the injected clock.
 *
 * @example
 * const tasks = new Tasks(db, () => Date.now());
 * const claimed = await tasks.claim(principal, projectId, { agent: 'claude-1' });
 */
export class Tasks {
  readonly #db: Db;
  readonly #now: () => number;
  readonly #sources: SourcesCache;
  readonly #dispatcher: TaskDispatcher | undefined;

  constructor(
    db: Db,
    now: () => number = Date.now,
    {
      sources = new SourcesCache(),
      dispatcher,
    }: {
      sources?: SourcesCache;
      /** Told of each change of status, in its transaction (the `task.updated` webhook). */
      dispatcher?: TaskDispatcher | undefined;
    } = {},
  ) {
    this.#db = db;
    this.#now = now;
    this.#sources = sources;
    this.#dispatcher = dispatcher;
  }

  /** The project's tasks in plan order, narrowed by `filter`. */
  async list(caller: TaskCaller, projectId: string, filter: TaskQuery = {}): Promise<Task[]> {
    return this.#db.transaction(async (tx) => {
      const { id } = await this.#open(tx, caller, projectId);
      return (await listTaskRows(tx, id, filter)).map(taskOf);
    });
  }

  /** One task with its history and ETag; 404 when the plan has no such task. */
  async get(caller: TaskCaller, projectId: string, taskId: string): Promise<TaskAnswer> {
    return this.#db.transaction(async (tx) => {
      const { id } = await this.#open(tx, caller, projectId);
      return this.#answer(tx, id, await this.#row(tx, id, taskId));
    });
  }

  /**
   * Changes a task's status, assignee or adds a note, only if `ifMatch` is its current ETag
   * (428 without one, 412 when stale) and the move is allowed (409, naming those that are).
   */
  async update(
    caller: TaskCaller,
    projectId: string,
    taskId: string,
    ifMatch: string | undefined,
    change: UpdateTaskRequest,
  ): Promise<TaskAnswer> {
    return this.#db.transaction(async (tx) => {
      const { id } = await this.#open(tx, caller, projectId, { write: true });
      const row = await this.#row(tx, id, taskId);
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
        return this.#answer(tx, id, row);
      }
      const at = new Date(this.#now());
      // Leaving in_progress ends the lease: nobody holds the task any more.
      const lease = to === 'in_progress' ? {} : { leaseAgent: null, leaseExpiresAt: null };
      const updated = await updateTaskRow(tx, id, row.taskId, row.version, {
        status: to,
        assignee,
        ...lease,
        updatedAt: at,
      });
      if (updated === undefined) throw stale(row);
      await this.#record(tx, caller, id, row, {
        at,
        keyId: caller.keyId,
        to,
        assignee,
        note: change.note,
      });
      return this.#answer(tx, id, updated);
    });
  }

  /**
   * Claims for `agent` the first task in plan order that is `todo` with every dependency done,
   * leased for `leaseSeconds`; the task the agent already holds, when it holds one (a retried
   * claim). Undefined when no task is ready.
   */
  async claim(
    caller: TaskCaller,
    projectId: string,
    request: ClaimTaskRequest,
  ): Promise<(TaskAnswer<Task> & { context: TaskContext }) | undefined> {
    const claimed = await this.#db.transaction(async (tx) => {
      const { id, revision } = await this.#open(tx, caller, projectId, { write: true });
      const at = new Date(this.#now());
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
        await this.#record(tx, caller, id, row, {
          at,
          keyId: caller.keyId,
          agent: request.agent,
          to: 'in_progress',
          assignee: request.agent,
        });
      }
      return { id, revision, row: updated };
    });
    if (claimed === undefined) return undefined;
    const task = taskOf(claimed.row);
    const context = await this.#db.transaction((tx) => this.#pack(tx, claimed, task));
    return { task, etag: taskEtag(claimed.row), context };
  }

  /** Extends the lease `agent` holds on a task in progress; 409 LEASE_NOT_HELD otherwise. */
  async renew(
    caller: TaskCaller,
    projectId: string,
    taskId: string,
    request: ClaimTaskRequest,
  ): Promise<TaskAnswer> {
    return this.#db.transaction(async (tx) => {
      // Locked as every task writer locks (the project row first), so an update cannot slip
      // between this read and the renewal and turn it into an undeclared 412.
      const { id } = await this.#open(tx, caller, projectId, { write: true });
      const row = await this.#row(tx, id, taskId);
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
      const at = new Date(this.#now());
      const seconds = request.leaseSeconds ?? DEFAULT_LEASE_SECONDS;
      const updated = await updateTaskRow(tx, id, row.taskId, row.version, {
        leaseExpiresAt: new Date(at.getTime() + seconds * 1000),
        updatedAt: at,
      });
      if (updated === undefined) throw stale(row);
      return this.#answer(tx, id, updated);
    });
  }

  /**
   * Delivery of the plan (issue 30, item 5): per requirement of `requirements` (the trace's
   * coverage) and per NFR a task names, its tasks done and its criteria delivered.
   */
  async progress(
    caller: TaskCaller,
    projectId: string,
    requirements: readonly RequirementCriteria[],
  ): Promise<TraceProgress> {
    return this.#db.transaction(async (tx) => {
      const { id } = await this.#open(tx, caller, projectId);
      return traceProgress(await listTaskRows(tx, id), requirements);
    });
  }

  /** The task's context pack (issue 30, item 3). */
  async context(caller: TaskCaller, projectId: string, taskId: string): Promise<TaskContext> {
    return this.#db.transaction(async (tx) => {
      const project = await this.#open(tx, caller, projectId);
      return this.#pack(tx, project, taskOf(await this.#row(tx, project.id, taskId)));
    });
  }

  /**
   * The caller's completed project, its tasks brought up to date: its id in canonical form
   * and the revision its tasks now reflect. 404 for a project the key cannot see, 409 before it is completed.
   */
  async #open(
    tx: Tx,
    caller: TaskCaller,
    projectId: string,
    { write = false }: { write?: boolean } = {},
  ): Promise<OpenProject> {
    const id = projectId.toLowerCase();
    const at = new Date(this.#now());
    // A change of status records an event, numbered on the project row: whoever may change
    // a task locks that row first, then task rows, as a revision completing does (the
    // other order could deadlock with it). A read locks it only when it has work to do.
    let project = await findTaskProject(tx, id, caller, { lock: write });
    if (
      !write &&
      project?.status === 'completed' &&
      (project.plannedRevision !== project.currentRevision || (await hasExpiredLease(tx, id, at)))
    ) {
      project = await findTaskProject(tx, id, caller, { lock: true });
    }
    if (project === undefined) {
      throw new DomainError('RESOURCE_NOT_FOUND', 'No project with this identifier exists.', {
        resource_type: 'project',
        resource_id: projectId,
      });
    }
    if (project.status !== 'completed') {
      throw new DomainError(
        'PROJECT_NOT_COMPLETED',
        project.status === 'in_progress'
          ? 'The project is still being generated; its tasks exist once it is completed.'
          : 'The project failed, so it has no plan to work through.',
        { resource_type: 'project', resource_id: projectId, status: project.status },
      );
    }
    const audience: TaskAudience = { ...caller, dispatcher: this.#dispatcher };
    if (project.plannedRevision !== project.currentRevision) {
      const documents = await listDocuments(tx, id, project.currentRevision);
      await syncTasks(tx, id, project.currentRevision, documents, at, audience);
    }
    const expired = await expireLeases(tx, id, at);
    await recordTaskHistory(
      tx,
      id,
      expired.map((task) => ({
        projectId: id,
        taskId: task.taskId,
        at,
        keyId: null,
        agent: task.agent,
        fromStatus: 'in_progress',
        toStatus: 'todo',
        assignee: task.assignee === task.agent ? null : task.assignee,
        note: `The lease of ${task.agent} expired at ${task.expiredAt?.toISOString()}; the task is back in todo.`,
      })),
      audience,
    );
    return { id, revision: project.currentRevision };
  }

  async #row(tx: Tx, projectId: string, taskId: string): Promise<TaskRow> {
    const row = await findTaskRow(tx, projectId, taskId);
    if (row === undefined) {
      throw new DomainError('RESOURCE_NOT_FOUND', 'The plan has no task with this identifier.', {
        resource_type: 'task',
        resource_id: taskId,
      });
    }
    return row;
  }

  async #answer(tx: Tx, projectId: string, row: TaskRow): Promise<TaskAnswer> {
    const history = await listTaskHistory(tx, projectId, [row.taskId]);
    return { task: { ...taskOf(row), history: history.map(historyEntryOf) }, etag: taskEtag(row) };
  }

  async #record(
    tx: Tx,
    caller: TaskCaller,
    projectId: string,
    row: TaskRow,
    change: {
      at: Date;
      keyId: string;
      agent?: string;
      to: TaskRow['status'];
      assignee: string | null;
      note?: string | undefined;
    },
  ): Promise<void> {
    const entry: NewTaskHistoryRow = {
      projectId,
      taskId: row.taskId,
      at: change.at,
      keyId: change.keyId,
      agent: change.agent ?? null,
      fromStatus: row.status,
      toStatus: change.to,
      assignee: change.assignee,
      note: change.note ?? null,
    };
    await recordTaskHistory(tx, projectId, [entry], { ...caller, dispatcher: this.#dispatcher });
  }

  async #pack(tx: Tx, { id: projectId, revision }: OpenProject, task: Task): Promise<TaskContext> {
    const sources = await this.#sources.get(`${projectId}@${revision}`, () =>
      listDocuments(tx, projectId, revision),
    );
    const rows = task.dependsOn.length === 0 ? [] : await listTaskRows(tx, projectId);
    const notes = await listTaskHistory(tx, projectId, task.dependsOn);
    const dependencies = rows
      .filter((row) => task.dependsOn.includes(row.taskId))
      .map((row) => ({
        id: row.taskId,
        title: row.title,
        status: row.status,
        notes: notes
          .filter((entry) => entry.taskId === row.taskId && entry.note !== null)
          .map((entry) => entry.note!),
      }));
    return sources.pack(task, dependencies);
  }
}

/** `If-Match` as RFC 9110 reads it: `*`, or a list of ETags compared strongly. */
function ifMatches(ifMatch: string, etag: string): boolean {
  return ifMatch
    .split(',')
    .map((tag) => tag.trim())
    .some((tag) => tag === '*' || tag === etag);
}

function stale(row: TaskRow): DomainError {
  return new DomainError(
    'PRECONDITION_FAILED',
    `Task ${row.taskId} changed since that ETag was read; read it again and retry with its new ETag.`,
    { resource_type: 'task', resource_id: row.taskId, etag: taskEtag(row) },
  );
}
