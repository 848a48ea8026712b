import type { Pgs, RequirementDelta, Revision } from '@pgs/client';
import { pauseBeforeReconnect } from './watch.ts';

/** What {@link watchRevision} reports, as it happens. */
export interface RevisionWatchHandlers {
  /** The revision as read: first (maybe in progress), then once more when it has ended. */
  onRevision(revision: Revision): void;
  /** The change request read as deltas, and the documents the revision will rewrite. */
  onAnalysed(deltas: RequirementDelta[], documents: string[]): void;
  onStage(stage: string): void;
  /** A rewritten document was stored. */
  onDocument(filename: string): void;
  /** A line about the live connection (reconnecting), empty when all is well. */
  onLiveNote(text: string): void;
  onError(error: unknown): void;
}

/**
 * Reads one revision, then (while it runs) follows the project's event stream from its first
 * event, so what the revision did before the watch began is reported too: the stream ends at
 * the end of each run (the creation, earlier revisions), and is reopened after it until this
 * revision's `revision.completed` or `revision.failed`. Then the revision is read once more
 * (with its deltas and, when completed, the project). Events of other runs are skipped. A
 * stream that cannot be opened or kept is retried with a growing pause; errors that will not
 * clear end the watch through `onError`. DOM-free: it needs only the SDK.
 *
 * @example
 * await watchRevision(pgs, id, 2, controller.signal, { onRevision, onAnalysed, onStage, onDocument, onLiveNote, onError });
 */
export async function watchRevision(
  pgs: Pgs,
  projectId: string,
  revision: number,
  signal: AbortSignal,
  on: RevisionWatchHandlers,
): Promise<void> {
  const read = () => pgs.projects.revisions.get(projectId, revision, { signal });
  const first = await read();
  on.onRevision(first);
  if (first.status !== 'in_progress') return;
  let lastEventId = '0';
  for (let attempt = 0; !signal.aborted; attempt++) {
    try {
      const from = lastEventId;
      for await (const event of pgs.projects.events(projectId, { signal, lastEventId })) {
        lastEventId = event.id || lastEventId;
        attempt = 0;
        on.onLiveNote('');
        switch (event.type) {
          case 'revision.analysed':
            if (event.data.revision === revision) {
              on.onAnalysed(event.data.deltas, event.data.documents);
            }
            break;
          case 'stage.started':
            if (event.data.revision === revision) on.onStage(event.data.stage);
            break;
          case 'document.completed':
            if (event.data.revision === revision) on.onDocument(event.data.filename);
            break;
          case 'revision.completed':
          case 'revision.failed':
            if (event.data.revision === revision) {
              // The whole result (deltas, the project) comes with the revision.
              on.onRevision(await read());
              return;
            }
            break;
        }
      }
      // The stream ended with another run's last event: read on after it. Should it end
      // with nothing new, the revision itself says whether there is more to wait for.
      if (lastEventId === from) {
        const now = await read();
        if (now.status !== 'in_progress') {
          on.onRevision(now);
          return;
        }
      }
    } catch (error) {
      if (!(await pauseBeforeReconnect(error, attempt, signal, on, 'revision'))) return;
    }
  }
}
