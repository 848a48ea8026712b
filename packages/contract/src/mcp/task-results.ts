/**
 * What the task tools answer (issue 30, item 6): list_tasks, next_task and update_task, on
 * both MCP servers. The text is what an agent reads (the context pack as markdown, and what
 * to do next); the structured content is the API's own data.
 */
import type { components } from '../generated/types.ts';
import { taskContextMarkdown } from '../tasks.ts';
import type { McpToolResult } from './results.ts';

type Schemas = components['schemas'];
type Task = Schemas['Task'];

const text = (value: string) => ({ type: 'text' as const, text: value });

/** `T-3 Build the store (in_progress, claude-1)`: a task in one line. */
function taskLine(task: Task): string {
  const who = task.assignee === null ? '' : `, ${task.assignee}`;
  return `${task.id} ${task.title} (${task.status}${who})`;
}

/**
 * What list_tasks answers: the tasks as the API lists them, and one line each.
 *
 * @example
 * taskListResult(projectId, await pgs.projects.tasks.list(projectId, { status: 'todo' }));
 */
export function taskListResult(projectId: string, tasks: readonly Task[]): McpToolResult {
  const done = tasks.filter((task) => task.status === 'done').length;
  const head =
    tasks.length === 0
      ? 'No tasks.'
      : `${tasks.length} task${tasks.length === 1 ? '' : 's'} in plan order, ${done} done:`;
  return {
    content: [text([head, ...tasks.map((task) => `- ${taskLine(task)}`)].join('\n'))],
    structuredContent: { projectId: projectId.toLowerCase(), tasks: [...tasks] },
  };
}

/**
 * What next_task answers: the task claimed with its ETag and its context pack (as markdown
 * in the text, whole in the structured content), or `ready: false` when no task is ready.
 *
 * @example
 * const claimed = await pgs.projects.tasks.next(projectId, { agent: 'claude-1' });
 * claimedTaskResult(claimed);
 */
export function claimedTaskResult(
  claimed: { task: Task; etag: string; context: Schemas['TaskContext'] } | null,
): McpToolResult {
  if (claimed === null) {
    return {
      content: [
        text(
          'No task is ready: every todo task waits on another one, or none is left. Call next_task again once a task you wait on is done, or list_tasks to see where the plan stands.',
        ),
      ],
      structuredContent: { ready: false },
    };
  }
  const { task, etag, context } = claimed;
  const until = task.lease === null ? '' : ` until ${task.lease.expiresAt}`;
  return {
    content: [
      text(
        `Claimed ${task.id} for ${task.lease?.agent ?? task.assignee}${until} (etag ${etag}). When it is done, call update_task with status done, this etag and a note for the tasks that depend on it.`,
      ),
      text(taskContextMarkdown(context)),
    ],
    structuredContent: { ready: true, task, etag, context },
  };
}

/**
 * What update_task answers: the task as changed and its new ETag.
 *
 * @example
 * updatedTaskResult(await pgs.projects.tasks.update(projectId, 'T-3', { status: 'done' }, { ifMatch: etag }));
 */
export function updatedTaskResult(updated: { task: Task; etag: string }): McpToolResult {
  const { task, etag } = updated;
  return {
    content: [text(`${taskLine(task)}; etag ${etag}.`)],
    structuredContent: { task, etag },
  };
}
