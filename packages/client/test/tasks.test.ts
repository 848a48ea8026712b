import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ConflictError,
  type FetchLike,
  NotFoundError,
  Pgs,
  PgsAdmin,
  PreconditionFailedError,
  taskContextMarkdown,
} from '../src/index.ts';
import { type RealServer, sharedRealServer } from './pgs-server.ts';

// projects.tasks against the real server (offline engine): the plan of a completed project
// as live work. A fetch that counts requests shows which answers are retried.

const IDEA = 'A web dashboard where community gardeners share compost schedules and seed swaps';

describe('projects.tasks against the real server', { timeout: 120_000 }, () => {
  let server: RealServer;
  let pgs: Pgs;
  let projectId: string;
  /** Requests made through `pgs`, by method and path. */
  const seen: string[] = [];

  beforeAll(async () => {
    server = await sharedRealServer();
    const counting: FetchLike = (input, init) => {
      seen.push(`${init.method} ${new URL(input).pathname}`);
      return globalThis.fetch(input, init);
    };
    pgs = new Pgs({ apiKey: server.apiKey, baseUrl: server.url, fetch: counting });
    ({ projectId } = await pgs.projects.create({ idea: IDEA, type: 'web' }));
    const result = await pgs.projects.waitForCompletion(projectId);
    expect(result.status).toBe('completed');
  }, 150_000);

  afterAll(async () => server?.stop());

  /** The requests `run` makes. */
  async function requestsOf(run: () => Promise<unknown>): Promise<string[]> {
    const before = seen.length;
    await run().catch(() => {});
    return seen.slice(before);
  }

  it('lists the plan in order, narrowed by status and requirement', async () => {
    const tasks = await pgs.projects.tasks.list(projectId);
    expect(tasks.length).toBeGreaterThan(3);
    expect(tasks[0]).toMatchObject({ id: 'T-1', status: 'todo', assignee: null, lease: null });
    const requirement = tasks.find((task) => task.requirements.length > 0)!.requirements[0]!;
    const implementing = await pgs.projects.tasks.list(projectId, { requirement });
    expect(implementing.length).toBeGreaterThan(0);
    expect(implementing).toEqual(
      tasks.filter((t) => t.requirements.includes(requirement) || t.criteria.includes(requirement)),
    );
    expect(await pgs.projects.tasks.list(projectId, { status: 'obsolete' })).toEqual([]);
  });

  it('claims with the context pack and its ETag; renews; a lost lease is refused once', async () => {
    const claimed = await pgs.projects.tasks.next(projectId, { agent: 'sdk-1' });
    if (claimed === null) throw new Error('the plan had no ready task');
    expect(claimed.task).toMatchObject({ status: 'in_progress', lease: { agent: 'sdk-1' } });
    const read = await pgs.projects.tasks.get(projectId, claimed.task.id);
    expect(read.etag).toBe(claimed.etag);
    expect(read.task.history.at(-1)).toMatchObject({ agent: 'sdk-1', to: 'in_progress' });
    expect(await pgs.projects.tasks.context(projectId, claimed.task.id)).toEqual(claimed.context);
    expect(
      await pgs.projects.tasks.context(projectId, claimed.task.id, { format: 'markdown' }),
    ).toBe(taskContextMarkdown(claimed.context));

    const renewed = await pgs.projects.tasks.renew(projectId, claimed.task.id, {
      agent: 'sdk-1',
      leaseSeconds: 3600,
    });
    expect(renewed.etag).not.toBe(claimed.etag);
    expect(Date.parse(renewed.task.lease!.expiresAt)).toBeGreaterThan(
      Date.parse(claimed.task.lease!.expiresAt),
    );
    // Another agent holds no lease on it: a settled conflict, asked once.
    let error: unknown;
    const requests = await requestsOf(async () => {
      error = await pgs.projects.tasks
        .renew(projectId, claimed.task.id, { agent: 'sdk-2' })
        .catch((e: unknown) => e);
    });
    expect(error).toBeInstanceOf(ConflictError);
    expect(error).toMatchObject({ code: 'LEASE_NOT_HELD', details: { lease_agent: 'sdk-1' } });
    expect(requests).toHaveLength(1);
  });

  it('updates against an ETag: stale is 412, a refused move a 409 asked once', async () => {
    const claimed = await pgs.projects.tasks.next(projectId, { agent: 'sdk-1' });
    if (claimed === null) throw new Error('sdk-1 holds no task');
    const current = (await pgs.projects.tasks.get(projectId, claimed.task.id)).etag;
    // An ETag from before the claim is stale: 412, with the current one in the details.
    const stale = await pgs.projects.tasks
      .update(projectId, claimed.task.id, { status: 'done' }, { ifMatch: '"v1"' })
      .catch((e: unknown) => e);
    expect(stale).toBeInstanceOf(PreconditionFailedError);
    expect(stale).toMatchObject({ code: 'PRECONDITION_FAILED', details: { etag: current } });

    const note = 'Schedules stored; npm test covers them.';
    const done = await pgs.projects.tasks.update(
      projectId,
      claimed.task.id,
      { status: 'done', note },
      { ifMatch: current },
    );
    expect(done.task).toMatchObject({ status: 'done', lease: null });
    expect(done.task.history.at(-1)).toMatchObject({ from: 'in_progress', to: 'done', note });

    let refused: unknown;
    const requests = await requestsOf(async () => {
      refused = await pgs.projects.tasks
        .update(projectId, claimed.task.id, { status: 'blocked' }, { ifMatch: done.etag })
        .catch((e: unknown) => e);
    });
    expect(refused).toBeInstanceOf(ConflictError);
    expect(refused).toMatchObject({
      code: 'TASK_TRANSITION_NOT_ALLOWED',
      details: { from: 'done', to: 'blocked', allowed: ['todo', 'obsolete'] },
    });
    expect(requests).toEqual([`PATCH /api/v1/projects/${projectId}/tasks/${claimed.task.id}`]);

    // Without ifMatch the SDK reads the task, then updates the version it read.
    const path = `/api/v1/projects/${projectId}/tasks/${claimed.task.id}`;
    const reopened = await requestsOf(() =>
      pgs.projects.tasks.update(projectId, claimed.task.id, { status: 'todo', note: 'Reopened.' }),
    );
    expect(reopened).toEqual([`GET ${path}`, `PATCH ${path}`]);
    expect((await pgs.projects.tasks.get(projectId, claimed.task.id)).task.status).toBe('todo');
  });

  it('a retried update whose first attempt landed answers the task, not a false 412', async () => {
    // The first PATCH reaches the server and commits; its answer is lost on the way back.
    let lose = true;
    const losing: FetchLike = async (input, init) => {
      const response = await globalThis.fetch(input, init);
      if (init.method !== 'PATCH' || !lose) return response;
      lose = false;
      await response.arrayBuffer();
      throw new TypeError('fetch failed: socket hang up');
    };
    const flaky = new Pgs({
      apiKey: server.apiKey,
      baseUrl: server.url,
      fetch: losing,
      sleep: async () => {},
    });
    const claimed = await flaky.projects.tasks.next(projectId, { agent: 'sdk-flaky' });
    if (claimed === null) throw new Error('the plan had no ready task');
    const note = 'Landed once, answered late.';
    const done = await flaky.projects.tasks.update(
      projectId,
      claimed.task.id,
      { status: 'done', note },
      { ifMatch: claimed.etag },
    );
    expect(lose).toBe(false);
    expect(done.task.status).toBe('done');
    expect(done.task.history.filter((entry) => entry.note === note)).toHaveLength(1);
    expect(done.etag).toBe((await pgs.projects.tasks.get(projectId, claimed.task.id)).etag);
    // A retry refused for a change the task does not show is still the 412 it was.
    lose = true;
    const refused = await flaky.projects.tasks
      .update(projectId, claimed.task.id, { status: 'todo' }, { ifMatch: claimed.etag })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(PreconditionFailedError);
  });

  it('next is null once nothing is ready: an agent loop delivers the plan', async () => {
    const took: string[] = [];
    for (;;) {
      const claimed = await pgs.projects.tasks.next(projectId, { agent: 'sdk-loop' });
      if (claimed === null) break;
      if (took.length > 100) throw new Error(`no end to the plan: ${took}`);
      took.push(claimed.task.id);
      await pgs.projects.tasks.update(
        projectId,
        claimed.task.id,
        { status: 'done' },
        { ifMatch: claimed.etag },
      );
    }
    const tasks = await pgs.projects.tasks.list(projectId);
    expect(tasks.every((task) => task.status === 'done')).toBe(true);
    expect(new Set(took).size).toBe(took.length);
    expect(await pgs.projects.tasks.next(projectId, { agent: 'sdk-loop' })).toBeNull();
  });

  it("another account's key finds no project", async () => {
    const admin = new PgsAdmin({ adminToken: await server.adminToken(), baseUrl: server.url });
    const other = new Pgs({
      apiKey: (await admin.keys.create({ mode: 'test', credits: 10 })).key,
      baseUrl: server.url,
    });
    for (const call of [
      () => other.projects.tasks.list(projectId),
      () => other.projects.tasks.get(projectId, 'T-1'),
      () => other.projects.tasks.next(projectId, { agent: 'intruder' }),
      () => other.projects.tasks.update(projectId, 'T-1', { status: 'done' }, { ifMatch: '*' }),
      () => other.projects.tasks.renew(projectId, 'T-1', { agent: 'intruder' }),
      () => other.projects.tasks.context(projectId, 'T-1'),
    ]) {
      await expect(call()).rejects.toBeInstanceOf(NotFoundError);
    }
  });
});
