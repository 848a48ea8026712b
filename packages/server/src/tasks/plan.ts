/**
 * A project's plan as task rows: the tasks of its implementation plan (read with the trace's
 * markdown parser), each with the requirements and criteria it implements, stored once its
 * documents are final and kept in step with the plan of each later revision.
 */
import type { RequirementDelta } from '../models/deltas.ts';
import { documentRole, parseDocument, requirementOf } from '../runs/trace/parse.ts';
import { planTasks } from '../runs/trace/plan.ts';
import type { Tx } from '../storage/db.ts';
import {
  completedRevisionDeltas,
  insertTaskRows,
  listTaskRows,
  lockedTaskPlan,
  type NewTaskHistoryRow,
  type NewTaskRow,
  saveRevisionTaskChanges,
  saveTaskPlan,
  type TaskRow,
  updateTaskRow,
} from '../storage/sql/tasks.ts';
import {
  droppedNote,
  impactOf,
  type RequirementImpact,
  type RevisionDeltas,
  verdictOf,
} from './impact.ts';
import { recordTaskHistory, type TaskAudience } from './notify.ts';

/** A stored document, as much of it as the plan needs. */
export interface PlanDocument {
  filename: string;
  content: string;
}

/** What the plan says of one task, ready to store. */
export type PlannedTask = Pick<
  NewTaskRow,
  'taskId' | 'position' | 'title' | 'phase' | 'requirements' | 'criteria' | 'dependsOn' | 'files'
> & { estimate: string | null };

/**
 * The tasks of a project's plan in plan order; none when it has no plan. A requirement the
 * plan names brings all its criteria; a criterion named brings itself.
 *
 * @example
 * plannedTasks(documents)[0]; // { taskId: 'T-1', requirements: [], criteria: [], … }
 */
export function plannedTasks(documents: readonly PlanDocument[]): PlannedTask[] {
  const plan = documents.find((doc) => documentRole(doc.filename) === 'plan');
  if (plan === undefined) return [];
  const criteriaOf = new Map<string, string[]>();
  const requirements = documents.find((doc) => documentRole(doc.filename) === 'requirements');
  if (requirements !== undefined) {
    for (const node of parseDocument(requirements.filename, requirements.content).defines) {
      if (node.kind !== 'criterion') continue;
      const group = requirementOf(node.id)!;
      criteriaOf.set(group, [...(criteriaOf.get(group) ?? []), node.id]);
    }
  }
  return planTasks(plan.content).map((task, position) => {
    const groups = task.implements.map((id) => requirementOf(id) ?? id);
    const criteria = task.implements.flatMap((id) =>
      id.includes('.') ? [id] : (criteriaOf.get(id) ?? []),
    );
    return {
      taskId: task.id,
      position,
      title: task.title,
      phase: task.phase,
      requirements: [...new Set(groups)],
      criteria: [...new Set(criteria)],
      dependsOn: task.dependsOn,
      files: task.files,
      estimate: task.estimate ?? null,
    };
  });
}

/** What bringing the tasks up to a revision's plan did to them: task IDs (issue 30, item 4). */
export interface TaskChanges {
  added: string[];
  reopened: string[];
  obsoleted: string[];
}

type HistoryStatus = NewTaskHistoryRow['fromStatus'];

/**
 * Makes the project's task rows reflect `revision`'s plan, under the project row's lock, once.
 * The first time, every task starts `todo`. After revisions, a task keeps its status by its
 * stable ID unless the revisions' requirement deltas say otherwise ({@link verdictOf}): a
 * `done` task of a modified requirement is reopened to `todo`, a task whose requirements were
 * all removed becomes `obsolete`; a new task starts `todo` and one the plan no longer has
 * becomes `obsolete`. Each change is a history entry made by PGS (no key) whose note names
 * the revision and the requirement, and each revision's share of the changes is stored with
 * it (`task_changes`). A row the revision leaves as it was is not written, so its version
 * (ETag) holds. Returns the changes, or undefined when the rows already reflect that revision.
 *
 * @example
 * await syncTasks(tx, projectId, 2, documents, new Date(now)); // { added: ['T-12'], reopened: ['T-4'], obsoleted: [] }
 */
export async function syncTasks(
  tx: Tx,
  projectId: string,
  revision: number,
  documents: readonly PlanDocument[],
  at: Date,
  /** Whose project it is and who hears of the changes (`task.updated`); none at creation. */
  audience?: TaskAudience,
): Promise<TaskChanges | undefined> {
  const plannedRevision = await lockedTaskPlan(tx, projectId);
  if (plannedRevision === revision) return undefined;
  const revisions = await revisionsSince(tx, projectId, plannedRevision, revision);
  const sync = new TaskSync(tx, projectId, revision, at, impactOf(revisions));
  const planned = plannedTasks(documents);
  const existing = new Map(
    (await listTaskRows(tx, projectId)).map((row) => [row.taskId, row] as const),
  );
  for (const task of planned) {
    const row = existing.get(task.taskId);
    if (row === undefined) sync.add(task, existing.size === 0);
    else await sync.follow(row, task);
  }
  const kept = new Set(planned.map((task) => task.taskId));
  for (const row of existing.values()) {
    if (!kept.has(row.taskId) && row.status !== 'obsolete') await sync.drop(row);
  }
  await sync.store(revisions, audience);
  return sync.changes();
}

/** The revisions completed since the rows were read, with their deltas (none the first time). */
async function revisionsSince(
  tx: Tx,
  projectId: string,
  plannedRevision: number | null,
  revision: number,
): Promise<RevisionDeltas[]> {
  if (plannedRevision === null) return [];
  return (await completedRevisionDeltas(tx, projectId, plannedRevision, revision)).map((row) => ({
    revision: row.revision,
    deltas: (row.deltas as RequirementDelta[] | null) ?? [],
  }));
}

/**
 * One sync of the task rows to a revision's plan: rows are updated as it goes; new rows, the
 * history entries and each revision's share of the changes are gathered and stored at the end.
 */
class TaskSync {
  readonly #created: NewTaskRow[] = [];
  readonly #history: NewTaskHistoryRow[] = [];
  readonly #byRevision = new Map<number, TaskChanges>();

  readonly #tx: Tx;
  readonly #projectId: string;
  readonly #revision: number;
  readonly #at: Date;
  readonly #impact: RequirementImpact;

  constructor(tx: Tx, projectId: string, revision: number, at: Date, impact: RequirementImpact) {
    this.#tx = tx;
    this.#projectId = projectId;
    this.#revision = revision;
    this.#at = at;
    this.#impact = impact;
  }

  /** A task new to the rows starts `todo`; the first plan's tasks are no revision's doing. */
  add(task: PlannedTask, first: boolean): void {
    const revision = this.#revision;
    this.#created.push({
      projectId: this.#projectId,
      ...task,
      revision,
      createdAt: this.#at,
      updatedAt: this.#at,
    });
    this.#entry(task.taskId, null, 'todo', null, first ? null : `Added by revision ${revision}.`);
    this.#changed(revision, 'added', task.taskId);
  }

  /**
   * A task the plan still has: the plan's words may change; the task's state is its own,
   * unless a delta says otherwise.
   */
  async follow(row: TaskRow, task: PlannedTask): Promise<void> {
    const verdict = verdictOf(row.status, row.requirements, task.requirements, this.#impact);
    const status =
      verdict.kind === 'reopen' ? 'todo' : verdict.kind === 'obsolete' ? 'obsolete' : row.status;
    // A row the revision leaves as it was keeps its version: an agent's ETag of a task the
    // revision did not touch stays good. A verdict other than keep always writes (a note for
    // whoever holds the task is a change they must read before they finish it).
    if (verdict.kind === 'keep' && samePlan(row, task)) return;
    const lease = status === 'obsolete' ? { leaseAgent: null, leaseExpiresAt: null } : {};
    await updateTaskRow(this.#tx, this.#projectId, task.taskId, row.version, {
      ...task,
      status,
      ...lease,
      revision: this.#revision,
      updatedAt: this.#at,
    });
    if (verdict.kind === 'keep') return;
    this.#entry(row.taskId, row.status, status, row.assignee, verdict.note);
    if (verdict.kind === 'reopen') this.#changed(verdict.revision, 'reopened', row.taskId);
    if (verdict.kind === 'obsolete') this.#changed(verdict.revision, 'obsoleted', row.taskId);
  }

  /** A task the plan no longer has becomes `obsolete`, its lease ended. */
  async drop(row: TaskRow): Promise<void> {
    await updateTaskRow(this.#tx, this.#projectId, row.taskId, row.version, {
      status: 'obsolete',
      leaseAgent: null,
      leaseExpiresAt: null,
      revision: this.#revision,
      updatedAt: this.#at,
    });
    const dropped = droppedNote(row.requirements, this.#impact, this.#revision);
    this.#entry(row.taskId, row.status, 'obsolete', row.assignee, dropped.note);
    this.#changed(dropped.revision, 'obsoleted', row.taskId);
  }

  /**
   * Stores the new rows, the history (heard by the audience), the plan's revision and each
   * revision's share of the changes.
   */
  async store(revisions: readonly RevisionDeltas[], audience: TaskAudience | undefined) {
    const tx = this.#tx;
    const projectId = this.#projectId;
    await insertTaskRows(tx, this.#created);
    await recordTaskHistory(tx, projectId, this.#history, audience);
    await saveTaskPlan(tx, projectId, this.#revision, this.#at);
    // A plan read for the first time is no revision's doing (revisions is empty then).
    for (const { revision: n } of revisions) {
      const changes = this.#byRevision.get(n) ?? { added: [], reopened: [], obsoleted: [] };
      await saveRevisionTaskChanges(tx, projectId, n, changes);
    }
  }

  /** What the sync did to the tasks, over all the revisions. */
  changes(): TaskChanges {
    const byRevision = [...this.#byRevision.values()];
    return {
      added: this.#created.map((row) => row.taskId),
      reopened: byRevision.flatMap((c) => c.reopened),
      obsoleted: byRevision.flatMap((c) => c.obsoleted),
    };
  }

  #changed(by: number, kind: keyof TaskChanges, taskId: string): void {
    const changes = this.#byRevision.get(by) ?? { added: [], reopened: [], obsoleted: [] };
    changes[kind].push(taskId);
    this.#byRevision.set(by, changes);
  }

  #entry(
    taskId: string,
    from: HistoryStatus,
    to: NonNullable<HistoryStatus>,
    assignee: string | null,
    note: string | null,
  ): void {
    this.#history.push({
      projectId: this.#projectId,
      taskId,
      at: this.#at,
      keyId: null,
      agent: null,
      fromStatus: from,
      toStatus: to,
      assignee,
      note,
    });
  }
}

const sameList = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((item, i) => item === b[i]);

/** Whether the plan says of a task what its row already holds (status and lease aside). */
function samePlan(row: TaskRow, task: PlannedTask): boolean {
  return (
    row.position === task.position &&
    row.title === task.title &&
    row.phase === task.phase &&
    row.estimate === task.estimate &&
    sameList(row.requirements, task.requirements) &&
    sameList(row.criteria, task.criteria) &&
    sameList(row.dependsOn, task.dependsOn) &&
    sameList(row.files, task.files)
  );
}
