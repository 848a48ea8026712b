/**
 * What a Jira project allows PGS to create, read once at verify time and stored with the
 * connection's target: the issue type for tasks, and how FR groups become parents. Jira
 * Cloud's unified `parent` field links a standard issue to an Epic (hierarchy level 1), and a
 * sub-task (level -1) to a standard issue; a standard issue cannot parent another. So a project
 * with an Epic type gets FR groups as Epics over Tasks, and one without gets FR groups as Tasks
 * over Sub-tasks.
 */
import type { CloudClient } from 'jira.js';
import { TrackerRequestError } from '../provider.ts';

/** The stored target of a Jira connection (every value a string, as targets are stored). */
export interface JiraTarget {
  projectKey: string;
  projectId: string;
  /** Tasks' issue type (a standard type: Task, or the project's first level-0 type). */
  issueTypeId: string;
  /** FR groups' issue type: Epic where the project has it, else the tasks' type. */
  parentIssueTypeId: string;
  /** Without an Epic type, tasks under an FR group are created as this sub-task type; '' when
   *  the project has none (tasks then carry no parent, only the FR label). */
  subtaskIssueTypeId: string;
}

interface IssueTypeLike {
  id?: string | undefined;
  name?: string | undefined;
  untranslatedName?: string | undefined;
  hierarchyLevel?: number | undefined;
  subtask?: boolean | undefined;
}

/** Chooses the issue types from a project's list (`GET /project/{key}?expand=issueTypes`). */
export function chooseIssueTypes(
  projectKey: string,
  types: readonly IssueTypeLike[],
): Omit<JiraTarget, 'projectKey' | 'projectId'> {
  const named = (wanted: string) => (type: IssueTypeLike) =>
    (type.untranslatedName ?? type.name)?.toLowerCase() === wanted;
  const level = (type: IssueTypeLike) => type.hierarchyLevel ?? (type.subtask ? -1 : 0);
  const standard = types.filter((type) => type.id && level(type) === 0 && !type.subtask);
  const task = standard.find(named('task')) ?? standard[0];
  if (!task?.id) {
    throw new TrackerRequestError(
      `Jira project ${projectKey} has no standard issue type (such as Task) to create issues with`,
      { status: 400, retryable: false },
    );
  }
  const epics = types.filter((type) => type.id && level(type) === 1);
  const epic = epics.find(named('epic')) ?? epics[0];
  const subtask = types.find((type) => type.id && (type.subtask || level(type) === -1));
  return {
    issueTypeId: task.id,
    parentIssueTypeId: epic?.id ?? task.id,
    subtaskIssueTypeId: epic ? '' : (subtask?.id ?? ''),
  };
}

/**
 * Checks the account and the project, and returns the project's target. Throws a
 * {@link TrackerRequestError} that names what is wrong: the credentials (401), the project
 * (404), or the permission to create issues (403).
 */
export async function discoverTarget(jira: CloudClient, projectKey: string): Promise<JiraTarget> {
  await jira.myself.getCurrentUser();
  const project = await jira.projects.getProject({
    projectIdOrKey: projectKey,
    expand: 'issueTypes',
  });
  const permissions = await jira.permissions.getMyPermissions({
    projectKey,
    permissions: 'CREATE_ISSUES',
  });
  const create = permissions.permissions?.CREATE_ISSUES as { havePermission?: boolean } | undefined;
  if (!create?.havePermission) {
    throw new TrackerRequestError(
      `The Jira account may not create issues in project ${projectKey} (the Create issues permission)`,
      { status: 403, retryable: false },
    );
  }
  if (!project.id) {
    throw new TrackerRequestError(`Jira did not give project ${projectKey}'s id`, {
      retryable: false,
    });
  }
  return {
    projectKey: project.key ?? projectKey,
    projectId: project.id,
    ...chooseIssueTypes(projectKey, project.issueTypes ?? []),
  };
}

/** The stored target when it is complete (a connection verified before), else undefined. */
export function storedTarget(target: Record<string, unknown>): JiraTarget | undefined {
  const { projectKey, projectId, issueTypeId, parentIssueTypeId, subtaskIssueTypeId } = target;
  const strings = [projectKey, projectId, issueTypeId, parentIssueTypeId];
  if (!strings.every((value) => typeof value === 'string' && value.length > 0)) return undefined;
  return {
    projectKey: projectKey as string,
    projectId: projectId as string,
    issueTypeId: issueTypeId as string,
    parentIssueTypeId: parentIssueTypeId as string,
    subtaskIssueTypeId: typeof subtaskIssueTypeId === 'string' ? subtaskIssueTypeId : '',
  };
}
