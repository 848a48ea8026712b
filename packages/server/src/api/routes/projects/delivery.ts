import type { ProjectCompleted } from '@pgs/contract';
import type { Principal } from '../../../accounts/service.ts';
import type { ArchiveWork } from '../../../export/archive.ts';
import { etagOf } from '../../../projects/result.ts';
import { plannedTasks } from '../../../tasks/plan.ts';
import type { Tasks } from '../../../tasks/service.ts';

/**
 * The work on the plan as the trace and the archive show it (issue 30, item 5): live state
 * beside documents that never change, so what the reads answer, and their ETags, follow both.
 */

/** A short validator for live state: the ETag of its JSON, without the quotes. */
const tagOf = (value: unknown) => etagOf(JSON.stringify(value)).replace(/"/g, '');

/**
 * The trace body with `progress` added to its `data` (the body is the cached
 * `{"success":true,"data":{…}}` the trace cache made, so it ends with `}}`), and a tag of the
 * progress for the ETag.
 *
 * @example
 * const { body, tag } = await traceWithProgress(tasks, principal, projectId, cached);
 */
export async function traceWithProgress(
  tasks: Tasks,
  principal: Principal,
  projectId: string,
  trace: string,
): Promise<{ body: string; tag: string }> {
  const { data } = JSON.parse(trace) as {
    data: { coverage: { requirements: { id: string; criteria: string[] }[] } };
  };
  const requirements = data.coverage.requirements.map(({ id, criteria }) => ({ id, criteria }));
  const progress = await tasks.progress(principal, projectId, requirements);
  if (!trace.endsWith('}}')) throw new Error('a trace body ends its data and the envelope');
  return {
    body: `${trace.slice(0, -2)},"progress":${JSON.stringify(progress)}}}`,
    tag: tagOf(progress),
  };
}

/**
 * The plan's tasks for an archive: the work as it stands for the current revision (and
 * tasks.json), or, for a pinned revision (whose archive never changes), its plan's tasks with
 * every box unticked. `tag` names the live state for the ETag ('' when pinned).
 *
 * @example
 * const { work, tag } = await archiveWork(tasks, principal, projectId, undefined, data);
 */
export async function archiveWork(
  tasks: Tasks | undefined,
  principal: Principal,
  projectId: string,
  revision: number | undefined,
  data: ProjectCompleted,
): Promise<{ work: ArchiveWork | undefined; tag: string }> {
  if (revision === undefined && tasks !== undefined) {
    const list = await tasks.list(principal, projectId);
    // A plan without tasks adds nothing: the archive is the documents' alone, as before.
    if (list.length === 0) return { work: undefined, tag: '' };
    return { work: { tasks: list, live: true, json: list }, tag: tagOf(list) };
  }
  const planned = plannedTasks(data.project.documents).map((task) => ({
    id: task.taskId,
    title: task.title,
    phase: task.phase,
    requirements: task.requirements,
    criteria: task.criteria,
    dependsOn: task.dependsOn,
    files: task.files,
    status: 'todo' as const,
  }));
  return { work: { tasks: planned, live: false }, tag: '' };
}
