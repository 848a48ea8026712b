import type { Task, Trace, TraceCoverage } from '@pgs/client';
import { describe, expect, it } from 'vitest';
import { deliveryByRequirement, deliveryCell, deliveryFromTasks, planSummary } from './delivery.ts';

const requirement = (id: string, criteria: string[]) => ({
  id,
  title: id,
  criteria,
  stories: [],
  components: [],
  tasks: [],
});
const coverage = {
  requirements: [
    requirement('FR-1', ['FR-1.1', 'FR-1.2']),
    requirement('FR-2', ['FR-2.1']),
    requirement('FR-3', []),
  ],
} as unknown as TraceCoverage;
const task = (status: Task['status'], requirements: string[], criteria: string[]) =>
  ({ status, requirements, criteria }) as Task;

describe('deliveryFromTasks', () => {
  const tasks = [
    task('done', ['FR-1'], ['FR-1.1']),
    task('in_progress', ['FR-1'], ['FR-1.2']),
    task('done', ['FR-2'], ['FR-2.1']),
    task('obsolete', ['FR-2'], ['FR-2.1']),
  ];

  it('counts the tasks done of the tasks serving each requirement, obsolete ones nowhere', () => {
    expect(deliveryFromTasks(coverage, tasks)).toEqual([
      {
        id: 'FR-1',
        tasks: { done: 1, total: 2 },
        criteria: { delivered: ['FR-1.1'], total: 2 },
        delivered: false,
      },
      {
        id: 'FR-2',
        tasks: { done: 1, total: 1 },
        criteria: { delivered: ['FR-2.1'], total: 1 },
        delivered: true,
      },
      {
        id: 'FR-3',
        tasks: { done: 0, total: 0 },
        criteria: { delivered: [], total: 0 },
        delivered: false,
      },
    ]);
  });

  it("prefers the trace's progress, else computes it from the tasks, else has none", () => {
    const progress = {
      tasks: { done: 0, total: 9 },
      criteria: { delivered: 0, total: 3 },
      share: 0,
      requirements: [
        {
          id: 'FR-1',
          tasks: { done: 0, total: 9 },
          criteria: { delivered: [], total: 2 },
          delivered: false,
        },
      ],
    };
    const trace = { coverage } as Trace;
    expect(deliveryByRequirement({ ...trace, progress }, tasks)?.get('FR-1')?.tasks.total).toBe(9);
    expect(deliveryByRequirement(trace, tasks)?.get('FR-1')?.tasks.total).toBe(2);
    expect(deliveryByRequirement(trace, undefined)).toBeUndefined();
  });
});

describe('what delivery reads', () => {
  it('says tasks done of total, the criteria, and when it is delivered', () => {
    const [first, second, third] = deliveryFromTasks(coverage, [
      task('done', ['FR-1'], ['FR-1.1']),
      task('todo', ['FR-1'], ['FR-1.2']),
      task('done', ['FR-2'], ['FR-2.1']),
    ]);
    expect(deliveryCell(first)).toEqual({
      text: '1 of 2 tasks done',
      criteria: '1 of 2 criteria delivered',
      delivered: false,
    });
    expect(deliveryCell(second)).toEqual({
      text: 'Delivered: 1 of 1 task done',
      criteria: '1 of 1 criterion delivered',
      delivered: true,
    });
    expect(deliveryCell(third).text).toBe('No tasks');
    expect(deliveryCell(undefined).text).toBe('No tasks');
  });

  it('sums the project up, obsolete tasks aside', () => {
    expect(
      planSummary([task('done', [], []), task('todo', [], []), task('obsolete', [], [])]),
    ).toBe('Delivery: 1 of 2 tasks done (50 %).');
    expect(planSummary([task('obsolete', [], [])])).toBe('Delivery: no tasks to do.');
  });
});
