import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse, STATUS_CODES } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type CacheLookup, PromptCache, type ReportedUsage } from './fake-ai-cache.ts';
import { type Content, type Usage, wireFor } from './fake-ai-wire.ts';

export type { ReportedUsage } from './fake-ai-cache.ts';

/** The wire protocol a call arrived in, by its path. */
export type FakeAiProtocol = 'openai-responses' | 'openai-chat' | 'anthropic-messages';

/** One request the fake received, as the provider package sent it. */
export interface FakeAiCall {
  protocol: FakeAiProtocol;
  /** 1-based order of arrival */
  seq: number;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** The parsed JSON request body as sent by the provider package. */
  // biome-ignore lint/suspicious/noExplicitAny: tests read whatever field of the wire body they check
  body: any;
  stream: boolean;
  model: string;
  /** The text of all system/instructions and user/assistant messages, joined with "\n\n" (so a test can find what the prompt said). */
  prompt: string;
  /** The JSON Schema sent for structured output (from response_format / text.format / a forced tool's input_schema / output_config.format or output_format), if any. */
  schema?: unknown;
  /** Max output tokens requested, if any (max_tokens / max_output_tokens / max_completion_tokens). */
  maxOutputTokens?: number;
  /**
   * The usage the fake sent with a text or JSON answer (set once answered; absent for errors,
   * stalls and drops): `input` is all input tokens, cached and written ones included, whatever
   * the protocol's own field counts. Tests and benches sum these rather than trust the server.
   */
  reported?: ReportedUsage;
}

/** How the fake behaves beyond its handler; see {@link startFakeAi}. */
export interface FakeAiOptions {
  /**
   * Reports prompt-cache usage as the providers do (see fake-ai-cache.ts): a reply without
   * `usage` is answered with input tokens counted in the request's prompt (gpt-tokenizer,
   * o200k_base), output tokens counted in the answer, and the cache reads (OpenAI's
   * `cached_tokens`; Anthropic's `cache_read_input_tokens`) and writes (Anthropic's
   * `cache_creation_input_tokens`) of the provider's cache model. Off by default: replies
   * without `usage` then report {input: 10, output: 5}.
   */
  promptCache?: boolean;
}

/** Usage a reply states: input (all input tokens), output, and optionally cache reads and writes (of input). */
export type FakeAiUsage = {
  input: number;
  output: number;
  cacheRead?: number;
  cacheWrite?: number;
};

/** What the fake answers to one call. */
export type FakeAiReply =
  /**
   * A text answer (markdown or JSON text). Streamed replies split it into `chunks` deltas
   * (default 4). `cut`: the answer ends at the output limit, as each protocol says it
   * (`finish_reason: length`, an `incomplete` response for max_output_tokens, `stop_reason:
   * max_tokens`).
   */
  | {
      kind: 'text';
      text: string;
      usage?: FakeAiUsage;
      chunks?: number;
      cut?: boolean;
    }
  /** A structured answer: sent the way the protocol carries structured output for this request (tool_use for a forced Anthropic tool, else JSON text). */
  | { kind: 'json'; value: unknown; usage?: FakeAiUsage }
  /** An HTTP error with the protocol's own error body shape (OpenAI `{error:{message,type,code}}`, Anthropic `{type:'error',error:{type,message}}`), optional headers such as retry-after. */
  | { kind: 'error'; status: number; message?: string; headers?: Record<string, string> }
  /** Never finishes: non-streamed, the response is never sent; streamed, sends the headers and `afterChunks` (default 1) text deltas, then nothing more. Ends when the client disconnects or the server closes. */
  | { kind: 'stall'; afterChunks?: number }
  /** Streamed only: sends `afterChunks` (default 1) deltas then destroys the socket (a dropped stream). Non-streamed: destroys the socket before answering. */
  | { kind: 'drop'; afterChunks?: number };

/**
 * Decides the reply to each call; may return a promise that a test resolves later.
 *
 * @example
 * fake.respond((call) => (call.schema ? { kind: 'json', value: { title: 'T' } } : { kind: 'stall' }));
 */
export type FakeAiHandler = (call: FakeAiCall) => FakeAiReply | Promise<FakeAiReply>;

/** A running fake provider; see {@link startFakeAi}. */
export interface FakeAi {
  /** http://127.0.0.1:<port> */
  url: string;
  /** `${url}/v1` — the baseURL for createOpenAI, createAnthropic and createOpenAICompatible. */
  baseURL: string;
  /** Every call received, in order. */
  calls: FakeAiCall[];
  /** Calls currently being answered, and the most seen at once (for concurrency-limit tests). */
  inFlight: number;
  maxInFlight: number;
  /** Replaces the handler. The handler may return a promise a test resolves later, to hold a call deterministically. */
  respond(handler: FakeAiHandler): void;
  /** Resets calls (seq starts again at 1) and maxInFlight (to what is in flight now), and empties the prompt cache. */
  reset(): void;
  /** Stops the server; destroys open sockets, so stalled streams end at once. */
  close(): Promise<void>;
}

// biome-ignore lint/suspicious/noExplicitAny: request bodies are untyped JSON from three protocols
type Json = any;
const DEFAULT_USAGE: Usage = { input: 10, output: 5 };
const ROUTES: [suffix: string, protocol: FakeAiProtocol][] = [
  ['/v1/responses', 'openai-responses'],
  ['/v1/chat/completions', 'openai-chat'],
  ['/v1/messages', 'anthropic-messages'],
];
const PROMPT_ROLES = new Set(['system', 'developer', 'user', 'assistant']);
const SSE_HEADERS = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' };
const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  529: 'overloaded_error',
};

const defaultHandler: FakeAiHandler = (call) =>
  call.schema === undefined ? { kind: 'text', text: 'ok' } : { kind: 'json', value: {} };

/**
 * Starts a fake AI provider on an ephemeral port of 127.0.0.1 that speaks the OpenAI Responses,
 * OpenAI Chat Completions and Anthropic Messages wire protocols, so the real provider packages
 * run against it unchanged. Default handler: text answers "ok" (json answers {}) with usage
 * {input: 10, output: 5}; with `{ promptCache: true }`, usage counted and cached as the
 * providers do (see {@link FakeAiOptions}).
 *
 * @example
 * const fake = await startFakeAi(() => ({ kind: 'text', text: '# Title', usage: { input: 3, output: 2 } }));
 * const model = createOpenAI({ baseURL: fake.baseURL, apiKey: 'sk-test' })('gpt-4o-mini');
 * const { text } = await generateText({ model, prompt: 'Write a title', maxRetries: 0 });
 * await fake.close();
 */
export async function startFakeAi(
  handler: FakeAiHandler = defaultHandler,
  options: FakeAiOptions = {},
): Promise<FakeAi> {
  let current = handler;
  const cache = options.promptCache === true ? new PromptCache() : undefined;
  const calls: FakeAiCall[] = [];
  // The responses of recorded calls not yet closed: their count is what is in flight.
  const open = new Set<ServerResponse>();
  let seq = 0;
  let maxInFlight = 0;

  const serve = async (req: IncomingMessage, res: ServerResponse) => {
    // Tests make clients leave mid-answer (time-outs, aborts): a late write must not crash the run.
    res.on('error', () => {});
    const path = new URL(req.url ?? '/', 'http://fake').pathname;
    const protocol = ROUTES.find(([suffix]) => path.endsWith(suffix))?.[1];
    let raw = '';
    for await (const chunk of req.setEncoding('utf8')) raw += chunk;
    if (req.method !== 'POST' || protocol === undefined) {
      return sendJson(res, 404, errorBody('openai-chat', 404, `no route ${req.method} ${path}`));
    }
    let body: Json;
    try {
      body = JSON.parse(raw);
    } catch {
      return sendJson(res, 400, errorBody(protocol, 400, 'the request body is not JSON'));
    }
    const call = describeCall({ protocol, seq: ++seq, path, headers: req.headers, body });
    calls.push(call);
    open.add(res);
    maxInFlight = Math.max(maxInFlight, open.size);
    res.once('close', () => open.delete(res));
    // Looked up on arrival, kept once answered: a request the provider refuses caches nothing.
    const lookup = cache?.lookup(protocol, body);
    let reply: FakeAiReply;
    try {
      reply = await current(call);
    } catch (error) {
      reply = { kind: 'error', status: 500, message: `fake-ai handler threw: ${String(error)}` };
    }
    if (reply.kind !== 'error') lookup?.commit();
    if (!res.destroyed) answer(call, reply, res, cache && lookup && { cache, lookup });
  };

  const server = createServer((req, res) => {
    serve(req, res).catch(() => res.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    baseURL: `${url}/v1`,
    calls,
    get inFlight() {
      return open.size;
    },
    get maxInFlight() {
      return maxInFlight;
    },
    respond(next) {
      current = next;
    },
    reset() {
      calls.length = 0;
      seq = 0;
      maxInFlight = open.size;
      cache?.clear();
    },
    async close() {
      const closed = new Promise<void>((resolve, reject) => {
        server.close((error) => {
          // Closing twice (a test and its afterEach) is not worth failing over.
          if (error && (error as NodeJS.ErrnoException).code !== 'ERR_SERVER_NOT_RUNNING') {
            reject(error);
          } else resolve();
        });
      });
      // Stalled streams and keep-alive sockets would otherwise hold close() open.
      server.closeAllConnections();
      await closed;
      // A response's 'close' comes a tick after its socket's; wait, so inFlight reads 0 after.
      await Promise.all([...open].map((res) => (res.closed ? undefined : once(res, 'close'))));
    },
  };
}

function describeCall(
  recorded: Pick<FakeAiCall, 'protocol' | 'seq' | 'path' | 'headers' | 'body'>,
): FakeAiCall {
  const { protocol, body } = recorded;
  const max = body.max_output_tokens ?? body.max_completion_tokens ?? body.max_tokens;
  const schema = schemaOf(protocol, body);
  return {
    ...recorded,
    stream: body.stream === true,
    model: String(body.model ?? ''),
    prompt: promptOf(protocol, body),
    ...(schema === undefined ? {} : { schema }),
    ...(typeof max === 'number' ? { maxOutputTokens: max } : {}),
  };
}

function textsOf(content: unknown): string[] {
  if (typeof content === 'string') return [content];
  if (!Array.isArray(content)) return [];
  return content.flatMap((part) => (typeof part?.text === 'string' ? [part.text] : []));
}

function promptOf(protocol: FakeAiProtocol, body: Json): string {
  const texts = textsOf(protocol === 'anthropic-messages' ? body.system : body.instructions);
  let messages = protocol === 'openai-responses' ? body.input : body.messages;
  if (typeof messages === 'string') messages = [{ role: 'user', content: messages }];
  for (const message of Array.isArray(messages) ? messages : []) {
    if (PROMPT_ROLES.has(message?.role)) texts.push(...textsOf(message.content));
  }
  return texts.join('\n\n');
}

/** The tool an Anthropic request forces (the SDK's `json` tool for structured output), if any. */
function forcedTool({ protocol, body }: Pick<FakeAiCall, 'protocol' | 'body'>) {
  const choice = protocol === 'anthropic-messages' ? body.tool_choice : undefined;
  if (choice?.type !== 'any' && choice?.type !== 'tool') return undefined;
  const tools: Json[] = Array.isArray(body.tools) ? body.tools : [];
  const tool = tools.find(({ name }) => name === (choice.name ?? 'json')) ?? tools[0];
  return tool as { name: string; input_schema?: unknown } | undefined;
}

function schemaOf(protocol: FakeAiProtocol, body: Json): unknown {
  if (protocol === 'openai-responses') {
    return body.text?.format?.type === 'json_schema' ? body.text.format.schema : undefined;
  }
  if (protocol === 'openai-chat') {
    const format = body.response_format;
    return format?.type === 'json_schema' ? format.json_schema?.schema : undefined;
  }
  // The SDK sends `output_config.format` to models with native structured output, a forced
  // tool to the others; `output_format` is the older beta field of the same thing.
  return (
    forcedTool({ protocol, body })?.input_schema ??
    body.output_config?.format?.schema ??
    body.output_format?.schema
  );
}

/** Usage counted by the cache model: the request's input and cache figures, the answer's tokens. */
function countedUsage(
  { cache, lookup }: { cache: PromptCache; lookup: CacheLookup },
  answered: string,
): Usage {
  const { input, cacheRead, cacheWrite } = lookup;
  return { input, output: cache.count(answered), cacheRead, cacheWrite };
}

function answer(
  call: FakeAiCall,
  reply: FakeAiReply,
  res: ServerResponse,
  counting?: { cache: PromptCache; lookup: CacheLookup },
): void {
  if (reply.kind === 'error') {
    const message = reply.message ?? STATUS_CODES[reply.status] ?? 'error';
    sendJson(res, reply.status, errorBody(call.protocol, reply.status, message), reply.headers);
    return;
  }
  if (reply.kind === 'stall' || reply.kind === 'drop') {
    if (!call.stream) {
      if (reply.kind === 'drop') res.socket?.destroy();
      return;
    }
    const pieces = Array.from({ length: reply.afterChunks ?? 1 }, (_, i) => `partial ${i + 1} `);
    res.writeHead(200, SSE_HEADERS);
    res.flushHeaders();
    for (const frame of wireFor(call, { text: '' }, DEFAULT_USAGE).frames(pieces, false)) {
      res.write(frame);
    }
    const socket = res.socket;
    // end() flushes what was written, then the client sees the connection close mid-stream.
    if (reply.kind === 'drop') socket?.end(() => socket.destroy());
    return;
  }
  const tool = reply.kind === 'json' ? forcedTool(call) : undefined;
  const content: Content =
    reply.kind === 'text'
      ? { text: reply.text }
      : tool
        ? { tool: tool.name, input: reply.value }
        : { text: JSON.stringify(reply.value) };
  const whole = 'text' in content ? content.text : JSON.stringify(content.input);
  const usage =
    reply.usage ?? (counting === undefined ? DEFAULT_USAGE : countedUsage(counting, whole));
  const wire = wireFor(call, content, usage, reply.kind === 'text' && reply.cut === true);
  call.reported = {
    input: usage.input,
    cacheRead: usage.cacheRead ?? 0,
    cacheWrite: usage.cacheWrite ?? 0,
    output: usage.output,
  };
  if (!call.stream) {
    sendJson(res, 200, wire.body);
    return;
  }
  res.writeHead(200, SSE_HEADERS);
  for (const frame of wire.frames(split(whole, reply.kind === 'text' ? (reply.chunks ?? 4) : 4))) {
    res.write(frame);
  }
  res.end();
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers = {}): void {
  res.writeHead(status, { ...headers, 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

function errorBody(protocol: FakeAiProtocol, status: number, message: string): unknown {
  const type = ERROR_TYPES[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
  return protocol === 'anthropic-messages'
    ? { type: 'error', error: { type, message } }
    : { error: { message, type, param: null, code: type } };
}

function split(text: string, parts: number): string[] {
  const chars = Array.from(text);
  const size = Math.max(1, Math.ceil(chars.length / Math.max(1, parts)));
  const pieces: string[] = [];
  for (let i = 0; i < chars.length; i += size) pieces.push(chars.slice(i, i + size).join(''));
  return pieces.length > 0 ? pieces : [''];
}
