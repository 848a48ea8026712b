import type { PollProgress, ProjectInProgress, ProjectResult } from '@pgs/client';
import type { Writer } from './context.ts';

/**
 * Shows a running project. The API tells only the status and `estimatedCompletionMs`
 * (no stage, no documents done), so that is all this shows: on a terminal a bar
 * redrawn in place, the percentage being the estimate against the first one;
 * otherwise one line per poll.
 */
export interface ProgressView {
  /** The project was created: a terminal starts the bar; plain output prints nothing yet. */
  start(status: ProjectInProgress): void;
  /** A poll found the project in progress. */
  update(status: ProjectInProgress, progress: PollProgress): void;
  /** The wait ended, with its result or on an error: stop redrawing, leave the line clean. */
  finish(result?: ProjectResult): void;
}

/** Options of {@link createProgressView}. */
export interface ProgressOptions {
  /** Draw a bar (a terminal) or print lines; default `out.isTTY`. */
  tty?: boolean | undefined;
  now?: (() => number) | undefined;
  /** Milliseconds between redraws of the bar. */
  redrawMs?: number | undefined;
}

const BAR_WIDTH = 24;

/**
 * Milliseconds as people read them: `0.4 s`, `12 s`, `2 min 5 s`.
 *
 * @example
 * formatDuration(125_000); // '2 min 5 s'
 */
export function formatDuration(ms: number): string {
  if (ms < 10_000) return `${(Math.max(0, ms) / 1000).toFixed(1)} s`;
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  return s % 60 === 0 ? `${s / 60} min` : `${Math.floor(s / 60)} min ${s % 60} s`;
}

/** Seconds left, rounded up, as in `about 12 s left`. */
function left(ms: number): string {
  if (ms <= 0) return 'finishing';
  const s = Math.ceil(ms / 1000);
  return s < 60 ? `about ${s} s left` : `about ${formatDuration(s * 1000)} left`;
}

/**
 * One plain progress line: `in_progress: about 12 s left (next check in 10 s)`, or
 * `(waiting)` while a long-poll holds the next answer.
 *
 * @example
 * progressLine({ projectId, status: 'in_progress', estimatedCompletionMs: 11_200 }, { polls: 1, elapsedMs: 0, nextPollMs: 10_000 });
 */
export function progressLine(status: ProjectInProgress, progress: PollProgress): string {
  // A long-poll asks again at once: the server holds the next answer until the project ends.
  if (progress.nextPollMs <= 0)
    return `in_progress: ${left(status.estimatedCompletionMs)} (waiting)`;
  const next = Math.ceil(progress.nextPollMs / 1000);
  return `in_progress: ${left(status.estimatedCompletionMs)} (next check in ${next} s)`;
}

/**
 * One frame of the bar: `████████░░░░░░░░  33%  about 8 s left · next check in 6 s`.
 *
 * @example
 * progressBar(0.33, 8_000, 6_000); // '████████░░░░░░░░░░░░░░░░  33%  about 8 s left · next check in 6 s'
 */
export function progressBar(
  fraction: number,
  remainingMs: number,
  nextCheckMs: number | undefined,
): string {
  const shown = Math.min(1, Math.max(0, fraction));
  const filled = Math.round(shown * BAR_WIDTH);
  const pct = `${Math.floor(shown * 100)}%`.padStart(4);
  const next =
    nextCheckMs === undefined
      ? ''
      : nextCheckMs > 0
        ? ` · next check in ${Math.ceil(nextCheckMs / 1000)} s`
        : ' · checking';
  return `${'█'.repeat(filled)}${'░'.repeat(BAR_WIDTH - filled)} ${pct}  ${left(remainingMs)}${next}`;
}

/**
 * The view for `out`: a bar on a terminal, lines otherwise.
 *
 * @example
 * const view = createProgressView(process.stdout);
 * view.start(created); await pgs.projects.waitForCompletion(id, { onProgress: view.update }); view.finish(result);
 */
export function createProgressView(
  out: Writer,
  { tty = out.isTTY === true, now = () => Date.now(), redrawMs = 200 }: ProgressOptions = {},
): ProgressView {
  if (!tty) {
    return {
      start() {},
      update(status, progress) {
        out.write(`${progressLine(status, progress)}\n`);
      },
      finish() {},
    };
  }

  let first: number | undefined;
  let estimate = 0;
  let seenAt = 0;
  let nextPollAt: number | undefined;
  let shown = 0;
  let timer: ReturnType<typeof setInterval> | undefined;
  let drawn = false;

  const fit = (line: string) => {
    const columns = out.columns ?? 80;
    return line.length > columns - 1 ? line.slice(0, Math.max(0, columns - 1)) : line;
  };
  // A frame drawn for a status just seen uses the time it was seen: its bar then shows
  // exactly the estimate received (0 % for the first), however late the draw runs.
  const draw = (t = now()) => {
    // Between polls the estimate counts down on the local clock; each poll resets it.
    const remaining = Math.max(0, estimate - (t - seenAt));
    const fraction = first !== undefined && first > 0 ? 1 - remaining / first : 0;
    shown = Math.min(0.99, Math.max(shown, fraction));
    const next = nextPollAt === undefined ? undefined : nextPollAt - t;
    out.write(`\r${fit(progressBar(shown, remaining, next))}\x1b[K`);
    drawn = true;
  };
  const see = (status: ProjectInProgress, nextPollMs: number | undefined) => {
    first ??= status.estimatedCompletionMs;
    estimate = status.estimatedCompletionMs;
    seenAt = now();
    nextPollAt = nextPollMs === undefined ? undefined : seenAt + nextPollMs;
    draw(seenAt);
    if (timer === undefined) {
      timer = setInterval(() => draw(), redrawMs);
      timer.unref?.();
    }
  };

  return {
    start(status) {
      see(status, undefined);
    },
    update(status, progress) {
      see(status, progress.nextPollMs);
    },
    finish(result) {
      if (timer !== undefined) clearInterval(timer);
      timer = undefined;
      if (!drawn) return;
      if (result?.status === 'completed') {
        out.write(`\r${fit(`${'█'.repeat(BAR_WIDTH)} 100%  done`)}\x1b[K\n`);
      } else {
        out.write('\r\x1b[K');
      }
      drawn = false;
    },
  };
}
