import type { components } from '@pgs/contract';
import type { Db, Tx } from '../storage/db.ts';
import { listDocuments } from '../storage/sql/projects.ts';
import { listTaskHistory, listTaskRows } from '../storage/sql/tasks.ts';
import { SourcesCache, type TaskContext } from './context.ts';
import type { TaskDispatcher } from './notify.ts';
import { type OpenProject, openProject, type TaskCaller } from './open.ts';
import { type RequirementCriteria, type TraceProgress, traceProgress } from './progress.ts';
import { linksOfTask, type Task, taskLinks, taskOf, taskReadEtag } from './representation.ts';
import {
  answerOf,
  type ClaimTaskRequest,
  claimTask,
  renewLease,
  type TaskAnswer,
  taskRow,
  type UpdateTaskRequest,
  updateTask,
  type WriteScope,
} from './writes.ts';

export type { TaskCaller } from './open.ts';
export {
  type ClaimTaskRequest,
  DEFAULT_LEASE_SECONDS,
  type TaskAnswer,
  type UpdateTaskRequest,
} from './writes.ts';

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

/**
 * The plan of a completed project as live work (docs/tasks.md): the one facade the REST
 * routes, the MCP tools (and trackers) call, so all refuse the same things the same way
 * (DomainError codes). Every operation first brings the project's tasks up to date in its
 * transaction (open.ts); the rules of each change are in writes.ts.
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
    return (await this.listing(caller, projectId, filter)).tasks;
  }

  /**
   * {@link list} with the revision whose plan the tasks reflect (the listing's `PGS-Revision`):
   * a client comparing two listings knows whether a revision came between them.
   *
   * @example
   * const { tasks, revision } = await tasks.listing(caller, projectId);
   */
  async listing(
    caller: TaskCaller,
    projectId: string,
    filter: TaskQuery = {},
  ): Promise<{ tasks: Task[]; revision: number }> {
    return this.#db.transaction(async (tx) => {
      const { id, revision } = await this.#open(tx, caller, projectId);
      const rows = await listTaskRows(tx, id, filter);
      // Every task's tracker links in one query, not one per task.
      const links = await taskLinks(
        tx,
        id,
        rows.map((row) => row.taskId),
      );
      return {
        tasks: rows.map((row) => taskOf(row, linksOfTask(links, row.taskId).links)),
        revision,
      };
    });
  }

  /** One task with its history and ETag; 404 when the plan has no such task. */
  async get(caller: TaskCaller, projectId: string, taskId: string): Promise<TaskAnswer> {
    return this.#db.transaction(async (tx) => {
      const { id } = await this.#open(tx, caller, projectId);
      return answerOf(tx, id, await taskRow(tx, id, taskId));
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
    return this.#db.transaction(async (tx) =>
      updateTask(await this.#write(tx, caller, projectId), taskId, ifMatch, change),
    );
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
      const scope = await this.#write(tx, caller, projectId);
      const row = await claimTask(scope, request);
      if (row === undefined) return undefined;
      const links = await taskLinks(tx, scope.projectId, [row.taskId]);
      return { id: scope.projectId, revision: scope.revision, row, links };
    });
    if (claimed === undefined) return undefined;
    const links = linksOfTask(claimed.links, claimed.row.taskId);
    const task = taskOf(claimed.row, links.links);
    const context = await this.#db.transaction((tx) => this.#pack(tx, claimed, task));
    return { task, etag: taskReadEtag(claimed.row, links), context };
  }

  /** Extends the lease `agent` holds on a task in progress; 409 LEASE_NOT_HELD otherwise. */
  async renew(
    caller: TaskCaller,
    projectId: string,
    taskId: string,
    request: ClaimTaskRequest,
  ): Promise<TaskAnswer> {
    // Locked as every task writer locks (the project row first), so an update cannot slip
    // between the renewal's read and its write and turn it into an undeclared 412.
    return this.#db.transaction(async (tx) =>
      renewLease(await this.#write(tx, caller, projectId), taskId, request),
    );
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
      const row = await taskRow(tx, project.id, taskId);
      const links = linksOfTask(await taskLinks(tx, project.id, [row.taskId]), row.taskId);
      return this.#pack(tx, project, taskOf(row, links.links));
    });
  }

  #open(tx: Tx, caller: TaskCaller, projectId: string): Promise<OpenProject> {
    return openProject(tx, caller, projectId, new Date(this.#now()), this.#dispatcher);
  }

  /** The project opened for a write: its row locked to the end of `tx`. */
  async #write(
    tx: Tx,
    caller: TaskCaller,
    projectId: string,
  ): Promise<WriteScope & { revision: number }> {
    const at = new Date(this.#now());
    const { id, revision } = await openProject(tx, caller, projectId, at, this.#dispatcher, {
      write: true,
    });
    return { tx, caller, projectId: id, at, dispatcher: this.#dispatcher, revision };
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
