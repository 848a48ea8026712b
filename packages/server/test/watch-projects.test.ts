import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentPlan } from '../src/runs/catalogue.ts';
import {
  competent,
  IDEA,
  isDefinition,
  kindOf,
  type Setup,
  setupFor,
  waitFor,
} from './helpers/ai-harness.ts';
import type { FakeAiCall } from './helpers/fake-ai.ts';
import { backends, bearer, buildTestApp } from './helpers/harness.ts';

/**
 * Issue 8 items 1 and 2: long-poll (`Prefer: wait`) and the event stream, woken by the
 * workflow's own events. A project is held in progress deterministically: the fake model
 * does not answer the requirements call until the test releases it.
 */

interface Held {
  release(): void;
}

/** Makes the fake hold every product-requirements call until released. */
function holdRequirements(s: Setup): Held {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  s.fake.respond(async (call: FakeAiCall) => {
    if (!isDefinition(call) && kindOf(call) === 'product-requirements') await gate;
    return competent(call);
  });
  return { release };
}

async function createProject(s: Setup): Promise<string> {
  const res = await s.h.createProject(s.key, { idea: IDEA, type: 'web' });
  expect(res.statusCode, res.body).toBe(202);
  return res.json().data.projectId as string;
}

/** Waits until the brief is stored: the run is then parked on the held requirements call. */
const briefStored = (s: Setup, id: string) =>
  waitFor(async () => {
    const res = await s.h.request({
      method: 'GET',
      url: `/api/v1/projects/${id}/provenance`,
      headers: bearer(s.key.key),
    });
    const kinds = (res.json().data.documents as Array<{ kind: string }>).map((d) => d.kind);
    return kinds.includes('project-brief') ? id : undefined;
  }, 'the brief stored');

interface SseEvent {
  id: number;
  event: string;
  data: unknown;
}

/** Reads a server-sent event stream from a real HTTP response until it ends or `stop` says so. */
async function readEvents(
  res: Response,
  stop: (events: SseEvent[]) => boolean = () => false,
  comments: string[] = [],
): Promise<SseEvent[]> {
  const events: SseEvent[] = [];
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return events;
    buffer += value;
    let end = buffer.indexOf('\n\n');
    while (end !== -1) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      end = buffer.indexOf('\n\n');
      if (block.startsWith(':')) {
        comments.push(block);
        continue;
      }
      const fields = Object.fromEntries(
        block.split('\n').map((line) => {
          const colon = line.indexOf(': ');
          return [line.slice(0, colon), line.slice(colon + 2)];
        }),
      );
      events.push({ id: Number(fields.id), event: fields.event!, data: JSON.parse(fields.data!) });
      if (stop(events)) {
        await reader.cancel();
        return events;
      }
    }
  }
}

describe('long-poll and the event stream (PGlite)', () => {
  const s = setupFor([{ provider: 'openai', model: 'gpt-fake-1' }], {
    harness: { keepAliveMs: 50 },
  });
  let base: string;
  beforeAll(async () => {
    await s.h.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(s.h.app.server.address() as AddressInfo).port}/api/v1`;
  });
  // fetch keeps its connections alive; they would hold the server's close open.
  afterAll(() => s.h.app.server.closeAllConnections());
  const sse = (id: string, headers: Record<string, string> = {}) =>
    fetch(`${base}/projects/${id}/events`, { headers: { ...bearer(s.key.key), ...headers } });

  it('Prefer: wait holds an in-progress answer until the project completes, then answers once', async () => {
    const held = holdRequirements(s);
    const id = await briefStored(s, await createProject(s));
    const before = Number((await s.h.getProject(s.key, id)).headers['x-ratelimit-remaining']);
    // Sent while the run is held, it can only come back `completed` if it was held; and
    // within 60 s only the workflow's completion event can end it (no timer, no polling).
    const waiting = s.h.getProject(s.key, id, { prefer: 'wait=60' });
    held.release();
    const res = await waiting;
    expect(res.statusCode).toBe(200);
    expect(res.headers['preference-applied']).toBe('wait=60');
    expect(res.json().data.status).toBe('completed');
    // The held request counted once.
    expect(Number(res.headers['x-ratelimit-remaining'])).toBe(before - 1);
  });

  it('Prefer: wait on a finished project answers at once; without Prefer nothing changes', async () => {
    s.fake.respond(competent);
    const id = await createProject(s);
    await waitFor(async () => {
      const res = await s.h.getProject(s.key, id);
      return res.json().data.status === 'completed' ? true : undefined;
    }, 'completed');
    const res = await s.h.getProject(s.key, id, { prefer: 'respond-async, wait=5' });
    expect(res.headers['preference-applied']).toBe('wait=5');
    expect(res.json().data.status).toBe('completed');
    const plain = await s.h.getProject(s.key, id);
    expect(plain.headers['preference-applied']).toBeUndefined();
    expect(plain.body).toBe(res.body);
  });

  it('Prefer: wait=1 on a held project answers in_progress when the time passes', async () => {
    const held = holdRequirements(s);
    const id = await briefStored(s, await createProject(s));
    const res = await s.h.getProject(s.key, id, { prefer: 'wait=1' });
    expect(res.json().data.status).toBe('in_progress');
    expect(res.headers['preference-applied']).toBe('wait=1');
    held.release();
  });

  it('the event stream: status first, each stage and document as it lands, the final event, then the end', async () => {
    const held = holdRequirements(s);
    const id = await briefStored(s, await createProject(s));
    const comments: string[] = [];
    const res = await sse(id);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(res.headers.get('x-request-id')).toMatch(/^req_/);
    // The hooks' headers go out with the stream's own.
    expect(res.headers.get('api-version')).toMatch(/^v1\./);
    expect(res.headers.get('x-ratelimit-limit')).toMatch(/^\d+$/);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(res.headers.get('x-accel-buffering')).toBe('no');
    const reading = readEvents(res, () => false, comments);
    // The stream is open while the run is held; keep-alive comments arrive meanwhile.
    await waitFor(async () => (comments.length >= 2 ? true : undefined), 'two keep-alives');
    held.release();
    const events = await reading;

    expect(events[0]).toMatchObject({
      event: 'status',
      data: { projectId: id, status: 'in_progress' },
    });
    const rest = events.slice(1);
    expect(rest.map((e) => e.event).at(-1)).toBe('project.completed');
    const ids = events.map((e) => e.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids.slice(1)).size).toBe(ids.length - 1);
    const documents = rest.filter((e) => e.event === 'document.completed');
    // The brief was stored before the stream opened; every later document arrives live.
    expect(documents.map((e) => (e.data as { type: string }).type).sort()).toEqual(
      documentPlan('web')
        .map((d) => d.kind)
        .filter((k) => k !== 'project-brief')
        .sort(),
    );
    for (const doc of documents) {
      expect(Object.keys(doc.data as object).sort()).toEqual([
        'filename',
        'generated_at',
        'stage',
        'tokens_used',
        'type',
      ]);
    }
    // The requirements stage started before the stream opened (its first call is the one held);
    // each later stage is announced once, before its first document.
    const stages = rest
      .filter((e) => e.event === 'stage.started')
      .map((e) => (e.data as { stage: string }).stage);
    expect([...stages].sort()).toEqual(['design', 'documentation', 'planning']);
    for (const stage of stages) {
      const announced = rest.findIndex(
        (e) => e.event === 'stage.started' && (e.data as { stage: string }).stage === stage,
      );
      const firstDocument = rest.findIndex(
        (e) => e.event === 'document.completed' && (e.data as { stage: string }).stage === stage,
      );
      expect(announced).toBeLessThan(firstDocument);
    }
  });

  it('a reconnect with Last-Event-ID resumes with nothing lost or repeated', async () => {
    const held = holdRequirements(s);
    const id = await briefStored(s, await createProject(s));
    // Read the beginning of the stream, then drop the connection after the first document.
    const first = await readEvents(await sse(id), (events) => events.length === 1);
    expect(first[0]!.event).toBe('status');
    held.release();
    const whole = await readEvents(await sse(id, { 'last-event-id': '0' }));
    const resumed = await readEvents(await sse(id, { 'last-event-id': String(first[0]!.id) }));
    expect(resumed[0]!.event).not.toBe('status');
    // Resuming after the status gives exactly the events the full log has after it.
    expect(resumed).toEqual(whole.filter((e) => e.id > first[0]!.id));
    expect(resumed.at(-1)!.event).toBe('project.completed');
    const middle = resumed[Math.floor(resumed.length / 2)]!;
    const tail = await readEvents(await sse(id, { 'last-event-id': String(middle.id) }));
    expect(tail).toEqual(resumed.filter((e) => e.id > middle.id));
  });

  it("a finished project's stream sends status and its final event, then ends", async () => {
    s.fake.respond(competent);
    const id = await createProject(s);
    await waitFor(async () => {
      const res = await s.h.getProject(s.key, id);
      return res.json().data.status === 'completed' ? true : undefined;
    }, 'completed');
    const events = await readEvents(await sse(id));
    expect(events.map((e) => e.event)).toEqual(['status', 'project.completed']);
    expect(events[0]!.data).toMatchObject({ projectId: id, status: 'completed' });
    expect(events[1]!.id).toBe(events[0]!.id + 1);
  });

  it('cancel aborts the running model call at once; the stream ends with project.failed', async () => {
    holdRequirements(s);
    const id = await briefStored(s, await createProject(s));
    await waitFor(async () => (s.fake.inFlight === 1 ? true : undefined), 'the held call');
    const reading = readEvents(await sse(id));
    const callsBefore = s.fake.calls.length;
    const res = await s.h.request({
      method: 'POST',
      url: `/api/v1/projects/${id}/cancel`,
      headers: bearer(s.key.key),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.error.code).toBe('generation_cancelled');
    // The worker learns of the end by the event and aborts the held call: the fake sees the
    // client go away, with no answer ever sent.
    await waitFor(async () => (s.fake.inFlight === 0 ? true : undefined), 'the held call aborted');
    const events = await reading;
    expect(events.at(-1)).toMatchObject({
      event: 'project.failed',
      data: { status: 'failed', error: { code: 'generation_cancelled' } },
    });
    // Nothing more was asked of the model, and nothing more was stored.
    expect(s.fake.calls.length).toBe(callsBefore);
    const provenance = await s.h.request({
      method: 'GET',
      url: `/api/v1/projects/${id}/provenance`,
      headers: bearer(s.key.key),
    });
    expect(provenance.json().data.documents.map((d: { kind: string }) => d.kind)).toEqual([
      'project-brief',
    ]);
  });

  it('caps open streams per key (429 in the envelope) and answers 404 for a foreign project', async () => {
    const held = holdRequirements(s);
    const id = await briefStored(s, await createProject(s));
    // A HEAD answers the stream's headers and opens nothing: six of them leave all 5 places.
    for (let i = 0; i < 6; i++) {
      const head = await fetch(`${base}/projects/${id}/events`, {
        method: 'HEAD',
        headers: bearer(s.key.key),
      });
      expect(head.status).toBe(200);
      expect(head.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    }
    const open = await Promise.all(Array.from({ length: 5 }, () => sse(id)));
    expect(open.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    const refused = await sse(id);
    expect(refused.status).toBe(429);
    const body = (await refused.json()) as {
      success: boolean;
      error: { code: string; request_id: string };
    };
    expect(body).toMatchObject({ success: false, error: { code: 'RATE_LIMIT_EXCEEDED' } });
    expect(body.error.request_id).toBe(refused.headers.get('x-request-id'));
    for (const res of open) await res.body!.cancel();
    // Closed streams free their places.
    await waitFor(async () => {
      const again = await sse(id);
      if (again.status !== 200) return undefined;
      await again.body!.cancel();
      return true;
    }, 'a place freed');
    const stranger = await s.h.createKey('live');
    const foreign = await fetch(`${base}/projects/${id}/events`, { headers: bearer(stranger.key) });
    expect(foreign.status).toBe(404);
    held.release();
  });
});

describe.skipIf(!(await backends()).includes('postgres'))(
  'long-poll across two API processes (PostgreSQL)',
  () => {
    const s = setupFor([{ provider: 'openai', model: 'gpt-fake-1' }], {
      backend: 'postgres',
    });
    let other: FastifyInstance;
    afterAll(async () => other?.close());

    it('a long-poll on a second API is woken by the worker of the first, through NOTIFY', async () => {
      // A second app on the same database with its own LISTEN connection: another process's view.
      other = await buildTestApp(s.h.database);
      const held = holdRequirements(s);
      const id = await briefStored(s, await createProject(s));
      const waiting = other.inject({
        method: 'GET',
        url: `/api/v1/projects/${id}`,
        headers: { ...bearer(s.key.key), prefer: 'wait=60' },
      });
      held.release();
      const res = await waiting;
      expect(res.statusCode).toBe(200);
      expect(res.json().data.status).toBe('completed');
      expect(res.headers['preference-applied']).toBe('wait=60');
    });
  },
);
