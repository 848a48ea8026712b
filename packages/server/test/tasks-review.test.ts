import { beforeAll, describe, expect, it } from 'vitest';
import type { CreatedKey } from '../src/accounts/service.ts';
import { taskTools } from '../src/api/mcp/task-tools.ts';
import type { McpCall } from '../src/api/mcp/tools.ts';
import type { RequirementDelta } from '../src/models/deltas.ts';
import { Revisions } from '../src/projects/revisions.ts';
import type { Database } from '../src/storage/db.ts';
import { listProjectEvents } from '../src/storage/sql/events.ts';
import { insertDocument, updateProject } from '../src/storage/sql/projects.ts';
import { insertRevision } from '../src/storage/sql/revisions.ts';
import type { TaskUpdatedEvent } from '../src/tasks/notify.ts';
import { Tasks } from '../src/tasks/service.ts';
import { header } from './helpers/creation.ts';
import { bearer, harnessFor } from './helpers/harness.ts';
import {
  completedWithPlan,
  offlineDocuments,
  planDocument,
  type SeedDocument,
} from './helpers/tasks.ts';

/**
 * Issue 30's review: what the plan's tasks keep across a revision and how a write is told
 * apart from a read. Revisions here are laid down as a completed revision leaves them (its
 * documents, its deltas, the project's current revision) with the tasks not yet brought up
 * to it, so the first task request does the bringing, as after a sync that failed.
 */

let clock = Date.parse('2026-11-28T09:00:00Z');

/** Completes revision `revision` of a project with `documents`, leaving the tasks behind it. */
async function revise(
  database: Database,
  projectId: string,
  revision: number,
  documents: readonly SeedDocument[],
  deltas: RequirementDelta[] = [],
): Promise<void> {
  await insertRevision(database.db, {
    projectId,
    revision,
    status: 'completed',
    changeRequest: `Change ${revision}`,
    deltas,
    completedAt: new Date(clock),
  });
  for (const [position, doc] of documents.entries()) {
    await insertDocument(database.db, {
      projectId,
      revision,
      writtenIn: revision,
      type: doc.kind,
      filename: doc.filename,
      content: doc.content,
      stage: doc.stage,
      tokensUsed: 100,
      generatedAt: new Date(clock),
      position,
    });
  }
  await updateProject(database.db, projectId, { currentRevision: revision });
}

describe('tasks after review', () => {
  const harness = harnessFor('pglite', { now: () => clock });
  let key: CreatedKey;
  beforeAll(async () => {
    key = await harness().createKey('test');
  });
  const call = (method: 'GET' | 'PATCH' | 'POST', path: string, body?: unknown, headers = {}) =>
    harness().request({
      method,
      url: `/api/v1/projects/${path}`,
      headers: {
        ...bearer(key.key),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
  const etagOf = async (project: string, task: string) =>
    header(await call('GET', `${project}/tasks/${task}`), 'etag');

  it('keeps the ETag of a task a revision leaves as it was', async () => {
    const project = await completedWithPlan(harness().database, key, [planDocument(3)]);
    const claimed = await call('POST', `${project}/tasks/next`, { agent: 'claude-1' });
    expect(claimed.statusCode, claimed.body).toBe(200);
    const held = header(claimed, 'etag');
    const before = { t2: await etagOf(project, 'T-2'), t3: await etagOf(project, 'T-3') };
    // The listing names the revision whose plan its tasks follow.
    expect(header(await call('GET', `${project}/tasks`), 'pgs-revision')).toBe('1');
    // Revision 2's plan words T-3 anew and leaves T-1 and T-2 as they were.
    const plan = planDocument(3);
    plan.content = plan.content.replace('Task number 3', 'Task number three, reworded');
    await revise(harness().database, project, 2, [plan]);
    const listed = await call('GET', `${project}/tasks`);
    expect(header(listed, 'pgs-revision')).toBe('2');
    expect(await etagOf(project, 'T-2')).toBe(before.t2);
    expect(await etagOf(project, 'T-3')).not.toBe(before.t3);
    // The agent's ETag from its claim still finishes its task.
    const done = await call(
      'PATCH',
      `${project}/tasks/T-1`,
      { status: 'done', note: 'Built.' },
      { 'if-match': held },
    );
    expect(done.statusCode, done.body).toBe(200);
  });

  it('leases a task a PATCH starts, to its assignee or the key, and expires it like a claim', async () => {
    const project = await completedWithPlan(harness().database, key, [planDocument(2)]);
    const started = await call(
      'PATCH',
      `${project}/tasks/T-1`,
      { status: 'in_progress', assignee: 'ana' },
      { 'if-match': await etagOf(project, 'T-1') },
    );
    expect(started.statusCode, started.body).toBe(200);
    expect(started.json().data.lease).toEqual({
      agent: 'ana',
      expiresAt: new Date(clock + 900_000).toISOString(),
    });
    // Nobody assigned: the key that started it holds the lease.
    const keyed = await call(
      'PATCH',
      `${project}/tasks/T-2`,
      { status: 'in_progress' },
      { 'if-match': await etagOf(project, 'T-2') },
    );
    expect(keyed.json().data.lease.agent).toBe(key.keyId);
    // Renewed by the name that holds it, as a claim's lease is.
    const renewed = await call('POST', `${project}/tasks/T-1/lease`, {
      agent: 'ana',
      leaseSeconds: 1800,
    });
    expect(renewed.statusCode, renewed.body).toBe(200);
    clock += 901_000;
    const tasks = (await call('GET', `${project}/tasks`)).json().data as {
      id: string;
      status: string;
    }[];
    expect(tasks.map((t) => `${t.id}:${t.status}`)).toEqual(['T-1:in_progress', 'T-2:todo']);
    const history = (await call('GET', `${project}/tasks/T-2`)).json().data.history;
    expect(history.at(-1)).toMatchObject({ from: 'in_progress', to: 'todo', keyId: null });
  });

  /** A project of `count` tasks serving FR-1, and its revision 2 removing FR-1, running. */
  const removingRevision = async (count: number) => {
    const { database } = harness();
    const project = await completedWithPlan(database, key, [planDocument(count)]);
    await insertRevision(database.db, {
      projectId: project,
      revision: 2,
      status: 'in_progress',
      changeRequest: 'Drop the only requirement',
      deltas: [{ op: 'removed', id: 'FR-1', title: 'Tasks', reason: 'Dropped.' }],
    });
    await insertDocument(database.db, {
      projectId: project,
      revision: 2,
      writtenIn: 2,
      ...planDocument(count),
      type: 'implementation-plan',
      tokensUsed: 100,
      generatedAt: new Date(clock),
      position: 0,
    });
    await updateProject(database.db, project, { revising: 2 });
    return project;
  };

  it('logs a task sync that fails when a revision completes, and the next task read makes it', async () => {
    const { database } = harness();
    const project = await removingRevision(2);
    const lines: { obj: object; msg: string }[] = [];
    // The webhook side of a task.updated failing makes the sync fail inside its savepoint.
    const revisions = new Revisions(
      database.db,
      {
        enqueue: async () => {},
        taskUpdated: async () => {
          throw Object.assign(new Error(`secret ${key.key}`), { code: 'WEBHOOK_DOWN' });
        },
      },
      () => 'offline',
      () => clock,
      undefined,
      { warn: (obj, msg) => lines.push({ obj, msg }) },
    );
    expect(await revisions.complete(project, 2)).toBe(true);
    expect(lines).toEqual([
      {
        obj: { projectId: project, revision: 2, error: { name: 'Error', code: 'WEBHOOK_DOWN' } },
        msg: 'tasks not brought up to the plan at completion; the next task request retries',
      },
    ]);
    expect(JSON.stringify(lines)).not.toContain(key.key);
    // The revision completed; its tasks catch up on the next read.
    const tasks = (await call('GET', `${project}/tasks`)).json().data as { status: string }[];
    expect(tasks.map((t) => t.status)).toEqual(['obsolete', 'obsolete']);
  });

  it('tells of the moves of a revision in one batch, numbered in order', async () => {
    const { database } = harness();
    const project = await removingRevision(5);
    const batches: (readonly TaskUpdatedEvent[])[] = [];
    const revisions = new Revisions(
      database.db,
      {
        enqueue: async () => {},
        tasksUpdated: async (_tx, events) => {
          batches.push(events);
        },
      },
      () => 'offline',
      () => clock,
    );
    expect(await revisions.complete(project, 2)).toBe(true);
    expect(batches.map((batch) => batch.map((e) => `${e.data.taskId}>${e.data.to}`))).toEqual([
      ['T-1>obsolete', 'T-2>obsolete', 'T-3>obsolete', 'T-4>obsolete', 'T-5>obsolete'],
    ]);
    const events = await listProjectEvents(database.db, project);
    const moved = events.filter((e) => e.type === 'task.updated');
    expect(moved.map((e) => (e.data as { taskId: string }).taskId)).toEqual(
      batches[0]!.map((e) => e.data.taskId),
    );
    // Numbered after revision.completed, one after another, with no gap or repeat.
    const seqs = events.map((e) => e.seq);
    expect(seqs).toEqual(seqs.map((_, n) => seqs[0]! + n));
    expect(events.at(-6)?.type).toBe('revision.completed');
  });

  it('narrows list_tasks by requirement, as the REST listing does', async () => {
    const project = await completedWithPlan(harness().database, key, offlineDocuments());
    const tools = taskTools(new Tasks(harness().database.db, () => clock));
    const mcpCall = { principal: key } as unknown as McpCall;
    const listed = await tools.list_tasks({ projectId: project, requirement: 'FR-2' }, mcpCall);
    const ids = (listed.structuredContent as { tasks: { id: string }[] }).tasks.map((t) => t.id);
    const rest = (await call('GET', `${project}/tasks?requirement=FR-2`)).json().data;
    expect(ids).toEqual(rest.map((t: { id: string }) => t.id));
    expect(ids).toEqual(['T-5', 'T-6']);
  });
});
