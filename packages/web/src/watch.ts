import type { DocumentCompletedData, Pgs, ProjectStatus } from '@pgs/client';
import { describeError } from './messages.ts';

// Waits before reopening a stream that failed to open; a 429 asks for its own wait.
const RECONNECT_MS = [1_000, 2_000, 5_000, 10_000, 20_000];

/** What {@link watchProject} reports, as it happens. */
export interface WatchHandlers {
  onStatus(status: ProjectStatus): void;
  onStage(stage: string): void;
  onDocument(document: DocumentCompletedData): void;
  /** A line about the live connection (reconnecting), empty when all is well. */
  onLiveNote(text: string): void;
  onError(error: unknown): void;
}

/**
 * Reads the project, then (while it runs) follows its events from the first one
 * (`Last-Event-ID: 0`, so documents stored before the watch began are reported too) until
 * the final one, and reports the final status read once more (with the documents). A
 * stream that cannot be opened or kept is retried with a growing pause; errors that will not
 * clear (a refused key, a project that is gone) end the watch through `onError`. DOM-free:
 * it needs only the SDK.
 *
 * @example
 * await watchProject(pgs, id, controller.signal, { onStatus, onStage, onDocument, onLiveNote, onError });
 */
export async function watchProject(
  pgs: Pgs,
  projectId: string,
  signal: AbortSignal,
  on: WatchHandlers,
): Promise<void> {
  const first = await pgs.projects.get(projectId, { signal });
  on.onStatus(first);
  if (first.status !== 'in_progress') return;
  let lastEventId = '0';
  for (let attempt = 0; !signal.aborted; attempt++) {
    try {
      for await (const event of pgs.projects.events(projectId, { signal, lastEventId })) {
        lastEventId = event.id || lastEventId;
        attempt = 0;
        on.onLiveNote('');
        switch (event.type) {
          case 'status':
            on.onStatus(event.data);
            break;
          case 'stage.started':
            on.onStage(event.data.stage);
            break;
          case 'document.completed':
            on.onDocument(event.data);
            break;
          case 'project.completed':
          case 'project.failed':
            // The full result (documents, questionnaire) comes with the status.
            on.onStatus(await pgs.projects.get(projectId, { signal }));
            return;
        }
      }
      return;
    } catch (error) {
      if (!(await pauseBeforeReconnect(error, attempt, signal, on))) return;
    }
  }
}

/**
 * After a live stream failed: an error that will not clear (a refused key, a project gone, a
 * bad request) ends the watch through `onError` (false); any other says so in the live note
 * and waits the next step of the backoff, or a 429's own wait, before the next try (true).
 * Resolves at once, false, when `signal` aborts.
 *
 * @example
 * } catch (error) { if (!(await pauseBeforeReconnect(error, attempt, signal, on))) return; }
 */
export async function pauseBeforeReconnect(
  error: unknown,
  attempt: number,
  signal: AbortSignal,
  on: { onError(error: unknown): void; onLiveNote(text: string): void },
  subject?: 'revision',
): Promise<boolean> {
  if (signal.aborted) return false;
  const problem = describeError(error, subject === undefined ? {} : { subject });
  if (problem.signOut || problem.kind === 'not-found' || problem.kind === 'invalid') {
    on.onError(error);
    return false;
  }
  const waitMs =
    problem.retryAfter !== undefined
      ? problem.retryAfter * 1000
      : (RECONNECT_MS[Math.min(attempt, RECONNECT_MS.length - 1)] ?? 20_000);
  on.onLiveNote(
    `Lost the live connection (${problem.text}) Reconnecting in ${Math.ceil(waitMs / 1000)} s…`,
  );
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, waitMs);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });
  return !signal.aborted;
}
