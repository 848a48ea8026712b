import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  APIConnectionError,
  AuthenticationError,
  ConflictError,
  NotFoundError,
  Pgs,
  type ProjectEvent,
  type SleepFn,
  SseParser,
} from '../src/index.ts';
import { envelope, type Handler, json, startServer, type TestServer } from './http-server.ts';

const KEY = 'pgs_test_abcdefghijklmnopqrstuvwxyz0123456789';
const ID = '7d0f2c8e-4a9b-4e43-9a55-0d2b8f1c6e21';

describe('SseParser', () => {
  const feed = (chunks: string[]) => {
    const parser = new SseParser();
    return { messages: chunks.flatMap((c) => parser.push(c)), parser };
  };

  it('reassembles lines split anywhere across chunks', () => {
    const wire =
      'id: 1\nevent: status\ndata: {"a":1}\n\nid: 2\nevent: stage.started\ndata: {"stage":"x"}\n\n';
    const whole = feed([wire]).messages;
    expect(whole).toEqual([
      { event: 'status', data: '{"a":1}', id: '1' },
      { event: 'stage.started', data: '{"stage":"x"}', id: '2' },
    ]);
    for (let i = 1; i < wire.length; i++) {
      expect(feed([wire.slice(0, i), wire.slice(i)]).messages).toEqual(whole);
    }
    expect(feed([...wire]).messages).toEqual(whole);
  });

  it('accepts CRLF and lone CR line ends, also split between chunks', () => {
    const crlf = 'id: 7\r\nevent: x\r\ndata: y\r\n\r\n';
    expect(feed([crlf]).messages).toEqual([{ event: 'x', data: 'y', id: '7' }]);
    for (let i = 1; i < crlf.length; i++) {
      expect(feed([crlf.slice(0, i), crlf.slice(i)]).messages).toEqual([
        { event: 'x', data: 'y', id: '7' },
      ]);
    }
    expect(feed(['data: a\rdata: b\r\r']).messages).toEqual([
      { event: 'message', data: 'a\nb', id: undefined },
    ]);
  });

  it('skips comments, joins multi-line data, keeps the id, reads retry, drops a cut-off event', () => {
    const { messages, parser } = feed([
      '\ufeff: keep-alive\n\n',
      'retry: 1500\n',
      'id: 3\n',
      'data: first\ndata\ndata:  two spaces\n',
      ': a comment inside\n',
      'event: document.completed\n\n',
      'data: no id field\n\n',
      'event: only-event\n\n',
      'id: 9\ndata: never finished\n',
    ]);
    expect(messages).toEqual([
      { event: 'document.completed', data: 'first\n\n two spaces', id: '3' },
      { event: 'message', data: 'no id field', id: '3' },
    ]);
    expect(parser.retryMs).toBe(1500);
  });
});

// --- the iterator against a local server ---

function sse(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8' });
  res.flushHeaders();
}
const frame = (id: number, event: string, data: unknown) =>
  `id: ${id}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
const STATUS = { projectId: ID, status: 'in_progress', estimatedCompletionMs: 1000 };
const DOC = {
  type: 'project-brief',
  filename: 'PROJECT_BRIEF.md',
  stage: 'project-brief',
  tokens_used: 10,
  generated_at: '2026-11-22T10:00:00.000Z',
};
const DONE = { status: 'completed', documentsGenerated: 1, creditsConsumed: 5 };

/** Two events, then the connection is cut (`destroy`) or closed cleanly (`end`). */
const twoThenDrop =
  (how: 'destroy' | 'end', extra = ''): Handler =>
  (_req, res) => {
    sse(res);
    res.write(`${extra}${frame(1, 'status', STATUS)}: keep-alive\n\n`);
    res.write(frame(2, 'stage.started', { stage: 'project-brief' }), () => {
      setTimeout(() => (how === 'destroy' ? res.socket?.destroy() : res.end()), 20);
    });
  };
/** The rest of the project; the connection stays open to show the SDK stops by itself. */
const rest: Handler = (_req, res) => {
  sse(res);
  res.write(frame(3, 'document.completed', DOC) + frame(4, 'project.completed', DONE));
};

describe('projects.events', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server.close();
  });

  const client = () => {
    const sleeps: number[] = [];
    const sleep: SleepFn = async (ms) => {
      sleeps.push(ms);
    };
    const pgs = new Pgs({ apiKey: KEY, baseUrl: server.url, sleep, random: () => 0.5 });
    return { pgs, sleeps };
  };
  const collect = async (events: AsyncIterable<ProjectEvent>) => {
    const seen: ProjectEvent[] = [];
    for await (const event of events) seen.push(event);
    return seen;
  };

  it.each(['destroy', 'end'] as const)(
    'resumes with Last-Event-ID after the connection is %sed: nothing lost or repeated',
    async (how) => {
      server.reply(twoThenDrop(how), rest);
      const { pgs, sleeps } = client();
      const events = await collect(pgs.projects.events(ID));
      expect(events.map((e) => [e.id, e.type])).toEqual([
        ['1', 'status'],
        ['2', 'stage.started'],
        ['3', 'document.completed'],
        ['4', 'project.completed'],
      ]);
      expect(events[2]).toEqual({ id: '3', type: 'document.completed', data: DOC });
      expect(server.requests).toHaveLength(2);
      const [first, second] = server.requests;
      expect(first?.url).toBe(`/api/v1/projects/${ID}/events`);
      expect(first?.headers.accept).toBe('text/event-stream');
      expect(first?.headers['last-event-id']).toBeUndefined();
      expect(first?.headers.authorization).toBe(`Bearer ${KEY}`);
      expect(second?.headers['last-event-id']).toBe('2');
      // Full jitter at attempt 0 with random 0.5: 250 ms.
      expect(sleeps).toEqual([250]);
    },
  );

  it("follows the plan's work past the run's end with follow: 'tasks', until aborted", async () => {
    const moved = {
      projectId: ID,
      taskId: 'T-3',
      from: 'in_progress',
      to: 'done',
      assignee: 'claude-1',
      agent: null,
      keyId: 'key_1',
      note: null,
      at: '2026-11-28T09:00:00.000Z',
      progress: { tasks: { done: 1, total: 4 }, share: 0.25 },
    };
    server.reply((_req, res) => {
      sse(res);
      res.write(frame(4, 'project.completed', DONE) + frame(5, 'task.updated', moved));
    });
    const { pgs } = client();
    const stop = new AbortController();
    const seen: ProjectEvent[] = [];
    const followed = (async () => {
      for await (const event of pgs.projects.events(ID, { follow: 'tasks', signal: stop.signal })) {
        seen.push(event);
        if (event.type === 'task.updated') stop.abort();
      }
    })();
    await expect(followed).rejects.toThrow();
    expect(seen.map((e) => e.type)).toEqual(['project.completed', 'task.updated']);
    expect(seen[1]).toEqual({ id: '5', type: 'task.updated', data: moved });
    expect(server.requests[0]?.url).toBe(`/api/v1/projects/${ID}/events?follow=tasks`);
  });

  it("waits the server's retry: before reconnecting, and starts from lastEventId", async () => {
    server.reply(twoThenDrop('end', 'retry: 3000\n'), rest);
    const { pgs, sleeps } = client();
    const events = await collect(pgs.projects.events(ID, { lastEventId: '0' }));
    expect(events).toHaveLength(4);
    expect(server.requests[0]?.headers['last-event-id']).toBe('0');
    expect(sleeps).toEqual([3250]);
  });

  it('gives up after maxReconnects drops in a row without an event', async () => {
    const empty: Handler = (_req, res) => {
      sse(res);
      res.end(': nothing\n\n');
    };
    server.reply(twoThenDrop('end'), empty);
    const { pgs, sleeps } = client();
    const seen: string[] = [];
    await expect(
      (async () => {
        for await (const event of pgs.projects.events(ID, { maxReconnects: 2 }))
          seen.push(event.type);
      })(),
    ).rejects.toThrow(APIConnectionError);
    expect(seen).toEqual(['status', 'stage.started']);
    expect(server.requests).toHaveLength(3);
    expect(server.requests.slice(1).map((r) => r.headers['last-event-id'])).toEqual(['2', '2']);
    expect(sleeps).toEqual([250, 500]);
  });

  it('maps errors before the stream opens to the SDK classes; a 404 on reconnect ends it', async () => {
    server.reply(
      json(404, envelope('RESOURCE_NOT_FOUND', 'No project with this identifier exists.')),
    );
    await expect(collect(client().pgs.projects.events(ID))).rejects.toThrow(NotFoundError);
    server.reply(json(401, envelope('AUTHENTICATION_FAILED', 'Invalid API key.')));
    await expect(collect(client().pgs.projects.events(ID))).rejects.toThrow(AuthenticationError);
    expect(server.requests).toHaveLength(1);

    server.reply(twoThenDrop('end'), json(404, envelope('RESOURCE_NOT_FOUND', 'Deleted.')));
    await expect(collect(client().pgs.projects.events(ID))).rejects.toThrow(NotFoundError);
    expect(server.requests).toHaveLength(2);
  });

  it('breaking out of the loop closes the connection', async () => {
    let closed = false;
    server.reply((req, res) => {
      sse(res);
      res.on('close', () => (closed = true));
      res.write(frame(1, 'status', STATUS));
      void req;
    });
    for await (const event of client().pgs.projects.events(ID)) {
      expect(event.type).toBe('status');
      break;
    }
    await expect.poll(() => closed, { timeout: 2_000 }).toBe(true);
  });
});

describe('projects.document and projects.archive', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server.close();
  });
  const pgs = () => new Pgs({ apiKey: KEY, baseUrl: server.url, sleep: async () => {} });

  it('document() resolves with the markdown as sent', async () => {
    server.reply((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/markdown; charset=utf-8' });
      res.end('# Brief\n\nÉté {"not": "json"}\n');
    });
    expect(await pgs().projects.document(ID, 'PROJECT_BRIEF.md')).toBe(
      '# Brief\n\nÉté {"not": "json"}\n',
    );
    expect(server.requests[0]?.url).toBe(`/api/v1/projects/${ID}/documents/PROJECT_BRIEF.md`);
    expect(server.requests[0]?.headers.accept).toBe('text/markdown');
  });

  it('archive() resolves with the bytes; a 409 PROJECT_NOT_COMPLETED is a ConflictError at once', async () => {
    const zip = Uint8Array.from([0x50, 0x4b, 0x03, 0x04, 0xff, 0x00, 0x80]);
    server.reply((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/zip' });
      res.end(zip);
    });
    const bytes = await pgs().projects.archive(ID, { layout: 'kiro' });
    expect(bytes).toBeInstanceOf(Uint8Array);
    expect([...bytes]).toEqual([...zip]);
    expect(server.requests[0]?.url).toBe(`/api/v1/projects/${ID}/archive?layout=kiro`);

    server.reply(
      json(
        409,
        envelope('PROJECT_NOT_COMPLETED', 'The project is still in progress.', undefined, {
          status: 'in_progress',
        }),
        { 'retry-after': '10' },
      ),
    );
    const error = await pgs()
      .projects.archive(ID)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConflictError);
    expect((error as ConflictError).code).toBe('PROJECT_NOT_COMPLETED');
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]?.url).toBe(`/api/v1/projects/${ID}/archive`);
  });
});
