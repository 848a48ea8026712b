import type {
  ClaimedTaskResponse,
  Task,
  TaskContext,
  TaskContextResponse,
  TaskDetail,
  TaskListResponse,
  TaskResponse,
  TaskStatus,
  UpdateTaskRequest,
} from '@pgs/contract';
import type { APIResponse, RequestOptions } from '../core.ts';
import { PgsError, PreconditionFailedError } from '../errors.ts';
import { APIResource, segment } from './resource.ts';

/** Filters of {@link Tasks.list}; each narrows the list, none reorders it. */
export interface TaskListParams {
  status?: TaskStatus | undefined;
  /** A requirement (`FR-3`, `NFR-1`) or a criterion (`FR-3.1`) the task implements. */
  requirement?: string | undefined;
  /** Exactly this assignee. */
  assignee?: string | undefined;
}

/** A task as one read or write left it, with that version's `ETag` (send it as `ifMatch`). */
export interface TaskVersion<T = TaskDetail> {
  task: T;
  /** `"T-3.v3"`: the task's id and version, quotes included, as the `ETag` header gave it. */
  etag: string;
}

/** Who claims or renews, and for how long: `agent` (a name, one line), `leaseSeconds` (30–86,400; 900 by default). */
export interface TaskClaimParams {
  agent: string;
  leaseSeconds?: number | undefined;
}

/** What {@link Tasks.next} claimed: the task, its `ETag` and its context pack. */
export interface ClaimedTask extends TaskVersion<Task> {
  context: TaskContext;
}

/** Options of {@link Tasks.update}: the request's, and the version the change is made to. */
export interface TaskUpdateOptions extends RequestOptions {
  /**
   * The `ETag` of the task as you last saw it (from `get`, `next`, `renew` or an earlier
   * `update`): the change is refused with `PreconditionFailedError` (412) if the task moved on
   * since. Absent, the SDK reads the task first and sends the `ETag` it has then.
   */
  ifMatch?: string | undefined;
}

/** Options of {@link Tasks.context}: `format: 'markdown'` answers the pack as one document. */
export interface TaskContextOptions extends RequestOptions {
  format?: 'json' | 'markdown' | undefined;
}

const tasksPath = (projectId: string) => `/projects/${segment('projectId', projectId)}/tasks`;
const taskPath = (projectId: string, taskId: string) =>
  `${tasksPath(projectId)}/${segment('taskId', taskId)}`;

/** The body of a claim or a renewal: `leaseSeconds` left out when not given (the server's default). */
function claimBody({ agent, leaseSeconds }: TaskClaimParams): Record<string, unknown> {
  return leaseSeconds === undefined ? { agent } : { agent, leaseSeconds };
}

function etagOf(response: APIResponse<unknown>): string {
  const etag = response.headers.get('etag');
  if (etag === null) throw new PgsError('The server answered a task without its ETag.');
  return etag;
}

/**
 * The plan of a completed project as live work (the repository's `docs/tasks.md`):
 * `pgs.projects.tasks`. Agents claim the next ready task (`next`), which comes with its
 * context pack, and mark it `done` (`update`); people list, read, assign and block tasks.
 * Two claims never receive the same task, however many agents claim at once.
 *
 * A project in progress or failed is a `ConflictError` (`PROJECT_NOT_COMPLETED`); a move the
 * status machine refuses is a `ConflictError` (`TASK_TRANSITION_NOT_ALLOWED`, `details.allowed`
 * naming the moves there are), a renewal of a lease the agent lost one with `LEASE_NOT_HELD`:
 * none of them is retried, as asking again gets the same answer.
 *
 * @example
 * for (let claimed = await pgs.projects.tasks.next(projectId, { agent: 'claude-1' }); claimed !== null;
 *      claimed = await pgs.projects.tasks.next(projectId, { agent: 'claude-1' })) {
 *   await work(claimed.context);
 *   await pgs.projects.tasks.update(projectId, claimed.task.id, { status: 'done', note: 'Tests pass.' }, { ifMatch: claimed.etag });
 * }
 */
export class Tasks extends APIResource {
  /**
   * The project's tasks in plan order, narrowed by `params`.
   *
   * @example
   * const open = await pgs.projects.tasks.list(projectId, { status: 'todo', requirement: 'FR-2' });
   */
  async list(
    projectId: string,
    params: TaskListParams = {},
    options: RequestOptions = {},
  ): Promise<Task[]> {
    const { body } = await this.request<TaskListResponse>({
      ...options,
      method: 'GET',
      path: tasksPath(projectId),
      query: { status: params.status, requirement: params.requirement, assignee: params.assignee },
    });
    return body.data;
  }

  /**
   * One task with its history (oldest first), and its `ETag` for a later `update`.
   *
   * @example
   * const { task, etag } = await pgs.projects.tasks.get(projectId, 'T-3');
   * console.log(task.status, task.history.at(-1)?.note);
   */
  async get(projectId: string, taskId: string, options: RequestOptions = {}): Promise<TaskVersion> {
    const response = await this.request<TaskResponse>({
      ...options,
      method: 'GET',
      path: taskPath(projectId, taskId),
    });
    return { task: response.body.data, etag: etagOf(response) };
  }

  /**
   * Changes a task's `status`, `assignee` (null clears it) or adds a `note` to its history,
   * and answers it as changed with its new `ETag`. The change is conditional: made to the
   * version `options.ifMatch` names (`PreconditionFailedError` when the task moved on since:
   * read it again and decide), or without `ifMatch` to the version a read just before it
   * finds. Leaving `in_progress` ends the task's lease. When the update was retried (a lost
   * answer) and the retry is refused with 412, the task is read again: if it already shows the
   * change, the first attempt landed and that read is the answer.
   *
   * @example
   * const claimed = await pgs.projects.tasks.next(projectId, { agent: 'claude-1' });
   * await pgs.projects.tasks.update(projectId, 'T-3', { status: 'done', note: 'Covered by test/store.test.ts.' }, { ifMatch: claimed?.etag });
   */
  async update(
    projectId: string,
    taskId: string,
    change: UpdateTaskRequest,
    options: TaskUpdateOptions = {},
  ): Promise<TaskVersion> {
    const { ifMatch, ...rest } = options;
    const etag = ifMatch ?? (await this.get(projectId, taskId, { signal: rest.signal })).etag;
    try {
      const response = await this.request<TaskResponse>({
        ...rest,
        method: 'PATCH',
        path: taskPath(projectId, taskId),
        body: change,
        headers: { ...rest.headers, 'If-Match': etag },
      });
      return { task: response.body.data, etag: etagOf(response) };
    } catch (error) {
      // A 412 after a retry may answer our own first attempt, which landed before its answer
      // was lost: the task is then no longer at `etag` because of us. Read it, and when it
      // shows the change asked for, that write was ours to report.
      if (!(error instanceof PreconditionFailedError) || error.attempts < 2) throw error;
      const now = await this.get(projectId, taskId, { signal: rest.signal });
      if (showsChange(now.task, change)) return now;
      throw error;
    }
  }

  /**
   * Claims for `agent` the first task in plan order that is `todo` with every dependency
   * done: it is now `in_progress`, assigned and leased to the agent for `leaseSeconds` (900
   * by default). Resolves with the task, its `ETag` and its context pack, or `null` when no
   * task is ready (the server's 204). An agent holding a live lease on a task of the project
   * gets that task again, its lease renewed: a retried claim never takes a second task.
   *
   * @example
   * const claimed = await pgs.projects.tasks.next(projectId, { agent: 'claude-1', leaseSeconds: 1800 });
   * if (claimed === null) console.log('nothing is ready');
   */
  async next(
    projectId: string,
    request: TaskClaimParams,
    options: RequestOptions = {},
  ): Promise<ClaimedTask | null> {
    const response = await this.request<ClaimedTaskResponse | undefined>({
      ...options,
      method: 'POST',
      path: `${tasksPath(projectId)}/next`,
      body: claimBody(request),
    });
    if (response.status === 204 || response.body === undefined) return null;
    const { task, context } = response.body.data;
    return { task, etag: etagOf(response), context };
  }

  /**
   * Extends the lease `agent` holds on a task in progress to `leaseSeconds` from now;
   * `ConflictError` with `LEASE_NOT_HELD` when it holds none (it expired and the task went
   * back to `todo`, or it moved on).
   *
   * @example
   * const { task } = await pgs.projects.tasks.renew(projectId, 'T-3', { agent: 'claude-1' });
   * console.log(task.lease?.expiresAt);
   */
  async renew(
    projectId: string,
    taskId: string,
    request: TaskClaimParams,
    options: RequestOptions = {},
  ): Promise<TaskVersion> {
    const response = await this.request<TaskResponse>({
      ...options,
      method: 'POST',
      path: `${taskPath(projectId, taskId)}/lease`,
      body: claimBody(request),
    });
    return { task: response.body.data, etag: etagOf(response) };
  }

  /**
   * The task's context pack: the criteria it implements in full, the stories and design
   * pieces citing them, its files, its dependencies' notes and the project's constraints.
   * `format: 'markdown'` answers it as one markdown document, to paste into a prompt.
   *
   * @example
   * const pack = await pgs.projects.tasks.context(projectId, 'T-3');
   * const prompt = await pgs.projects.tasks.context(projectId, 'T-3', { format: 'markdown' });
   */
  context(
    projectId: string,
    taskId: string,
    options: TaskContextOptions & { format: 'markdown' },
  ): Promise<string>;
  context(
    projectId: string,
    taskId: string,
    options?: TaskContextOptions & { format?: 'json' | undefined },
  ): Promise<TaskContext>;
  async context(
    projectId: string,
    taskId: string,
    options: TaskContextOptions = {},
  ): Promise<TaskContext | string> {
    const { format, ...rest } = options;
    const path = `${taskPath(projectId, taskId)}/context`;
    if (format === 'markdown') {
      const { body } = await this.request<string>({
        ...rest,
        method: 'GET',
        path,
        responseType: 'text',
        headers: { Accept: 'text/markdown', ...rest.headers },
      });
      return body;
    }
    const { body } = await this.request<TaskContextResponse>({ ...rest, method: 'GET', path });
    return body.data;
  }
}

/** Whether a task read shows every part of `change`: its status, assignee and note. */
function showsChange(task: TaskDetail, change: UpdateTaskRequest): boolean {
  if (change.status !== undefined && task.status !== change.status) return false;
  if (change.assignee !== undefined && task.assignee !== change.assignee) return false;
  if (change.note !== undefined && task.history.at(-1)?.note !== change.note) return false;
  return true;
}
