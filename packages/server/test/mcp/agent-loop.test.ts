import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Task, TaskContext, TaskDetail } from '@pgs/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedKey } from '../../src/accounts/service.ts';
import { backends, bearer, type Harness, roomy, startHarness } from '../helpers/harness.ts';
import { completedWithPlan, offlineDocuments, planDocument } from '../helpers/tasks.ts';
import { connectMcp, structured, toolErrorOf } from './mcp-client.ts';

/**
 * Issue 30, item 7: two coding agents work through a plan over MCP, each with the official
 * SDK's client, at once: next_task, then update_task done with the claim's etag, until
 * nothing is left. No task is taken twice, every task ends done, each pack carries the notes
 * of the tasks it depends on, and another account's key finds no project.
 */

interface Claimed {
  ready: boolean;
  task: Task;
  etag: string;
  context: TaskContext;
}

/** Far more turns than any plan here needs: a loop that stops making progress fails. */
const MAX_TURNS = 400;

/**
 * One agent's loop: claim, finish with a note naming who did it, claim again. Nothing ready
 * while another agent still holds a task means waiting on that agent's work: ask again.
 * Resolves with the claims it worked on (each task with its pack), in order, once the plan
 * is delivered.
 */
async function agentLoop(
  client: Client,
  projectId: string,
  agent: string,
  first: Claimed,
): Promise<Claimed[]> {
  const took: Claimed[] = [];
  let claimed = first;
  for (let turn = 0; turn < MAX_TURNS; turn++) {
    if (claimed.ready) {
      took.push(claimed);
      const { task } = structured<{ task: TaskDetail }>(
        await client.callTool({
          name: 'update_task',
          arguments: {
            projectId,
            taskId: claimed.task.id,
            status: 'done',
            etag: claimed.etag,
            note: `${agent} did ${claimed.task.id}.`,
          },
        }),
      );
      expect(task.status).toBe('done');
    } else {
      const { tasks } = structured<{ tasks: Task[] }>(
        await client.callTool({ name: 'list_tasks', arguments: { projectId } }),
      );
      if (tasks.every((task) => task.status === 'done')) return took;
    }
    claimed = await claim(client, projectId, agent);
  }
  const ids = took.map((c) => c.task.id).join(', ');
  throw new Error(`${agent} made no end of the plan in ${MAX_TURNS} turns (took ${ids})`);
}

const claim = async (client: Client, projectId: string, agent: string) =>
  structured<Claimed>(
    await client.callTool({ name: 'next_task', arguments: { projectId, agent } }),
  );

describe.each(await backends())('two agents deliver a plan over MCP (%s)', (backend) => {
  let h: Harness;
  let url: string;
  let key: CreatedKey;
  let agents: [Client, Client];

  beforeAll(async () => {
    h = await startHarness(backend, { rules: roomy('mcp', 'tasks') });
    url = await h.app.listen({ port: 0, host: '127.0.0.1' });
    key = await h.createKey('test');
    // Two keys of one account: two agents a team runs, each with its own connection.
    const second = await h.createKey('test', { accountId: key.accountId });
    agents = [await connectMcp(url, key.key), await connectMcp(url, second.key)];
  });

  afterAll(async () => {
    await Promise.all((agents ?? []).map((client) => client?.close()));
    await h?.close();
  });

  /** Both agents from their first claims, made at once, to the plan's end. */
  async function deliver(projectId: string): Promise<[Claimed[], Claimed[]]> {
    const [a, b] = agents;
    const firsts = await Promise.all([
      claim(a, projectId, 'claude-1'),
      claim(b, projectId, 'codex-1'),
    ]);
    return Promise.all([
      agentLoop(a, projectId, 'claude-1', firsts[0]),
      agentLoop(b, projectId, 'codex-1', firsts[1]),
    ]);
  }

  const history = async (projectId: string, taskId: string) => {
    const res = await h.request({
      method: 'GET',
      url: `/api/v1/projects/${projectId}/tasks/${taskId}`,
      headers: bearer(key.key),
    });
    return res.json().data.history as TaskDetail['history'];
  };

  it('works through two chains at once, each task taken once, every task done', async () => {
    // T-1, T-3, T-5… and T-2, T-4, T-6… are two chains: both agents always have work.
    const count = 12;
    const projectId = await completedWithPlan(h.database, key, [
      planDocument(count, (n) => (n > 2 ? [`T-${n - 2}`] : [])),
    ]);
    const [first, second] = (await deliver(projectId)).map((claims) =>
      claims.map((c) => c.task.id),
    ) as [string[], string[]];
    const taken = [...first, ...second];
    expect(new Set(taken).size).toBe(taken.length);
    expect(taken.toSorted()).toEqual(
      Array.from({ length: count }, (_, i) => `T-${i + 1}`).toSorted(),
    );
    // The first claims ran at once and found two tasks ready: each agent had one.
    expect(first.length).toBeGreaterThan(0);
    expect(second.length).toBeGreaterThan(0);
    for (const [agent, tasks] of [
      ['claude-1', first],
      ['codex-1', second],
    ] as const) {
      for (const taskId of tasks) {
        const entries = await history(projectId, taskId);
        const claims = entries.filter((entry) => entry.to === 'in_progress');
        expect(claims, `${taskId}'s claims`).toEqual([expect.objectContaining({ agent })]);
        expect(entries.at(-1)).toMatchObject({ to: 'done', note: `${agent} did ${taskId}.` });
      }
    }
    const { tasks } = structured<{ tasks: Task[] }>(
      await agents[0].callTool({ name: 'list_tasks', arguments: { projectId, status: 'done' } }),
    );
    expect(tasks).toHaveLength(count);
    expect(await claim(agents[1], projectId, 'codex-1')).toEqual({ ready: false });
  });

  it("delivers the offline engine's plan, each pack carrying its dependencies' notes", async () => {
    const projectId = await completedWithPlan(h.database, key, offlineDocuments());
    const claims = (await deliver(projectId)).flat();
    const taken = claims.map((c) => c.task.id);
    expect(new Set(taken).size).toBe(taken.length);
    const all = (
      await h.request({
        method: 'GET',
        url: `/api/v1/projects/${projectId}/tasks`,
        headers: bearer(key.key),
      })
    ).json().data as Task[];
    expect(all.map((task) => task.id).toSorted()).toEqual(taken.toSorted());
    expect(all.every((task) => task.status === 'done')).toBe(true);
    // Each task was claimed once its dependencies were done, and its pack says who did them.
    const withDependencies = claims
      .map((c) => c.context)
      .filter((pack) => pack.task.dependsOn.length > 0);
    expect(withDependencies.length).toBeGreaterThan(0);
    for (const pack of withDependencies) {
      for (const dependency of pack.dependencies) {
        expect(dependency.status, `${pack.task.id} ← ${dependency.id}`).toBe('done');
        expect(dependency.notes.at(-1)).toMatch(
          new RegExp(`^(claude|codex)-1 did ${dependency.id}\\.$`),
        );
      }
      expect(pack.criteria.length + pack.constraints.length).toBeGreaterThan(0);
    }
  });

  it("finds no project of another account, nor of the key's other mode", async () => {
    const projectId = await completedWithPlan(h.database, key, [planDocument(2)]);
    const stranger = await h.createKey('test');
    const otherMode = await h.createKey('live', { accountId: key.accountId });
    for (const who of [stranger, otherMode]) {
      const theirs = await connectMcp(url, who.key);
      try {
        for (const [name, args] of [
          ['list_tasks', { projectId }],
          ['next_task', { projectId, agent: 'intruder' }],
          ['update_task', { projectId, taskId: 'T-1', status: 'done' }],
        ] as const) {
          expect(toolErrorOf(await theirs.callTool({ name, arguments: args }))).toMatchObject({
            code: 'RESOURCE_NOT_FOUND',
            details: { resource_type: 'project', resource_id: projectId },
          });
        }
      } finally {
        await theirs.close();
      }
    }
    // Nothing of theirs reached the plan: both tasks are still todo, never claimed.
    const { tasks } = structured<{ tasks: Task[] }>(
      await agents[0].callTool({ name: 'list_tasks', arguments: { projectId } }),
    );
    expect(tasks.map((task) => [task.status, task.assignee])).toEqual([
      ['todo', null],
      ['todo', null],
    ]);
  });
});
