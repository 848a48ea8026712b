import type { ProjectState, ProjectSummary } from '@pgs/client';
import type { Command } from '../context.ts';
import { integerValue, stringValue, type Values } from '../context.ts';
import { UsageError } from '../errors.ts';
import { table } from '../output.ts';
import { dollars } from '../usage.ts';
import { API_OPTIONS, expectPositionals, projectIdArgument } from './common.ts';

const LIST = 'list';
const CANCEL = 'cancel';
const DELETE = 'delete';

// Keyed by ProjectState so that a new state in the contract breaks the build here until handled.
const STATES = { in_progress: true, completed: true, failed: true } as const satisfies Record<
  ProjectState,
  true
>;

function statusValue(values: Values): ProjectState | undefined {
  const raw = stringValue(values, 'status');
  if (raw === undefined) return undefined;
  if (!Object.hasOwn(STATES, raw)) {
    throw new UsageError(
      `--status must be in_progress, completed or failed, not ${JSON.stringify(raw)}`,
      `pgs ${LIST}`,
    );
  }
  return raw as ProjectState;
}

/** Why a failed project stopped, when it was asked to: a cancel, or its budget. */
const STOPPED: Readonly<Record<string, string>> = {
  generation_cancelled: 'failed (cancelled)',
  budget_exceeded: 'failed (over budget)',
};

/** The state as a person reads it: a project stopped on purpose is failed, and says why. */
function stateText(project: ProjectSummary): string {
  return (project.status === 'failed' && STOPPED[project.errorCode ?? '']) || project.status;
}

/** Characters of the NAME column an idea's excerpt may take, its quotes included; --json has it whole. */
const NAME_WIDTH = 60;

/**
 * The name, or while the definition has not settled one the start of the idea in quotes
 * (cut to {@link NAME_WIDTH} characters), so an unnamed project is told apart and not
 * mistaken for a name.
 */
function nameText(p: ProjectSummary): string {
  if (p.name !== null) return p.name;
  // One line, so that a piped row stays one tab-separated line; code points, so an emoji
  // is never halved.
  const excerpt = [...p.ideaExcerpt.replace(/\s+/g, ' ').trim()];
  if (excerpt.length === 0) return '-';
  const room = NAME_WIDTH - 2;
  if (excerpt.length <= room) return `"${excerpt.join('')}"`;
  const head = excerpt
    .slice(0, room - 1)
    .join('')
    .trimEnd();
  return `"${head}…"`;
}

const COLUMNS: readonly [string, (p: ProjectSummary) => string][] = [
  ['ID', (p) => p.projectId],
  ['STATUS', stateText],
  ['TYPE', (p) => p.type ?? '-'],
  ['CREATED', (p) => p.createdAt.replace(/\.\d+Z$/, 'Z')],
  ['COST', (p) => dollars(p.costUsd, '-')],
  ['NAME', nameText],
];

/**
 * The projects as aligned columns under a header (a terminal), or as tab-separated lines
 * without one (a pipe: `cut -f1` gives the ids).
 *
 * @example
 * projectTable(page.data, true).forEach((line) => console.log(line));
 */
export function projectTable(projects: readonly ProjectSummary[], tty: boolean): string[] {
  return table(COLUMNS, projects, tty);
}

/**
 * `pgs list`: the key's projects, newest first.
 *
 * @example
 * pgs list --status in_progress --limit 50
 */
export const list: Command = {
  name: LIST,
  summary: "List the key's projects, newest first",
  usage: 'pgs list [--status STATE] [--limit N] [--starting-after ID | --all] [--json]',
  credential: 'api-key',
  help: `Lists the projects of the API key's account in the key's mode (live and test keys
see separate projects), newest first: one page of --limit projects, or with --all every
project, page after page.

Options:
  --status STATE         only in_progress, completed or failed projects
  --limit N              projects per page, 1 to 100; default 20
  --starting-after ID    the page after this project (the last ID of the previous page)
  --all                  every project, fetched --limit at a time (default 100 then)

On a terminal, a table (ID, STATUS, TYPE, CREATED, COST, NAME) and, when more projects
follow, the command for the next page; piped, one tab-separated line per project, no
header. COST is what the project's model calls cost so far, every run (its creation and
revisions) included, in US dollars to the millionth: $0 for the offline engine, - when a
model called has no known price (pgs cost ID says which). A project whose name is not
settled yet shows the start of its idea in quotes, cut to ${NAME_WIDTH} characters.
With --json, one line: {"data":[...],"hasMore":true|false}, the items as the API lists
them (projectId, status, name, ideaExcerpt, type, createdAt, completedAt,
creditsConsumed, costUsd, errorCode).`,
  options: {
    ...API_OPTIONS,
    status: { type: 'string' },
    limit: { type: 'string' },
    'starting-after': { type: 'string' },
    all: { type: 'boolean' },
  },
  async run(ctx) {
    expectPositionals(ctx.positionals, 0, LIST);
    const status = statusValue(ctx.values);
    const all = ctx.values.all === true;
    const startingAfter = stringValue(ctx.values, 'starting-after')?.trim() || undefined;
    if (all && startingAfter !== undefined) {
      throw new UsageError('--all and --starting-after do not go together', `pgs ${LIST}`);
    }
    const limit = integerValue(ctx.values, 'limit', LIST, { min: 1, max: 100 });
    const pages = ctx
      .client()
      .projects.list(
        { status, limit: limit ?? (all ? 100 : undefined), startingAfter },
        { signal: ctx.io.signal },
      );
    let data: ProjectSummary[];
    let hasMore = false;
    if (all) {
      data = [];
      for await (const project of pages) data.push(project);
    } else {
      const page = await pages;
      data = page.data;
      hasMore = page.hasMore;
    }
    if (ctx.json) {
      ctx.print(JSON.stringify({ data, hasMore }));
      return;
    }
    const tty = ctx.io.stdout.isTTY === true;
    if (tty && data.length === 0) {
      ctx.print(status === undefined ? 'No projects.' : `No ${status} projects.`);
      return;
    }
    for (const line of projectTable(data, tty)) ctx.print(line);
    const last = data.at(-1);
    if (tty && hasMore && last !== undefined) {
      const flags = [
        status === undefined ? '' : ` --status ${status}`,
        limit === undefined ? '' : ` --limit ${limit}`,
      ].join('');
      ctx.print(`More: pgs list${flags} --starting-after ${last.projectId}`);
    }
  },
};

/**
 * `pgs cancel ID`: stops a project in progress.
 *
 * @example
 * pgs cancel 7d0f2c8e-4a9b-4e43-9a55-0d2b8f1c6e21
 */
export const cancel: Command = {
  name: CANCEL,
  summary: 'Cancel a project in progress',
  usage: 'pgs cancel ID [--json]',
  credential: 'api-key',
  help: `Stops a project that is still in progress. The documents already generated are
charged, the rest of the reserved credits released; the project ends failed with the
code generation_cancelled, and the message says what was charged. A project already
completed or failed cannot be cancelled (exit 12).

Arguments:
  ID                     the project id, as printed by pgs generate --no-wait or pgs list

With --json, prints the project's status as the API returns it, on one line.`,
  options: { ...API_OPTIONS },
  async run(ctx) {
    const projectId = projectIdArgument(ctx.positionals, CANCEL);
    const status = await ctx.client().projects.cancel(projectId, { signal: ctx.io.signal });
    if (ctx.json) {
      ctx.print(JSON.stringify(status));
      return;
    }
    ctx.print(`Cancelled project ${status.projectId}. ${status.error.message}`);
  },
};

/**
 * `pgs delete ID`: deletes a project and its documents.
 *
 * @example
 * pgs delete 7d0f2c8e-4a9b-4e43-9a55-0d2b8f1c6e21
 */
export const remove: Command = {
  name: DELETE,
  summary: 'Delete a project and its documents',
  usage: 'pgs delete ID [--json]',
  credential: 'api-key',
  help: `Deletes a project with its documents; there is no undo. A project still in progress
is cancelled first: the documents already generated are charged, the rest of the reserved
credits released. The credit history keeps its entries.

Arguments:
  ID                     the project id

With --json, prints one line: {"projectId","deleted":true}.`,
  options: { ...API_OPTIONS },
  async run(ctx) {
    const projectId = projectIdArgument(ctx.positionals, DELETE);
    await ctx.client().projects.delete(projectId, { signal: ctx.io.signal });
    if (ctx.json) {
      ctx.print(JSON.stringify({ projectId, deleted: true }));
      return;
    }
    ctx.print(`Deleted project ${projectId}.`);
  },
};
