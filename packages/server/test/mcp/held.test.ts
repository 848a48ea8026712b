import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult, Progress } from '@modelcontextprotocol/sdk/types.js';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateAdminToken } from '../../src/accounts/api-keys.ts';
import { Accounts, type CreatedKey } from '../../src/accounts/service.ts';
import { buildApp } from '../../src/app.ts';
import { ProjectEventHub, recordEvent } from '../../src/events/hub.ts';
import { createLimiters, RATE_LIMIT_RULES } from '../../src/limits/rules.ts';
import { offlineModels } from '../../src/runs/models.ts';
import type { Database } from '../../src/storage/db.ts';
import { memoryDatabase } from '../helpers/database.ts';
import { bearer, DOCS_URL } from '../helpers/harness.ts';
import { waitFor } from '../helpers/wait.ts';
import { connectMcp, structured } from './mcp-client.ts';

/**
 * generate_project with `wait: true` on projects that no worker runs: the test writes their
 * events itself, so what the wait reports, and when it ends (the project's end, the client
 * leaving, the server shutting down), is exact.
 */

const IDEA = 'A rota for a shared kitchen, with reminders the night before.';

interface HeldApp {
  database: Database;
  hub: ProjectEventHub;
  app: FastifyInstance;
  url: string;
  key: CreatedKey;
  close(): Promise<void>;
}

/** The real app on its own database and hub; projects are accepted and no worker runs them. */
async function startHeldApp(): Promise<HeldApp> {
  const database = await memoryDatabase();
  const hub = await ProjectEventHub.start(database);
  const app = await buildApp({
    config: {
      docsUrl: DOCS_URL,
      bodyLimitBytes: 65_536,
      trustProxy: false,
      webhooksAllowPrivate: false,
    },
    database,
    adminToken: generateAdminToken(),
    limiters: await createLimiters({ kind: 'memory' }, RATE_LIMIT_RULES),
    dispatcher: { enqueue: async () => {} },
    models: offlineModels(),
    events: hub,
  });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  const key = await new Accounts(database.db).createKey({ mode: 'test', credits: 1_000 });
  return {
    database,
    hub,
    app,
    url,
    key,
    async close() {
      // Connections the clients left open (keep-alive) would hold the close up to its timeout.
      app.server.closeAllConnections();
      await app.close();
      await hub.stop();
      await database.close();
    },
  };
}

let held: HeldApp;
beforeAll(async () => {
  held = await startHeldApp();
});
afterAll(async () => held?.close());

/** The id of the key's newest project once it exists (the call that creates it is in flight). */
async function newest(seen: ReadonlySet<string>, { app, key } = held): Promise<string> {
  return waitFor(
    async () => {
      const res = await app.inject({
        method: 'GET',
        url: '/api/v1/projects',
        headers: bearer(key.key),
      });
      const id = res.json().data[0]?.projectId as string | undefined;
      return id !== undefined && !seen.has(id) ? id : undefined;
    },
    { what: 'the project created by generate_project' },
  );
}

/** The JSON-RPC message answering `id` on an MCP POST's event stream; stops reading there. */
async function answerTo(res: Response, id: string): Promise<Record<string, unknown>> {
  if (res.body === null) throw new Error('no body');
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`the stream ended without an answer to ${id}: ${buffer}`);
    buffer += value;
    const events = buffer.split('\n\n');
    buffer = events.pop() ?? '';
    for (const event of events) {
      const data = event
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice('data:'.length).trim())
        .join('\n');
      const message = data === '' ? undefined : (JSON.parse(data) as Record<string, unknown>);
      if (message?.id === id) {
        await reader.cancel();
        return message;
      }
    }
  }
}

const documentStored = (projectId: string, filename: string) =>
  held.database.db.transaction((tx) =>
    recordEvent(tx, projectId, 'document.completed', {
      type: 'x',
      filename,
      stage: 'design',
      tokens_used: 1,
      generated_at: new Date().toISOString(),
    }),
  );

describe('generate_project with wait on a held project', () => {
  const seen = new Set<string>();
  let client: Client;
  beforeAll(async () => {
    client = await connectMcp(held.url, held.key.key);
  });
  afterAll(async () => client?.close());

  it('reports each stored document in order and returns when the project ends', async () => {
    const progress: Progress[] = [];
    const call = client.callTool(
      { name: 'generate_project', arguments: { idea: IDEA, type: 'mobile', wait: true } },
      undefined,
      { onprogress: (p) => progress.push(p) },
    );
    const id = await newest(seen);
    seen.add(id);
    await waitFor(async () => (progress.length >= 1 ? true : undefined), {
      what: 'the first step',
    });
    await documentStored(id, 'PROJECT_BRIEF.md');
    await documentStored(id, 'PRODUCT_REQUIREMENTS.md');
    await waitFor(async () => (progress.length >= 3 ? true : undefined), { what: 'two steps' });
    const cancelled = await held.app.inject({
      method: 'POST',
      url: `/api/v1/projects/${id}/cancel`,
      headers: bearer(held.key.key),
    });
    expect(cancelled.statusCode).toBe(200);
    const result = structured<{ status: string; error: { code: string } }>(await call);
    expect(result).toMatchObject({ status: 'failed', error: { code: 'generation_cancelled' } });
    expect(progress).toEqual([
      { progress: 0, total: 9, message: expect.stringMatching(/^Generating, about/) },
      { progress: 1, total: 9, message: 'PROJECT_BRIEF.md written (1 of 9).' },
      { progress: 2, total: 9, message: 'PRODUCT_REQUIREMENTS.md written (2 of 9).' },
    ]);
  });

  it('stops waiting when the client cancels the call (notifications/cancelled)', async () => {
    const before = held.hub.waiting;
    const cancel = new AbortController();
    const call = client.callTool(
      { name: 'generate_project', arguments: { idea: IDEA, wait: true } },
      undefined,
      { signal: cancel.signal },
    );
    seen.add(await newest(seen));
    await waitFor(async () => (held.hub.waiting > before ? true : undefined), { what: 'the wait' });
    // The SDK rejects the call and sends notifications/cancelled, a POST of its own.
    cancel.abort();
    await expect(call).rejects.toThrow();
    await waitFor(async () => (held.hub.waiting === before ? true : undefined), {
      what: 'the wait to end after the cancellation',
    });
  });

  it('answers, on the call’s own stream, that the client cancelled the wait', async () => {
    const before = held.hub.waiting;
    // A raw POST, so that its stream can be read after the cancellation (the SDK's client
    // drops an answer to a call it cancelled). Its headers come with the first event, so
    // it is not awaited before the wait is seen.
    const answered = fetch(new URL('/mcp', held.url), {
      method: 'POST',
      headers: {
        ...bearer(held.key.key),
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-11-25',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 'wait-1',
        method: 'tools/call',
        params: { name: 'generate_project', arguments: { idea: IDEA, wait: true } },
      }),
    });
    const id = await newest(seen);
    seen.add(id);
    await waitFor(async () => (held.hub.waiting > before ? true : undefined), { what: 'the wait' });
    // The official client sends the cancellation, a POST of its own, as a client that
    // gives up on a call does.
    await client.notification({
      method: 'notifications/cancelled',
      params: { requestId: 'wait-1', reason: 'The user stopped waiting.' },
    });
    const res = await answered;
    expect(res.status).toBe(200);
    const { result } = (await answerTo(res, 'wait-1')) as { result: CallToolResult };
    expect(result.structuredContent).toMatchObject({ projectId: id, status: 'in_progress' });
    expect((result.content[0] as { text: string }).text).toContain(
      'The client cancelled the wait (notifications/cancelled); the project keeps generating.',
    );
    expect(held.hub.waiting).toBe(before);
  });

  it('stops waiting when the client goes away', async () => {
    const before = held.hub.waiting;
    const leaving = await connectMcp(held.url, held.key.key);
    const call = leaving.callTool({
      name: 'generate_project',
      arguments: { idea: IDEA, wait: true },
    });
    seen.add(await newest(seen));
    await waitFor(async () => (held.hub.waiting > before ? true : undefined), { what: 'the wait' });
    await leaving.close();
    await expect(call).rejects.toThrow();
    await waitFor(async () => (held.hub.waiting === before ? true : undefined), {
      what: 'the wait to end after the client left',
    });
  });
});

describe('generate_project with wait when the server shuts down', () => {
  let own: HeldApp;
  afterAll(async () => own?.close());

  it('answers the status as it is, and says so', async () => {
    own = await startHeldApp();
    const client = await connectMcp(own.url, own.key.key);
    const call = client.callTool({
      name: 'generate_project',
      arguments: { idea: IDEA, wait: true },
    });
    const id = await newest(new Set(), own);
    await waitFor(async () => (own.hub.waiting > 0 ? true : undefined), { what: 'the wait' });
    const closing = own.app.close();
    const result = await call;
    expect(structured(result)).toMatchObject({ projectId: id, status: 'in_progress' });
    expect((result.content as { text: string }[])[0]!.text).toContain(
      'The wait was interrupted because the server is shutting down; the project keeps generating.',
    );
    // The answer came while the server closes; sockets the client keeps open (keep-alive, or
    // one it opened and never used) would hold the close up to their time-outs.
    await client.close();
    own.app.server.closeAllConnections();
    await closing;
  });
});
