import {
  TASK_STATUSES,
  type Task,
  type TaskDetail,
  type TaskStatus,
  type TaskVersion,
  taskContextMarkdown,
  type UpdateTaskRequest,
} from '@pgs/client';
import type { Command, CommandContext, Values } from '../context.ts';
import { integerValue, requireString, stringValue } from '../context.ts';
import { NothingReadyError, UsageError } from '../errors.ts';
import { table } from '../output.ts';
import { API_OPTIONS, projectIdArgument } from './common.ts';

/** Longest title shown in the table; --json has it whole. */
const MAX_TITLE = 60;

function shorten(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`;
}

/** The optional `--status`: one of the contract's task statuses, or a usage error. */
function taskStatusValue(values: Values, command: string): TaskStatus | undefined {
  const raw = stringValue(values, 'status');
  if (raw === undefined) return undefined;
  if (!(TASK_STATUSES as readonly string[]).includes(raw)) {
    throw new UsageError(
      `--status must be one of ${TASK_STATUSES.join(', ')}, not ${JSON.stringify(raw)}`,
      `pgs ${command}`,
    );
  }
  return raw as TaskStatus;
}

/** The project and the task, `ID T-n`: usage errors when either is missing. */
function taskArguments(positionals: string[], command: string): [string, string] {
  const projectId = projectIdArgument(positionals, command, 2);
  const taskId = positionals[1]?.trim();
  if (!taskId) throw new UsageError('missing the task ID (T-n)', `pgs ${command}`);
  return [projectId, taskId];
}

/** Who holds a task: its lease's agent, else its assignee, else `-`. */
const holder = (task: Task) => task.lease?.agent ?? task.assignee ?? '-';

const COLUMNS: readonly [string, (task: Task) => string][] = [
  ['ID', (task) => task.id],
  ['STATUS', (task) => task.status],
  ['WHO', holder],
  ['DEPENDS', (task) => task.dependsOn.join(' ') || '-'],
  ['IMPLEMENTS', (task) => task.requirements.join(' ') || '-'],
  ['TITLE', (task) => shorten(task.title, MAX_TITLE)],
];

/**
 * The tasks as aligned columns under a header (a terminal), or tab-separated without one.
 *
 * @example
 * taskTable(await pgs.projects.tasks.list(id), true).forEach((line) => console.log(line));
 */
export function taskTable(tasks: readonly Task[], tty: boolean): string[] {
  return table(COLUMNS, tasks, tty);
}

/** One task in lines: its facts, then its history, oldest first. */
function taskLines(task: TaskDetail, etag: string): string[] {
  const lease =
    task.lease === null ? '' : `, leased to ${task.lease.agent} until ${task.lease.expiresAt}`;
  return [
    `${task.id} ${task.title}`,
    `Status: ${task.status}${lease}; assignee: ${task.assignee ?? 'none'}; ETag ${etag}`,
    `Phase: ${task.phase || 'none'}; implements ${task.requirements.join(', ') || 'nothing named'}; depends on ${task.dependsOn.join(', ') || 'nothing'}`,
    'History:',
    ...task.history.map(
      (entry) =>
        `  ${entry.at}  ${entry.from ?? 'new'} → ${entry.to}` +
        `${entry.agent ? ` by ${entry.agent}` : entry.keyId ? ` by ${entry.keyId}` : ''}` +
        `${entry.note ? `: ${entry.note}` : ''}`,
    ),
  ];
}

/** Prints an updated task: one line, or the SDK's `{ task, etag }` as JSON. */
function printUpdated(ctx: CommandContext, { task, etag }: TaskVersion): void {
  if (ctx.json) ctx.print(JSON.stringify({ task, etag }));
  else ctx.print(`${task.id} is ${task.status} (ETag ${etag})`);
}

/** `--if-match`, when given: the ETag the change is made to. */
const ifMatch = (values: Values) => {
  const etag = stringValue(values, 'if-match');
  return etag === undefined ? {} : { ifMatch: etag };
};

const UPDATE_HELP = `  --note TEXT            recorded in the task's history; the tasks that depend on it see it
                         in their context pack
  --if-match ETAG        the ETag of the task as you last saw it (pgs next prints it): if the
                         task changed since (a lease lost, someone else's change), nothing is
                         changed and the command exits 12. Without it, the task is read first
                         and the change made to that version.`;

/**
 * `pgs tasks ID`: the plan's tasks with their status.
 *
 * @example
 * pgs tasks 7d0f2c8e-4a9b-4e43-9a55-0d2b8f1c6e21 --status todo
 */
export const tasks: Command = {
  name: 'tasks',
  summary: "List a completed project's plan tasks with their status",
  usage: 'pgs tasks ID [--status STATUS] [--requirement FR-n] [--assignee NAME] [--json]',
  credential: 'api-key',
  help: `Lists the tasks T-n of a completed project's implementation plan in plan order, with
their status and who holds them (docs/tasks.md).

Options:
  --status STATUS        only tasks in ${TASK_STATUSES.join(', ')}
  --requirement ID       only tasks implementing a requirement (FR-3, NFR-1) or criterion
                         (FR-3.1)
  --assignee NAME        only tasks assigned to exactly NAME

On a terminal, a table (ID, STATUS, WHO: the agent holding its lease or its assignee,
DEPENDS, IMPLEMENTS, TITLE, cut to ${MAX_TITLE} characters); piped, one tab-separated line
per task, no header. With --json, one line: {"data":[...]}, the tasks as the API lists them.
A project in progress or failed exits 12.`,
  options: {
    ...API_OPTIONS,
    status: { type: 'string' },
    requirement: { type: 'string' },
    assignee: { type: 'string' },
  },
  async run(ctx) {
    const projectId = projectIdArgument(ctx.positionals, 'tasks');
    const list = await ctx.client().projects.tasks.list(
      projectId,
      {
        status: taskStatusValue(ctx.values, 'tasks'),
        requirement: stringValue(ctx.values, 'requirement'),
        assignee: stringValue(ctx.values, 'assignee'),
      },
      { signal: ctx.io.signal },
    );
    if (ctx.json) {
      ctx.print(JSON.stringify({ data: list }));
      return;
    }
    if (list.length === 0 && ctx.io.stdout.isTTY) ctx.print('No tasks.');
    for (const line of taskTable(list, ctx.io.stdout.isTTY === true)) ctx.print(line);
  },
};

/**
 * `pgs next ID --agent NAME`: claims the next ready task and prints its context pack.
 *
 * @example
 * pgs next 7d0f2c8e-4a9b-4e43-9a55-0d2b8f1c6e21 --agent claude-1 > task.md
 */
export const next: Command = {
  name: 'next',
  summary: 'Claim the next ready task of a plan and print its context pack',
  usage: 'pgs next ID --agent NAME [--lease SECONDS] [--json]',
  credential: 'api-key',
  help: `Claims for NAME the first task of a completed project's plan that is todo with every
dependency done: it becomes in_progress, assigned and leased to NAME. Prints the task's
context pack as markdown on stdout (the task, the criteria it implements, the stories and
design excerpts citing them, its files, its dependencies' notes and the project's
constraints), ready to hand to a coding agent; one line on stderr says how to finish it.
Two claims never get the same task. NAME asking again while it holds a task gets that task
again, its lease renewed.

Options:
  --agent NAME           who claims (required): an agent's or a person's name, one line
  --lease SECONDS        how long the lease lasts, 30 to 86400; default 900. A task whose
                         lease ends unrenewed goes back to todo.

Exits 14 when no task is ready (every todo task waits on another one, or none is left),
with the reason on stderr. With --json, one line: {"task":{...},"etag":"...","context":{...}}.`,
  options: {
    ...API_OPTIONS,
    agent: { type: 'string' },
    lease: { type: 'string' },
  },
  async run(ctx) {
    const projectId = projectIdArgument(ctx.positionals, 'next');
    const agent = requireString(ctx.values, 'agent', 'next');
    const leaseSeconds = integerValue(ctx.values, 'lease', 'next', { min: 30, max: 86_400 });
    const claimed = await ctx
      .client()
      .projects.tasks.next(projectId, { agent, leaseSeconds }, { signal: ctx.io.signal });
    if (claimed === null) throw new NothingReadyError(projectId);
    if (ctx.json) {
      ctx.print(JSON.stringify(claimed));
      return;
    }
    ctx.io.stdout.write(taskContextMarkdown(claimed.context));
    const { task, etag } = claimed;
    ctx.io.stderr.write(
      `Claimed ${task.id} for ${agent} until ${task.lease?.expiresAt}. When it is done: ` +
        `pgs done ${projectId} ${task.id} --if-match '${etag}' --note "…"\n`,
    );
  },
};

/**
 * `pgs done ID T-n`: marks a task done.
 *
 * @example
 * pgs done 7d0f2c8e-4a9b-4e43-9a55-0d2b8f1c6e21 T-3 --note "Tests in test/store.test.ts"
 */
export const done: Command = {
  name: 'done',
  summary: 'Mark a task of a plan done, with a note',
  usage: 'pgs done ID T-n [--note TEXT] [--if-match ETAG] [--json]',
  credential: 'api-key',
  help: `Moves a task to done (from todo, in_progress or blocked) and ends its lease.

Options:
${UPDATE_HELP}

Prints "T-3 is done (ETag "T-3.v4")". A task already done stays done (the note is added). A
task the plan does not have exits 4; a move the status machine refuses (an obsolete task)
exits 12. With --json, one line: {"task":{...},"etag":"..."}.`,
  options: { ...API_OPTIONS, note: { type: 'string' }, 'if-match': { type: 'string' } },
  async run(ctx) {
    const [projectId, taskId] = taskArguments(ctx.positionals, 'done');
    const note = stringValue(ctx.values, 'note');
    const updated = await ctx
      .client()
      .projects.tasks.update(
        projectId,
        taskId,
        { status: 'done', ...(note === undefined ? {} : { note }) },
        { ...ifMatch(ctx.values), signal: ctx.io.signal },
      );
    printUpdated(ctx, updated);
  },
};

/**
 * `pgs task ID T-n`: shows a task with its history, or changes it.
 *
 * @example
 * pgs task 7d0f2c8e-4a9b-4e43-9a55-0d2b8f1c6e21 T-5 --status blocked --note "Waiting for the API key"
 */
export const task: Command = {
  name: 'task',
  summary: 'Show a task with its history, or change its status, assignee or note',
  usage:
    'pgs task ID T-n [--status STATUS] [--assignee NAME | --unassign] [--note TEXT] [--if-match ETAG] [--json]',
  credential: 'api-key',
  help: `Without options, shows the task: its status, lease, assignee, ETag, what it implements
and depends on, and its history (who changed it, when, from which status to which, the
note). With options, changes it and prints its new status.

Options:
  --status STATUS        move it to ${TASK_STATUSES.join(', ')} (along docs/tasks.md's moves:
                         another move exits 12, the error naming the allowed ones)
  --assignee NAME        assign it to NAME
  --unassign             clear its assignee
${UPDATE_HELP}

With --json, one line: {"task":{...},"etag":"..."}, the task with its history.`,
  options: {
    ...API_OPTIONS,
    status: { type: 'string' },
    assignee: { type: 'string' },
    unassign: { type: 'boolean' },
    note: { type: 'string' },
    'if-match': { type: 'string' },
  },
  async run(ctx) {
    const [projectId, taskId] = taskArguments(ctx.positionals, 'task');
    const change = changeOf(ctx.values);
    const tasksApi = ctx.client().projects.tasks;
    if (change === undefined) {
      const read = await tasksApi.get(projectId, taskId, { signal: ctx.io.signal });
      if (ctx.json) ctx.print(JSON.stringify(read));
      else for (const line of taskLines(read.task, read.etag)) ctx.print(line);
      return;
    }
    const options = { ...ifMatch(ctx.values), signal: ctx.io.signal };
    printUpdated(ctx, await tasksApi.update(projectId, taskId, change, options));
  },
};

/** The change `pgs task` asks for, or undefined for a read. */
function changeOf(values: Values): UpdateTaskRequest | undefined {
  const status = taskStatusValue(values, 'task');
  const assignee = stringValue(values, 'assignee');
  const note = stringValue(values, 'note');
  if (assignee !== undefined && values.unassign === true) {
    throw new UsageError('--assignee and --unassign exclude each other', 'pgs task');
  }
  const change: UpdateTaskRequest = {
    ...(status === undefined ? {} : { status }),
    ...(assignee === undefined ? {} : { assignee }),
    ...(values.unassign === true ? { assignee: null } : {}),
    ...(note === undefined ? {} : { note }),
  };
  if (Object.keys(change).length > 0) return change;
  if (values['if-match'] !== undefined) {
    throw new UsageError(
      '--if-match needs a change: --status, --assignee, --unassign or --note',
      'pgs task',
    );
  }
  return undefined;
}
