/**
 * The `tasks` group of `npm run bench` (issue 30, item 3): how much of a project an agent
 * reads per task. One project per type through the real server on the offline engine; every
 * task's context pack (`GET …/tasks/{taskId}/context`, as markdown) counted in tokens with
 * the tokenizer the server counts prompts with (gpt-tokenizer, o200k), against the whole
 * project's documents. Aim: the median pack ≤ 2,000 tokens.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { countTokens } from '../packages/server/src/models/tokens.ts';
import { api, newKey, quantile, type Server, startServer, stop } from './bench-common.ts';

const IDEAS = [
  {
    type: 'web',
    idea: 'A web dashboard where community gardeners share compost schedules, seed swaps and watering rotas.',
  },
  {
    type: 'mobile',
    idea: 'An iPhone app for runners to log runs offline and share routes with a club.',
  },
  {
    type: 'mcp',
    idea: "An MCP server that lets an assistant search and summarise a team's support tickets.",
  },
] as const;

/** Median pack size the bench aims at, in tokens. */
const AIM_TOKENS = 2_000;

async function completed(server: Server & { key: string }, idea: string, type: string) {
  const created = await api(server, 'POST', '/api/v1/projects', { idea, type });
  if (created.status !== 202) throw new Error(`create answered ${created.status}: ${created.text}`);
  const id = JSON.parse(created.text).data.projectId as string;
  for (let i = 0; i < 10; i++) {
    const read = await api(server, 'GET', `/api/v1/projects/${id}`, undefined, {
      prefer: 'wait=60',
    });
    const data = JSON.parse(read.text).data;
    if (data.status === 'completed')
      return { id, documents: data.project.documents as { content: string }[] };
    if (data.status === 'failed') throw new Error(`${type} project failed`);
  }
  throw new Error(`${type} project not completed in time`);
}

export async function tasksBench(): Promise<void> {
  const work = await mkdtemp(path.join(os.tmpdir(), 'pgs-bench-tasks-'));
  const server = await startServer(path.join(work, 'data'), {});
  try {
    console.log('tasks: context packs (markdown) against the whole project, in o200k tokens');
    const all: number[] = [];
    for (const { type, idea } of IDEAS) {
      const own = { ...server, key: await newKey(server) };
      const project = await completed(own, idea, type);
      const whole = countTokens(project.documents.map((doc) => doc.content).join('\n\n'));
      const tasks = JSON.parse((await api(own, 'GET', `/api/v1/projects/${project.id}/tasks`)).text)
        .data as { id: string }[];
      const sizes: number[] = [];
      for (const task of tasks) {
        const pack = await api(
          own,
          'GET',
          `/api/v1/projects/${project.id}/tasks/${task.id}/context`,
          undefined,
          {
            accept: 'text/markdown',
          },
        );
        if (pack.status !== 200) throw new Error(`${type} ${task.id}: ${pack.status} ${pack.text}`);
        sizes.push(countTokens(pack.text));
      }
      sizes.sort((a, b) => a - b);
      all.push(...sizes);
      const median = quantile(sizes, 0.5);
      console.log(
        `  ${type}: ${tasks.length} tasks, pack median ${median} tokens (max ${sizes.at(-1)}), whole project ${whole} tokens, median ${(
          (100 * median) / whole
        ).toFixed(0)} % of it`,
      );
    }
    all.sort((a, b) => a - b);
    const median = quantile(all, 0.5);
    console.log(
      `  all ${all.length} packs: median ${median} tokens, p90 ${quantile(all, 0.9)} (aim: median ≤ ${AIM_TOKENS}) ${median <= AIM_TOKENS ? 'met' : 'NOT MET'}`,
    );
  } finally {
    await stop(server.child);
    await rm(work, { recursive: true, force: true });
  }
}
