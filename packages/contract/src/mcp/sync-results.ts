/**
 * What sync_project answers (issue 31, item 7), on both MCP servers: the sync's state and one
 * line per item that was not left unchanged; the sync whole in the structured content.
 */
import type { components } from '../generated/types.ts';
import type { McpToolResult } from './results.ts';

type ProjectSync = components['schemas']['ProjectSync'];

/**
 * The sync as an agent reads it.
 *
 * @example
 * syncResult(await pgs.projects.syncs.createAndWait(projectId, { connectionId, scope: 'tasks' }));
 */
export function syncResult(sync: ProjectSync): McpToolResult {
  const unchanged = sync.items.filter((i) => i.action === 'unchanged').length;
  const running = sync.status === 'queued' || sync.status === 'running';
  const lines = [
    `Sync ${sync.id}${sync.dryRun ? ' (dry run, nothing changed)' : ''}: ${sync.status}` +
      (running ? '; read it again with GET /api/v1/projects/{projectId}/syncs/{syncId}.' : '.'),
    ...(sync.error === null ? [] : [`${sync.error.code}: ${sync.error.message}`]),
    ...sync.items
      .filter((i) => i.action !== 'unchanged')
      .map(
        (i) => `- ${i.id} ${i.action}${i.url ? ` ${i.url}` : ''}${i.error ? `: ${i.error}` : ''}`,
      ),
    ...(unchanged === 0 ? [] : [`${unchanged} unchanged.`]),
  ];
  return {
    content: [{ type: 'text', text: lines.join('\n') }],
    structuredContent: { syncId: sync.id, status: sync.status, items: sync.items },
  };
}
