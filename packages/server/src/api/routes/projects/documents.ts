import { type ArchiveLayout, openapiDocument, projectSlug, schemaRef } from '@pgs/contract';
import type { FastifyInstance } from 'fastify';
import type { Principal } from '../../../accounts/service.ts';
import { archiveDate, archiveEntries, zipStream } from '../../../export/archive.ts';
import { etagOf } from '../../../projects/result.ts';
import type { ProjectStatusReader } from '../../../projects/status.ts';
import { projectTrace, TraceCache } from '../../../runs/trace/project.ts';
import type { Db } from '../../../storage/db.ts';
import { errorResponses } from '../schemas.ts';
import { etagMatches, projectIdParams } from './common.ts';
import { type CompletedOnly, completedProject, ownedDocument } from './reads.ts';

export interface DocumentRoutesOptions {
  statusReader: ProjectStatusReader;
  db: Db;
  /** Traces already made, by the status body's ETag (default: a cache of the routes' own). */
  traces?: TraceCache;
}

const parameters = openapiDocument.components.parameters;
const projectId = { type: 'string', format: 'uuid' } as const;
/** The trace as the archive carries it: the API's `data`, indented for people and diffs. */
const traceJson = (body: string) =>
  `${JSON.stringify((JSON.parse(body) as { data: unknown }).data, null, 2)}\n`;

/** Completed projects never change, and the answer depends on the key: cache it, privately. */
const FINAL_CACHE = 'private, max-age=86400';

/** `GET /projects/{id}/documents/{filename}` and `GET /projects/{id}/archive` of API v1. */
export async function documentRoutes(
  app: FastifyInstance,
  { statusReader, db, traces = new TraceCache() }: DocumentRoutesOptions,
) {
  const completed = (principal: Principal, id: string, what?: CompletedOnly) =>
    completedProject(statusReader, principal, id, what);

  app.get<{ Params: { projectId: string; filename: string } }>(
    '/projects/:projectId/documents/:filename',
    {
      config: { operationId: 'getProjectDocument', rateLimit: 'downloads' },
      schema: {
        params: {
          type: 'object',
          required: ['projectId', 'filename'],
          additionalProperties: false,
          // The pattern admits no `/`, no leading `.`: the filename only ever selects a row.
          properties: { projectId, filename: parameters.DocumentFilename.schema },
        },
        headers: {
          type: 'object',
          properties: { 'api-version': { type: 'string' }, 'if-none-match': { type: 'string' } },
        },
        response: {
          200: { type: 'string' },
          304: { type: 'null' },
          409: schemaRef('OperationErrorResponse'),
          ...errorResponses(400, 401, 403, 404, 429, 500),
        },
      },
    },
    async (request, reply) => {
      const { projectId: id, filename } = request.params;
      const row = await ownedDocument(db, request.principal, id, filename);
      // A stored document never changes, so its validator holds in every state.
      const etag = etagOf(row.content);
      reply.header('etag', etag);
      reply.header('cache-control', row.status === 'completed' ? FINAL_CACHE : 'no-cache');
      if (etagMatches(request.headers['if-none-match'], etag)) return reply.code(304).send();
      return reply.type('text/markdown; charset=utf-8').send(row.content);
    },
  );

  app.get<{ Params: { projectId: string }; Querystring: { layout?: ArchiveLayout } }>(
    '/projects/:projectId/archive',
    {
      config: { operationId: 'getProjectArchive', rateLimit: 'downloads' },
      schema: {
        params: {
          type: 'object',
          required: ['projectId'],
          additionalProperties: false,
          properties: { projectId },
        },
        // Unknown parameters are refused (`layout[]=kiro` is not `layout=kiro`).
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: { layout: parameters.ArchiveLayout.schema },
        },
        headers: { type: 'object', properties: { 'api-version': { type: 'string' } } },
        response: {
          200: { type: 'string' },
          409: schemaRef('OperationErrorResponse'),
          ...errorResponses(400, 401, 403, 404, 429, 500),
        },
      },
    },
    async (request, reply) => {
      const { view, data } = await completed(request.principal, request.params.projectId);
      const trace = await traces.get(view.etag, () => projectTrace(data().project));
      const project = data();
      const entries = archiveEntries(project, request.query.layout ?? 'plain', traceJson(trace));
      reply.header(
        'content-disposition',
        `attachment; filename="${projectSlug(project.project.name)}.zip"`,
      );
      reply.header('cache-control', FINAL_CACHE);
      return reply.type('application/zip').send(zipStream(entries, archiveDate(project)));
    },
  );

  app.get<{ Params: { projectId: string } }>(
    '/projects/:projectId/trace',
    {
      config: { operationId: 'getProjectTrace', rateLimit: 'downloads' },
      schema: {
        params: projectIdParams,
        headers: {
          type: 'object',
          properties: { 'api-version': { type: 'string' }, 'if-none-match': { type: 'string' } },
        },
        response: {
          200: schemaRef('TraceResponse'),
          304: { type: 'null' },
          409: schemaRef('OperationErrorResponse'),
          ...errorResponses(400, 401, 403, 404, 429, 500),
        },
      },
    },
    async (request, reply) => {
      const { view, data } = await completed(request.principal, request.params.projectId, 'trace');
      // The trace follows the documents, which the status body's ETag covers.
      const etag = `"t-${view.etag.replace(/"/g, '')}"`;
      reply.header('etag', etag);
      reply.header('cache-control', FINAL_CACHE);
      if (etagMatches(request.headers['if-none-match'], etag)) return reply.code(304).send();
      const body = await traces.get(view.etag, () => projectTrace(data().project));
      return reply.type('application/json; charset=utf-8').send(body);
    },
  );
}
