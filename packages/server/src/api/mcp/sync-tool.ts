import { type McpToolResult, syncResult } from '@pgs/contract';
import type { ProjectSyncs, SyncView } from '../../trackers/syncs.ts';
import type { McpCall } from './call.ts';

type Handler = (args: Record<string, unknown>, call: McpCall) => Promise<McpToolResult>;

/** Between two reads of a running sync. */
const POLL_MS = 500;

/**
 * sync_project (issue 31, item 7) on the service the REST route calls: the same refusals
 * (another key's project or connection is RESOURCE_NOT_FOUND, a project not completed
 * PROJECT_NOT_COMPLETED), the same sync run by the workers. The call holds until the sync
 * ends or `maxWaitMs` passes (then it answers the sync as it stands, still running).
 *
 * @example
 * await syncTool(syncs, 60_000).sync_project({ projectId, connectionId }, call);
 */
export function syncTool(syncs: ProjectSyncs, maxWaitMs: number): Record<'sync_project', Handler> {
  return {
    sync_project: async (args, call) => {
      const projectId = args.projectId as string;
      let sync: SyncView = await syncs.create(call.principal, projectId, {
        connectionId: args.connectionId as string,
        scope: (args.scope as SyncView['scope'] | undefined) ?? 'tasks',
        dryRun: args.dryRun === true,
      });
      const deadline = Date.now() + maxWaitMs;
      while ((sync.status === 'queued' || sync.status === 'running') && Date.now() < deadline) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, POLL_MS);
          call.signal.addEventListener('abort', () => {
            clearTimeout(timer);
            resolve();
          });
        });
        call.signal.throwIfAborted();
        sync = await syncs.get(call.principal, projectId, sync.id);
      }
      return syncResult(sync);
    },
  };
}
