import { afterEach, describe, expect, it, vi } from 'vitest';
import { createProgressView, formatDuration, progressBar, progressLine } from './progress.ts';

const ID = '7d0f2c8e-4a9b-4e43-9a55-0d2b8f1c6e21';
const running = (estimatedCompletionMs: number) =>
  ({ projectId: ID, status: 'in_progress', estimatedCompletionMs }) as const;

afterEach(() => {
  vi.useRealTimers();
});

describe('formatting', () => {
  it.each([
    [400, '0.4 s'],
    [9_950, '9.9 s'],
    [12_400, '12 s'],
    [60_000, '1 min'],
    [125_000, '2 min 5 s'],
  ])('formatDuration(%i) = %s', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });

  it('a plain line says the time left and when the next check is', () => {
    const progress = { polls: 1, elapsedMs: 0, nextPollMs: 10_000 };
    expect(progressLine(running(11_200), progress)).toBe(
      'in_progress: about 12 s left (next check in 10 s)',
    );
    expect(progressLine(running(0), progress)).toBe('in_progress: finishing (next check in 10 s)');
    expect(progressLine(running(11_200), { ...progress, nextPollMs: 0 })).toBe(
      'in_progress: about 12 s left (waiting)',
    );
    expect(progressLine(running(95_000), { ...progress, nextPollMs: 30_000 })).toBe(
      'in_progress: about 1 min 35 s left (next check in 30 s)',
    );
  });

  it('a bar frame', () => {
    expect(progressBar(0.5, 8_000, 6_000)).toBe(
      `${'█'.repeat(12)}${'░'.repeat(12)}  50%  about 8 s left · next check in 6 s`,
    );
    expect(progressBar(0, 1_500, undefined)).toBe(`${'░'.repeat(24)}   0%  about 2 s left`);
    expect(progressBar(0.99, 0, 0)).toMatch(/ 99% {2}finishing · checking$/);
  });
});

describe('createProgressView', () => {
  it('prints one line per poll when not on a terminal', () => {
    let out = '';
    const view = createProgressView({ write: (s: string) => (out += s) });
    view.start(running(5_000));
    view.update(running(4_000), { polls: 1, elapsedMs: 0, nextPollMs: 10_000 });
    view.finish();
    expect(out).toBe('in_progress: about 4 s left (next check in 10 s)\n');
  });

  it('on a terminal, redraws one line: the estimate counts down between polls and never goes back', () => {
    vi.useFakeTimers();
    let out = '';
    let t = 0;
    const view = createProgressView(
      { write: (s: string) => (out += s), isTTY: true, columns: 100 },
      { now: () => t, redrawMs: 1_000 },
    );
    view.start(running(20_000));
    view.update(running(20_000), { polls: 1, elapsedMs: 0, nextPollMs: 10_000 });
    t = 5_000;
    vi.advanceTimersByTime(5_000);
    // A poll that estimates more than the countdown reached keeps the bar where it was.
    view.update(running(18_000), { polls: 2, elapsedMs: 5_000, nextPollMs: 10_000 });
    view.finish({
      projectId: ID,
      status: 'failed',
      error: { code: 'generation_failed', message: 'x' },
    });
    const frames = out.split('\r').filter(Boolean);
    expect(out).not.toContain('\n');
    expect(frames[0]).toBe(`${'░'.repeat(24)}   0%  about 20 s left\x1b[K`);
    expect(
      frames.some((f) =>
        f.startsWith(`${'█'.repeat(6)}${'░'.repeat(18)}  25%  about 15 s left · next check in 5 s`),
      ),
    ).toBe(true);
    const pcts = frames.slice(0, -1).map((f) => Number(/(\d+)%/.exec(f)?.[1]));
    expect(pcts).toEqual([...pcts].sort((a, b) => a - b));
    // A failed wait clears the line; no timer is left behind.
    expect(frames.at(-1)).toBe('\x1b[K');
    expect(vi.getTimerCount()).toBe(0);
  });

  it('draws the status it was given at the moment it was seen, however slow the clock reads are', () => {
    let out = '';
    let t = 0;
    // Every read of the clock finds 100 ms more gone, as on a machine too busy to draw at once.
    const view = createProgressView(
      { write: (s: string) => (out += s), isTTY: true, columns: 100 },
      { now: () => (t += 100) },
    );
    view.start(running(1_500));
    view.update(running(1_000), { polls: 1, elapsedMs: 500, nextPollMs: 400 });
    view.finish();
    const frames = out.split('\r').filter(Boolean);
    expect(frames[0]).toBe(`${'░'.repeat(24)}   0%  about 2 s left\x1b[K`);
    expect(frames[1]).toBe(
      `${'█'.repeat(8)}${'░'.repeat(16)}  33%  about 1 s left · next check in 1 s\x1b[K`,
    );
  });

  it('keeps the line within the terminal width, so \\r returns to its start', () => {
    let out = '';
    const view = createProgressView(
      { write: (s: string) => (out += s), isTTY: true, columns: 40 },
      { now: () => 0 },
    );
    view.start(running(95_000));
    view.update(running(95_000), { polls: 1, elapsedMs: 0, nextPollMs: 30_000 });
    view.finish();
    for (const frame of out.split('\r').filter(Boolean)) {
      expect(frame.replace('\x1b[K', '').length).toBeLessThanOrEqual(39);
    }
  });

  it('a completed wait ends on a full bar and a newline', () => {
    let out = '';
    const view = createProgressView(
      { write: (s: string) => (out += s), isTTY: true },
      { now: () => 0 },
    );
    view.start(running(1_000));
    view.finish({ status: 'completed' } as never);
    expect(out.endsWith(`\r${'█'.repeat(24)} 100%  done\x1b[K\n`)).toBe(true);
  });
});
