import { describe, expect, it } from 'vitest';
import { TrackerRequestError } from '../provider.ts';
import { chooseIssueTypes, storedTarget } from './project.ts';

const task = { id: '1', name: 'Task', hierarchyLevel: 0, subtask: false };
const story = { id: '2', name: 'Story', hierarchyLevel: 0, subtask: false };
const epic = { id: '3', name: 'Epic', hierarchyLevel: 1, subtask: false };
const subtask = { id: '4', name: 'Sub-task', hierarchyLevel: -1, subtask: true };

describe('the issue types PGS uses in a Jira project', () => {
  it('takes Task for tasks and Epic for FR groups', () => {
    expect(chooseIssueTypes('PGS', [story, subtask, epic, task])).toEqual({
      issueTypeId: '1',
      parentIssueTypeId: '3',
      subtaskIssueTypeId: '',
    });
  });

  it('without an Epic, makes FR groups Tasks and tasks under them Sub-tasks', () => {
    expect(chooseIssueTypes('PGS', [task, subtask])).toEqual({
      issueTypeId: '1',
      parentIssueTypeId: '1',
      subtaskIssueTypeId: '4',
    });
  });

  it('takes the first standard type where there is no Task, and refuses a project with none', () => {
    expect(chooseIssueTypes('PGS', [story]).issueTypeId).toBe('2');
    expect(() => chooseIssueTypes('PGS', [epic, subtask])).toThrow(TrackerRequestError);
  });

  it('reads a stored target only when it is complete', () => {
    const full = { projectKey: 'PGS', projectId: '10', issueTypeId: '1', parentIssueTypeId: '3' };
    expect(storedTarget(full)).toEqual({ ...full, subtaskIssueTypeId: '' });
    expect(storedTarget({ projectKey: 'PGS' })).toBeUndefined();
  });
});
