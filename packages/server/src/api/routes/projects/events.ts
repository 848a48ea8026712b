import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { ApiError } from '../../../errors.ts';
import { FINAL_EVENTS, type ProjectEventHub, REVISION_END_EVENTS } from '../../../events/hub.ts';
import type { SharedEventReads } from '../../../events/reads.ts';
import type { ProjectStatusReader, StatusView } from '../../../projects/status.ts';
import { errorResponses } from '../schemas.ts';
import { closedSignal, projectIdParams, projectNotFound } from './common.ts';

export interface EventRoutesOptions {
  statusReader: ProjectStatusReader;
  /** Streams of one project that wake on the same event share the read that follows. */
  eventReads: SharedEventReads;
  events: ProjectEventHub;
  /** Milliseconds between keep-alive comments. */
  keepAliveMs: number;
  /** Streams one key may hold open at once in this process. */
  maxStreamsPerKey?: number;
}

/** Default cap of open event streams per API key (per API process). */
export const MAX_STREAMS_PER_KEY = 5;

/**
 * The last bytes of a stream the server ends because it shuts down: reconnect after 2 s
 * (`retry:`), resuming with `Last-Event-ID` like after any drop.
 */
export const SHUTDOWN_FRAME =
  'retry: 2000\n: the server is shutting down; reconnect with Last-Event-ID to resume\n\n';

/** One server-sent event, as the wire carries it. */
function frame(event: string, id: number, data: unknown): string {
  return `id: ${id}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

const invalidLastEventId = () =>
  new ApiError('VALIDATION_ERROR', 'Last-Event-ID must be an event id of this stream.', {
    details: {
      invalid_fields: { 'last-event-id': 'must be a whole number from an earlier event' },
    },
  });

function lastEventId(raw: string | string[] | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (value === undefined || !/^\s*\d{1,9}\s*$/.test(value)) throw invalidLastEventId();
  return Number(value);
}

/**
 * `GET /projects/{projectId}/events`: the project's life as server-sent events. A new
 * stream starts with `status` (the status `data` as getProjectStatus has it), then every
 * stored event after it, live, until `project.completed` or `project.failed` ends it. A
 * reconnect with `Last-Event-ID` resumes after that event: events are stored, so none is
 * lost or repeated.
 */
export async function eventRoutes(
  app: FastifyInstance,
  { maxStreamsPerKey = MAX_STREAMS_PER_KEY, ...options }: EventRoutesOptions,
) {
  streamProjectEvents(app, { ...options, maxStreamsPerKey });
}

/** The options with their defaults applied. */
type Resolved = Required<EventRoutesOptions>;

/** The headers of an event stream, sent to a HEAD as well. */
const STREAM_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
  // Proxies that buffer (nginx) would hold events back.
  'x-accel-buffering': 'no',
};

/** The project's events as server-sent events: GET /projects/:projectId/events. */
function streamProjectEvents(app: FastifyInstance, options: Resolved): void {
  const { statusReader, eventReads: reads, events, keepAliveMs, maxStreamsPerKey } = options;
  const open = new Map<string, number>();

  app.get<{ Params: { projectId: string }; Querystring: { follow?: 'run' | 'tasks' } }>(
    '/projects/:projectId/events',
    {
      // Opening a stream counts once against the status limit, like one poll.
      config: { operationId: 'streamProjectEvents', rateLimit: 'status' },
      schema: {
        params: projectIdParams,
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: { follow: { type: 'string', enum: ['run', 'tasks'] } },
        },
        headers: {
          type: 'object',
          properties: { 'api-version': { type: 'string' }, 'last-event-id': { type: 'string' } },
        },
        response: errorResponses(400, 401, 403, 404, 429, 500),
      },
    },
    async (request, reply) => {
      const id = request.params.projectId.toLowerCase();
      const after = lastEventId(request.headers['last-event-id']);
      // `follow=tasks`: no run's end ends the stream; the work on the plan goes on after it.
      const forever = request.query.follow === 'tasks';
      const view = await statusReader.read(request.principal, id);
      if (view === undefined) throw projectNotFound(request.params.projectId);
      // A resume after an id no event has would wait for it forever (found by the fuzz).
      if (after !== undefined && after > ((await reads.read(id)).at(-1)?.seq ?? 0)) {
        throw invalidLastEventId();
      }
      const keyId = request.principal.keyId;
      const held = open.get(keyId) ?? 0;
      if (held >= maxStreamsPerKey) throw tooManyStreams(maxStreamsPerKey);
      // A HEAD asks for the headers only: no stream is opened.
      if (request.method === 'HEAD') return reply.headers(STREAM_HEADERS).send();
      open.set(keyId, held + 1);
      const { stream, closed } = openStream(reply, keepAliveMs, () => {
        const left = (open.get(keyId) ?? 1) - 1;
        if (left > 0) open.set(keyId, left);
        else open.delete(keyId);
      });
      pump({ stream, closed, reads, events, id, view, after, forever })
        .catch((error: unknown) => request.log.warn({ err: error }, 'event stream failed'))
        .finally(() => {
          // Shutting down: tell the client to come back (to this server restarted, or another).
          if (app.closing?.aborted) stream.write(SHUTDOWN_FRAME);
          stream.end();
        });
      return reply;
    },
  );
}

/** The 429 of a key that holds as many streams open as it may. */
const tooManyStreams = (maxStreamsPerKey: number) =>
  new ApiError(
    'RATE_LIMIT_EXCEEDED',
    `At most ${maxStreamsPerKey} event streams may be open at once per API key; close one first.`,
    {
      details: { retry_after: 1, limit: maxStreamsPerKey, window: 'open streams' },
      headers: { 'retry-after': 1 },
    },
  );

/**
 * Takes the response over for the stream and keeps it alive; `release` runs once it closes.
 * The events are written to the response itself: a stream piped through Fastify's reply
 * measured 20 KB of heap per open stream (its listeners and closures) against 13 KB this way
 * (docs/performance.md). Headers set by the hooks (request id, version, rate limit) go out
 * with the stream's own; `onResponse` hooks still run.
 */
function openStream(reply: FastifyReply, keepAliveMs: number, release: () => void) {
  reply.hijack();
  const stream = reply.raw;
  stream.writeHead(200, { ...reply.getHeaders(), ...STREAM_HEADERS } as OutgoingHttpHeaders);
  const closed = closedSignal(reply);
  const keepAlive = setInterval(() => stream.write(': keep-alive\n\n'), keepAliveMs);
  const stop = () => {
    clearInterval(keepAlive);
    release();
  };
  closed.addEventListener('abort', stop, { once: true });
  return { stream, closed };
}

/** One open stream: where it writes, what it follows and from where. */
interface StreamRun {
  stream: ServerResponse;
  closed: AbortSignal;
  reads: SharedEventReads;
  events: ProjectEventHub;
  id: string;
  view: StatusView;
  /** The Last-Event-ID it resumes after, if any. */
  after: number | undefined;
  /** Whether it follows the work on the plan past every run's end (`follow=tasks`). */
  forever: boolean;
}

/** Writes a stream's status, then its stored events, then the live ones until it ends. */
async function pump({ stream, closed, reads, events, id, view, after, forever }: StreamRun) {
  let sent = after ?? 0;
  const log = await reads.read(id);
  // A completed project may have a revision running: its stream follows that run.
  const revising = revisionRunning(log);
  const ended = view.status !== 'in_progress' && !revising && !forever;
  if (after === undefined) {
    const last = log.findLast((event) => endsRun(event.type));
    // The status stands just before the last run's final event when nothing runs,
    // else after the last event: a resume from it continues exactly there.
    sent = ended && last ? last.seq - 1 : (log.at(-1)?.seq ?? 0);
    const current = JSON.parse(view.body.toString('utf8')) as { data: unknown };
    stream.write(frame('status', sent, current.data));
    if (ended && last === undefined) return;
  } else if (ended) {
    // An ended run's events are all stored (the final one commits with the end):
    // replay what follows, up to the last run's end, and close, even when nothing
    // does. Waiting for more hung a client resuming after the final event (found by
    // the fuzz). Task updates after that end are for `follow=tasks`.
    const end = log.findLast((e) => endsRun(e.type))?.seq ?? 0;
    for (const event of log.filter((e) => e.seq > sent && e.seq <= end)) {
      stream.write(frame(event.type, event.seq, event.data));
    }
    return;
  }
  // Live from `sent` until the client leaves or, unless the stream follows the work
  // (task updates may follow in the log), the run ends. The hub's first read is from
  // `sent` too, so an event stored since the log above was read is not missed.
  const live = events.follow(id, {
    read: (position) => reads.read(id, position),
    after: sent,
    signal: closed,
    until: forever ? undefined : (event) => endsRun(event.type),
  });
  for await (const event of live) stream.write(frame(event.type, event.seq, event.data));
}

/** Whether an event ends a run: the project's creation or one of its revisions. */
const endsRun = (type: string) => FINAL_EVENTS.has(type) || REVISION_END_EVENTS.has(type);

/** Whether the log shows a revision started and not yet ended. */
function revisionRunning(log: readonly { type: string }[]): boolean {
  let running = false;
  for (const event of log) {
    if (event.type === 'revision.started') running = true;
    else if (REVISION_END_EVENTS.has(event.type)) running = false;
  }
  return running;
}
