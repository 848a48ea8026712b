import { beforeAll, describe, expect, it } from 'vitest';
import type { CreatedKey } from '../src/accounts/service.ts';
import { header } from './helpers/creation.ts';
import { bearer, harnessFor } from './helpers/harness.ts';
import { completedWithPlan, offlineDocuments, planDocument } from './helpers/tasks.ts';

/**
 * Issue 30, item 1: the plan of a completed project as a resource. The tasks are the offline
 * engine's real plan, made by the service's own completion; every answer is checked against
 * the contract by the harness.
 */

describe('tasks as a resource', () => {
  const harness = harnessFor('pglite');
  let key: CreatedKey;
  let project: string;
  beforeAll(async () => {
    key = await harness().createKey('test');
    project = await completedWithPlan(harness().database, key);
  });
  const call = (
    method: 'GET' | 'PATCH' | 'POST',
    path: string,
    options: { body?: unknown; headers?: Record<string, string>; as?: CreatedKey } = {},
  ) =>
    harness().request({
      method,
      url: `/api/v1/projects/${path}`,
      headers: {
        ...bearer((options.as ?? key).key),
        ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...options.headers,
      },
      ...(options.body === undefined ? {} : { payload: JSON.stringify(options.body) }),
    });
  const list = async (query = '', id = project) => {
    const res = await call('GET', `${id}/tasks${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as { id: string; status: string; assignee: string | null }[];
  };

  it('lists the plan in order: slice, requirements, criteria, dependencies, state', async () => {
    const tasks = await list();
    const plan = offlineDocuments().find((doc) => doc.kind === 'implementation-plan')!.content;
    expect(tasks.length).toBeGreaterThan(5);
    // Plan order: each ID appears in the plan after the one before it.
    const positions = tasks.map((task) => plan.indexOf(`| ${task.id} |`));
    expect(positions.every((at, i) => at > 0 && (i === 0 || at > positions[i - 1]!))).toBe(true);
    const tests = tasks.find((task) => task.id === 'T-3') as unknown as Record<string, unknown>;
    expect(tests).toMatchObject({
      phase: 'M2 Must stories',
      requirements: ['FR-1'],
      criteria: ['FR-1.1', 'FR-1.2'],
      dependsOn: ['T-2'],
      files: [],
      estimate: '1 d',
      status: 'todo',
      assignee: null,
      lease: null,
    });
    // A task naming only the requirement implements all its criteria.
    const build = tasks.find((task) => task.id === 'T-4') as unknown as { criteria: string[] };
    expect(build.criteria).toEqual(['FR-1.1', 'FR-1.2']);
    expect(tasks.every((task) => task.status === 'todo')).toBe(true);
  });

  it('narrows by status, requirement, criterion and assignee, and refuses what it does not read', async () => {
    expect((await list('?requirement=FR-2')).map((t) => t.id)).toEqual(['T-5', 'T-6']);
    expect((await list('?requirement=FR-2.1')).map((t) => t.id)).toEqual(['T-5', 'T-6']);
    expect((await list('?requirement=NFR-1')).map((t) => t.id)).toEqual(['T-9']);
    expect(await list('?status=done')).toEqual([]);
    expect(await list('?assignee=nobody')).toEqual([]);
    for (const query of ['?status=finished', '?requirement=US-1', '?sort=id', '?format=xml']) {
      const res = await call('GET', `${project}/tasks${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().error.code).toBe('VALIDATION_ERROR');
    }
  });

  it('exports CSV for another tracker, one row per task', async () => {
    const res = await call('GET', `${project}/tasks?format=csv`);
    expect(res.statusCode).toBe(200);
    expect(header(res, 'content-type')).toBe('text/csv; charset=utf-8');
    const lines = res.body.trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'id,title,phase,status,assignee,requirements,criteria,dependsOn,files,estimate,leaseAgent,leaseExpiresAt,updatedAt',
    );
    expect(lines).toHaveLength((await list()).length + 1);
    expect(lines.find((line) => line.startsWith('T-4,'))).toContain(
      '"Build ""Keep communities"" until T-3 passes",M2 Must stories,todo,,FR-1,FR-1.1 FR-1.2,T-3,,2 d,,,',
    );
  });

  it('reads one task with its ETag and history; 304 on a match; 404 for a task not in the plan', async () => {
    const res = await call('GET', `${project}/tasks/T-2`);
    expect(res.statusCode).toBe(200);
    const etag = header(res, 'etag');
    expect(header(res, 'cache-control')).toBe('private, no-cache');
    expect(res.json().data.history).toEqual([
      expect.objectContaining({ keyId: null, agent: null, from: null, to: 'todo', note: null }),
    ]);
    const again = await call('GET', `${project}/tasks/T-2`, { headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    const missing = await call('GET', `${project}/tasks/T-999`);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error.details).toEqual({ resource_type: 'task', resource_id: 'T-999' });
    expect((await call('GET', `${project}/tasks/task-2`)).statusCode).toBe(400);
  });

  it('updates only with a current If-Match: 428 without, 412 when stale', async () => {
    const path = `${project}/tasks/T-1`;
    const first = header(await call('GET', path), 'etag');
    const missing = await call('PATCH', path, { body: { status: 'blocked' } });
    expect(missing.statusCode).toBe(428);
    expect(missing.json().error).toMatchObject({
      code: 'PRECONDITION_REQUIRED',
      details: { missing_fields: ['If-Match'] },
    });
    const body = { status: 'blocked', assignee: 'ana', note: 'Waiting for the CI account.' };
    const done = await call('PATCH', path, { body, headers: { 'if-match': first } });
    expect(done.statusCode, done.body).toBe(200);
    const second = header(done, 'etag');
    expect(second).not.toBe(first);
    expect(done.json().data).toMatchObject({ status: 'blocked', assignee: 'ana' });
    expect(done.json().data.history.at(-1)).toMatchObject({
      keyId: key.keyId,
      from: 'todo',
      to: 'blocked',
      assignee: 'ana',
      note: 'Waiting for the CI account.',
    });
    // The first ETag is stale now: the write that read it must read again.
    const stale = await call('PATCH', path, {
      body: { status: 'todo' },
      headers: { 'if-match': first },
    });
    expect(stale.statusCode).toBe(412);
    expect(stale.json().error).toMatchObject({
      code: 'PRECONDITION_FAILED',
      details: { resource_type: 'task', resource_id: 'T-1', etag: second },
    });
    expect((await list('?assignee=ana')).map((t) => t.id)).toEqual(['T-1']);
    expect((await list('?status=blocked')).map((t) => t.id)).toEqual(['T-1']);
    // An empty body changes nothing and is refused as such.
    const empty = await call('PATCH', path, { body: {}, headers: { 'if-match': second } });
    expect(empty.statusCode).toBe(400);
    // Another task's ETag at the same version does not match: every task starts at version 1.
    const other = header(await call('GET', `${project}/tasks/T-3`), 'etag');
    const wrongTask = await call('PATCH', `${project}/tasks/T-2`, {
      body: { status: 'blocked' },
      headers: { 'if-match': other },
    });
    expect(wrongTask.statusCode).toBe(412);
    // A task that does not exist answers 404 before any If-Match is asked for.
    const absent = await call('PATCH', `${project}/tasks/T-999`, { body: { status: 'done' } });
    expect(absent.statusCode).toBe(404);
  });

  it('refuses a move the machine does not allow, naming the allowed ones', async () => {
    const path = `${project}/tasks/T-9`;
    let etag = header(await call('GET', path), 'etag');
    const done = await call('PATCH', path, {
      body: { status: 'done' },
      headers: { 'if-match': etag },
    });
    expect(done.statusCode).toBe(200);
    etag = header(done, 'etag');
    const refused = await call('PATCH', path, {
      body: { status: 'in_progress' },
      headers: { 'if-match': etag },
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toMatchObject({
      code: 'TASK_TRANSITION_NOT_ALLOWED',
      details: { from: 'done', to: 'in_progress', allowed: ['todo', 'obsolete'] },
    });
    // Reopened, then worked again: two steps, both in the history.
    const reopened = await call('PATCH', path, {
      body: { status: 'todo', note: 'The load test ran on the wrong data.' },
      headers: { 'if-match': etag },
    });
    expect(reopened.statusCode).toBe(200);
    const history = reopened.json().data.history as { from: string; to: string }[];
    expect(history.map((entry) => `${entry.from}>${entry.to}`)).toEqual([
      'null>todo',
      'todo>done',
      'done>todo',
    ]);
  });

  it('is 409 before completion, and a project completed before tasks existed gets them on first read', async () => {
    const h = harness();
    for (const state of ['in_progress', 'failed'] as const) {
      const id = await h.seedProject(key, { status: state });
      const res = await call('GET', `${id}/tasks`);
      expect(res.statusCode).toBe(409);
      expect(res.json().error).toMatchObject({
        code: 'PROJECT_NOT_COMPLETED',
        details: { status: state },
      });
    }
    const older = await completedWithPlan(h.database, key, offlineDocuments(), {
      materialise: false,
    });
    expect((await list('', older)).map((t) => t.id)).toEqual((await list()).map((t) => t.id));
    // A plan without a Tasks section: no tasks, and no error.
    const bare = offlineDocuments().filter((doc) => doc.kind !== 'implementation-plan');
    expect(await list('', await completedWithPlan(h.database, key, bare))).toEqual([]);
    const small = await completedWithPlan(h.database, key, [planDocument(2)]);
    expect((await list('', small)).map((t) => t.id)).toEqual(['T-1', 'T-2']);
  });

  it('answers 404 on every task route for another account and the other mode', async () => {
    const h = harness();
    const other = await h.createKey('test');
    const live = await h.createKey('live', { accountId: key.accountId });
    const before = header(await call('GET', `${project}/tasks/T-2`), 'etag');
    const routes: [method: 'GET' | 'PATCH' | 'POST', path: string, body?: unknown][] = [
      ['GET', 'tasks'],
      ['GET', 'tasks/T-2'],
      ['GET', 'tasks/T-2/context'],
      ['PATCH', 'tasks/T-2', { status: 'done' }],
      ['POST', 'tasks/next', { agent: 'intruder' }],
      ['POST', 'tasks/T-2/lease', { agent: 'intruder' }],
    ];
    for (const stranger of [other, live]) {
      for (const [method, path, body] of routes) {
        const res = await call(method, `${project}/${path}`, {
          as: stranger,
          body,
          headers: { 'if-match': before },
        });
        expect(res.statusCode, `${stranger.mode} ${method} ${path}`).toBe(404);
        expect(res.json().error.details).toEqual({
          resource_type: 'project',
          resource_id: project,
        });
      }
    }
    // Nothing they tried changed it.
    expect(header(await call('GET', `${project}/tasks/T-2`), 'etag')).toBe(before);
  });

  it('counts every task route against the tasks limit', async () => {
    const res = await call('GET', `${project}/tasks`);
    expect(header(res, 'x-ratelimit-limit')).toBe('300');
  });
});
