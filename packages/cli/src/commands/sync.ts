import type { ProjectSync, ProjectSyncItem } from '@pgs/client';
import type { Command } from '../context.ts';
import { SyncFailedError, UsageError } from '../errors.ts';
import { table } from '../output.ts';
import { API_OPTIONS, projectIdArgument } from './common.ts';

const NAME = 'sync';
const SCOPES = ['tasks', 'requirements', 'all'] as const;
type Scope = (typeof SCOPES)[number];

const COLUMNS: readonly [string, (item: ProjectSyncItem) => string][] = [
  ['ID', (i) => i.id],
  ['ACTION', (i) => i.action],
  ['ISSUE', (i) => i.url ?? '-'],
  ['ERROR', (i) => i.error ?? ''],
];

/**
 * A sync in words: one line of totals by action, then one row per item.
 *
 * @example
 * syncLines(await pgs.projects.syncs.get(id, syncId), false).forEach((l) => console.log(l));
 */
export function syncLines(sync: ProjectSync, tty: boolean): string[] {
  const counts = new Map<string, number>();
  for (const item of sync.items) counts.set(item.action, (counts.get(item.action) ?? 0) + 1);
  const totals = [...counts].map(([action, n]) => `${n} ${action}`).join(', ') || 'no items';
  const head = `Sync ${sync.id}${sync.dryRun ? ' (dry run: nothing changed)' : ''}: ${sync.status}, ${totals}`;
  const lines = [head];
  if (sync.error !== null) lines.push(`  ${sync.error.code}: ${sync.error.message}`);
  if (sync.items.length > 0) lines.push('', ...table(COLUMNS, sync.items, tty));
  return lines;
}

/**
 * `pgs sync ID --connection CON`: pushes the project's tasks to the connection's tracker,
 * waits for the sync to end and prints what it did per item; exits 16 when an item failed.
 *
 * @example
 * pgs sync 7d0f2c8e-4a9b-4e43-9a55-0d2b8f1c6e21 --connection tc_01JD… --scope all --dry-run
 */
export const sync: Command = {
  name: NAME,
  summary: 'Push a completed project’s tasks to a connected tracker',
  usage: 'pgs sync ID --connection CON [--scope tasks|requirements|all] [--dry-run] [--json]',
  credential: 'api-key',
  help: `Pushes the project's tasks to the tracker of a connection (pgs connect github …;
POST /projects/{id}/syncs), waits for the sync to end and prints one row per item: its
action (created, updated, closed, reopened, unchanged or failed) and its issue. Syncing
again writes only what changed and never duplicates an issue (docs/trackers.md).

Arguments:
  ID                 the project id (a completed project: in progress or failed exits 12)

Options:
  --connection CON   the connection to push to (pgs connections lists them)
  --scope SCOPE      tasks (default): one issue per task; requirements or all: also one
                     parent issue per FR group, each task under its first FR
  --dry-run          list what would be created, updated, closed or reopened; change
                     nothing

Exits 16 when an item failed (each failed row says why); run it again once the cause is
fixed. With --json, one line: the sync as the API returns it.`,
  options: {
    ...API_OPTIONS,
    connection: { type: 'string' },
    scope: { type: 'string' },
    'dry-run': { type: 'boolean' },
  },
  async run(ctx) {
    const projectId = projectIdArgument(ctx.positionals, 'pgs sync');
    ctx.errorContext.projectId = projectId;
    const connectionId = ctx.values.connection;
    if (typeof connectionId !== 'string' || connectionId === '') {
      throw new UsageError(
        'pgs sync needs --connection CON (pgs connections lists them)',
        'pgs sync',
      );
    }
    const scope = (ctx.values.scope ?? 'tasks') as Scope;
    if (!SCOPES.includes(scope)) {
      throw new UsageError(`--scope must be one of ${SCOPES.join(', ')}`, 'pgs sync');
    }
    const done = await ctx
      .client()
      .projects.syncs.createAndWait(
        projectId,
        { connectionId, scope, ...(ctx.values['dry-run'] === true ? { dryRun: true } : {}) },
        { signal: ctx.io.signal },
      );
    if (ctx.json) ctx.print(JSON.stringify(done));
    else for (const line of syncLines(done, ctx.io.stdout.isTTY === true)) ctx.print(line);
    if (done.status === 'failed') {
      throw new SyncFailedError(projectId, done.items.filter((i) => i.action === 'failed').length);
    }
  },
};
