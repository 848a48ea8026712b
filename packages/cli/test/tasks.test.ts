import { Pgs, type Task } from '@pgs/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RealServer } from '../../client/test/pgs-server.ts';
import { EXIT, run } from '../src/index.ts';
import { runCli, startRealCli, stopRealCli } from './cli-process.ts';

// pgs tasks, task, next and done against the real server (offline engine), in-process for
// speed, and the real binary where its exit code is the point. One completed project.

const IDEA = 'A web dashboard where community gardeners share compost schedules and seed swaps';

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

describe('pgs tasks, task, next and done against the real server', { timeout: 120_000 }, () => {
  let server: RealServer;
  let tmp: string;
  let apiEnv: NodeJS.ProcessEnv;
  let sdk: Pgs;
  let projectId: string;

  beforeAll(async () => {
    ({ server, tmp, apiEnv } = await startRealCli());
    sdk = new Pgs({ apiKey: server.apiKey, baseUrl: server.url });
    ({ projectId } = await sdk.projects.create({ idea: IDEA, type: 'web' }));
    expect((await sdk.projects.waitForCompletion(projectId)).status).toBe('completed');
  }, 150_000);

  afterAll(async () => stopRealCli(server, tmp));

  /** The CLI in-process, its stdout a terminal or not. */
  async function pgs(argv: string[], { tty = false } = {}): Promise<Ran> {
    let stdout = '';
    let stderr = '';
    const code = await run(argv, {
      env: apiEnv,
      stdout: { write: (s: string) => (stdout += s), isTTY: tty, columns: 200 },
      stderr: { write: (s: string) => (stderr += s) },
    });
    return { code, stdout, stderr };
  }

  const byId = async (id: string) => (await sdk.projects.tasks.get(projectId, id)).task;

  it('tasks lists the plan: a table on a terminal, lines piped, JSON; --status narrows', async () => {
    const all = await sdk.projects.tasks.list(projectId);
    const piped = await pgs(['tasks', projectId]);
    expect(piped).toMatchObject({ code: EXIT.OK, stderr: '' });
    const lines = piped.stdout.trimEnd().split('\n');
    expect(lines.map((line) => line.split('\t')[0])).toEqual(all.map((t) => t.id));
    expect(lines[0]!.split('\t').slice(1, 3)).toEqual(['todo', '-']);
    const tty = await pgs(['tasks', projectId], { tty: true });
    expect(tty.stdout.split('\n')[0]).toMatch(/^ID +STATUS +WHO +DEPENDS +IMPLEMENTS +TITLE$/);
    const json = await pgs(['tasks', projectId, '--json']);
    expect(JSON.parse(json.stdout)).toEqual({ data: all });
    expect((await pgs(['tasks', projectId, '--status', 'done'])).stdout).toBe('');
    const bad = await pgs(['tasks', projectId, '--status', 'finished']);
    expect(bad.code).toBe(EXIT.USAGE);
    expect(bad.stderr).toContain(
      '--status must be one of todo, in_progress, blocked, done, obsolete',
    );
  });

  it('next claims for the agent and prints the context pack; done finishes it with a note', async () => {
    expect((await pgs(['next', projectId])).code).toBe(EXIT.USAGE);
    const claimed = await pgs(['next', projectId, '--agent', 'cli-1', '--lease', '1200']);
    expect(claimed.code, claimed.stderr).toBe(EXIT.OK);
    const [held] = await sdk.projects.tasks.list(projectId, { assignee: 'cli-1' });
    if (held === undefined) throw new Error('cli-1 holds no task');
    expect(held.status).toBe('in_progress');
    expect(Date.parse(held.lease!.expiresAt) - Date.parse(held.updatedAt)).toBe(1_200_000);
    expect(claimed.stdout).toBe(
      await sdk.projects.tasks.context(projectId, held.id, { format: 'markdown' }),
    );
    expect(claimed.stdout.split('\n')[0]).toBe(`# ${held.id} ${held.title}`);
    const { etag } = await sdk.projects.tasks.get(projectId, held.id);
    expect(claimed.stderr).toBe(
      `Claimed ${held.id} for cli-1 until ${held.lease!.expiresAt}. When it is done: ` +
        `pgs done ${projectId} ${held.id} --if-match '${etag}' --note "…"\n`,
    );

    // A stale ETag changes nothing (exit 12); the one next printed finishes the task.
    const stale = await pgs(['done', projectId, held.id, '--if-match', '"v1"', '--json']);
    expect(stale.code).toBe(EXIT.CONFLICT);
    expect(JSON.parse(stale.stderr).error).toMatchObject({
      code: 'PRECONDITION_FAILED',
      status: 412,
    });
    expect((await byId(held.id)).status).toBe('in_progress');
    const note = 'Schedules stored; npm test covers them.';
    const finished = await pgs(['done', projectId, held.id, '--if-match', etag, '--note', note]);
    expect(finished.code, finished.stderr).toBe(EXIT.OK);
    const after = await sdk.projects.tasks.get(projectId, held.id);
    expect(finished.stdout).toBe(`${held.id} is done (ETag ${after.etag})\n`);
    expect(after.task.history.at(-1)).toMatchObject({ from: 'in_progress', to: 'done', note });
  });

  it('task shows the history, and blocks, assigns, unassigns; a refused move exits 12', async () => {
    const [, second] = await sdk.projects.tasks.list(projectId);
    const id = (second as Task).id;
    const blocked = await pgs([
      'task',
      projectId,
      id,
      '--status',
      'blocked',
      '--assignee',
      'ana',
      '--note',
      'Waiting for the weather API key.',
    ]);
    expect(blocked.code, blocked.stderr).toBe(EXIT.OK);
    expect(blocked.stdout).toMatch(new RegExp(`^${id} is blocked \\(ETag "${id}\\.v\\d+"\\)\\n$`));
    const shown = await pgs(['task', projectId, id]);
    const lines = shown.stdout.trimEnd().split('\n');
    expect(lines[1]).toMatch(/^Status: blocked; assignee: ana; ETag "T-\d+\.v\d+"$/);
    expect(lines.at(-1)).toMatch(/ todo → blocked by key_\w+: Waiting for the weather API key\.$/);
    const json = JSON.parse((await pgs(['task', projectId, id, '--json'])).stdout);
    expect(json).toEqual(await sdk.projects.tasks.get(projectId, id));
    expect((await pgs(['task', projectId, id, '--assignee', 'ana', '--unassign'])).code).toBe(
      EXIT.USAGE,
    );
    const back = await pgs(['task', projectId, id, '--status', 'todo', '--unassign']);
    expect(back.code, back.stderr).toBe(EXIT.OK);
    expect(await byId(id)).toMatchObject({ status: 'todo', assignee: null });

    const [done] = await sdk.projects.tasks.list(projectId, { status: 'done' });
    const refused = await pgs(['task', projectId, done!.id, '--status', 'blocked']);
    expect(refused.code).toBe(EXIT.CONFLICT);
    expect(refused.stderr).toContain('TASK_TRANSITION_NOT_ALLOWED');
    expect((await pgs(['task', projectId, 'T-999'])).code).toBe(EXIT.NOT_FOUND);
  });

  it('next and done deliver the plan; then next exits 14, saying nothing is ready', async () => {
    for (let turn = 0; ; turn++) {
      if (turn > 100) throw new Error('no end to the plan');
      const claimed = await pgs(['next', projectId, '--agent', 'cli-loop', '--json']);
      if (claimed.code === EXIT.NOTHING_READY) break;
      expect(claimed.code, claimed.stderr).toBe(EXIT.OK);
      const { task, etag } = JSON.parse(claimed.stdout) as { task: Task; etag: string };
      expect((await pgs(['done', projectId, task.id, '--if-match', etag])).code).toBe(EXIT.OK);
    }
    expect((await sdk.projects.tasks.list(projectId)).every((task) => task.status === 'done')).toBe(
      true,
    );
    // The real binary: its exit code and what it says.
    const none = await runCli(['next', projectId, '--agent', 'cli-loop'], apiEnv);
    expect(none.code).toBe(EXIT.NOTHING_READY);
    expect(none.stdout).toBe('');
    expect(none.stderr).toBe(
      'error: no task is ready: every todo task waits on another one, or none is left\n' +
        `See where the plan stands with: pgs tasks ${projectId}\n`,
    );
    const json = await runCli(['next', projectId, '--agent', 'cli-loop', '--json'], apiEnv);
    expect(JSON.parse(json.stderr)).toMatchObject({
      success: false,
      error: { code: 'NO_TASK_READY', details: { projectId } },
    });
  });
});
