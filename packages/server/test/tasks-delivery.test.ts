import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { webhooks } from '@pgs/client';
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedKey } from '../src/accounts/service.ts';
import { header } from './helpers/creation.ts';
import { bearer, harnessFor, roomy } from './helpers/harness.ts';
import { completedWithPlan, planDocument } from './helpers/tasks.ts';
import { waitFor } from './helpers/wait.ts';

/**
 * Issue 30, item 5: delivery of a plan wherever a project is read. The offline engine's plan,
 * completed through the service's own completion; tasks finished through the API; every
 * answer checked against the contract by the harness. The trace (progress per requirement),
 * the listing (progress), the archive (tasks.json, checkboxes), the event stream
 * (task.updated) and the task.updated webhook, to a receiver on 127.0.0.1.
 */

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

describe('delivery of the plan', () => {
  const harness = harnessFor('pglite', {
    generation: 'workers',
    webhooks: { allowPrivate: true, pollingIntervalSeconds: 0.5 },
    rules: roomy('status', 'downloads', 'list', 'tasks', 'webhooks'),
    keepAliveMs: 50,
  });
  const received: Received[] = [];
  const receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => {
      body += chunk.toString('utf8');
    });
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.end('ok');
    });
  });
  let key: CreatedKey;
  let project: string;
  let base: string;
  beforeAll(async () => {
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    key = await harness().createKey('test');
    project = await completedWithPlan(harness().database, key);
    await harness().app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(harness().app.server.address() as AddressInfo).port}/api/v1`;
  });
  afterAll(async () => {
    harness().app.server.closeAllConnections();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  });

  const call = (method: 'GET' | 'PATCH' | 'POST', url: string, body?: unknown, headers = {}) =>
    harness().request({
      method,
      url: `/api/v1/${url}`,
      headers: {
        ...bearer(key.key),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
  const move = async (task: string, status: string, id = project) => {
    const etag = header(await call('GET', `projects/${id}/tasks/${task}`), 'etag');
    const res = await call(
      'PATCH',
      `projects/${id}/tasks/${task}`,
      { status },
      { 'if-match': etag },
    );
    expect(res.statusCode, res.body).toBe(200);
  };
  const trace = async (query = '') => {
    const res = await call('GET', `projects/${project}/trace${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return { etag: header(res, 'etag'), data: res.json().data };
  };

  it('puts delivery on the trace: per requirement, per criterion, per project', async () => {
    const before = await trace();
    const total = (await call('GET', `projects/${project}/tasks`)).json().data.length;
    expect(total).toBeGreaterThan(5);
    expect(before.data.progress.tasks).toEqual({ done: 0, total });
    // FR-1's tasks (its tests and its build) done, and one task of FR-2.
    for (const task of ['T-3', 'T-4', 'T-5']) await move(task, 'done');
    const after = await trace();
    expect(after.etag).not.toBe(before.etag);
    const { progress, coverage } = after.data;
    expect(progress.tasks).toEqual({ done: 3, total });
    expect(progress.share).toBe(Math.round((3 / total) * 1000) / 1000);
    const of = (id: string) => progress.requirements.find((r: { id: string }) => r.id === id);
    const fr1 = coverage.requirements.find((r: { id: string }) => r.id === 'FR-1');
    expect(of('FR-1')).toEqual({
      id: 'FR-1',
      tasks: { done: 2, total: 2 },
      criteria: { delivered: fr1.criteria, total: fr1.criteria.length },
      delivered: true,
    });
    // One of FR-2's two tasks: no criterion is delivered while a task implementing it is open.
    expect(of('FR-2')).toMatchObject({
      tasks: { done: 1, total: 2 },
      criteria: { delivered: [] },
      delivered: false,
    });
    // Every requirement of the coverage, then the NFRs the tasks name.
    const ids = progress.requirements.map((r: { id: string }) => r.id);
    expect(ids.slice(0, coverage.requirements.length)).toEqual(
      coverage.requirements.map((r: { id: string }) => r.id),
    );
    expect(ids).toContain('NFR-1');
    expect(progress.criteria.delivered).toBe(fr1.criteria.length);
    // An obsolete task counts nowhere.
    await move('T-6', 'obsolete');
    expect((await trace()).data.progress).toMatchObject({
      tasks: { done: 3, total: total - 1 },
      requirements: expect.arrayContaining([
        expect.objectContaining({ id: 'FR-2', tasks: { done: 1, total: 1 }, delivered: true }),
      ]),
    });
    // A pinned revision's trace never changes: no live state in it.
    expect((await trace('?revision=1')).data).not.toHaveProperty('progress');
  });

  it('lists each project with its delivery; null before its tasks exist', async () => {
    const running = await harness().seedProject(key, { status: 'in_progress' });
    const res = await call('GET', 'projects?limit=50');
    expect(res.statusCode).toBe(200);
    const rows = res.json().data as { projectId: string; progress: unknown }[];
    const tasks = (await call('GET', `projects/${project}/tasks`)).json().data as {
      status: string;
    }[];
    const done = tasks.filter((t) => t.status === 'done').length;
    const total = tasks.filter((t) => t.status !== 'obsolete').length;
    expect(rows.find((r) => r.projectId === project)?.progress).toEqual({
      tasks: { done, total },
      share: Math.round((done / total) * 1000) / 1000,
    });
    expect(rows.find((r) => r.projectId === running)?.progress).toBeNull();
  });

  it('ships tasks.json and ticked checkboxes in the archive; a pinned one stays unticked', async () => {
    const small = await completedWithPlan(harness().database, key, [planDocument(3)]);
    await move('T-2', 'done', small);
    const zip = async (layout: string, query = '') => {
      const res = await call('GET', `projects/${small}/archive?layout=${layout}${query}`);
      expect(res.statusCode).toBe(200);
      const files = unzipSync(new Uint8Array(res.rawPayload));
      return {
        etag: header(res, 'etag'),
        file: (path: string) => (files[path] ? strFromU8(files[path]) : undefined),
        paths: Object.keys(files),
      };
    };
    const kiro = await zip('kiro');
    const spec = '.kiro/specs/communitydesk';
    const listed = (await call('GET', `projects/${small}/tasks`)).json().data;
    expect(JSON.parse(kiro.file(`${spec}/tasks.json`)!)).toEqual(listed);
    const kiroTasks = kiro.file(`${spec}/tasks.md`)!;
    expect(kiroTasks).toContain('- [ ] 1. M1 All at once');
    expect(kiroTasks).toContain('- [x] 1.2 T-2 Task number 2');
    expect(kiroTasks).toContain('- [ ] 1.1 T-1 Task number 1');
    expect(kiroTasks).toContain('_Requirements: FR-1');
    // The plan itself ships beside the list, as it is.
    expect(kiro.file(`${spec}/IMPLEMENTATION_PLAN.md`)).toBe(planDocument(3).content);

    const specKit = await zip('spec-kit');
    const tasksMd = specKit.file('specs/001-communitydesk/tasks.md')!;
    expect(tasksMd.split('\n').filter((l) => l.startsWith('- ['))).toEqual([
      '- [ ] T-1 [FR-1] Task number 1',
      '- [x] T-2 [FR-1] Task number 2',
      '- [ ] T-3 [FR-1] Task number 3',
    ]);
    expect(specKit.paths).toContain('specs/001-communitydesk/tasks.json');

    // The archive's ETag follows the work; a pinned one has no live state.
    await move('T-3', 'done', small);
    const again = await zip('kiro');
    expect(again.etag).not.toBe(kiro.etag);
    expect(again.file(`${spec}/tasks.md`)).toContain('- [x] 1.3 T-3 Task number 3');
    const pinned = await zip('kiro', '&revision=1');
    expect(pinned.paths).not.toContain(`${spec}/tasks.json`);
    expect(pinned.file(`${spec}/tasks.md`)).not.toContain('[x]');
  });

  it('streams task.updated with ?follow=tasks; a plain stream still ends with the run', async () => {
    const small = await completedWithPlan(harness().database, key, [planDocument(2)]);
    const stream = await fetch(`${base}/projects/${small}/events?follow=tasks`, {
      headers: bearer(key.key),
    });
    expect(stream.status).toBe(200);
    const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    const until = async (needle: string) => {
      while (!text.includes(needle)) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`the stream ended before ${needle}`);
        text += value;
      }
    };
    await until('event: status');
    await move('T-1', 'in_progress', small);
    await move('T-1', 'done', small);
    await until('"to":"done"');
    await reader.cancel();
    const updates = text
      .split('\n\n')
      .filter((block) => block.includes('event: task.updated'))
      .map((block) => JSON.parse(block.slice(block.indexOf('data: ') + 6)));
    expect(updates.map((u) => `${u.taskId} ${u.from}>${u.to}`)).toEqual([
      'T-1 todo>in_progress',
      'T-1 in_progress>done',
    ]);
    expect(updates[1]).toMatchObject({
      projectId: small,
      keyId: key.keyId,
      progress: { tasks: { done: 1, total: 2 }, share: 0.5 },
    });
    // Without follow, the stream of a completed project is its status and its end, as ever.
    const plain = await fetch(`${base}/projects/${small}/events`, { headers: bearer(key.key) });
    const events = [...(await plain.text()).matchAll(/^event: (.+)$/gm)].map((m) => m[1]);
    expect(events).toEqual(['status', 'project.completed']);
  });

  it('sends a signed task.updated webhook to the endpoints that named it', async () => {
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    const make = async (body: unknown) => {
      const res = await call('POST', 'webhook-endpoints', body);
      expect(res.statusCode, res.body).toBe(201);
      return res.json().data as { events: string[]; secret: string };
    };
    // Not by default: an endpoint hears every move of the work only when it asks.
    expect((await make({ url: `${url}-default` })).events).not.toContain('task.updated');
    const endpoint = await make({ url, events: ['task.updated'] });
    expect(endpoint.events).toEqual(['task.updated']);
    const small = await completedWithPlan(harness().database, key, [planDocument(2)]);
    await move('T-2', 'blocked', small);
    const delivered = await waitFor(async () => received.find((r) => r.body.includes(small)), {
      timeoutMs: 15_000,
      what: 'the task.updated webhook',
    });
    const body = await webhooks.verify(
      delivered.body,
      Object.fromEntries(Object.entries(delivered.headers).map(([k, v]) => [k, String(v)])),
      endpoint.secret,
    );
    expect(body).toMatchObject({
      type: 'task.updated',
      data: { projectId: small, taskId: 'T-2', from: 'todo', to: 'blocked' },
    });
    expect(received.every((r) => r.headers['webhook-id'] !== undefined)).toBe(true);
    expect(received.filter((r) => r.body.includes(small))).toHaveLength(1);
  });
});
