import {
  DEFAULT_MAX_WAIT_MS,
  type FinalEvent,
  isFinalEvent,
  type Pgs,
  PollTimeoutError,
  type ProjectEvent,
  type ProjectInProgress,
  type ProjectResult,
} from '@pgs/client';
import type { Command, CommandContext, Writer } from '../context.ts';
import { analysisLines } from '../deltas.ts';
import { GenerationFailedError, UsageError } from '../errors.ts';
import { formatDuration } from '../progress.ts';
import { API_OPTIONS, durationValue, expectPositionals } from './common.ts';

// Following a project through its event stream: `pgs watch`, and `pgs generate`'s progress.

/** Shows events as they arrive. */
export interface EventView {
  event(event: ProjectEvent): void;
  /** The stream ended or failed: leave the terminal line clean. */
  finish(): void;
}

/**
 * Plain text for an event (several lines for `revision.analysed`), or undefined for those
 * not worth a line (a finished project's `status`, `project.failed` and `revision.failed`:
 * the error on stderr says it).
 *
 * @example
 * eventLine({ id: '3', type: 'stage.started', data: { stage: 'architecture' } }); // 'stage: architecture'
 */
export function eventLine(event: ProjectEvent): string | undefined {
  switch (event.type) {
    case 'status':
      return event.data.status === 'in_progress'
        ? `in_progress: ${left(event.data.estimatedCompletionMs)}`
        : undefined;
    case 'stage.started':
      return `stage: ${event.data.stage}`;
    case 'document.completed':
      return `document: ${event.data.filename} (${event.data.tokens_used} tokens)`;
    case 'project.completed': {
      const { documentsGenerated: n, creditsConsumed } = event.data;
      return `completed: ${n} document${n === 1 ? '' : 's'}, ${creditsConsumed} credits consumed`;
    }
    case 'revision.started':
      return `revision ${event.data.revision} started: ${JSON.stringify(event.data.changeRequest)}`;
    case 'revision.analysed':
      return analysisLines(event.data).join('\n');
    case 'revision.completed': {
      const { revision, documentsChanged, creditsConsumed } = event.data;
      const n = documentsChanged.length;
      return (
        `revision ${revision} completed: ${n} document${n === 1 ? '' : 's'} changed, ` +
        `${creditsConsumed} credits consumed`
      );
    }
    case 'project.failed':
    case 'revision.failed':
      return undefined;
  }
}

function left(ms: number): string {
  return ms <= 0 ? 'finishing' : `about ${formatDuration(Math.ceil(ms / 1000) * 1000)} left`;
}

/**
 * The view for `out`: on a terminal each document is appended as a line and one status
 * line below them is redrawn in place; otherwise one plain line per event.
 *
 * @example
 * const view = createEventView(process.stdout);
 */
export function createEventView(out: Writer, { tty = out.isTTY === true } = {}): EventView {
  if (!tty) {
    return {
      event(event) {
        const line = eventLine(event);
        if (line !== undefined) out.write(`${line}\n`);
      },
      finish() {},
    };
  }
  let stage: string | undefined;
  let documents = 0;
  let estimate: string | undefined;
  let drawn = false;
  const fit = (line: string) => {
    const columns = out.columns ?? 80;
    return line.length > columns - 1 ? line.slice(0, Math.max(0, columns - 1)) : line;
  };
  const draw = () => {
    const parts = [
      stage === undefined ? 'starting' : `stage ${stage}`,
      `${documents} document${documents === 1 ? '' : 's'} done`,
      ...(estimate === undefined ? [] : [estimate]),
    ];
    out.write(`\r${fit(parts.join(' · '))}\x1b[K`);
    drawn = true;
  };
  return {
    event(event) {
      switch (event.type) {
        case 'status':
          if (event.data.status !== 'in_progress') return;
          estimate = `${left(event.data.estimatedCompletionMs)} at start`;
          break;
        case 'stage.started':
          stage = event.data.stage;
          break;
        case 'document.completed':
          documents++;
          out.write(`\r\x1b[K  ✓ ${event.data.filename}\n`);
          break;
        case 'revision.started':
          // A revision's run starts over: its own stages and documents.
          stage = undefined;
          documents = 0;
          break;
        case 'revision.analysed':
          out.write(`\r\x1b[K${eventLine(event)}\n`);
          break;
        case 'project.completed':
        case 'project.failed':
        case 'revision.completed':
        case 'revision.failed': {
          out.write('\r\x1b[K');
          drawn = false;
          const line = eventLine(event);
          if (line !== undefined) out.write(`${line}\n`);
          return;
        }
      }
      draw();
    },
    finish() {
      if (drawn) out.write('\r\x1b[K');
      drawn = false;
    },
  };
}

/**
 * Follows the project's events until the final one of the run it follows (its creation, or
 * the revision running), showing each with `onEvent`, and resolves with that final event.
 * `maxWaitMs` (default 30 min) ends it with {@link PollTimeoutError} (exit 11; it names
 * `revision` when given), Ctrl-C with `APIUserAbortError` (exit 130), as for `pgs wait`.
 *
 * @example
 * const final = await followEvents(ctx, pgs, id, { maxWaitMs: undefined, onEvent: view.event });
 */
export async function followEvents(
  ctx: CommandContext,
  pgs: Pgs,
  projectId: string,
  {
    maxWaitMs = DEFAULT_MAX_WAIT_MS,
    revision,
    onEvent,
  }: {
    maxWaitMs?: number | undefined;
    /** The revision being followed, for the time-out's message. */
    revision?: number | undefined;
    /** Awaited before the next event is read. */
    onEvent(event: ProjectEvent): void | Promise<void>;
  },
): Promise<FinalEvent> {
  ctx.errorContext.projectId = projectId;
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), maxWaitMs);
  timer.unref?.();
  const signal = ctx.io.signal
    ? AbortSignal.any([ctx.io.signal, deadline.signal])
    : deadline.signal;
  const started = Date.now();
  let lastStatus: ProjectInProgress | undefined;
  try {
    for await (const event of pgs.projects.events(projectId, { signal })) {
      if (event.type === 'status' && event.data.status === 'in_progress') lastStatus = event.data;
      await onEvent(event);
      if (isFinalEvent(event)) return event;
    }
    throw new Error(`the event stream of project ${projectId} ended without a final event`);
  } catch (error) {
    if (deadline.signal.aborted && !ctx.io.signal?.aborted) {
      throw new PollTimeoutError({
        projectId,
        revision,
        lastStatus,
        waitedMs: Date.now() - started,
        maxWaitMs,
        cause: error,
      });
    }
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * `pgs watch ID`: the project's events as they happen; exits as `pgs wait` does.
 *
 * @example
 * pgs watch 7d0f2c8e-4a9b-4e43-9a55-0d2b8f1c6e21 --json
 */
export const watch: Command = {
  name: 'watch',
  summary: "Show a project's events live until it ends",
  usage: 'pgs watch ID [--max-wait DURATION] [--json]',
  credential: 'api-key',
  help: `Follows the project's event stream (server-sent events) until it ends: each stage as
it starts, each document as it is stored, then the end. A dropped connection is resumed
where it stopped, with nothing lost or repeated. Exits 0 when the project completed, 9
when it failed (the reason on stderr), like pgs wait. A finished project shows its end
at once; while a revision runs (pgs revise), it follows that revision to its end: its
changes once analysed, each document it rewrites, then "revision N completed" (exit 0)
or the reason it failed (exit 9).

Arguments:
  ID                     the project id

Options:
  --max-wait DURATION    give up after this long (exit 11; the project keeps
                         generating); default 30m

Output: on a terminal, each document on a line of its own and one status line redrawn
below them; otherwise one line per event ("stage: architecture", "document:
PROJECT_BRIEF.md (2505 tokens)", "completed: 12 documents, 19 credits consumed").
With --json, one line per event: {"id":"3","type":"document.completed","data":{...}}.

Then: pgs wait ID --out DIR, or pgs download ID, writes the documents.`,
  options: { ...API_OPTIONS, 'max-wait': { type: 'string' } },
  async run(ctx) {
    const projectId = ctx.positionals[0]?.trim();
    if (!projectId) throw new UsageError('missing the project ID', 'pgs watch');
    expectPositionals(ctx.positionals, 1, 'watch');
    const maxWaitMs = durationValue(ctx.values, 'max-wait', 'watch');
    const view = ctx.json ? undefined : createEventView(ctx.io.stdout);
    let final: FinalEvent;
    try {
      final = await followEvents(ctx, ctx.client(), projectId, {
        maxWaitMs,
        onEvent: (event) => (view ? view.event(event) : ctx.print(JSON.stringify(event))),
      });
    } finally {
      view?.finish();
    }
    if (final.type === 'project.failed') {
      throw new GenerationFailedError({ projectId, error: final.data.error });
    }
    if (final.type === 'revision.failed') {
      const { revision, error } = final.data;
      throw new GenerationFailedError({ projectId, revision, error });
    }
  },
};

/**
 * `pgs generate`'s wait: follows the events (each stage and document shown as it lands,
 * none with --json) and then reads the final status once, for the documents.
 *
 * @example
 * const result = await followToResult(ctx, pgs, created.projectId, maxWaitMs);
 */
export async function followToResult(
  ctx: CommandContext,
  pgs: Pgs,
  projectId: string,
  maxWaitMs: number | undefined,
): Promise<ProjectResult> {
  const view = ctx.json ? undefined : createEventView(ctx.io.stdout);
  try {
    await followEvents(ctx, pgs, projectId, {
      maxWaitMs,
      // The "Created project" line already said what the first status would.
      onEvent: (event) => {
        if (event.type !== 'status') view?.event(event);
      },
    });
  } finally {
    view?.finish();
  }
  const result = await pgs.projects.get(projectId, { signal: ctx.io.signal });
  if (result.status === 'in_progress') {
    throw new Error(`project ${projectId} is still in_progress after its final event`);
  }
  return result;
}

/** How `pgs generate` shows progress. */
export const EVENTS_PROGRESS_HELP = `Progress: generate follows the project's event stream: each stage as it starts and each
document as it is stored (on a terminal, documents as lines and a status line redrawn
below them; otherwise one line per event), and it exits the moment the project ends.
--poll-interval polls the status instead (the estimate of time left only).`;
