import { describe, expect, it } from 'vitest';
import { projectProgress, traceProgress } from './progress.ts';

const task = (status: string, requirements: string[], criteria: string[]) =>
  ({ status, requirements, criteria }) as Parameters<typeof traceProgress>[0][number];

describe('delivery of a plan', () => {
  const tasks = [
    task('done', ['FR-1'], ['FR-1.1', 'FR-1.2']),
    task('in_progress', ['FR-1'], ['FR-1.2']),
    task('done', ['FR-2'], ['FR-2.1']),
    task('obsolete', ['FR-2'], ['FR-2.1', 'FR-2.2']),
    task('todo', ['NFR-1'], []),
    task('done', [], []),
  ];

  it('counts the tasks that count: obsolete ones nowhere', () => {
    expect(projectProgress(tasks)).toEqual({ tasks: { done: 3, total: 5 }, share: 0.6 });
    expect(projectProgress([])).toEqual({ tasks: { done: 0, total: 0 }, share: 0 });
  });

  it('delivers a criterion when every task implementing it is done, a requirement when all its tasks are', () => {
    const progress = traceProgress(tasks, [
      { id: 'FR-1', criteria: ['FR-1.1', 'FR-1.2', 'FR-1.3'] },
      { id: 'FR-2', criteria: ['FR-2.1', 'FR-2.2'] },
      { id: 'FR-3', criteria: ['FR-3.1'] },
    ]);
    expect(progress.requirements).toEqual([
      {
        id: 'FR-1',
        tasks: { done: 1, total: 2 },
        // FR-1.2 has a task still in progress; FR-1.3 has none at all.
        criteria: { delivered: ['FR-1.1'], total: 3 },
        delivered: false,
      },
      // Its obsolete task is gone from the count; FR-2.2 is left with no task.
      {
        id: 'FR-2',
        tasks: { done: 1, total: 1 },
        criteria: { delivered: ['FR-2.1'], total: 2 },
        delivered: true,
      },
      // A requirement no task serves is shown, never delivered.
      {
        id: 'FR-3',
        tasks: { done: 0, total: 0 },
        criteria: { delivered: [], total: 1 },
        delivered: false,
      },
      // Then the NFRs the tasks name.
      {
        id: 'NFR-1',
        tasks: { done: 0, total: 1 },
        criteria: { delivered: [], total: 0 },
        delivered: false,
      },
    ]);
    expect(progress.criteria).toEqual({ delivered: 2, total: 6 });
    expect(progress.tasks).toEqual({ done: 3, total: 5 });
  });
});
