import {
  type ArchiveLayout,
  openapiDocument,
  type ProjectCompleted,
  projectSlug,
  schemaRef,
} from '@pgs/contract';
import type { FastifyInstance } from 'fastify';
import type { Principal } from '../../../accounts/service.ts';
import type { ConformanceChecks } from '../../../conformance/service.ts';
import { archiveDate, archiveEntries, zipStream } from '../../../export/archive.ts';
import type { ProjectReads } from '../../../projects/reads.ts';
import { etagOf } from '../../../projects/result.ts';
import type { ProjectStatusReader } from '../../../projects/status.ts';
import { TraceCache } from '../../../runs/trace/project.ts';
import type { Tasks } from '../../../tasks/service.ts';
import { errorResponses } from '../schemas.ts';
import {
  CURRENT_CACHE,
  etagMatches,
  PINNED_CACHE,
  projectIdParams,
  resultCache,
} from './common.ts';
import { traceWithConformance } from './conformance.ts';
import { archiveWork, traceWithProgress } from './delivery.ts';
import { type CompletedOnly, completedProject, ownedDocument, traceBody } from './reads.ts';
import { pinnedRevision, revisionNumber } from './revision-reads.ts';

export interface DocumentRoutesOptions {
  statusReader: ProjectStatusReader;
  reads: ProjectReads;
  /** Traces already made, by the status body's ETag (default: a cache of the routes' own). */
  traces?: TraceCache;
  /** The plan's tasks: delivery on the trace, tasks.json and checkboxes in the archive. */
  tasks?: Tasks;
  /** Conformance checks: the latest one's totals on the current trace (docs/conformance.md). */
  checks?: ConformanceChecks;
}

const parameters = openapiDocument.components.parameters;
const projectId = { type: 'string', format: 'uuid' } as const;
/** The trace as the archive carries it: the API's `data`, indented for people and diffs. */
const traceJson = (body: string) =>
  `${JSON.stringify((JSON.parse(body) as { data: unknown }).data, null, 2)}\n`;

/** `?revision=n`, accepted by every read of a project's results. */
const revisionQuery = {
  type: 'object',
  additionalProperties: false,
  properties: { revision: revisionNumber },
} as const;

/** The options with their defaults applied, shared by every route of the plugin. */
type Resolved = DocumentRoutesOptions & { traces: TraceCache };

/** The completed data of the current revision, or of the one asked for. */
async function results(
  { statusReader, reads }: Resolved,
  principal: Principal,
  id: string,
  revision: number | undefined,
  what?: CompletedOnly,
): Promise<{ etag: string; revision: number; data: () => ProjectCompleted }> {
  if (revision === undefined) {
    const { view, data } = await completedProject(statusReader, principal, id, what);
    return { etag: view.etag, revision: view.revision ?? 1, data };
  }
  const pinned = await pinnedRevision(reads, principal, id, revision);
  return { etag: pinned.etag, revision, data: () => pinned.data };
}

/** The archive's CHANGELOG: every completed revision up to the archived one. */
async function historyOf(
  reads: ProjectReads,
  principal: Principal,
  id: string,
  revision: number | undefined,
) {
  const project = await reads.owned(principal, id.toLowerCase());
  if (project === undefined) return undefined;
  return reads.revisionRecords(project, revision ?? project.currentRevision);
}

/** `GET /projects/{id}/documents/{filename}` and `GET /projects/{id}/archive` of API v1. */
export async function documentRoutes(
  app: FastifyInstance,
  { traces = new TraceCache(), ...options }: DocumentRoutesOptions,
) {
  // One trace cache for the archive and the trace.
  const resolved: Resolved = { ...options, traces };
  getProjectDocument(app, resolved);
  getProjectArchive(app, resolved);
  getProjectTrace(app, resolved);
}

/** One document of a project, as markdown: GET /projects/:projectId/documents/:filename. */
function getProjectDocument(app: FastifyInstance, { reads }: Resolved): void {
  app.get<{ Params: { projectId: string; filename: string }; Querystring: { revision?: number } }>(
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
        querystring: revisionQuery,
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
      const { revision } = request.query;
      if (revision !== undefined) await pinnedRevision(reads, request.principal, id, revision);
      const row = await ownedDocument(reads, request.principal, id, filename, revision);
      // The validator is the text's own, so it holds in every state and revision.
      const etag = etagOf(row.content);
      reply.header('etag', etag);
      reply.header('vary', 'Authorization');
      reply.header('cache-control', resultCache(row.status, revision));
      if (etagMatches(request.headers['if-none-match'], etag)) return reply.code(304).send();
      return reply.type('text/markdown; charset=utf-8').send(row.content);
    },
  );
}

/** A project's documents zipped in a layout: GET /projects/:projectId/archive. */
function getProjectArchive(app: FastifyInstance, options: Resolved): void {
  const { reads, traces, tasks } = options;
  app.get<{
    Params: { projectId: string };
    Querystring: { layout?: ArchiveLayout; revision?: number };
  }>(
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
          properties: { layout: parameters.ArchiveLayout.schema, revision: revisionNumber },
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
      const { revision } = request.query;
      const layout = request.query.layout ?? 'plain';
      const found = await results(options, request.principal, request.params.projectId, revision);
      const { work, tag } = await archiveWork(
        tasks,
        request.principal,
        request.params.projectId,
        revision,
        found.data(),
      );
      // The same revision, layout and work zip to the same bytes (fixed dates, fixed order),
      // so they name the ETag; a match is answered before any zipping.
      const etag = `"a${layout}-${found.etag.replace(/"/g, '')}${tag ? `-${tag}` : ''}"`;
      reply.header('etag', etag);
      reply.header('vary', 'Authorization');
      reply.header('cache-control', revision === undefined ? CURRENT_CACHE : PINNED_CACHE);
      if (etagMatches(request.headers['if-none-match'], etag)) return reply.code(304).send();
      const project = found.data();
      let trace = await traceBody(reads, traces, {
        projectId: request.params.projectId,
        revision: found.revision,
        etag: found.etag,
        project: () => project.project,
      });
      // The current archive's trace.json is what GET …/trace answers: delivery included.
      if (work?.live && tasks !== undefined) {
        trace = (await traceWithProgress(tasks, request.principal, request.params.projectId, trace))
          .body;
      }
      const history = await historyOf(
        options.reads,
        request.principal,
        request.params.projectId,
        revision,
      );
      const entries = archiveEntries(project, layout, traceJson(trace), history, work);
      reply.header(
        'content-disposition',
        `attachment; filename="${projectSlug(project.project.name)}.zip"`,
      );
      return reply.type('application/zip').send(zipStream(entries, archiveDate(project)));
    },
  );
}

/** A project's trace, with delivery and conformance when current: GET /projects/:projectId/trace. */
function getProjectTrace(app: FastifyInstance, options: Resolved): void {
  const { reads, traces, tasks, checks } = options;
  app.get<{ Params: { projectId: string }; Querystring: { revision?: number } }>(
    '/projects/:projectId/trace',
    {
      config: { operationId: 'getProjectTrace', rateLimit: 'downloads' },
      schema: {
        params: projectIdParams,
        querystring: revisionQuery,
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
      const { revision } = request.query;
      const found = await results(
        options,
        request.principal,
        request.params.projectId,
        revision,
        'trace',
      );
      const trace = () =>
        traceBody(reads, traces, {
          projectId: request.params.projectId,
          revision: found.revision,
          etag: found.etag,
          project: () => found.data().project,
        });
      // The current trace carries the plan's delivery, live state: the ETag follows it too.
      const live =
        revision === undefined && tasks !== undefined
          ? await traceWithProgress(
              tasks,
              request.principal,
              request.params.projectId,
              await trace(),
            )
          : undefined;
      // The latest conformance check of the current revision, live state too.
      const checked =
        revision === undefined && checks !== undefined
          ? await traceWithConformance(
              checks,
              request.principal,
              request.params.projectId,
              found.revision,
              live?.body ?? (await trace()),
            )
          : undefined;
      const tags = [live?.tag, checked?.tag].filter((tag) => tag !== undefined && tag !== '');
      // The trace follows the documents, which the status body's ETag covers.
      const etag = `"t-${found.etag.replace(/"/g, '')}${tags.map((tag) => `-${tag}`).join('')}"`;
      reply.header('etag', etag);
      reply.header('vary', 'Authorization');
      reply.header('cache-control', revision === undefined ? CURRENT_CACHE : PINNED_CACHE);
      if (etagMatches(request.headers['if-none-match'], etag)) return reply.code(304).send();
      const body = checked?.body ?? live?.body ?? (await trace());
      return reply.type('application/json; charset=utf-8').send(body);
    },
  );
}
