import { sql } from 'drizzle-orm';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import type { CreatedKey } from '../../src/accounts/service.ts';
import { trackerConnections } from '../../src/storage/schema.ts';
import { sealContext } from '../../src/trackers/connections.ts';
import { seal } from '../../src/trackers/sealed.ts';
import { FUZZ_KEY_RING, startFuzzApp } from '../fuzz/fuzz-app.ts';
import { bearer } from '../helpers/harness.ts';
import { completedWithPlan, planDocument } from '../helpers/tasks.ts';

/**
 * Issue 11 item 5, OWASP API1 (object-level) and API5 (function-level authorization): every
 * route of the app, enumerated through its onRoute hook, has a case here. Objects of one
 * account in one mode are invisible (404, never 403) to the same account's key of the other
 * mode and to another account's key, and nothing they try changes them; admin routes refuse
 * every API key. A route without a case fails the first test.
 */

// One app for the whole file: its routes are known at collection, so each gets its own test.
const fuzz = await startFuzzApp();
afterAll(async () => fuzz.close());

const { test: owner, live: sameAccountOtherMode, other: otherAccount } = fuzz.keys;
const IDEA = 'A web dashboard where community gardeners share compost schedules and seed swaps.';

const call = (key: CreatedKey | string | undefined, options: InjectOptions & { url: string }) =>
  fuzz.app.inject({
    ...options,
    headers: {
      ...(key === undefined ? {} : bearer(typeof key === 'string' ? key : key.key)),
      ...(options.payload === undefined ? {} : { 'content-type': 'application/json' }),
      ...options.headers,
    },
  });

const json = (res: LightMyRequestResponse) => (res.body === '' ? undefined : res.json());

/** One MCP request to `/mcp` with `key`; its JSON-RPC answer (the one message of its stream). */
async function mcpCall(key: CreatedKey, method: string, params: Record<string, unknown>) {
  const res = await call(key, {
    method: 'POST',
    url: '/mcp',
    headers: { accept: 'application/json, text/event-stream' },
    payload: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  expect(res.statusCode, res.body).toBe(200);
  const data = res.body.split('\n').find((line) => line.startsWith('data: '));
  return JSON.parse(data!.slice('data: '.length)) as {
    result?: { isError?: boolean; content: { text: string }[]; structuredContent?: unknown };
    error?: { code: number; data?: { code?: string } };
  };
}

/** The catalogue code of an MCP tool call's answer (`ok` when it is not a tool error). */
async function toolOutcome(key: CreatedKey, name: string, args: Record<string, unknown>) {
  const { result } = await mcpCall(key, 'tools/call', { name, arguments: args });
  if (!result?.isError) return 'ok';
  return (JSON.parse(result.content[0]!.text) as { error: { code: string } }).error.code;
}

/** A project the owner holds in progress (no worker runs it here). */
async function heldProject(key: CreatedKey = owner): Promise<string> {
  const res = await call(key, {
    method: 'POST',
    url: '/api/v1/projects',
    payload: JSON.stringify({ idea: IDEA }),
  });
  expect(res.statusCode, res.body).toBe(202);
  return res.json().data.projectId;
}

/**
 * The owner's object at `url`: the other mode's key and another account's key get 404 in the
 * envelope (a HEAD, its bare status); the owner gets `ownerStatus`, so the object is real.
 */
async function objectCase(method: string, url: string, ownerStatus: number) {
  for (const stranger of [sameAccountOtherMode, otherAccount]) {
    const res = await call(stranger, { method: method as 'GET', url });
    expect(
      res.statusCode,
      `${stranger.mode} key of another ${stranger === otherAccount ? 'account' : 'mode'}: ${res.body}`,
    ).toBe(404);
    if (method !== 'HEAD') expect(json(res).error.code).toBe('RESOURCE_NOT_FOUND');
  }
  const res = await call(owner, { method: method as 'GET', url });
  expect(res.statusCode, res.body).toBe(ownerStatus);
}

/** An admin route: no credential, and every API key, are 401; the admin token is not. */
async function adminCase(method: string, url: string, payload?: unknown) {
  const body = payload === undefined ? {} : { payload: JSON.stringify(payload) };
  for (const key of [undefined, owner, sameAccountOtherMode, otherAccount]) {
    const res = await call(key, { method: method as 'GET', url, ...body });
    expect(res.statusCode, `${key?.mode ?? 'no'} key on ${url}`).toBe(401);
  }
  const res = await call(fuzz.adminToken, { method: method as 'GET', url, ...body });
  expect(res.statusCode, res.body).toBeLessThan(300);
}

const t = fuzz.targets;
const [completed, , liveCompleted] = t.ownProjects as [string, string, string];
const [endpoint] = t.ownEndpoints as [string];
const [filename] = t.filenames as [string];

/** The owner's project with a plan of three tasks, made for the first task case that needs it. */
let planned: Promise<string> | undefined;
const plannedProject = () => {
  planned ??= completedWithPlan(fuzz.database, owner, [planDocument(3)]);
  return planned;
};
const taskUrl = async (path = '') => `/api/v1/projects/${await plannedProject()}/tasks${path}`;

/** A write to a task: strangers get 404 and change nothing; the owner's is answered `ownerStatus`. */
async function taskWriteCase(
  method: 'PATCH' | 'POST',
  path: string,
  body: unknown,
  ownerStatus: number,
) {
  const url = await taskUrl(path);
  const read = async () =>
    (await call(owner, { method: 'GET', url: await taskUrl('/T-1') })).headers.etag;
  const before = await read();
  for (const stranger of [sameAccountOtherMode, otherAccount]) {
    const res = await call(stranger, {
      method,
      url,
      payload: JSON.stringify(body),
      headers: { 'if-match': String(before) },
    });
    expect(res.statusCode, res.body).toBe(404);
    expect(json(res).error.code).toBe('RESOURCE_NOT_FOUND');
  }
  expect(await read()).toBe(before);
  const res = await call(owner, {
    method,
    url,
    payload: JSON.stringify(body),
    headers: { 'if-match': String(before) },
  });
  expect(res.statusCode, res.body).toBe(ownerStatus);
}

/** Per route (method and pattern): the cross-account and cross-mode case. */
const CASES: Record<string, (method: string) => Promise<void>> = {
  'GET /api/v1/projects/:projectId': (m) => objectCase(m, `/api/v1/projects/${completed}`, 200),
  'GET /api/v1/projects/:projectId/provenance': (m) =>
    objectCase(m, `/api/v1/projects/${completed}/provenance`, 200),
  'GET /api/v1/projects/:projectId/events': (m) =>
    objectCase(m, `/api/v1/projects/${completed}/events`, 200),
  'GET /api/v1/projects/:projectId/documents/:filename': (m) =>
    objectCase(m, `/api/v1/projects/${completed}/documents/${filename}`, 200),
  'GET /api/v1/projects/:projectId/archive': (m) =>
    objectCase(m, `/api/v1/projects/${completed}/archive`, 200),
  'GET /api/v1/projects/:projectId/trace': (m) =>
    objectCase(m, `/api/v1/projects/${completed}/trace`, 200),
  'GET /api/v1/projects/:projectId/revisions': (m) =>
    objectCase(m, `/api/v1/projects/${completed}/revisions`, 200),
  'GET /api/v1/projects/:projectId/revisions/:revision': (m) =>
    objectCase(m, `/api/v1/projects/${completed}/revisions/1`, 200),
  'GET /api/v1/projects/:projectId/revisions/:revision/diff': (m) =>
    objectCase(m, `/api/v1/projects/${completed}/revisions/1/diff`, 200),
  'GET /api/v1/projects/:projectId/tasks': async (m) => objectCase(m, await taskUrl(), 200),
  'GET /api/v1/projects/:projectId/tasks/:taskId': async (m) =>
    objectCase(m, await taskUrl('/T-1'), 200),
  'GET /api/v1/projects/:projectId/tasks/:taskId/context': async (m) =>
    objectCase(m, await taskUrl('/T-1/context'), 200),
  'PATCH /api/v1/projects/:projectId/tasks/:taskId': () =>
    taskWriteCase('PATCH', '/T-1', { note: 'Seen by the owner only.' }, 200),
  'POST /api/v1/projects/:projectId/tasks/next': () =>
    taskWriteCase('POST', '/next', { agent: 'owner-agent' }, 200),
  'POST /api/v1/projects/:projectId/tasks/:taskId/lease': async () => {
    // The owner's agent holds a task (its claim answers it again if another case claimed).
    const claimed = await call(owner, {
      method: 'POST',
      url: await taskUrl('/next'),
      payload: JSON.stringify({ agent: 'lease-agent' }),
    });
    const task = json(claimed).data.task.id as string;
    await taskWriteCase('POST', `/${task}/lease`, { agent: 'lease-agent' }, 200);
  },
  'GET /api/v1/projects/:projectId/questions': (m) =>
    objectCase(m, `/api/v1/projects/${completed}/questions`, 200),
  'POST /api/v1/projects/:projectId/answers': async () => {
    // A completed project of its own, whose brief holds an open entry no other case revises.
    const project = await completedWithPlan(fuzz.database, owner);
    const url = `/api/v1/projects/${project}/answers`;
    const listed = await call(owner, {
      method: 'GET',
      url: `/api/v1/projects/${project}/questions`,
    });
    const [open] = json(listed).data.questions as { id: string }[];
    expect(open?.id, listed.body).toMatch(/^[AQ]-\d+$/);
    const payload = JSON.stringify({ answers: { [open!.id]: 'Yes' } });
    for (const stranger of [sameAccountOtherMode, otherAccount]) {
      const res = await call(stranger, { method: 'POST', url, payload });
      expect(res.statusCode, res.body).toBe(404);
      expect(json(res).error.code).toBe('RESOURCE_NOT_FOUND');
    }
    const res = await call(owner, { method: 'POST', url, payload });
    expect(res.statusCode, res.body).toBe(202);
  },
  'POST /api/v1/projects/:projectId/revisions': async () => {
    const url = `/api/v1/projects/${completed}/revisions`;
    const payload = JSON.stringify({ changeRequest: 'Drop the seed swaps' });
    for (const stranger of [sameAccountOtherMode, otherAccount]) {
      const res = await call(stranger, { method: 'POST', url, payload });
      expect(res.statusCode, res.body).toBe(404);
      expect(json(res).error.code).toBe('RESOURCE_NOT_FOUND');
    }
    // The owner starts one (or finds the one another case started): the project is real.
    const res = await call(owner, { method: 'POST', url, payload });
    expect([202, 409], res.body).toContain(res.statusCode);
  },
  'POST /api/v1/projects/:projectId/revisions/:revision/cancel': async () => {
    const started = await call(owner, {
      method: 'POST',
      url: `/api/v1/projects/${completed}/revisions`,
      payload: JSON.stringify({ changeRequest: 'Drop the seed swaps' }),
    });
    const revision =
      started.statusCode === 202
        ? json(started).data.revision
        : json(started).error.details.revision;
    const url = `/api/v1/projects/${completed}/revisions/${revision}/cancel`;
    await objectCase('POST', url, 200);
    // Strangers changed nothing: it was running until the owner's cancel.
    expect(
      json(await call(owner, { method: 'GET', url: url.replace('/cancel', '') })).data.error.code,
    ).toBe('generation_cancelled');
  },
  'POST /api/v1/projects/:projectId/cancel': async () => {
    const id = await heldProject();
    await objectCase('POST', `/api/v1/projects/${id}/cancel`, 200);
  },
  'DELETE /api/v1/projects/:projectId': async () => {
    const id = await heldProject();
    for (const stranger of [sameAccountOtherMode, otherAccount]) {
      expect(
        (await call(stranger, { method: 'DELETE', url: `/api/v1/projects/${id}` })).statusCode,
      ).toBe(404);
    }
    // Still there, still running, after both tries.
    const still = await call(owner, { method: 'GET', url: `/api/v1/projects/${id}` });
    expect(still.json().data.status).toBe('in_progress');
    expect(
      (await call(owner, { method: 'DELETE', url: `/api/v1/projects/${id}` })).statusCode,
    ).toBe(204);
  },
  'GET /api/v1/projects': async (m) => {
    const ids = async (key: CreatedKey) => {
      const res = await call(key, { method: 'GET', url: '/api/v1/projects?limit=100' });
      expect(res.statusCode).toBe(200);
      return (res.json().data as { projectId: string }[]).map((p) => p.projectId);
    };
    if (m === 'HEAD') {
      expect((await call(owner, { method: 'HEAD', url: '/api/v1/projects' })).statusCode).toBe(200);
      return;
    }
    expect(await ids(owner)).toContain(completed);
    expect(await ids(owner)).not.toContain(liveCompleted);
    expect(await ids(sameAccountOtherMode)).toContain(liveCompleted);
    expect(await ids(sameAccountOtherMode)).not.toContain(completed);
    const others = await ids(otherAccount);
    expect(others).toEqual(expect.arrayContaining(t.otherProjects));
    for (const id of t.ownProjects) expect(others).not.toContain(id);
  },
  'POST /api/v1/projects': async () => {
    // Created by one key: the other mode and the other account cannot see it.
    const id = await heldProject(otherAccount);
    for (const key of [owner, sameAccountOtherMode]) {
      expect((await call(key, { method: 'GET', url: `/api/v1/projects/${id}` })).statusCode).toBe(
        404,
      );
    }
    const mine = await heldProject(owner);
    expect(
      (await call(sameAccountOtherMode, { method: 'GET', url: `/api/v1/projects/${mine}` }))
        .statusCode,
    ).toBe(404);
  },
  'PUT /api/v1/conventions': async () => {
    // Per account and mode: what one key sets, no other account's or mode's key reads or moves.
    const put = (key: CreatedKey, body: unknown) =>
      call(key, { method: 'PUT', url: '/api/v1/conventions', payload: JSON.stringify(body) });
    const mine = await put(owner, { compliance: ['GDPR'] });
    expect(mine.statusCode, mine.body).toBe(200);
    const theirs = await put(otherAccount, { compliance: ['HIPAA'] });
    expect(theirs.statusCode).toBe(200);
    const read = async (key: CreatedKey) =>
      json(await call(key, { method: 'GET', url: '/api/v1/conventions' }));
    expect((await read(owner)).data).toMatchObject({ compliance: ['GDPR'] });
    expect((await read(otherAccount)).data).toMatchObject({ compliance: ['HIPAA'] });
    expect((await read(sameAccountOtherMode))?.data?.compliance ?? []).not.toContain('GDPR');
  },
  'GET /api/v1/conventions': async () => {
    await call(owner, {
      method: 'PUT',
      url: '/api/v1/conventions',
      payload: JSON.stringify({ naming: ['Tables are plural snake_case'] }),
    });
    const own = await call(owner, { method: 'GET', url: '/api/v1/conventions' });
    expect(own.statusCode).toBe(200);
    for (const stranger of [sameAccountOtherMode, otherAccount]) {
      const res = await call(stranger, { method: 'GET', url: '/api/v1/conventions' });
      expect(json(res)?.data?.naming ?? []).not.toContain('Tables are plural snake_case');
    }
  },
  'GET /api/v1/conventions/versions/:version': async () => {
    const written = await call(owner, {
      method: 'PUT',
      url: '/api/v1/conventions',
      payload: JSON.stringify({ naming: ['Routes are kebab-case'] }),
    });
    const { version } = written.json().data as { version: number };
    // A version number is the account's and mode's own: another's is another object, or 404.
    for (const stranger of [sameAccountOtherMode, otherAccount]) {
      const res = await call(stranger, {
        method: 'GET',
        url: `/api/v1/conventions/versions/${version}`,
      });
      expect(json(res)?.data?.naming ?? []).not.toContain('Routes are kebab-case');
    }
  },
  'POST /api/v1/ideas/clarify': async () => {
    // Nothing to isolate: no resource is read or stored. Every key is answered the same
    // questions for the same idea, and nothing of any account changes.
    const before = await fuzz.snapshot();
    const answers = await Promise.all(
      [owner, sameAccountOtherMode, otherAccount].map(async (key) => {
        const res = await call(key, {
          method: 'POST',
          url: '/api/v1/ideas/clarify',
          payload: { idea: IDEA },
        });
        expect(res.statusCode).toBe(200);
        return res.json().data;
      }),
    );
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
    expect(await fuzz.snapshot()).toEqual(before);
  },
  'GET /api/v1/credits': async (m) => {
    const summaries = await Promise.all(
      [owner, sameAccountOtherMode, otherAccount].map(async (key) => {
        const res = await call(key, { method: m as 'GET', url: '/api/v1/credits' });
        expect(res.statusCode).toBe(200);
        return m === 'HEAD' ? undefined : res.json().data;
      }),
    );
    if (m === 'HEAD') return;
    // Each key its own account's balance in its own mode, as the ledger has it.
    const expected = await fuzz.database.db.execute(
      sql`select account_id, mode, balance::int as balance from credit_balances`,
    );
    const rows = (
      expected as unknown as { rows: { account_id: string; mode: string; balance: number }[] }
    ).rows;
    for (const [i, key] of [owner, sameAccountOtherMode, otherAccount].entries()) {
      const row = rows.find((r) => r.account_id === key.accountId && r.mode === key.mode);
      expect(summaries[i]).toMatchObject({ mode: key.mode, balance: row?.balance });
    }
  },
  'POST /api/v1/webhook-endpoints': async () => {
    const res = await call(otherAccount, {
      method: 'POST',
      url: '/api/v1/webhook-endpoints',
      payload: JSON.stringify({ url: 'https://93.184.215.30/pgs' }),
    });
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().data.id;
    for (const key of [owner, sameAccountOtherMode]) {
      const listed = await call(key, { method: 'GET', url: '/api/v1/webhook-endpoints' });
      expect(listed.json().data.map((e: { id: string }) => e.id)).not.toContain(id);
      expect(
        (await call(key, { method: 'DELETE', url: `/api/v1/webhook-endpoints/${id}` })).statusCode,
      ).toBe(404);
    }
  },
  'GET /api/v1/webhook-endpoints': async (m) => {
    if (m === 'HEAD') {
      expect(
        (await call(owner, { method: 'HEAD', url: '/api/v1/webhook-endpoints' })).statusCode,
      ).toBe(200);
      return;
    }
    const list = async (key: CreatedKey) =>
      (await call(key, { method: 'GET', url: '/api/v1/webhook-endpoints' }))
        .json()
        .data.map((e: { id: string }) => e.id);
    expect(await list(owner)).toContain(endpoint);
    expect(await list(sameAccountOtherMode)).not.toContain(endpoint);
    expect(await list(otherAccount)).not.toContain(endpoint);
  },
  'DELETE /api/v1/webhook-endpoints/:endpointId': async () => {
    const created = await call(owner, {
      method: 'POST',
      url: '/api/v1/webhook-endpoints',
      payload: JSON.stringify({ url: 'https://93.184.215.31/pgs' }),
    });
    const id = created.json().data.id;
    await objectCase('DELETE', `/api/v1/webhook-endpoints/${id}`, 204);
  },
  'GET /api/v1/webhook-endpoints/:endpointId/deliveries': (m) =>
    objectCase(m, `/api/v1/webhook-endpoints/${endpoint}/deliveries`, 200),
  'POST /admin/v1/accounts': () => adminCase('POST', '/admin/v1/accounts', { name: 'Acme' }),
  'GET /admin/v1/accounts/:accountId': (m) => adminCase(m, `/admin/v1/accounts/${owner.accountId}`),
  'POST /admin/v1/keys': () => adminCase('POST', '/admin/v1/keys', { mode: 'test' }),
  'DELETE /admin/v1/keys/:keyId': () => adminCase('DELETE', `/admin/v1/keys/${t.spareKeyIds[0]}`),
  'POST /admin/v1/credits/grants': () =>
    adminCase('POST', '/admin/v1/credits/grants', {
      accountId: owner.accountId,
      mode: 'test',
      amount: 1,
    }),
  'GET /admin/v1/audit': (m) => adminCase(m, '/admin/v1/audit'),
  'GET /metrics': (m) => adminCase(m, '/metrics'),
  'POST /mcp': async () => {
    // Every tool and resource that names a project: the owner's answer, everyone else's 404.
    const reads: [string, Record<string, unknown>][] = [
      ['get_project', { projectId: completed }],
      ['read_document', { projectId: completed, filename }],
      ['get_trace', { projectId: completed }],
    ];
    const uri = `pgs://projects/${completed}/documents/${filename}`;
    for (const stranger of [sameAccountOtherMode, otherAccount]) {
      for (const [name, args] of reads) {
        expect(await toolOutcome(stranger, name, args), `${name} by a ${stranger.mode} key`).toBe(
          'RESOURCE_NOT_FOUND',
        );
      }
      const read = await mcpCall(stranger, 'resources/read', { uri });
      expect(read.error).toMatchObject({ code: -32002, data: { code: 'RESOURCE_NOT_FOUND' } });
      const listed = await mcpCall(stranger, 'tools/call', {
        name: 'list_projects',
        arguments: { limit: 100 },
      });
      expect(JSON.stringify(listed.result?.structuredContent)).not.toContain(completed);
      const resources = await mcpCall(stranger, 'resources/list', {});
      expect(JSON.stringify(resources.result)).not.toContain(completed);
    }
    for (const [name, args] of reads) expect(await toolOutcome(owner, name, args)).toBe('ok');
    // The task tools on the owner's plan: strangers find no project and change nothing.
    const projectId = await plannedProject();
    const taskTools: [string, Record<string, unknown>][] = [
      ['list_tasks', { projectId }],
      ['next_task', { projectId, agent: 'intruder' }],
      ['update_task', { projectId, taskId: 'T-1', status: 'obsolete' }],
    ];
    for (const stranger of [sameAccountOtherMode, otherAccount]) {
      for (const [name, args] of taskTools) {
        expect(await toolOutcome(stranger, name, args), `${name} by a ${stranger.mode} key`).toBe(
          'RESOURCE_NOT_FOUND',
        );
      }
    }
    expect(await toolOutcome(owner, 'list_tasks', { projectId })).toBe('ok');
    const tasks = (await call(owner, { method: 'GET', url: await taskUrl() })).json().data;
    expect(JSON.stringify(tasks)).not.toContain('intruder');
    expect(tasks.map((task: { status: string }) => task.status)).not.toContain('obsolete');
    expect((await mcpCall(owner, 'resources/read', { uri })).error).toBeUndefined();
    // A project generated through MCP by one key: the other mode and account cannot see it.
    const created = await mcpCall(otherAccount, 'tools/call', {
      name: 'generate_project',
      arguments: { idea: IDEA },
    });
    const id = (created.result!.structuredContent as { projectId: string }).projectId;
    for (const key of [owner, sameAccountOtherMode]) {
      expect(await toolOutcome(key, 'get_project', { projectId: id })).toBe('RESOURCE_NOT_FOUND');
    }
    // Credits: each key its own balance, in its own mode.
    for (const key of [owner, sameAccountOtherMode, otherAccount]) {
      const rest = (await call(key, { method: 'GET', url: '/api/v1/credits' })).json().data;
      const { result } = await mcpCall(key, 'tools/call', { name: 'get_credits', arguments: {} });
      expect(result?.structuredContent).toEqual(rest);
    }
  },
};

/** A Linear connection of `key`'s account and mode, stored as a creation stores one. */
async function seededConnection(key: CreatedKey = owner): Promise<string> {
  const id = `tc_01JD6WQ8V4Z9K3M2N5P7R8S${String(++connections).padStart(3, '0')}`;
  await fuzz.database.db.insert(trackerConnections).values({
    id,
    accountId: key.accountId,
    mode: key.mode,
    provider: 'linear',
    name: 'ENG',
    target: { team: 'ENG' },
    credentials: seal(FUZZ_KEY_RING, '{"token":"lin_api_x"}', sealContext.credentials(id)),
    webhookSecret: seal(FUZZ_KEY_RING, 'secret', sealContext.webhookSecret(id)),
  });
  return id;
}
let connections = 0;

Object.assign(CASES, {
  'POST /api/v1/connections': async () => {
    // A connection is made only once its tracker accepts it: none is reachable here, and a
    // creation writes nothing before that. What one key made, no other key lists.
    const mine = await seededConnection();
    for (const key of [sameAccountOtherMode, otherAccount]) {
      const listed = await call(key, { method: 'GET', url: '/api/v1/connections' });
      expect(JSON.stringify(listed.json().data)).not.toContain(mine);
    }
  },
  'GET /api/v1/connections': async (m: string) => {
    const mine = await seededConnection();
    const own = await call(owner, { method: m as 'GET', url: '/api/v1/connections' });
    expect(own.statusCode).toBe(200);
    if (m !== 'HEAD') expect(JSON.stringify(own.json().data)).toContain(mine);
    for (const key of [sameAccountOtherMode, otherAccount]) {
      const listed = await call(key, { method: 'GET', url: '/api/v1/connections' });
      expect(JSON.stringify(listed.json().data)).not.toContain(mine);
    }
  },
  'GET /api/v1/connections/:connectionId': async (m: string) =>
    objectCase(m, `/api/v1/connections/${await seededConnection()}`, 200),
  'DELETE /api/v1/connections/:connectionId': async () =>
    objectCase('DELETE', `/api/v1/connections/${await seededConnection()}`, 204),
  'POST /api/v1/connections/:connectionId/webhook': async () => {
    // No API key opens it, none is needed: only the tracker's signature does.
    const id = await seededConnection();
    for (const key of [undefined, owner, sameAccountOtherMode, otherAccount]) {
      const res = await call(key, {
        method: 'POST',
        url: `/api/v1/connections/${id}/webhook`,
        payload: JSON.stringify({ type: 'Issue', action: 'update' }),
      });
      expect(res.statusCode, res.body).toBe(401);
      expect(json(res).error.code).toBe('WEBHOOK_SIGNATURE_INVALID');
    }
  },
});

/** The conformance routes (issue 31) on the owner's planned project: a check made once. */
const conformanceUrl = async () => `/api/v1/projects/${await plannedProject()}/conformance`;
const CHECK_BODY = JSON.stringify({
  context: { repository: { name: 'probe', files: [{ path: 'src/a.ts', content: 'x' }] } },
});
let ownCheck: Promise<string> | undefined;
const checkUrl = async () => {
  ownCheck ??= (async () => {
    const res = await call(owner, {
      method: 'POST',
      url: await conformanceUrl(),
      payload: CHECK_BODY,
    });
    expect(res.statusCode, res.body).toBe(202);
    return json(res).data.id as string;
  })();
  return `${await conformanceUrl()}/${await ownCheck}`;
};

Object.assign(CASES, {
  'POST /api/v1/projects/:projectId/conformance': async () => {
    const url = await conformanceUrl();
    for (const stranger of [sameAccountOtherMode, otherAccount]) {
      const res = await call(stranger, { method: 'POST', url, payload: CHECK_BODY });
      expect(res.statusCode, res.body).toBe(404);
      expect(json(res).error.code).toBe('RESOURCE_NOT_FOUND');
    }
    const res = await call(owner, { method: 'POST', url, payload: CHECK_BODY });
    expect(res.statusCode, res.body).toBe(202);
  },
  'GET /api/v1/projects/:projectId/conformance': async (m: string) =>
    objectCase(m, await conformanceUrl(), 200),
  'GET /api/v1/projects/:projectId/conformance/:checkId': async (m: string) =>
    objectCase(m, await checkUrl(), 200),
});

/** The sync routes (issue 31) on the owner's planned project, with the owner's connection. */
const syncsUrl = async () => `/api/v1/projects/${await plannedProject()}/syncs`;
let ownSync: Promise<string> | undefined;
const syncUrl = async () => {
  ownSync ??= (async () => {
    const res = await call(owner, {
      method: 'POST',
      url: await syncsUrl(),
      payload: JSON.stringify({ connectionId: await seededConnection(), scope: 'tasks' }),
    });
    expect(res.statusCode, res.body).toBe(202);
    return json(res).data.id as string;
  })();
  return `${await syncsUrl()}/${await ownSync}`;
};

Object.assign(CASES, {
  'POST /api/v1/projects/:projectId/syncs': async () => {
    const url = await syncsUrl();
    // A stranger's own connection on the owner's project, and the owner's connection on the
    // owner's project by a stranger: both 404, nothing queued.
    for (const stranger of [sameAccountOtherMode, otherAccount]) {
      for (const connectionId of [await seededConnection(stranger), await seededConnection()]) {
        const res = await call(stranger, {
          method: 'POST',
          url,
          payload: JSON.stringify({ connectionId, scope: 'tasks' }),
        });
        expect(res.statusCode, res.body).toBe(404);
        expect(json(res).error.code).toBe('RESOURCE_NOT_FOUND');
      }
    }
    // The owner with another account's connection: 404 too.
    const foreign = await call(owner, {
      method: 'POST',
      url,
      payload: JSON.stringify({
        connectionId: await seededConnection(otherAccount),
        scope: 'tasks',
      }),
    });
    expect(foreign.statusCode, foreign.body).toBe(404);
    const res = await call(owner, {
      method: 'POST',
      url,
      payload: JSON.stringify({
        connectionId: await seededConnection(),
        scope: 'all',
        dryRun: true,
      }),
    });
    expect(res.statusCode, res.body).toBe(202);
  },
  'GET /api/v1/projects/:projectId/syncs': async (m: string) => {
    await syncUrl();
    await objectCase(m, await syncsUrl(), 200);
  },
  'GET /api/v1/projects/:projectId/syncs/:syncId': async (m: string) =>
    objectCase(m, await syncUrl(), 200),
});

/** Routes with no object and no privilege, and why nothing can be crossed there. */
const NO_OBJECT: Record<string, string> = {
  'GET /health': 'liveness only: no data of anyone',
  'GET /openapi.json': 'the public contract',
  'GET /docs/errors': 'the public error reference',
};

/** A HEAD route runs its GET's case with HEAD. */
const caseName = (method: string, url: string) => `${method === 'HEAD' ? 'GET' : method} ${url}`;

describe('object- and function-level authorization on every route', () => {
  it('has a cross-account case for every route the app serves', () => {
    const missing = fuzz.routes
      .map((r) => caseName(r.method, r.url))
      .filter((name) => CASES[name] === undefined && NO_OBJECT[name] === undefined);
    expect(missing).toEqual([]);
  });

  for (const route of fuzz.routes) {
    const name = caseName(route.method, route.url);
    const run = CASES[name];
    if (run === undefined) continue;
    it(`${route.method} ${route.url}`, async () => run(route.method));
  }

  it('the routes with no object answer the same to anyone', async () => {
    for (const name of Object.keys(NO_OBJECT)) {
      const url = name.split(' ')[1]!;
      const statuses = await Promise.all(
        [undefined, owner, otherAccount].map(
          async (key) => (await call(key, { method: 'GET', url })).statusCode,
        ),
      );
      expect(new Set(statuses).size, url).toBe(1);
    }
  });
});
