import type { components, GenerationError, ProjectStatus, RequirementDelta } from '@pgs/contract';
import type { Transport } from './core.ts';
import { APIConnectionError, APIError, APIUserAbortError, PgsError } from './errors.ts';
import { backoffMs, isRetryableError, type SleepFn, waitOrAbort } from './retry.ts';

/** `data` of `stage.started`: a stage of the workflow is about to make its first call. */
export interface StageStartedData {
  stage: string;
  /** The revision whose run it is; absent for the project's creation. */
  revision?: number;
}

/** `data` of `document.completed`: a document was stored (its content is not in the event). */
export interface DocumentCompletedData {
  type: string;
  filename: string;
  stage: string;
  tokens_used: number;
  generated_at: string;
  /** The revision that rewrote it; absent for the project's creation. */
  revision?: number;
}

/** `data` of `project.completed`, the last event of a project that completed. */
export interface ProjectCompletedData {
  status: 'completed';
  documentsGenerated: number;
  creditsConsumed: number;
}

/** `data` of `project.failed`, the last event of a project that failed or was cancelled. */
export interface ProjectFailedData {
  status: 'failed';
  error: GenerationError;
}

/** `data` of `revision.started`: a revision of the completed project began. */
export interface RevisionStartedData {
  revision: number;
  changeRequest: string;
}

/** `data` of `revision.analysed`: the change request read as deltas, and the documents to rewrite. */
export interface RevisionAnalysedData {
  revision: number;
  deltas: RequirementDelta[];
  /** The filenames the revision will rewrite. */
  documents: string[];
}

/** `data` of `revision.completed`, the last event of a revision that became current. */
export interface RevisionCompletedData {
  revision: number;
  status: 'completed';
  documentsChanged: string[];
  creditsConsumed: number;
}

/** `data` of `revision.failed`, the last event of a revision that failed or was cancelled. */
export interface RevisionFailedData {
  revision: number;
  status: 'failed';
  error: GenerationError;
}

/**
 * `data` of `task.updated`: a task of the plan changed status (docs/tasks.md), with the
 * project's delivery after the change.
 */
export type TaskUpdatedData = components['schemas']['TaskUpdatedEventData'];

/** The `data` of each event type of `GET /projects/{id}/events`. */
export interface ProjectEventDataMap {
  status: ProjectStatus;
  'stage.started': StageStartedData;
  'document.completed': DocumentCompletedData;
  'project.completed': ProjectCompletedData;
  'project.failed': ProjectFailedData;
  'revision.started': RevisionStartedData;
  'revision.analysed': RevisionAnalysedData;
  'revision.completed': RevisionCompletedData;
  'revision.failed': RevisionFailedData;
  'task.updated': TaskUpdatedData;
}

/** The event types of a project's stream. */
export type ProjectEventType = keyof ProjectEventDataMap;

/**
 * One event of a project's stream: `id` (its place in the project's log, the
 * `Last-Event-ID` to resume after it), `type`, and `data` typed by `type`.
 *
 * @example
 * if (event.type === 'document.completed') console.log(event.data.filename);
 */
export type ProjectEvent = {
  [K in ProjectEventType]: { id: string; type: K; data: ProjectEventDataMap[K] };
}[ProjectEventType];

/** Options of `projects.events`. */
export interface ProjectEventsOptions {
  /** Ends the iteration with {@link APIUserAbortError}, also while reconnecting. */
  signal?: AbortSignal | undefined;
  /** Resume after this event id (from an earlier stream): no `status` then, nothing repeated. */
  lastEventId?: string | undefined;
  /** Reconnections in a row without an event before giving up; default 5. */
  maxReconnects?: number | undefined;
  /** Time limit for the stream's headers, in milliseconds. */
  timeoutMs?: number | undefined;
  /**
   * `run` (default): the stream ends with the run it follows. `tasks`: it stays open for the
   * plan's work (`task.updated` events) after the run's end, until `signal` aborts; a
   * connection the server closes is reopened from the last event as usual.
   */
  follow?: 'run' | 'tasks' | undefined;
}

/** Default `maxReconnects`. @example pgs.projects.events(id, { maxReconnects: DEFAULT_MAX_RECONNECTS * 2 }); */
export const DEFAULT_MAX_RECONNECTS = 5;

// Keyed by the event types so that a new one breaks the build here until it is handled.
const FINAL = {
  status: false,
  'stage.started': false,
  'document.completed': false,
  'project.completed': true,
  'project.failed': true,
  'revision.started': false,
  'revision.analysed': false,
  'revision.completed': true,
  'revision.failed': true,
  'task.updated': false,
} as const satisfies Record<ProjectEventType, boolean>;
const KNOWN_TYPES: ReadonlySet<string> = new Set(Object.keys(FINAL));
/** The events that end a run (the creation or a revision), and with it the stream. */
const FINAL_TYPES: ReadonlySet<string> = new Set(
  Object.entries(FINAL)
    .filter(([, final]) => final)
    .map(([type]) => type),
);

/** The last event of a run's stream: the end of a project's creation, or of a revision. */
export type FinalEvent = Extract<
  ProjectEvent,
  { type: 'project.completed' | 'project.failed' | 'revision.completed' | 'revision.failed' }
>;

/**
 * Whether an event ends the run the stream follows (and with it the stream).
 *
 * @example
 * for await (const event of pgs.projects.events(id)) if (isFinalEvent(event)) console.log(event.type);
 */
export function isFinalEvent(event: ProjectEvent): event is FinalEvent {
  return FINAL[event.type];
}

/** One dispatched server-sent event, before its `data` is interpreted. */
export interface SseMessage {
  /** The `event` field; `message` when absent. */
  event: string;
  /** The `data` lines joined with `\n`. */
  data: string;
  /** The last event id seen so far on the stream (it carries over to later events). */
  id: string | undefined;
}

/**
 * An incremental `text/event-stream` parser (the WHATWG HTML rules): lines end with CRLF,
 * LF or CR, even when a chunk splits them; comment lines (`:`) are skipped; `data` lines
 * accumulate; a blank line dispatches; `retry` sets {@link SseParser.retryMs}. An event cut
 * off by the end of the stream is dropped, as the spec requires.
 *
 * @example
 * const parser = new SseParser();
 * for (const message of parser.push('id: 1\nevent: status\ndata: {}\n\n')) console.log(message.event);
 */
export class SseParser {
  /** The last `retry:` the server sent, in milliseconds. */
  retryMs: number | undefined;
  #buffer = '';
  #afterCr = false;
  #started = false;
  #data: string[] = [];
  #event = '';
  #id: string | undefined;

  constructor(lastEventId?: string) {
    this.#id = lastEventId;
  }

  /** Feeds decoded text; returns the events completed by it. */
  push(text: string): SseMessage[] {
    let chunk = text;
    if (!this.#started && chunk.length > 0) {
      this.#started = true;
      if (chunk.charCodeAt(0) === 0xfeff) chunk = chunk.slice(1);
    }
    // A CR ending the previous chunk already ended its line; a LF right after it belongs to it.
    if (this.#afterCr && chunk.startsWith('\n')) chunk = chunk.slice(1);
    this.#afterCr = false;
    const out: SseMessage[] = [];
    let buffer = this.#buffer + chunk;
    for (;;) {
      const end = buffer.search(/[\r\n]/);
      if (end === -1) break;
      const line = buffer.slice(0, end);
      if (buffer[end] === '\r') {
        if (end + 1 === buffer.length) {
          this.#afterCr = true;
          buffer = '';
        } else {
          buffer = buffer.slice(buffer[end + 1] === '\n' ? end + 2 : end + 1);
        }
      } else {
        buffer = buffer.slice(end + 1);
      }
      const message = this.#line(line);
      if (message) out.push(message);
    }
    this.#buffer = buffer;
    return out;
  }

  #line(line: string): SseMessage | undefined {
    if (line === '') return this.#dispatch();
    if (line.startsWith(':')) return undefined;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    switch (field) {
      case 'event':
        this.#event = value;
        break;
      case 'data':
        this.#data.push(value);
        break;
      case 'id':
        if (!value.includes('\0')) this.#id = value;
        break;
      case 'retry':
        if (/^\d+$/.test(value)) this.retryMs = Number(value);
        break;
    }
    return undefined;
  }

  #dispatch(): SseMessage | undefined {
    const data = this.#data;
    const event = this.#event;
    this.#data = [];
    this.#event = '';
    if (data.length === 0) return undefined;
    return { event: event || 'message', data: data.join('\n'), id: this.#id };
  }
}

/** What {@link streamProjectEvents} needs of its client. */
export interface EventStreamDeps {
  request: Transport;
  sleep: SleepFn;
  random: () => number;
}

/**
 * The events of one project, reconnecting with `Last-Event-ID` when the connection drops
 * before the final event. `projects.events` is this with the client's transport.
 *
 * @example
 * for await (const event of streamProjectEvents(deps, `/projects/${id}/events`, {})) console.log(event.type);
 */
export async function* streamProjectEvents(
  { request, sleep, random }: EventStreamDeps,
  path: string,
  {
    signal,
    lastEventId,
    maxReconnects = DEFAULT_MAX_RECONNECTS,
    timeoutMs,
    follow = 'run',
  }: ProjectEventsOptions,
): AsyncGenerator<ProjectEvent, void, undefined> {
  let resumeFrom = lastEventId;
  let opened = false;
  let failures = 0;
  let retryMs: number | undefined;
  let lastError: unknown;

  for (;;) {
    if (opened) {
      failures++;
      if (failures > maxReconnects) {
        throw lastError instanceof PgsError
          ? lastError
          : new APIConnectionError({
              message: `The event stream closed ${failures - 1} times in a row before the project ended.`,
              cause: lastError,
            });
      }
      // The server's `retry:` is a floor; the jitter keeps many clients from coming back at once.
      await waitOrAbort(sleep, (retryMs ?? 0) + backoffMs(failures - 1, random), signal);
    }

    let body: ReadableStream<Uint8Array>;
    try {
      const response = await request<ReadableStream<Uint8Array>>({
        method: 'GET',
        path,
        query: follow === 'tasks' ? { follow: 'tasks' } : undefined,
        signal,
        timeoutMs,
        responseType: 'stream',
        // Reconnects count against maxReconnects instead of the transport's retries.
        ...(opened ? { maxRetries: 0 } : {}),
        headers: {
          Accept: 'text/event-stream',
          ...(resumeFrom !== undefined ? { 'Last-Event-ID': resumeFrom } : {}),
        },
      });
      body = response.body;
    } catch (error) {
      // Before the first stream opens, the transport's errors (and retries) are the answer.
      if (!opened || error instanceof APIUserAbortError) throw error;
      if (error instanceof APIError && !isRetryableError(error.status, error.code)) throw error;
      lastError = error;
      continue;
    }
    opened = true;

    const parser = new SseParser(resumeFrom);
    const decoder = new TextDecoder();
    const reader = body.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        const messages = done
          ? parser.push(decoder.decode())
          : parser.push(decoder.decode(value, { stream: true }));
        retryMs = parser.retryMs ?? retryMs;
        for (const message of messages) {
          if (message.id !== undefined) resumeFrom = message.id;
          failures = 0;
          if (!KNOWN_TYPES.has(message.event)) continue;
          yield {
            id: message.id ?? '',
            type: message.event,
            data: parseData(message),
          } as ProjectEvent;
          // Following the work, a run's end is one more event: the stream goes on.
          if (follow === 'run' && FINAL_TYPES.has(message.event)) return;
        }
        if (done) break;
      }
      lastError = new APIConnectionError({
        message: 'The event stream ended before the project did.',
      });
    } catch (error) {
      if (signal?.aborted) throw new APIUserAbortError({ cause: error });
      if (error instanceof PgsError && !(error instanceof APIConnectionError)) throw error;
      lastError = new APIConnectionError({
        message: 'The event stream was interrupted.',
        cause: error,
      });
    } finally {
      // Also runs when the caller breaks out of its loop: the connection is closed at once.
      reader.cancel().catch(() => {});
    }
  }
}

function parseData(message: SseMessage): unknown {
  try {
    return JSON.parse(message.data) as unknown;
  } catch (cause) {
    throw new PgsError(`The server sent an unreadable ${message.event} event.`, { cause });
  }
}
