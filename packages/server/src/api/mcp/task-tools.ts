import {
  claimedTaskResult,
  type McpToolResult,
  type TaskStatus,
  taskListResult,
  updatedTaskResult,
} from '@pgs/contract';
import { DEFAULT_LEASE_SECONDS, type Tasks } from '../../tasks/service.ts';
import type { McpCall } from './call.ts';

type Handler = (args: Record<string, unknown>, call: McpCall) => Promise<McpToolResult>;

/**
 * The task tools (issue 30, item 6) on the service the REST task routes call, so a tool
 * refuses what its route refuses, in the same words: another key's project is
 * RESOURCE_NOT_FOUND, a move off the status machine TASK_TRANSITION_NOT_ALLOWED, a stale
 * etag PRECONDITION_FAILED. update_task without an etag sends `*` (docs/mcp.md): the change
 * applies to the task as it is, in one step, rather than to a read made a moment before.
 *
 * @example
 * const handlers = taskTools(new Tasks(db));
 * await handlers.next_task({ projectId, agent: 'claude-1' }, call);
 */
export function taskTools(
  tasks: Tasks,
): Record<'list_tasks' | 'next_task' | 'update_task', Handler> {
  return {
    list_tasks: async (args, call) => {
      const { projectId, status, assignee, requirement } = args as {
        projectId: string;
        status?: TaskStatus;
        assignee?: string;
        requirement?: string;
      };
      return taskListResult(
        projectId,
        await tasks.list(call.principal, projectId, { status, assignee, requirement }),
      );
    },
    next_task: async (args, call) => {
      const { projectId, agent, leaseSeconds } = args as {
        projectId: string;
        agent: string;
        leaseSeconds?: number;
      };
      const request = { agent, leaseSeconds: leaseSeconds ?? DEFAULT_LEASE_SECONDS };
      return claimedTaskResult((await tasks.claim(call.principal, projectId, request)) ?? null);
    },
    update_task: async (args, call) => {
      const { projectId, taskId, status, note, etag } = args as {
        projectId: string;
        taskId: string;
        status: TaskStatus;
        note?: string;
        etag?: string;
      };
      const change = { status, ...(note === undefined ? {} : { note }) };
      return updatedTaskResult(
        await tasks.update(call.principal, projectId, taskId, etag ?? '*', change),
      );
    },
  };
}
