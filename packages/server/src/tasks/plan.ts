/**
 * A project's plan as task rows: the tasks of its implementation plan (read with the trace's
 * markdown parser), each with the requirements and criteria it implements, stored once its
 * documents are final and kept in step with the plan of each later revision.
 */
import { documentRole, parseDocument, requirementOf } from '../runs/trace/parse.ts';
import { planTasks } from '../runs/trace/plan.ts';
import type { Tx } from '../storage/db.ts';
import {
  insertTaskHistory,
  insertTaskRows,
  listTaskRows,
  lockedTaskPlan,
  type NewTaskHistoryRow,
  type NewTaskRow,
  saveTaskPlan,
  updateTaskRow,
} from '../storage/sql/tasks.ts';

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

/** What a sync changed, for the revision's result (issue 30, item 4). */
export interface TaskSync {
  created: string[];
  obsoleted: string[];
}

/**
 * Makes the project's task rows reflect `revision`'s plan, under the project row's lock, once:
 * the first time, every task starts `todo`; after a revision a task keeps its status by its
 * stable ID, a new one starts `todo` and one the plan no longer has becomes `obsolete`. Each
 * change is a history entry made by PGS (no key). Returns undefined when the rows already
 * reflect that revision.
 *
 * @example
 * await syncTasks(tx, projectId, 1, documents, new Date(now));
 */
export async function syncTasks(
  tx: Tx,
  projectId: string,
  revision: number,
  documents: readonly PlanDocument[],
  at: Date,
): Promise<TaskSync | undefined> {
  if ((await lockedTaskPlan(tx, projectId)) === revision) return undefined;
  const planned = plannedTasks(documents);
  const existing = new Map(
    (await listTaskRows(tx, projectId)).map((row) => [row.taskId, row] as const),
  );
  const history: NewTaskHistoryRow[] = [];
  const entry = (
    taskId: string,
    from: NewTaskHistoryRow['fromStatus'],
    to: NewTaskHistoryRow['toStatus'],
    assignee: string | null,
    note: string | null,
  ) =>
    history.push({
      projectId,
      taskId,
      at,
      keyId: null,
      agent: null,
      fromStatus: from,
      toStatus: to,
      assignee,
      note,
    });
  const created: NewTaskRow[] = [];
  for (const task of planned) {
    const row = existing.get(task.taskId);
    if (row === undefined) {
      created.push({ projectId, ...task, revision, createdAt: at, updatedAt: at });
      entry(
        task.taskId,
        null,
        'todo',
        null,
        existing.size === 0 ? null : `Added by revision ${revision}.`,
      );
      continue;
    }
    // The plan's words may change; the task's state is its own.
    await updateTaskRow(tx, projectId, task.taskId, row.version, {
      ...task,
      revision,
      updatedAt: at,
    });
  }
  const kept = new Set(planned.map((task) => task.taskId));
  const obsoleted: string[] = [];
  for (const row of existing.values()) {
    if (kept.has(row.taskId) || row.status === 'obsolete') continue;
    await updateTaskRow(tx, projectId, row.taskId, row.version, {
      status: 'obsolete',
      leaseAgent: null,
      leaseExpiresAt: null,
      revision,
      updatedAt: at,
    });
    entry(
      row.taskId,
      row.status,
      'obsolete',
      row.assignee,
      `Not in the plan of revision ${revision}.`,
    );
    obsoleted.push(row.taskId);
  }
  await insertTaskRows(tx, created);
  await insertTaskHistory(tx, history);
  await saveTaskPlan(tx, projectId, revision, at);
  return { created: created.map((row) => row.taskId), obsoleted };
}
