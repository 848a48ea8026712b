import type { RevisionSummary } from '@pgs/client';
import type { Command } from '../context.ts';
import { deltaCounts } from '../deltas.ts';
import { table } from '../output.ts';
import { API_OPTIONS, projectIdArgument } from './common.ts';

const NAME = 'history';
/** Characters of a change request shown in the table; --json has it whole. */
const CHANGE_REQUEST_WIDTH = 60;

function changeRequestText(r: RevisionSummary): string {
  if (r.changeRequest === null) return '(created)';
  // One line, so that a piped row stays one tab-separated line.
  const text = r.changeRequest.replace(/\s+/g, ' ').trim();
  return text.length > CHANGE_REQUEST_WIDTH ? `${text.slice(0, CHANGE_REQUEST_WIDTH - 1)}…` : text;
}

function credits(r: RevisionSummary): string {
  return r.creditsConsumed === null ? `(${r.creditsReserved} reserved)` : String(r.creditsConsumed);
}

const time = (iso: string | null) => (iso === null ? '-' : iso.replace(/\.\d+Z$/, 'Z'));

const COLUMNS: readonly [string, (r: RevisionSummary) => string][] = [
  ['REVISION', (r) => String(r.revision)],
  ['STATUS', (r) => r.status],
  // Revision 1 is the creation: it has no deltas, every document is new.
  ['CHANGES', (r) => (r.revision === 1 ? '-' : deltaCounts(r.deltas))],
  ['DOCS', (r) => String(r.documentsChanged.length)],
  ['CREDITS', credits],
  ['CREATED', (r) => time(r.createdAt)],
  ['COMPLETED', (r) => time(r.completedAt)],
  ['CHANGE REQUEST', changeRequestText],
];

/**
 * The revisions as aligned columns under a header (a terminal), or as tab-separated lines
 * without one (a pipe).
 *
 * @example
 * historyTable(await pgs.projects.revisions.list(id), true).forEach((line) => console.log(line));
 */
export function historyTable(revisions: readonly RevisionSummary[], tty: boolean): string[] {
  return table(COLUMNS, revisions, tty);
}

/**
 * `pgs history ID`: a project's revisions, newest first.
 *
 * @example
 * pgs history 7d0f2c8e-4a9b-4e43-9a55-0d2b8f1c6e21
 */
export const history: Command = {
  name: NAME,
  summary: "List a project's revisions, newest first",
  usage: 'pgs history ID [--json]',
  credential: 'api-key',
  help: `Lists every revision of the project, newest first; revision 1 is its creation. Each
row: the revision, its status, its changes counted per kind (+added ~modified −removed
→renamed requirement groups), how many documents it rewrote, the credits it consumed
(those reserved while it runs), when it was created and completed, and its change
request (the first ${CHANGE_REQUEST_WIDTH} characters).

Arguments:
  ID                     the project id

On a terminal, a table (REVISION, STATUS, CHANGES, DOCS, CREDITS, CREATED, COMPLETED,
CHANGE REQUEST); piped, one tab-separated line per revision, no header. With --json, one
line: {"data":[...]}, the revisions as the API lists them (revision, status,
changeRequest, deltas, documentsChanged, creditsReserved, creditsConsumed, createdAt,
completedAt).

Then: pgs diff ID --to N shows what revision N changed.`,
  options: { ...API_OPTIONS },
  async run(ctx) {
    const projectId = projectIdArgument(ctx.positionals, NAME);
    const data = await ctx.client().projects.revisions.list(projectId, { signal: ctx.io.signal });
    if (ctx.json) {
      ctx.print(JSON.stringify({ data }));
      return;
    }
    for (const line of historyTable(data, ctx.io.stdout.isTTY === true)) ctx.print(line);
  },
};
