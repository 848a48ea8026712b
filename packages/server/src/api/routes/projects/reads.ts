import type { ProjectCompleted, ProjectStatusResponse } from '@pgs/contract';
import type { Principal } from '../../../accounts/service.ts';
import { ApiError } from '../../../errors.ts';
import type { ProjectReads } from '../../../projects/reads.ts';
import type { ProjectStatusReader, StatusView } from '../../../projects/status.ts';
import { projectTrace, type TraceCache } from '../../../runs/trace/project.ts';
import { pollHint, projectNotFound } from './common.ts';

/**
 * Reads of a project's results that the REST routes and the MCP tools share, so both answer
 * the same errors for the same cases (404 for another key's project, 409 before completion).
 */

/** What a completed project offers that an unfinished one does not yet. */
export type CompletedOnly = 'archive' | 'trace';

/**
 * The 409 for a project that is not completed: in progress (with a polling hint) or failed.
 *
 * @example
 * throw notCompleted(id, 'failed');
 */
export function notCompleted(
  id: string,
  status: 'in_progress' | 'failed',
  estimatedMs = 0,
  what: CompletedOnly = 'archive',
): ApiError {
  return status === 'in_progress'
    ? new ApiError(
        'PROJECT_NOT_COMPLETED',
        `The project is still being generated; its ${what} is available once it is completed.`,
        {
          details: { resource_type: 'project', resource_id: id, status },
          headers: { 'retry-after': pollHint(estimatedMs) },
        },
      )
    : new ApiError(
        'PROJECT_NOT_COMPLETED',
        'The project failed, so its documents are not delivered; its credits were refunded.',
        { details: { resource_type: 'project', resource_id: id, status } },
      );
}

/**
 * A completed project's view (the status reader's cached bytes: no query for a hot
 * project) and its data, parsed only when asked; 404 or 409 otherwise.
 *
 * @example
 * const { view, data } = await completedProject(statusReader, principal, id, 'trace');
 */
export async function completedProject(
  statusReader: ProjectStatusReader,
  principal: Principal,
  id: string,
  what?: CompletedOnly,
): Promise<{ view: StatusView; data: () => ProjectCompleted }> {
  const view = await statusReader.read(principal, id.toLowerCase());
  if (view === undefined) throw projectNotFound(id);
  if (view.status !== 'completed') {
    throw notCompleted(id, view.status, view.estimatedCompletionMs, what);
  }
  const data = () =>
    (JSON.parse(view.body.toString('utf8')) as ProjectStatusResponse).data as ProjectCompleted;
  return { view, data };
}

/**
 * One stored document of the caller's project: available once stored, also while the
 * project runs; 404 for no such project (of this key) or document, 409 for a failed one.
 *
 * @example
 * const markdown = await ownedDocument(reads, principal, projectId, 'README.md');
 */
export async function ownedDocument(
  reads: ProjectReads,
  principal: Principal,
  id: string,
  filename: string,
  /** The revision to read (`?revision=n`); the current one when absent. */
  revision?: number,
): Promise<{ content: string; status: 'in_progress' | 'completed' }> {
  const row = await reads.document(principal, id.toLowerCase(), filename, revision);
  if (row === undefined) throw projectNotFound(id);
  if (row.status === 'failed') throw notCompleted(id, 'failed');
  if (row.content === null) {
    throw new ApiError('RESOURCE_NOT_FOUND', 'The project has no document with this filename.', {
      details: { resource_type: 'document', resource_id: filename },
    });
  }
  return { content: row.content, status: row.status };
}

/**
 * The trace body of a completed revision, made once per ETag (the REST route and the MCP
 * tool share the cache): the numbers its revisions retired are gaps on purpose, and its
 * criteria are read in the project's requirement style.
 *
 * @example
 * const body = await traceBody(reads, traces, { projectId, revision: view.revision ?? 1, etag, project });
 */
export async function traceBody(
  reads: ProjectReads,
  traces: TraceCache,
  of: {
    projectId: string;
    revision: number;
    etag: string;
    project: () => ProjectCompleted['project'];
  },
): Promise<string> {
  return traces.get(of.etag, async () => {
    const id = of.projectId.toLowerCase();
    // The project's stored style, not a guess from its criteria: one scenario-shaped criterion
    // in an EARS project does not make every other one an incomplete scenario.
    return projectTrace(
      of.project(),
      await reads.retiredIds(id, of.revision),
      await reads.requirementStyle(id),
    );
  });
}
