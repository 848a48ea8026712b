import { beforeAll, describe, expect, it } from 'vitest';
import type { CreatedKey } from '../src/accounts/service.ts';
import { countTokens } from '../src/models/tokens.ts';
import { header } from './helpers/creation.ts';
import { bearer, harnessFor } from './helpers/harness.ts';
import { completedWithPlan, offlineDocuments, planDocument } from './helpers/tasks.ts';

/**
 * Issue 30, items 2 and 3: claiming the next ready task under a lease, renewing it, its
 * expiry by the app's clock (held still here and moved by hand: no test waits), and the
 * context pack each task comes with.
 */

let clock = Date.parse('2026-11-28T09:00:00Z');

describe('claiming work', () => {
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
  const claim = (project: string, agent: string, leaseSeconds?: number) =>
    call('POST', `${project}/tasks/next`, { agent, ...(leaseSeconds ? { leaseSeconds } : {}) });
  const finish = async (project: string, task: string, note?: string) => {
    const etag = header(await call('GET', `${project}/tasks/${task}`), 'etag');
    const res = await call(
      'PATCH',
      `${project}/tasks/${task}`,
      { status: 'done', ...(note ? { note } : {}) },
      { 'if-match': etag },
    );
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data;
  };

  it('hands out the next task whose dependencies are done, one agent at a time', async () => {
    const project = await completedWithPlan(harness().database, key);
    const first = await claim(project, 'claude-1');
    expect(first.statusCode, first.body).toBe(200);
    const { task, context } = first.json().data;
    expect(task).toMatchObject({
      id: 'T-1',
      status: 'in_progress',
      assignee: 'claude-1',
      lease: { agent: 'claude-1', expiresAt: new Date(clock + 900_000).toISOString() },
    });
    expect(context.task.id).toBe('T-1');
    expect(header(first, 'etag')).toBe(header(await call('GET', `${project}/tasks/T-1`), 'etag'));
    // T-2 waits on T-1: nothing is ready for another agent.
    const none = await claim(project, 'codex-1');
    expect(none.statusCode).toBe(204);
    expect(none.body).toBe('');
    // The same agent asking again (an answer lost on the way) gets its task, not a second one.
    const again = await claim(project, 'claude-1');
    expect(again.json().data.task.id).toBe('T-1');
    const history = (await call('GET', `${project}/tasks/T-1`)).json().data.history;
    expect(history.filter((entry: { to: string }) => entry.to === 'in_progress')).toHaveLength(1);
    expect(history.at(-1)).toMatchObject({ keyId: key.keyId, agent: 'claude-1', from: 'todo' });

    await finish(project, 'T-1');
    expect((await claim(project, 'codex-1')).json().data.task.id).toBe('T-2');
  });

  it('renews a lease for its holder only, and an expired lease returns the task to todo', async () => {
    const project = await completedWithPlan(harness().database, key, [planDocument(2)]);
    expect((await claim(project, 'a', 60)).json().data.task.id).toBe('T-1');
    expect((await claim(project, 'b', 60)).json().data.task.id).toBe('T-2');
    const other = await call('POST', `${project}/tasks/T-1/lease`, { agent: 'b' });
    expect(other.statusCode).toBe(409);
    expect(other.json().error).toMatchObject({
      code: 'LEASE_NOT_HELD',
      details: { resource_id: 'T-1', status: 'in_progress', lease_agent: 'a' },
    });

    clock += 50_000;
    const renewed = await call('POST', `${project}/tasks/T-1/lease`, {
      agent: 'a',
      leaseSeconds: 120,
    });
    expect(renewed.statusCode, renewed.body).toBe(200);
    expect(renewed.json().data.lease.expiresAt).toBe(new Date(clock + 120_000).toISOString());

    // b's lease ends at 60 s; a's, renewed, at 170 s.
    clock += 15_000;
    const expired = (await call('GET', `${project}/tasks/T-2`)).json().data;
    expect(expired).toMatchObject({ status: 'todo', assignee: null, lease: null });
    expect(expired.history.at(-1)).toMatchObject({
      keyId: null,
      agent: 'b',
      from: 'in_progress',
      to: 'todo',
    });
    expect(expired.history.at(-1).note).toContain('expired');
    expect((await call('GET', `${project}/tasks/T-1`)).json().data.status).toBe('in_progress');
    const late = await call('POST', `${project}/tasks/T-2/lease`, { agent: 'b' });
    expect(late.statusCode).toBe(409);
    expect(late.json().error.details.status).toBe('todo');
    // Back in the pool: the next claim takes it.
    expect((await claim(project, 'c')).json().data.task.id).toBe('T-2');
  });

  it('ends the lease when the task leaves in_progress', async () => {
    const project = await completedWithPlan(harness().database, key, [planDocument(1)]);
    await claim(project, 'a');
    const done = await finish(project, 'T-1', 'Shipped behind a flag.');
    expect(done).toMatchObject({ status: 'done', lease: null, assignee: 'a' });
    clock += 3_600_000;
    expect((await call('GET', `${project}/tasks/T-1`)).json().data.status).toBe('done');
    expect((await claim(project, 'a')).statusCode).toBe(204);
  });

  it('refuses a claim without an agent, or with a lease out of bounds', async () => {
    const project = await completedWithPlan(harness().database, key, [planDocument(1)]);
    for (const body of [{}, { agent: '' }, { agent: 'a\nb' }, { agent: 'a', leaseSeconds: 5 }]) {
      const res = await call('POST', `${project}/tasks/next`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
  });

  it("packs a task's context: criteria, stories, design, constraints and its dependencies' notes", async () => {
    const project = await completedWithPlan(harness().database, key);
    for (const task of ['T-1', 'T-2']) await finish(project, task);
    await finish(project, 'T-3', 'Tests for FR-1 live in test/communities.test.ts.');
    const res = await call('GET', `${project}/tasks/T-4/context`);
    expect(res.statusCode, res.body).toBe(200);
    expect(header(res, 'cache-control')).toBe('no-store');
    const pack = res.json().data;
    const requirements = offlineDocuments().find((doc) => doc.kind === 'product-requirements')!;
    expect(pack.criteria.map((c: { id: string }) => c.id)).toEqual(['FR-1.1', 'FR-1.2']);
    for (const criterion of pack.criteria) {
      // The criterion's whole text, as the requirements state it.
      expect(requirements.content).toContain(criterion.markdown);
      expect(criterion.markdown.startsWith(`**${criterion.id}**`)).toBe(true);
    }
    expect(pack.stories.map((s: { id: string }) => s.id)).toEqual(['US-1']);
    expect(pack.design.length).toBeGreaterThan(0);
    for (const piece of pack.design) {
      expect(piece.markdown).toMatch(/FR-1\b|FR-1\.\d/);
      expect(['ARCHITECTURE.md', 'DATA_MODEL.md', 'API_DESIGN.md']).toContain(piece.document);
    }
    expect(pack.constraints.map((c: { id: string }) => c.id)).toEqual([
      'NFR-1',
      'NFR-2',
      'NFR-3',
      'NFR-4',
      'NFR-5',
    ]);
    expect(pack.dependencies).toEqual([
      {
        id: 'T-3',
        title: expect.stringContaining('Write the tests'),
        status: 'done',
        notes: ['Tests for FR-1 live in test/communities.test.ts.'],
      },
    ]);
    // Nothing of the other requirements: not their criteria, not their stories.
    const others = offlineDocuments()
      .find((doc) => doc.kind === 'product-requirements')!
      .content.split('\n')
      .filter((line) => line.startsWith('**FR-2.') || line.startsWith('**FR-3.'));
    expect(others.length).toBeGreaterThan(0);
    for (const line of others) expect(JSON.stringify(pack)).not.toContain(line.slice(0, 40));

    const markdown = await call('GET', `${project}/tasks/T-4/context`, undefined, {
      accept: 'text/markdown',
    });
    expect(header(markdown, 'content-type')).toBe('text/markdown; charset=utf-8');
    expect(markdown.body.split('\n')[0]).toBe('# T-4 Build "Keep communities" until T\\-3 passes');
    for (const part of ['## Acceptance criteria', '## Stories', '## Design', '## Dependencies']) {
      expect(markdown.body).toContain(part);
    }
    expect(markdown.body).toContain('Tests for FR\\-1 live in test/communities.test.ts.');
    // A fraction of the documents it is cut from.
    const whole = countTokens(
      offlineDocuments()
        .map((doc) => doc.content)
        .join('\n\n'),
    );
    expect(countTokens(markdown.body)).toBeLessThan(whole / 3);
  });
});
