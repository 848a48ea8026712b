/**
 * The reads of a caller's projects that the REST routes and the MCP tools answer from, as
 * one service over the database: the edge asks it what it needs and never holds the
 * database itself.
 */
import type { Principal } from '../accounts/service.ts';
import type { Db } from '../storage/db.ts';
import { findOwnedDocument } from '../storage/sql/documents.ts';
import { findProjectSettings, type ProjectRow } from '../storage/sql/projects.ts';
import { findRevision } from '../storage/sql/revisions.ts';
import type { ProjectOwner } from './dispatch.ts';
import { listProjects } from './listing.ts';
import { readProvenance } from './provenance.ts';
import {
  completedRevision,
  ownedProject,
  revisionHistory,
  revisionRecords,
  revisionStatus,
} from './revision-reads.ts';

/**
 * A caller's projects, their revisions, documents and provenance.
 *
 * @example
 * const reads = new ProjectReads(database.db);
 * const project = await reads.owned(principal, projectId);
 * const page = await reads.list(principal, { limit: 20 });
 */
export class ProjectReads {
  readonly #db: Db;

  constructor(db: Db) {
    this.#db = db;
  }

  /** The caller's project, or undefined (not found, or another account's or mode's). */
  owned(principal: Principal, projectId: string) {
    return ownedProject(this.#db, principal, projectId);
  }

  /** One page of the caller's projects (`GET /projects`, the MCP list). */
  list(owner: ProjectOwner, query: Parameters<typeof listProjects>[2]) {
    return listProjects(this.#db, owner, query);
  }

  /** Every revision of the project, newest first. */
  history(project: ProjectRow) {
    return revisionHistory(this.#db, project);
  }

  /** The completed data of revision `n` and its ETag, or undefined when it has not completed. */
  completedRevision(project: ProjectRow, revision: number) {
    return completedRevision(this.#db, project, revision);
  }

  /** `GET /projects/{id}/revisions/{n}`'s `data`, or undefined for no such revision. */
  revisionStatus(project: ProjectRow, revision: number, now: number) {
    return revisionStatus(this.#db, project, revision, now);
  }

  /** The completed revisions up to `upTo`, oldest first (the archive's changelog). */
  revisionRecords(project: ProjectRow, upTo: number) {
    return revisionRecords(this.#db, project, upTo);
  }

  /** Revision `n` (n > 1) of a project as stored, or undefined. */
  revision(projectId: string, revision: number) {
    return findRevision(this.#db, projectId, revision);
  }

  /** The IDs revision `n` retired (gaps on purpose in its trace); none for the creation. */
  async retiredIds(projectId: string, revision: number): Promise<string[]> {
    if (revision <= 1) return [];
    const row = await findRevision(this.#db, projectId, revision);
    return (row?.retired as string[] | null | undefined) ?? [];
  }

  /** How a project's criteria are written (its stored choice; undefined for no such project). */
  async requirementStyle(projectId: string): Promise<ProjectRow['requirementStyle'] | undefined> {
    return (await findProjectSettings(this.#db, projectId))?.requirementStyle;
  }

  /** One stored document of the caller's project at a revision (the current one when absent). */
  document(principal: Principal, projectId: string, filename: string, revision?: number) {
    return findOwnedDocument(
      this.#db,
      projectId,
      principal.accountId,
      principal.mode,
      filename,
      revision,
    );
  }

  /** The project's provenance at a revision (the current one when absent), or undefined. */
  provenance(principal: Principal, projectId: string, revision?: number) {
    return readProvenance(this.#db, principal, projectId, revision);
  }
}
