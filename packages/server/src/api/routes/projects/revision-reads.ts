import type { ProjectCompleted } from '@pgs/contract';
import type { Principal } from '../../../accounts/service.ts';
import { ApiError } from '../../../errors.ts';
import type { ProjectReads } from '../../../projects/reads.ts';
import { projectNotFound } from './common.ts';
import { notCompleted } from './reads.ts';

/** The `{revision}` path parameter and the `revision` query parameter: a whole number ≥ 1. */
export const revisionNumber = { type: 'integer', minimum: 1, maximum: 1_000_000 } as const;

/** The 404 for a revision the project does not have. */
export const revisionNotFound = (projectId: string, revision: number) =>
  new ApiError('RESOURCE_NOT_FOUND', 'The project has no revision with this number.', {
    details: { resource_type: 'revision', resource_id: `${projectId}/revisions/${revision}` },
  });

/**
 * The 400 for `?revision=` on getProjectStatus. The status is the project's state now; a
 * revision's own state (in progress, failed, completed with its documents) is
 * getRevision's answer, so the parameter is refused with a pointer there rather than
 * ignored (a client asking for revision 1 must never get the latest without being told).
 *
 * @example
 * if (request.query.revision !== undefined) throw statusRevisionRefused(projectId);
 */
export const statusRevisionRefused = (projectId: string) =>
  new ApiError(
    'VALIDATION_ERROR',
    `The status always describes the current revision; read revision n with GET /api/v1/projects/${projectId}/revisions/{n}.`,
    {
      details: {
        invalid_fields: {
          revision: 'is not a parameter of getProjectStatus: use /revisions/{n} (getRevision)',
        },
      },
    },
  );

/**
 * The completed data of one revision of the caller's project (the `?revision=n` reads):
 * 404 for no such project or revision, 409 for one in progress or failed.
 *
 * @example
 * const { data, etag } = await pinnedRevision(reads, principal, projectId, 2);
 */
export async function pinnedRevision(
  reads: ProjectReads,
  principal: Principal,
  projectId: string,
  revision: number,
): Promise<{ data: ProjectCompleted; etag: string }> {
  const id = projectId.toLowerCase();
  const project = await reads.owned(principal, id);
  if (project === undefined) throw projectNotFound(projectId);
  if (project.status !== 'completed') throw notCompleted(projectId, project.status);
  if (revision > 1) {
    const row = await reads.revision(id, revision);
    if (row === undefined) throw revisionNotFound(projectId, revision);
    if (row.status !== 'completed') {
      throw new ApiError(
        'PROJECT_NOT_COMPLETED',
        row.status === 'in_progress'
          ? `Revision ${revision} is still being generated; its documents are available once it is completed.`
          : `Revision ${revision} failed, so it has no documents; its credits were refunded.`,
        {
          details: {
            resource_type: 'revision',
            resource_id: `${id}/revisions/${revision}`,
            status: row.status,
          },
        },
      );
    }
  }
  const completed = await reads.completedRevision(project, revision);
  if (completed === undefined) throw revisionNotFound(projectId, revision);
  return completed;
}
