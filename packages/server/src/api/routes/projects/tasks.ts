import { openapiDocument, schemaRef, taskContextMarkdown } from '@pgs/contract';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { tasksCsv } from '../../../tasks/representation.ts';
import type {
  ClaimTaskRequest,
  TaskAnswer,
  TaskQuery,
  Tasks,
  UpdateTaskRequest,
} from '../../../tasks/service.ts';
import { errorResponses } from '../schemas.ts';
import { etagMatches } from './common.ts';

export interface TaskRoutesOptions {
  tasks: Tasks;
}

const parameters = openapiDocument.components.parameters;
const projectId = { type: 'string', format: 'uuid' } as const;
const taskParams = {
  type: 'object',
  required: ['projectId', 'taskId'],
  additionalProperties: false,
  properties: { projectId, taskId: parameters.TaskId.schema },
} as const;
const projectParams = {
  type: 'object',
  required: ['projectId'],
  additionalProperties: false,
  properties: { projectId },
} as const;
const versionHeader = { 'api-version': { type: 'string' } } as const;
/** What every task route may answer besides its success. */
const failures = {
  409: schemaRef('OperationErrorResponse'),
  ...errorResponses(400, 401, 403, 404, 429, 500),
};

type Params = { projectId: string; taskId: string };

/** A task answered with its read ETag, never cached without revalidation. */
function sendTask(reply: FastifyReply, answer: TaskAnswer) {
  reply.header('etag', answer.etag);
  return reply.type('application/json; charset=utf-8').send({ success: true, data: answer.task });
}

/**
 * Whether the client prefers markdown to JSON (`Accept: text/markdown`): the higher quality
 * wins, JSON on a tie or when neither is named.
 *
 * @example
 * prefersMarkdown('text/markdown, application/json;q=0.5'); // true
 */
export function prefersMarkdown(accept: string | undefined): boolean {
  if (accept === undefined) return false;
  const quality = (type: string) =>
    Math.max(
      -1,
      ...accept.split(',').map((range) => {
        const [media = '', ...params] = range.split(';').map((part) => part.trim().toLowerCase());
        if (media !== type) return -1;
        const q = params.find((param) => param.startsWith('q='));
        return q === undefined ? 1 : Number(q.slice(2)) || 0;
      }),
    );
  const markdown = quality('text/markdown');
  return markdown > 0 && markdown > quality('application/json');
}

/** `/projects/{projectId}/tasks` routes of API v1 (docs/tasks.md): the rules live in `Tasks`. */
export async function taskRoutes(app: FastifyInstance, options: TaskRoutesOptions) {
  listTasks(app, options);
  claimNextTask(app, options);
  getTask(app, options);
  updateTask(app, options);
  renewTaskLease(app, options);
  getTaskContext(app, options);
}

/** A project's tasks, filtered, as JSON or CSV: GET /projects/:projectId/tasks. */
function listTasks(app: FastifyInstance, { tasks }: TaskRoutesOptions): void {
  app.get<{ Params: { projectId: string }; Querystring: TaskQuery & { format?: 'json' | 'csv' } }>(
    '/projects/:projectId/tasks',
    {
      config: { operationId: 'listTasks', rateLimit: 'tasks' },
      schema: {
        params: projectParams,
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: {
            status: schemaRef('TaskStatus'),
            requirement: parameters.TaskRequirementFilter.schema,
            assignee: parameters.TaskAssigneeFilter.schema,
            format: { type: 'string', enum: ['json', 'csv'] },
          },
        },
        headers: { type: 'object', properties: versionHeader },
        response: { 200: {}, ...failures },
      },
    },
    async (request, reply) => {
      const { format, ...filter } = request.query;
      const { tasks: list, revision } = await tasks.listing(
        request.principal,
        request.params.projectId,
        filter,
      );
      // The revision whose plan the tasks follow: a listing before and after a revision differ.
      reply.header('pgs-revision', String(revision));
      reply.header('cache-control', 'no-store');
      reply.header('vary', 'Authorization');
      if (format === 'csv') return reply.type('text/csv; charset=utf-8').send(tasksCsv(list));
      return reply.type('application/json; charset=utf-8').send({ success: true, data: list });
    },
  );
}

/** Claims the next ready task, or answers 204: POST /projects/:projectId/tasks/next. */
function claimNextTask(app: FastifyInstance, { tasks }: TaskRoutesOptions): void {
  app.post<{ Params: { projectId: string }; Body: ClaimTaskRequest }>(
    '/projects/:projectId/tasks/next',
    {
      config: { operationId: 'claimNextTask', rateLimit: 'tasks' },
      schema: {
        params: projectParams,
        headers: { type: 'object', properties: versionHeader },
        body: schemaRef('ClaimTaskRequest'),
        response: { 200: schemaRef('ClaimedTaskResponse'), 204: { type: 'null' }, ...failures },
      },
    },
    async (request, reply) => {
      const claimed = await tasks.claim(request.principal, request.params.projectId, request.body);
      if (claimed === undefined) return reply.code(204).send();
      reply.header('etag', claimed.etag);
      return reply
        .type('application/json; charset=utf-8')
        .send({ success: true, data: { task: claimed.task, context: claimed.context } });
    },
  );
}

/** One task, revalidated by its ETag: GET /projects/:projectId/tasks/:taskId. */
function getTask(app: FastifyInstance, { tasks }: TaskRoutesOptions): void {
  app.get<{ Params: Params }>(
    '/projects/:projectId/tasks/:taskId',
    {
      config: { operationId: 'getTask', rateLimit: 'tasks' },
      schema: {
        params: taskParams,
        headers: {
          type: 'object',
          properties: { ...versionHeader, 'if-none-match': { type: 'string' } },
        },
        response: { 200: schemaRef('TaskResponse'), 304: { type: 'null' }, ...failures },
      },
    },
    async (request, reply) => {
      const { projectId: id, taskId } = request.params;
      const answer = await tasks.get(request.principal, id, taskId);
      reply.header('cache-control', 'private, no-cache');
      reply.header('vary', 'Authorization');
      // The ETag is the task's version and its links' state: a changed link moves it too.
      if (etagMatches(request.headers['if-none-match'], answer.etag)) {
        return reply.header('etag', answer.etag).code(304).send();
      }
      return sendTask(reply, answer);
    },
  );
}

/** Changes a task under If-Match: PATCH /projects/:projectId/tasks/:taskId. */
function updateTask(app: FastifyInstance, { tasks }: TaskRoutesOptions): void {
  app.patch<{ Params: Params; Body: UpdateTaskRequest }>(
    '/projects/:projectId/tasks/:taskId',
    {
      config: { operationId: 'updateTask', rateLimit: 'tasks' },
      schema: {
        params: taskParams,
        headers: {
          type: 'object',
          properties: { ...versionHeader, 'if-match': { type: 'string' } },
        },
        body: schemaRef('UpdateTaskRequest'),
        response: {
          200: schemaRef('TaskResponse'),
          412: schemaRef('OperationErrorResponse'),
          428: schemaRef('OperationErrorResponse'),
          ...failures,
        },
      },
    },
    async (request, reply) => {
      const { projectId: id, taskId } = request.params;
      const ifMatch = request.headers['if-match'];
      const answer = await tasks.update(request.principal, id, taskId, ifMatch, request.body);
      return sendTask(reply, answer);
    },
  );
}

/** Extends a claimed task's lease: POST /projects/:projectId/tasks/:taskId/lease. */
function renewTaskLease(app: FastifyInstance, { tasks }: TaskRoutesOptions): void {
  app.post<{ Params: Params; Body: ClaimTaskRequest }>(
    '/projects/:projectId/tasks/:taskId/lease',
    {
      config: { operationId: 'renewTaskLease', rateLimit: 'tasks' },
      schema: {
        params: taskParams,
        headers: { type: 'object', properties: versionHeader },
        body: schemaRef('RenewLeaseRequest'),
        response: { 200: schemaRef('TaskResponse'), ...failures },
      },
    },
    async (request, reply) => {
      const { projectId: id, taskId } = request.params;
      return sendTask(reply, await tasks.renew(request.principal, id, taskId, request.body));
    },
  );
}

/** A task's context pack, as JSON or markdown: GET /projects/:projectId/tasks/:taskId/context. */
function getTaskContext(app: FastifyInstance, { tasks }: TaskRoutesOptions): void {
  app.get<{ Params: Params }>(
    '/projects/:projectId/tasks/:taskId/context',
    {
      config: { operationId: 'getTaskContext', rateLimit: 'tasks' },
      schema: {
        params: taskParams,
        headers: { type: 'object', properties: { ...versionHeader, accept: { type: 'string' } } },
        response: { 200: {}, ...failures },
      },
    },
    async (request, reply) => {
      const { projectId: id, taskId } = request.params;
      const pack = await tasks.context(request.principal, id, taskId);
      reply.header('cache-control', 'no-store');
      reply.header('vary', 'Authorization, Accept');
      if (prefersMarkdown(request.headers.accept)) {
        return reply.type('text/markdown; charset=utf-8').send(taskContextMarkdown(pack));
      }
      return reply.type('application/json; charset=utf-8').send({ success: true, data: pack });
    },
  );
}
