import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { ProjectEventHub } from '../src/events/hub.ts';
import { createLimiters } from '../src/limits/rules.ts';
import { offlineModels } from '../src/runs/models.ts';
import { competent, isDefinition, type Setup, setupFor, waitFor } from './helpers/ai-harness.ts';
import { bearer, DOCS_URL } from './helpers/harness.ts';

/**
 * A revision watched as it runs (docs/revisions.md "Events and webhooks", "What the
 * project's status says", "Caching"): the event stream of a completed project follows a
 * running revision to its end, resumes with Last-Event-ID, replays the log afterwards; the
 * revision's long-poll is woken by its end; the project's status stays on the previous
 * revision until the new one completes. The revision is held deterministically: the fake
 * model does not answer the impact call until the test releases it.
 */

const IDEA =
  'A web app for small veterinary clinics to book appointments online, keep medical records for each pet, and send vaccine reminders by SMS.';
const CHANGE = 'Add SMS reminders two days before each appointment; drop the medical records';

interface SseEvent {
  id: number;
  event: string;
  // biome-ignore lint/suspicious/noExplicitAny: event payloads are read field by field
  data: any;
}

/** Reads a server-sent event stream until it ends, or until `stop` says so (then cancels it). */
async function readEvents(
  res: Response,
  stop: (events: SseEvent[]) => boolean = () => false,
): Promise<SseEvent[]> {
  expect(res.status).toBe(200);
  const events: SseEvent[] = [];
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return events;
    buffer += value;
    for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n')) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      if (block.startsWith(':')) continue;
      const fields = Object.fromEntries(
        block
          .split('\n')
          .map((line) => [line.slice(0, line.indexOf(': ')), line.slice(line.indexOf(': ') + 2)]),
      );
      events.push({ id: Number(fields.id), event: fields.event!, data: JSON.parse(fields.data!) });
      if (stop(events)) {
        await reader.cancel();
        return events;
      }
    }
  }
}

/** Makes the fake hold the revision's impact call (the one carrying CHANGE) until released. */
function holdImpact(s: Setup): { release(): void } {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  s.fake.reset();
  s.fake.respond(async (call) => {
    if (isDefinition(call) && call.prompt.includes(CHANGE)) await gate;
    return competent(call);
  });
  return { release };
}

describe('a revision watched as it runs (PGlite)', () => {
  const s = setupFor([{ provider: 'anthropic', model: 'claude-fake-1' }], {
    harness: { keepAliveMs: 50 },
  });
  let base: string;
  beforeAll(async () => {
    await s.h.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(s.h.app.server.address() as AddressInfo).port}/api/v1`;
  });
  // fetch keeps its connections alive; they would hold the server's close open.
  afterAll(() => s.h.app.server.closeAllConnections());

  const sse = (id: string, lastEventId?: number) =>
    fetch(`${base}/projects/${id}/events`, {
      headers: {
        ...bearer(s.key.key),
        ...(lastEventId === undefined ? {} : { 'last-event-id': String(lastEventId) }),
      },
    });
  const api = (method: 'GET' | 'POST', url: string, body?: unknown) =>
    s.h.request({
      method,
      url: `/api/v1${url}`,
      headers: {
        ...bearer(s.key.key),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });

  /** A completed project generated through the fake (every call answered). */
  async function completedProject(): Promise<string> {
    s.fake.reset();
    s.fake.respond(competent);
    const res = await s.h.createProject(s.key, { idea: IDEA, type: 'web' });
    expect(res.statusCode, res.body).toBe(202);
    const id = res.json().data.projectId as string;
    await waitFor(async () => {
      const status = (await s.h.getProject(s.key, id)).json().data.status;
      expect(status).not.toBe('failed');
      return status === 'completed' ? true : undefined;
    }, `project ${id} completed`);
    return id;
  }

  /** Starts revision 2 of `id` with the impact call held; resolves once the fake holds it. */
  async function heldRevision(id: string) {
    const held = holdImpact(s);
    const res = await api('POST', `/projects/${id}/revisions`, { changeRequest: CHANGE });
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json().data.revision).toBe(2);
    await waitFor(
      async () => (s.fake.inFlight === 1 && s.fake.calls.length === 1 ? true : undefined),
      'the impact call held',
    );
    return held;
  }

  const revisionEnded = (id: string) =>
    waitFor(async () => {
      const data = (await api('GET', `/projects/${id}/revisions/2`)).json().data;
      return data.status === 'in_progress' ? undefined : data;
    }, `revision 2 of ${id} ended`);

  it('the stream follows a running revision to its end, every event of it numbered 2, and resumes exactly', async () => {
    const id = await completedProject();
    const before = (await s.h.getProject(s.key, id)).json().data;
    const held = await heldRevision(id);
    // A full stream, and one dropped after its status frame, both opened while it is held.
    const reading = readEvents(await sse(id));
    const [dropped] = await readEvents(await sse(id), (events) => events.length === 1);
    expect(dropped!.event).toBe('status');
    // Resumed after the status while the revision still runs: it follows the run too.
    const resuming = readEvents(await sse(id, dropped!.id));
    held.release();
    const events = await reading;

    const [status, analysed, ...rest] = events;
    expect(status).toMatchObject({ event: 'status', data: { projectId: id, status: 'completed' } });
    // The status is revision 1's body: the stream does not pretend the project is running.
    expect(status!.data).toEqual(before);
    expect(status!.id).toBe(dropped!.id);
    expect(analysed).toMatchObject({ event: 'revision.analysed', data: { revision: 2 } });
    expect(Object.keys(analysed!.data).sort()).toEqual(['deltas', 'documents', 'revision']);
    expect(analysed!.data.deltas).toContainEqual(
      expect.objectContaining({ op: 'removed', id: 'FR-2' }),
    );
    expect(analysed!.data.documents.length).toBeGreaterThan(0);
    const final = rest.pop()!;
    expect(final).toMatchObject({
      event: 'revision.completed',
      data: { revision: 2, status: 'completed' },
    });
    expect(rest.length).toBeGreaterThan(0);
    for (const event of rest) {
      expect(['stage.started', 'document.completed']).toContain(event.event);
      expect(event.data.revision, JSON.stringify(event)).toBe(2);
    }
    // Every document the impact step named is rewritten, once, and announced after its stage.
    const written = rest.filter((e) => e.event === 'document.completed');
    expect(written.map((e) => e.data.filename).sort()).toEqual(
      [...analysed!.data.documents].sort(),
    );
    expect([...final.data.documentsChanged].sort()).toEqual([...analysed!.data.documents].sort());
    for (const doc of written) {
      const stage = rest.findIndex(
        (e) => e.event === 'stage.started' && e.data.stage === doc.data.stage,
      );
      expect(stage, doc.data.filename).toBeGreaterThanOrEqual(0);
      expect(stage).toBeLessThan(rest.indexOf(doc));
    }
    const ids = events.map((e) => e.id);
    for (let i = 1; i < ids.length; i++) expect(ids[i]).toBeGreaterThan(ids[i - 1]!);

    // The resumed stream got exactly what followed the status, and ended with the revision.
    expect(await resuming).toEqual(events.slice(1));
    // Resumed from the middle after the end: exactly the rest, then the stream closes.
    const middle = events[Math.floor(events.length / 2)]!;
    expect(await readEvents(await sse(id, middle.id))).toEqual(
      events.filter((e) => e.id > middle.id),
    );
  });

  it('after the revision, a stream replays its final event only; from 0 the whole log', async () => {
    const id = await completedProject();
    const held = await heldRevision(id);
    held.release();
    expect((await revisionEnded(id)).status).toBe('completed');

    const events = await readEvents(await sse(id));
    expect(events.map((e) => e.event)).toEqual(['status', 'revision.completed']);
    // The status is the new current body, revision 2's, just before the final event.
    const current = await s.h.getProject(s.key, id);
    expect(current.headers['pgs-revision']).toBe('2');
    expect(events[0]!.data).toEqual(current.json().data);
    expect(events[1]!.id).toBe(events[0]!.id + 1);
    expect(events[1]!.data).toMatchObject({ revision: 2, status: 'completed' });

    const whole = await readEvents(await sse(id, 0));
    const types = whole.map((e) => e.event);
    expect(types).not.toContain('status');
    expect(types.filter((t) => t === 'project.completed')).toHaveLength(1);
    expect(types.filter((t) => t === 'revision.started')).toHaveLength(1);
    // Creation first, then the revision, ending with its final event.
    const started = types.indexOf('revision.started');
    expect(types.indexOf('project.completed')).toBeLessThan(started);
    expect(types.indexOf('document.completed')).toBeLessThan(types.indexOf('project.completed'));
    expect(whole[started]!.data).toEqual({ revision: 2, changeRequest: CHANGE });
    expect(whole.at(-1)).toEqual(events[1]);
    for (const event of whole.slice(started)) expect(event.data.revision).toBe(2);
    expect(whole.slice(0, started).every((e) => e.data.revision === undefined)).toBe(true);
    expect(whole.map((e) => e.id)).toEqual(whole.map((_, i) => whole[0]!.id + i));
  });

  it('the revision long-poll is woken by its end; the status stays on revision 1 until then', async () => {
    const id = await completedProject();
    const before = await s.h.getProject(s.key, id);
    const etag = String(before.headers.etag);
    expect(before.headers['pgs-revision']).toBe('1');
    const held = await heldRevision(id);

    // While it runs, the project is still completed at revision 1, its ETag unchanged.
    const during = await s.h.getProject(s.key, id);
    expect(during.json().data.status).toBe('completed');
    expect(during.headers['pgs-revision']).toBe('1');
    expect(during.headers.etag).toBe(etag);
    expect(during.body).toBe(before.body);
    expect((await s.h.getProject(s.key, id, { 'if-none-match': etag })).statusCode).toBe(304);

    // A second API with a hub of its own: it shows when the long-poll is parked on it.
    const hub = await ProjectEventHub.start(s.h.database);
    const other = await buildApp({
      config: {
        docsUrl: DOCS_URL,
        bodyLimitBytes: 65_536,
        trustProxy: false,
        webhooksAllowPrivate: false,
      },
      database: s.h.database,
      adminToken: s.h.adminToken,
      limiters: await createLimiters({ kind: 'memory' }),
      dispatcher: { enqueue: async () => {} },
      models: offlineModels(),
      events: hub,
    });
    try {
      expect(hub.waiting).toBe(0);
      const sentAt = Date.now();
      const waiting = other.inject({
        method: 'GET',
        url: `/api/v1/projects/${id}/revisions/2`,
        headers: { ...bearer(s.key.key), prefer: 'wait=30' },
      });
      // It read `in_progress` and waits on the project's events (no timer polls it).
      await waitFor(async () => (hub.waiting === 1 ? true : undefined), 'the long-poll parked');
      held.release();
      const res = await waiting;
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['preference-applied']).toBe('wait=30');
      expect(res.json().data).toMatchObject({ revision: 2, status: 'completed' });
      // Answered by the revision's end, not by the end of the wait.
      expect(Date.now() - sentAt).toBeLessThan(30_000);
      expect(hub.waiting).toBe(0);
    } finally {
      await other.close();
      await hub.stop();
    }

    const after = await s.h.getProject(s.key, id);
    expect(after.headers['pgs-revision']).toBe('2');
    expect(after.headers.etag).not.toBe(etag);
    const revalidated = await s.h.getProject(s.key, id, { 'if-none-match': etag });
    expect(revalidated.statusCode).toBe(200);
    expect(revalidated.body).toBe(after.body);
    const fresh = await s.h.getProject(s.key, id, { 'if-none-match': String(after.headers.etag) });
    expect(fresh.statusCode).toBe(304);
  });

  it("a cancelled revision's stream ends with revision.failed, its held call aborted", async () => {
    const id = await completedProject();
    const before = await s.h.getProject(s.key, id);
    const held = await heldRevision(id);
    const reading = readEvents(await sse(id));
    const res = await api('POST', `/projects/${id}/revisions/2/cancel`);
    expect(res.statusCode, res.body).toBe(200);
    const events = await reading;
    expect(events.map((e) => e.event)).toEqual(['status', 'revision.failed']);
    expect(events[1]).toMatchObject({
      data: { revision: 2, status: 'failed', error: { code: 'generation_cancelled' } },
    });
    expect(events[1]!.data.error.message).toMatch(/revision 1 stays current/);
    // The worker learns of the end by the event and aborts the held call.
    await waitFor(async () => (s.fake.inFlight === 0 ? true : undefined), 'the held call aborted');
    held.release();
    expect(s.fake.calls).toHaveLength(1);
    const after = await s.h.getProject(s.key, id);
    expect(after.body).toBe(before.body);
    expect(after.headers['pgs-revision']).toBe('1');
  });
});
