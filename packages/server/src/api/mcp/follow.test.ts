import type { McpProgress } from '@pgs/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ProjectEventHub } from '../../events/hub.ts';
import type { SharedEventReads } from '../../events/reads.ts';
import type { ProjectEventRow } from '../../storage/sql/events.ts';
import { followProject } from './follow.ts';

/** A project's log the test appends to, and a hub that announces each append. */
function fakeProject() {
  const log: Pick<ProjectEventRow, 'seq' | 'type' | 'data'>[] = [];
  const waiters = new Set<() => void>();
  // The hub's own follow and wakes, over a subscribe the test announces through.
  const hub: ProjectEventHub = Object.assign(Object.create(ProjectEventHub.prototype), {
    subscribe: (_id: string, onEvent: () => void) => {
      waiters.add(onEvent);
      return () => waiters.delete(onEvent);
    },
  });
  const reads = {
    read: async (_id: string, after = 0) => log.filter((e) => e.seq > after),
  } as unknown as SharedEventReads;
  const append = (type: string, data: unknown) => {
    log.push({ seq: log.length + 1, type, data });
    for (const wake of [...waiters]) wake();
  };
  return { hub, reads, append, waiters };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('followProject', () => {
  it('reports every document, already stored or not, in order, and ends with the final event', async () => {
    const { hub, reads, append } = fakeProject();
    append('stage.started', { stage: 'project-brief' });
    append('document.completed', { filename: 'PROJECT_BRIEF.md' });
    const steps: McpProgress[] = [];
    const following = followProject('p', {
      hub,
      reads,
      type: 'web',
      estimatedCompletionMs: 5_000,
      maxWaitMs: 60_000,
      signal: new AbortController().signal,
      report: async (step) => {
        steps.push(step);
      },
    });
    await vi.waitFor(() => expect(steps).toHaveLength(2));
    append('document.completed', { filename: 'README.md' });
    append('project.completed', { status: 'completed' });
    expect(await following).toBe('ended');
    expect(steps.map((s) => [s.progress, s.message])).toEqual([
      [0, 'Generating, about 5 s estimated.'],
      [1, 'PROJECT_BRIEF.md written (1 of 8).'],
      [2, 'README.md written (2 of 8).'],
    ]);
  });

  it('gives up at its deadline and unsubscribes', async () => {
    vi.useFakeTimers();
    const { hub, reads, waiters } = fakeProject();
    const following = followProject('p', {
      hub,
      reads,
      type: undefined,
      estimatedCompletionMs: 0,
      maxWaitMs: 900_000,
      signal: new AbortController().signal,
    });
    await vi.advanceTimersByTimeAsync(900_000);
    expect(await following).toBe('timed_out');
    expect(waiters.size).toBe(0);
  });

  it('ends when its signal aborts, and a report that fails does not fail it', async () => {
    const { hub, reads, waiters } = fakeProject();
    const stop = new AbortController();
    const following = followProject('p', {
      hub,
      reads,
      type: undefined,
      estimatedCompletionMs: 0,
      maxWaitMs: 900_000,
      signal: stop.signal,
      report: async () => {
        throw new Error('the client left');
      },
    });
    await vi.waitFor(() => expect(waiters.size).toBe(1));
    stop.abort();
    expect(await following).toBe('aborted');
    expect(waiters.size).toBe(0);
  });
});
