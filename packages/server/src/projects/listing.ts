import type { ProjectListResponse, ProjectState, ProjectSummary } from '@pgs/contract';
import { DomainError } from '../errors.ts';
import type { Db } from '../storage/db.ts';
import { listOwnedProjects, ownsProject, type ProjectSummaryRow } from '../storage/sql/projects.ts';
import { taskCounts } from '../storage/sql/tasks.ts';
import { shareOf } from '../tasks/progress.ts';
import type { ProjectOwner } from './dispatch.ts';
import { FAILURE_CODES } from './result.ts';

/** Projects per page when the client does not say. */
export const DEFAULT_PAGE_SIZE = 20;

/**
 * The listing cursor is not one of the caller's projects (unknown, deleted, someone else's):
 * VALIDATION_ERROR on `starting_after`, the contract's name for it (MCP words its own
 * `cursor`).
 *
 * @example
 * throw new UnknownCursorError();
 */
export class UnknownCursorError extends DomainError {
  override name = 'UnknownCursorError';

  constructor() {
    super('VALIDATION_ERROR', 'starting_after is not one of your projects.', {
      invalid_fields: {
        starting_after: "must be the projectId of a project of this key's account and mode",
      },
    });
  }
}

/** How much of the idea a listing row carries (`ideaExcerpt`). */
const EXCERPT_CHARS = 120;

/**
 * The start of an idea: whole when short, else cut back to the last word that fits and
 * marked with "…". Code points, not UTF-16 units, so an emoji is never halved.
 *
 * @example
 * ideaExcerpt('A booking app for a dental clinic'); // 'A booking app for a dental clinic'
 */
export function ideaExcerpt(idea: string): string {
  const flat = idea.replace(/\s+/g, ' ').trim();
  const chars = [...flat];
  if (chars.length <= EXCERPT_CHARS) return flat;
  const head = chars.slice(0, EXCERPT_CHARS).join('');
  const lastSpace = head.lastIndexOf(' ');
  return `${(lastSpace > EXCERPT_CHARS / 2 ? head.slice(0, lastSpace) : head).trimEnd()}…`;
}

/**
 * A listing row as the API shows it: small, never the documents. `tasks` are its plan's
 * tasks done and counting, once they were read (else `progress` is null).
 */
export function projectSummary(
  row: ProjectSummaryRow,
  tasks?: { done: number; total: number },
): ProjectSummary {
  const final = row.status !== 'in_progress';
  return {
    projectId: row.id,
    status: row.status,
    name: row.name,
    ideaExcerpt: ideaExcerpt(row.idea),
    // Without a requested type, the stored one is a guess from the idea until the
    // definition (which also sets the name) chooses it.
    type: row.typeRequested || row.name !== null ? row.type : null,
    createdAt: row.createdAt.toISOString(),
    completedAt: row.completedAt?.toISOString() ?? null,
    creditsConsumed: final ? (row.creditsConsumed ?? 0) : null,
    costUsd: row.costMicroUsd === null ? null : row.costMicroUsd / 1e6,
    errorCode: row.status === 'failed' ? (row.errorCode ?? FAILURE_CODES.failed) : null,
    progress: tasks === undefined ? null : { tasks, share: shareOf(tasks.done, tasks.total) },
  };
}

/**
 * One page of the owner's projects, newest first, and whether more follow (one row more
 * than the page is read to tell). Throws {@link UnknownCursorError} when `startingAfter`
 * is not one of the owner's projects.
 *
 * @example
 * const page = await listProjects(db, principal, { limit: 10, status: 'completed' });
 * const next = await listProjects(db, principal, { startingAfter: page.data.at(-1)?.projectId });
 */
export async function listProjects(
  db: Db,
  owner: ProjectOwner,
  query: {
    limit?: number | undefined;
    status?: ProjectState | undefined;
    startingAfter?: string | undefined;
  },
): Promise<ProjectListResponse> {
  const limit = query.limit ?? DEFAULT_PAGE_SIZE;
  const startingAfter = query.startingAfter?.toLowerCase();
  if (
    startingAfter !== undefined &&
    !(await ownsProject(db, startingAfter, owner.accountId, owner.mode))
  ) {
    throw new UnknownCursorError();
  }
  const rows = await listOwnedProjects(db, {
    accountId: owner.accountId,
    mode: owner.mode,
    status: query.status,
    startingAfter,
    limit: limit + 1,
  });
  const page = rows.slice(0, limit);
  // The delivery of the completed ones' plans, in one query for the page.
  const counts = await taskCounts(
    db,
    page.filter((row) => row.status === 'completed').map((row) => row.id),
  );
  return {
    success: true,
    data: page.map((row) => projectSummary(row, counts.get(row.id))),
    has_more: rows.length > limit,
  };
}
