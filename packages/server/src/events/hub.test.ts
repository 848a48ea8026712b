import { afterEach, describe, expect, it, vi } from 'vitest';
import { holdUntil, ProjectEventHub } from './hub.ts';

/** A hub whose announcements the test makes: the hub's own wakes and follow over them. */
function announcingHub() {
  const waiters = new Set<() => void>();
  const hub: ProjectEventHub = Object.assign(Object.create(ProjectEventHub.prototype), {
    subscribe: (_id: string, onEvent: () => void) => {
      waiters.add(onEvent);
      return () => waiters.delete(onEvent);
    },
  });
  const announce = () => {
    for (const wake of [...waiters]) wake();
  };
  return { hub, waiters, announce };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('ProjectEventHub.wakes', () => {
  it('yields at once, then once for announcements made while the caller was busy', async () => {
    const { hub, waiters, announce } = announcingHub();
    const wakes = hub.wakes('p');
    expect((await wakes.next()).done).toBe(false);
    expect(waiters.size).toBe(1);
    announce();
    announce();
    expect((await wakes.next()).done).toBe(false);
    // Both announcements came before this wake: the next one waits for a third.
    let woken = false;
    const third = wakes.next().then(() => {
      woken = true;
    });
    // A turn of the event loop: a wake already due would have resolved by then.
    await new Promise((resolve) => setImmediate(resolve));
    expect(woken).toBe(false);
    announce();
    await third;
    await wakes.return();
    expect(waiters.size).toBe(0);
  });

  it('ends when its signal aborts, and at its deadline, unsubscribed', async () => {
    const { hub, waiters } = announcingHub();
    const stop = new AbortController();
    const aborted = hub.wakes('p', { signal: stop.signal });
    await aborted.next();
    const ending = aborted.next();
    stop.abort();
    expect((await ending).done).toBe(true);
    expect(waiters.size).toBe(0);

    vi.useFakeTimers();
    const timed = hub.wakes('p', { waitMs: 30_000 });
    await timed.next();
    const end = timed.next();
    await vi.advanceTimersByTimeAsync(30_000);
    expect((await end).done).toBe(true);
    expect(waiters.size).toBe(0);
  });
});

describe('ProjectEventHub.follow', () => {
  it('yields the events after `after` as they are stored, and ends after the caller’s last', async () => {
    const { hub, announce } = announcingHub();
    const log: { seq: number; type: string }[] = [{ seq: 1, type: 'stage.started' }];
    const store = (type: string) => {
      log.push({ seq: log.length + 1, type });
      announce();
    };
    const seen: string[] = [];
    const following = (async () => {
      const events = hub.follow('p', {
        read: async (after) => log.filter((event) => event.seq > after),
        after: 0,
        until: (event) => event.type === 'project.completed',
      });
      for await (const event of events) {
        seen.push(event.type);
        if (event.seq === 1) store('document.completed');
        if (event.seq === 2) store('project.completed');
      }
    })();
    await following;
    expect(seen).toEqual(['stage.started', 'document.completed', 'project.completed']);
  });
});

describe('holdUntil', () => {
  it('reads once when its signal has already aborted', async () => {
    const { hub, waiters } = announcingHub();
    const stop = new AbortController();
    stop.abort();
    let reads = 0;
    const value = await holdUntil(
      hub,
      'p',
      1_000,
      stop.signal,
      async () => ++reads,
      () => false,
    );
    expect([value, reads, waiters.size]).toEqual([1, 1, 0]);
  });
});
