import { GenerationProgress, type McpProgress, type ProjectType } from '@pgs/contract';
import { FINAL_EVENTS, type ProjectEventHub } from '../../events/hub.ts';
import type { SharedEventReads } from '../../events/reads.ts';

/** How a {@link followProject} ended. */
export type FollowOutcome = 'ended' | 'timed_out' | 'aborted';

export interface FollowOptions {
  hub: ProjectEventHub;
  reads: SharedEventReads;
  /** The project's type when the caller gave it (the progress total), else undefined. */
  type: ProjectType | undefined;
  estimatedCompletionMs: number;
  /** Longest wait, in milliseconds; then the caller answers the status as it is. */
  maxWaitMs: number;
  /** The client went away, or the server is shutting down. */
  signal: AbortSignal;
  /** Told of each step (MCP progress notifications); none when the client sent no token. */
  report?: ((progress: McpProgress) => Promise<void>) | undefined;
}

/**
 * Follows a project's stored events until its final event, reporting a progress step per
 * document: the same events, in the same order, that its event stream serves. It
 * subscribes to the hub before its first read, so an event committed in between is not
 * missed, and reads from the first event, so documents stored before the wait began are
 * counted too. Nothing polls: it sleeps until the hub announces the project (or the
 * listening connection was lost, which wakes every waiter), the time is up, or `signal`.
 *
 * @example
 * const outcome = await followProject(projectId, { hub, reads, type, estimatedCompletionMs, maxWaitMs, signal, report });
 */
export async function followProject(
  projectId: string,
  options: FollowOptions,
): Promise<FollowOutcome> {
  const { hub, reads, signal, report } = options;
  const progress = new GenerationProgress(options.type);
  const tell = async (step: McpProgress | undefined) => {
    // A notification that cannot be sent (the client left) must not fail the wait: the
    // signal ends it.
    if (step !== undefined) await report?.(step).catch(() => {});
  };
  const events = hub.follow(projectId, {
    read: (after) => reads.read(projectId, after),
    signal,
    waitMs: options.maxWaitMs,
  });
  await tell(progress.start(options.estimatedCompletionMs));
  for await (const event of events) {
    await tell(progress.next({ type: event.type, data: event.data }));
    if (FINAL_EVENTS.has(event.type)) return 'ended';
  }
  return signal.aborted ? 'aborted' : 'timed_out';
}
