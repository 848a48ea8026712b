/**
 * How a running revision completes, in one transaction under the project row's lock: the
 * documents it did not rewrite carried over, the revision made current with its status body,
 * the charge settled, `revision.completed` recorded, then the tasks and the dispatcher told.
 * revisions.ts calls it from {@link Revisions.complete}.
 */
import type { ProjectType } from '@pgs/contract';
import { settleCredits } from '../credits/ledger.ts';
import { recordEvent } from '../events/hub.ts';
import { revisionCharge } from '../runs/revision-plan.ts';
import type { Tx } from '../storage/db.ts';
import type { Mode } from '../storage/sql/accounts.ts';
import {
  type DocumentRow,
  listDocuments,
  lockProject,
  type ProjectRow,
  updateProject,
} from '../storage/sql/projects.ts';
import {
  carryOverDocuments,
  findRevision,
  type RevisionRow,
  transitionRevision,
} from '../storage/sql/revisions.ts';
import { syncAtCompletion, type TaskSyncLog } from '../tasks/completion.ts';
import type { Dispatcher } from './dispatch.ts';
import { owner } from './project-end.ts';
import { completedStatus, etagOf } from './result.ts';

/** What completing a revision is given by the service. */
export interface CompletionDeps {
  dispatcher: Dispatcher;
  now: () => number;
  log: TaskSyncLog;
}

/** The credits a completed revision moved, for the meter once the transaction commits. */
export interface SettledRevision {
  mode: Mode;
  consumed: number;
  released: number;
}

/** What completion knows of the revision once its documents are all in place. */
interface Completing {
  projectId: string;
  project: ProjectRow;
  row: RevisionRow;
  revision: number;
  /** The kinds the revision rewrote, and every document of the revision after the carry-over. */
  rewritten: DocumentRow['type'][];
  documents: DocumentRow[];
  consumed: number;
  now: number;
}

/**
 * Completes `revision` of a project inside `tx`: carries the documents over, makes it
 * current, settles its credits and tells of it. Undefined when it was no longer running.
 *
 * @example
 * const settled = await completeRevision(tx, projectId, 2, { dispatcher, now: Date.now, log });
 */
export async function completeRevision(
  tx: Tx,
  projectId: string,
  revision: number,
  deps: CompletionDeps,
): Promise<SettledRevision | undefined> {
  const running = await runningRevision(tx, projectId, revision);
  if (running === undefined) return undefined;
  const { project, row } = running;
  const rewritten = (await listDocuments(tx, projectId, revision)).map((doc) => doc.type);
  await carryOverDocuments(tx, projectId, project.currentRevision, revision, rewritten);
  const documents = await listDocuments(tx, projectId, revision);
  const consumed = revisionCharge(project.type as ProjectType, rewritten, project.detail, {
    grounded: project.grounded,
  });
  const completing = {
    projectId,
    project,
    row,
    revision,
    rewritten,
    documents,
    consumed,
    now: deps.now(),
  };
  if (!(await makeCurrent(tx, completing))) return undefined;
  await settleAndRecord(tx, completing);
  await followUp(tx, completing, deps);
  return {
    mode: project.mode,
    consumed,
    released: Math.max(0, row.creditsReserved - consumed),
  };
}

/** The project locked and its revision, when that revision is the one still running. */
async function runningRevision(
  tx: Tx,
  projectId: string,
  revision: number,
): Promise<{ project: ProjectRow; row: RevisionRow } | undefined> {
  const project = await lockProject(tx, projectId);
  const row = await findRevision(tx, projectId, revision);
  if (project === undefined || row === undefined || row.status !== 'in_progress') return undefined;
  if (project.revising !== revision || project.type === null) return undefined;
  return { project, row };
}

/**
 * The revision completed with its status body (and the body's ETag), and the project's
 * current revision and body moved to it; false when the revision had already moved on.
 */
async function makeCurrent(tx: Tx, completing: Completing): Promise<boolean> {
  const { projectId, project, row, revision, rewritten, documents, consumed, now } = completing;
  const generationTimeMs = Math.max(0, now - row.createdAt.getTime());
  const data = completedStatus(
    { ...project, questionnaire: row.questionnaire ?? project.questionnaire },
    documents,
    { creditsConsumed: consumed, generationTimeMs, documentsGenerated: rewritten.length },
  );
  const body = JSON.stringify({ success: true, data });
  const etag = etagOf(body);
  const moved = await transitionRevision(tx, projectId, revision, {
    status: 'completed',
    creditsConsumed: consumed,
    generationTimeMs,
    resultBody: body,
    resultEtag: etag,
    estimatedCompletionAt: null,
    completedAt: new Date(now),
  });
  if (!moved) return false;
  await updateProject(tx, projectId, {
    currentRevision: revision,
    revising: null,
    resultBody: body,
    resultEtag: etag,
  });
  return true;
}

/** The reservation settled at the charge, and `revision.completed` with the documents it changed. */
async function settleAndRecord(tx: Tx, completing: Completing): Promise<void> {
  const { projectId, project, row, revision, rewritten, documents, consumed } = completing;
  const charge = { ...owner(project), projectId, revision };
  await settleCredits(tx, { ...charge, reserved: row.creditsReserved, consumed });
  await recordEvent(tx, projectId, 'revision.completed', {
    revision,
    status: 'completed',
    documentsChanged: documents
      .filter((doc) => rewritten.includes(doc.type))
      .map((doc) => doc.filename),
    creditsConsumed: consumed,
  });
}

/**
 * The work on the plan follows the revision in the same commit (docs/tasks.md): done
 * tasks of modified requirements reopen, those of removed ones go obsolete; their
 * task.updated events come after revision.completed, which ends the run's stream. A
 * savepoint, as at creation: should reading the plan fail, the revision still
 * completes, the failure is logged, and the first task request brings the tasks up to it.
 * Then the dispatcher hears that the project was revised.
 */
async function followUp(tx: Tx, completing: Completing, deps: CompletionDeps): Promise<void> {
  const { projectId, project, revision, documents, now } = completing;
  await syncAtCompletion(
    tx,
    projectId,
    revision,
    documents,
    new Date(now),
    { ...owner(project), dispatcher: deps.dispatcher, revision },
    deps.log,
  );
  await deps.dispatcher.projectEnded?.(tx, {
    projectId,
    ...owner(project),
    type: 'project.revised',
    status: 'completed',
    at: new Date(now),
    revision,
  });
}
