/**
 * What the revision routes read (docs/revisions.md): a project's history, one revision in
 * the status endpoint's three shapes, and the completed data of any revision for the
 * document, trace, archive and diff reads. Revision 1 is the project row itself.
 */
import type { ProjectCompleted } from '@pgs/contract';
import type { Principal } from '../accounts/service.ts';
import { type RequirementDelta, summarizeDeltas } from '../models/deltas.ts';
import { documentPlan } from '../runs/catalogue.ts';
import type { Db } from '../storage/db.ts';
import {
  type DocumentRow,
  findProject,
  listDocuments,
  type ProjectRow,
} from '../storage/sql/projects.ts';
import { findRevision, listRevisions, type RevisionRow } from '../storage/sql/revisions.ts';
import { completedStatus, etagOf, FAILURE_CODES, FAILURE_MESSAGES } from './result.ts';

/** The caller's project, or undefined (not found, or another account's or mode's). */
export async function ownedProject(
  db: Db,
  principal: Principal,
  projectId: string,
): Promise<ProjectRow | undefined> {
  const row = await findProject(db, projectId);
  return row !== undefined && row.accountId === principal.accountId && row.mode === principal.mode
    ? row
    : undefined;
}

/** What a revision did to the plan's tasks: task IDs (docs/tasks.md). */
export interface RevisionTaskChanges {
  added: string[];
  reopened: string[];
  obsoleted: string[];
}

/** A run as the history lists it: revision 1 from the project row, the rest from theirs. */
interface Run {
  revision: number;
  status: 'in_progress' | 'completed' | 'failed';
  changeRequest: string | null;
  deltas: RequirementDelta[];
  /** Kinds rewritten (all of them for revision 1), once known. */
  kinds: string[] | null;
  /** What it did to the plan's tasks, once they were brought up to it; null for revision 1. */
  tasks: RevisionTaskChanges | null;
  creditsReserved: number;
  creditsConsumed: number | null;
  estimatedCompletionAt: Date | null;
  errorCode: string | null;
  errorMessage: string | null;
  createdAt: Date;
  completedAt: Date | null;
}

function creation(project: ProjectRow): Run {
  return {
    revision: 1,
    status: project.status,
    changeRequest: null,
    deltas: [],
    tasks: null,
    kinds:
      project.type === null
        ? []
        : documentPlan(project.type, { grounded: project.grounded }).map((doc) => doc.kind),
    creditsReserved: project.creditsReserved,
    creditsConsumed: project.creditsConsumed,
    estimatedCompletionAt: project.estimatedCompletionAt,
    errorCode: project.errorCode,
    errorMessage: project.errorMessage,
    createdAt: project.createdAt,
    completedAt: project.completedAt,
  };
}

function revised(row: RevisionRow): Run {
  return {
    revision: row.revision,
    status: row.status,
    changeRequest: row.changeRequest,
    deltas: (row.deltas as RequirementDelta[] | null) ?? [],
    kinds: row.affected as string[] | null,
    tasks: row.taskChanges as RevisionTaskChanges | null,
    creditsReserved: row.creditsReserved,
    creditsConsumed: row.creditsConsumed,
    estimatedCompletionAt: row.estimatedCompletionAt,
    errorCode: row.errorCode,
    errorMessage: row.errorMessage,
    createdAt: row.createdAt,
    completedAt: row.completedAt,
  };
}

const filenamesOf = (project: ProjectRow, kinds: readonly string[] | null) =>
  project.type === null || kinds === null
    ? []
    : documentPlan(project.type, { grounded: project.grounded })
        .filter((doc) => kinds.includes(doc.kind))
        .map((doc) => doc.filename);

/** `GET /projects/{id}/revisions`: every revision, newest first. */
export async function revisionHistory(db: Db, project: ProjectRow) {
  const runs = [...(await listRevisions(db, project.id)).map(revised), creation(project)];
  return runs.map((run) => ({
    revision: run.revision,
    status: run.status,
    changeRequest: run.changeRequest,
    deltas: summarizeDeltas(run.deltas),
    documentsChanged: filenamesOf(project, run.kinds),
    creditsReserved: run.creditsReserved,
    creditsConsumed: run.status === 'in_progress' ? null : (run.creditsConsumed ?? 0),
    createdAt: run.createdAt.toISOString(),
    completedAt: run.completedAt?.toISOString() ?? null,
  }));
}

/** One run of the project, or undefined when it has no such revision. */
async function runOf(db: Db, project: ProjectRow, revision: number): Promise<Run | undefined> {
  if (revision === 1) return creation(project);
  const row = await findRevision(db, project.id, revision);
  return row && revised(row);
}

/**
 * The completed data of revision `n` (the status body's `data` for it), or undefined when
 * it has not completed. The current revision's is the status body itself; an older one's
 * is its stored body, or, for revision 1, rebuilt from its documents.
 */
export async function completedRevision(
  db: Db,
  project: ProjectRow,
  revision: number,
): Promise<{ data: ProjectCompleted; etag: string } | undefined> {
  if (project.status !== 'completed') return undefined;
  const parse = (body: string) =>
    (JSON.parse(body) as { data: ProjectCompleted }).data satisfies ProjectCompleted;
  if (revision === project.currentRevision && project.resultBody !== null) {
    return {
      data: parse(project.resultBody),
      etag: project.resultEtag ?? etagOf(project.resultBody),
    };
  }
  if (revision > 1) {
    const row = await findRevision(db, project.id, revision);
    if (row?.status !== 'completed' || row.resultBody === null) return undefined;
    return { data: parse(row.resultBody), etag: row.resultEtag ?? etagOf(row.resultBody) };
  }
  const documents: DocumentRow[] = await listDocuments(db, project.id, 1);
  const data = completedStatus(project, documents, {
    creditsConsumed: project.creditsConsumed ?? 0,
    generationTimeMs: project.generationTimeMs ?? 0,
    documentsGenerated: documents.length,
  });
  return { data, etag: etagOf(JSON.stringify({ success: true, data })) };
}

/** `GET /projects/{id}/revisions/{n}`'s `data`, or undefined for no such revision. */
export async function revisionStatus(
  db: Db,
  project: ProjectRow,
  revision: number,
  now: number,
): Promise<Record<string, unknown> | undefined> {
  const run = await runOf(db, project, revision);
  if (run === undefined) return undefined;
  const common = {
    projectId: project.id,
    revision,
    status: run.status,
    changeRequest: run.changeRequest,
    deltas: run.deltas,
    documentsChanged: filenamesOf(project, run.kinds),
    createdAt: run.createdAt.toISOString(),
  };
  switch (run.status) {
    case 'in_progress':
      return {
        ...common,
        estimatedCompletionMs: Math.max(
          0,
          Math.round((run.estimatedCompletionAt?.getTime() ?? now) - now),
        ),
      };
    case 'failed':
      return {
        ...common,
        error: {
          code: run.errorCode ?? FAILURE_CODES.failed,
          message: run.errorMessage ?? FAILURE_MESSAGES.unknown,
        },
        completedAt: run.completedAt?.toISOString() ?? null,
      };
    case 'completed': {
      const completed = await completedRevision(db, project, revision);
      if (completed === undefined) throw new Error(`revision ${revision} has no completed body`);
      return {
        ...common,
        project: completed.data.project,
        metadata: completed.data.metadata,
        completedAt: run.completedAt?.toISOString() ?? null,
        // Revision 1 made the tasks (listTasks has them); a later one changed them.
        ...(revision > 1 ? { tasks: run.tasks } : {}),
      };
    }
    default: {
      const never: never = run.status;
      throw new Error(`unknown revision status ${String(never)}`);
    }
  }
}

/**
 * The completed revisions up to `upTo`, oldest first, as the archive's CHANGELOG and
 * OpenSpec changes describe them.
 */
export async function revisionRecords(db: Db, project: ProjectRow, upTo: number) {
  const runs = [creation(project), ...(await listRevisions(db, project.id)).reverse().map(revised)];
  return runs
    .filter((run) => run.status === 'completed' && run.revision <= upTo)
    .map((run) => ({
      revision: run.revision,
      changeRequest: run.changeRequest,
      createdAt: run.createdAt.toISOString(),
      completedAt: run.completedAt?.toISOString() ?? null,
      deltas: run.deltas,
      documentsChanged: filenamesOf(project, run.kinds),
      tasks: run.tasks,
    }));
}
