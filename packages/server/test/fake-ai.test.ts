import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { APICallError } from '@ai-sdk/provider';
import { generateText, jsonSchema, type LanguageModel, Output, streamText } from 'ai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  type FakeAi,
  type FakeAiCall,
  type FakeAiProtocol,
  type FakeAiReply,
  startFakeAi,
} from './helpers/fake-ai.ts';

const API_KEY = 'sk-fake-test';
// maxOutputTokens: Anthropic warns without it for ids it does not know; maxRetries: 0 so an
// error reaches the test as the provider raised it, not wrapped in a RetryError.
const SETTINGS = { maxOutputTokens: 256, maxRetries: 0 } as const;

type Plan = { title: string; tags: string[] };
const PLAN_SCHEMA = {
  type: 'object',
  properties: { title: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } } },
  required: ['title', 'tags'],
  additionalProperties: false,
} as const;
const plan = () => Output.object({ schema: jsonSchema<Plan>(PLAN_SCHEMA) });

let fake: FakeAi;
beforeAll(async () => {
  fake = await startFakeAi();
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

interface Construction {
  name: string;
  protocol: FakeAiProtocol;
  model(): LanguageModel;
  /** Where this provider puts the structured-output schema in its request body. */
  schemaIn(body: FakeAiCall['body']): unknown;
}

const CONSTRUCTIONS: Construction[] = [
  {
    name: 'OpenAI Responses',
    protocol: 'openai-responses',
    model: () => createOpenAI({ baseURL: fake.baseURL, apiKey: API_KEY })('gpt-4o-mini'),
    schemaIn: (body) => body.text.format.type === 'json_schema' && body.text.format.schema,
  },
  {
    name: 'OpenAI Chat',
    protocol: 'openai-chat',
    model: () => createOpenAI({ baseURL: fake.baseURL, apiKey: API_KEY }).chat('gpt-4o-mini'),
    schemaIn: (body) =>
      body.response_format.type === 'json_schema' && body.response_format.json_schema.schema,
  },
  {
    name: 'OpenAI-compatible',
    protocol: 'openai-chat',
    // includeUsage: without it the request has no stream_options, so a stream reports no usage.
    model: () =>
      createOpenAICompatible({
        name: 'fake',
        baseURL: fake.baseURL,
        apiKey: API_KEY,
        supportsStructuredOutputs: true,
        includeUsage: true,
      })('fake-model'),
    schemaIn: (body) =>
      body.response_format.type === 'json_schema' && body.response_format.json_schema.schema,
  },
  {
    // Models with native structured output get `output_config.format`, answered with text.
    name: 'Anthropic (claude-sonnet-4-5, output_config)',
    protocol: 'anthropic-messages',
    model: () => createAnthropic({ baseURL: fake.baseURL, apiKey: API_KEY })('claude-sonnet-4-5'),
    schemaIn: (body) =>
      body.output_config.format.type === 'json_schema' && body.output_config.format.schema,
  },
  {
    // Older models get a forced tool named `json`, answered with a tool_use block.
    name: 'Anthropic (claude-sonnet-4-0, forced json tool)',
    protocol: 'anthropic-messages',
    model: () => createAnthropic({ baseURL: fake.baseURL, apiKey: API_KEY })('claude-sonnet-4-0'),
    schemaIn: (body) =>
      body.tool_choice.type === 'any' &&
      body.tools.find((tool: { name: string }) => tool.name === 'json').input_schema,
  },
];

/** The APICallError a call failed with; fails the test on success or on any other error. */
async function apiCallError(promise: PromiseLike<unknown>): Promise<APICallError> {
  const error = await Promise.resolve(promise).then(
    () => undefined,
    (reason: unknown) => reason,
  );
  if (!APICallError.isInstance(error)) {
    throw new Error(`expected an APICallError, got ${String(error)}`);
  }
  return error;
}

/** A handler that holds every call until `release()`; `arrived` resolves when `count` came. */
function holdCalls(count: number, reply: FakeAiReply) {
  const arrived = Promise.withResolvers<void>();
  const released = Promise.withResolvers<FakeAiReply>();
  let seen = 0;
  const handler = () => {
    seen += 1;
    if (seen === count) arrived.resolve();
    return released.promise;
  };
  return { handler, arrived: arrived.promise, release: () => released.resolve(reply) };
}

describe.each(CONSTRUCTIONS)('$name', ({ protocol, model, schemaIn }) => {
  it('answers a call with the scripted text and usage, and records what was asked', async () => {
    fake.respond(() => ({
      kind: 'text',
      text: '# Plan\n\nShip it.',
      usage: { input: 120, output: 34 },
    }));

    const result = await generateText({
      model: model(),
      system: 'You write launch plans.',
      prompt: 'Plan the launch of a kettle.',
      ...SETTINGS,
    });

    expect(result.text).toBe('# Plan\n\nShip it.');
    expect(result.usage.inputTokens).toBe(120);
    expect(result.usage.outputTokens).toBe(34);
    expect(result.finishReason).toBe('stop');
    expect(fake.calls).toHaveLength(1);
    const [call] = fake.calls;
    expect(call).toMatchObject({ protocol, seq: 1, stream: false, maxOutputTokens: 256 });
    expect(call?.prompt).toContain('You write launch plans.');
    expect(call?.prompt).toContain('Plan the launch of a kettle.');
    expect(call?.schema).toBeUndefined();
    if (protocol === 'anthropic-messages') expect(call?.headers['x-api-key']).toBe(API_KEY);
    else expect(call?.headers.authorization).toBe(`Bearer ${API_KEY}`);
  });

  it('streams the scripted text in deltas, with the scripted usage', async () => {
    fake.respond(() => ({
      kind: 'text',
      text: 'one two three four five six',
      usage: { input: 21, output: 13 },
      chunks: 3,
    }));

    const result = streamText({ model: model(), prompt: 'Count.', ...SETTINGS });
    const deltas: string[] = [];
    for await (const delta of result.textStream) deltas.push(delta);

    expect(deltas.length).toBe(3);
    expect(deltas.join('')).toBe('one two three four five six');
    expect(await result.text).toBe('one two three four five six');
    const usage = await result.usage;
    expect([usage.inputTokens, usage.outputTokens]).toEqual([21, 13]);
    expect(fake.calls[0]?.stream).toBe(true);
  });

  it('returns structured output, and the fake sees the schema', async () => {
    const value: Plan = { title: 'Kettle launch', tags: ['hardware', 'q3'] };
    fake.respond(() => ({ kind: 'json', value, usage: { input: 50, output: 9 } }));

    const result = await generateText({
      model: model(),
      prompt: 'Plan.',
      output: plan(),
      ...SETTINGS,
    });

    expect(result.output).toEqual(value);
    expect([result.usage.inputTokens, result.usage.outputTokens]).toEqual([50, 9]);
    const [call] = fake.calls;
    expect(call?.schema).toMatchObject({ type: 'object', required: ['title', 'tags'] });
    expect(schemaIn(call?.body)).toBe(call?.schema);
  });

  it('streams structured output', async () => {
    const value: Plan = { title: 'Streamed', tags: ['a', 'b', 'c'] };
    fake.respond(() => ({ kind: 'json', value, usage: { input: 8, output: 4 } }));

    const result = streamText({ model: model(), prompt: 'Plan.', output: plan(), ...SETTINGS });

    expect(await result.output).toEqual(value);
    expect((await result.usage).outputTokens).toBe(4);
    expect(fake.calls[0]?.schema).toMatchObject({ required: ['title', 'tags'] });
  });

  it('surfaces a 429 with retry-after as an APICallError', async () => {
    fake.respond(() => ({
      kind: 'error',
      status: 429,
      message: 'Slow down',
      headers: { 'retry-after': '7' },
    }));

    const error = await apiCallError(generateText({ model: model(), prompt: 'Hi.', ...SETTINGS }));

    expect(error.statusCode).toBe(429);
    expect(error.isRetryable).toBe(true);
    expect(error.message).toBe('Slow down');
    expect(error.responseHeaders?.['retry-after']).toBe('7');
  });

  it('surfaces a 401 as an APICallError', async () => {
    fake.respond(() => ({ kind: 'error', status: 401, message: 'Invalid API key' }));

    const error = await apiCallError(generateText({ model: model(), prompt: 'Hi.', ...SETTINGS }));

    expect(error.statusCode).toBe(401);
    expect(error.isRetryable).toBe(false);
    expect(error.message).toBe('Invalid API key');
  });

  it('ends a stalled stream with the chunk time-out (a TimeoutError DOMException)', async () => {
    fake.respond(() => ({ kind: 'stall', afterChunks: 1 }));

    const result = streamText({
      model: model(),
      prompt: 'Hi.',
      timeout: { chunkMs: 300 },
      ...SETTINGS,
    });
    const parts: string[] = [];
    for await (const part of result.fullStream) parts.push(part.type);

    // The stream itself does not throw: it closes with an 'abort' part, and the promises reject.
    expect(parts).toContain('text-delta');
    expect(parts.at(-1)).toBe('abort');
    await expect(result.text).rejects.toMatchObject({
      name: 'TimeoutError',
      message: 'Chunk timeout of 300ms exceeded',
    });
  });

  it('surfaces a dropped stream as a retryable APICallError with status 200', async () => {
    fake.respond(() => ({ kind: 'drop', afterChunks: 2 }));

    const result = streamText({ model: model(), prompt: 'Hi.', ...SETTINGS });
    const error = await apiCallError(result.text);

    expect(error.message).toBe('Failed to process successful response');
    expect(error.statusCode).toBe(200);
    expect(error.isRetryable).toBe(true);
    expect(error.cause).toMatchObject({ name: 'TypeError', message: 'terminated' });
  });
});

describe('stalls before the first delta', () => {
  // OpenAI Chat's doStream waits for the first output chunk before it returns, and the SDK
  // starts its first-chunk clock only then: such a stall is ended by totalMs alone.
  it.each([
    ['OpenAI Responses', 'First chunk timeout of 300ms exceeded'],
    ['OpenAI Chat', 'The operation was aborted due to timeout'],
    ['OpenAI-compatible', 'First chunk timeout of 300ms exceeded'],
    ['Anthropic (claude-sonnet-4-5, output_config)', 'First chunk timeout of 300ms exceeded'],
  ])('%s: %s', async (name, message) => {
    const construction = CONSTRUCTIONS.find((c) => c.name === name)!;
    fake.respond(() => ({ kind: 'stall', afterChunks: 0 }));

    const result = streamText({
      model: construction.model(),
      prompt: 'Hi.',
      timeout: { firstChunkMs: 300, totalMs: 1_000 },
      ...SETTINGS,
    });

    await expect(result.text).rejects.toMatchObject({ name: 'TimeoutError', message });
  });
});

describe('the fake', () => {
  const chat = () => createOpenAI({ baseURL: fake.baseURL, apiKey: API_KEY }).chat('gpt-4o-mini');

  it('answers "ok" with usage 10/5, and {} to structured calls, by default', async () => {
    const plain = await startFakeAi();
    try {
      const model = createAnthropic({ baseURL: plain.baseURL, apiKey: API_KEY })(
        'claude-sonnet-4-0',
      );
      const text = await generateText({ model, prompt: 'Hi.', ...SETTINGS });
      expect([text.text, text.usage.inputTokens, text.usage.outputTokens]).toEqual(['ok', 10, 5]);
      const object = await generateText({
        model,
        prompt: 'Hi.',
        output: Output.object({ schema: jsonSchema({ type: 'object' }) }),
        ...SETTINGS,
      });
      expect(object.output).toEqual({});
    } finally {
      await plain.close();
    }
  });

  it('ends a non-streamed stall with the total time-out (a TimeoutError DOMException)', async () => {
    fake.respond(() => ({ kind: 'stall' }));

    const error = await generateText({
      model: chat(),
      prompt: 'Hi.',
      timeout: { totalMs: 300 },
      ...SETTINGS,
    }).then(
      () => undefined,
      (reason: unknown) => reason,
    );

    expect(error).toBeInstanceOf(DOMException);
    expect(error).toMatchObject({
      name: 'TimeoutError',
      message: 'The operation was aborted due to timeout',
    });
  });

  it('surfaces a non-streamed drop as a retryable APICallError without a status', async () => {
    fake.respond(() => ({ kind: 'drop' }));

    const error = await apiCallError(generateText({ model: chat(), prompt: 'Hi.', ...SETTINGS }));

    expect(error.message).toBe('Cannot connect to API: other side closed');
    expect(error.statusCode).toBeUndefined();
    expect(error.isRetryable).toBe(true);
  });

  it('leaves a refused connection to surface as a retryable APICallError', async () => {
    const gone = await startFakeAi();
    await gone.close();
    const model = createOpenAI({ baseURL: gone.baseURL, apiKey: API_KEY }).chat('gpt-4o-mini');

    const error = await apiCallError(generateText({ model, prompt: 'Hi.', ...SETTINGS }));

    expect(error.message).toMatch(/^Cannot connect to API: connect ECONNREFUSED/);
    expect(error.statusCode).toBeUndefined();
    expect(error.isRetryable).toBe(true);
    expect(error.cause).toMatchObject({ code: 'ECONNREFUSED' });
  });

  it('holds calls until the test releases them, and counts them in flight', async () => {
    const held = holdCalls(2, { kind: 'text', text: 'released' });
    // Its own server: a time-out in an earlier test may still be closing a shared one's socket.
    const own = await startFakeAi(held.handler);
    try {
      const model = createOpenAI({ baseURL: own.baseURL, apiKey: API_KEY }).chat('gpt-4o-mini');
      const first = generateText({ model, prompt: 'First.', ...SETTINGS });
      const second = generateText({ model, prompt: 'Second.', ...SETTINGS });
      await held.arrived;

      expect(own.inFlight).toBe(2);
      expect(own.maxInFlight).toBe(2);
      expect(own.calls.map((call) => call.seq)).toEqual([1, 2]);
      held.release();
      expect((await first).text).toBe('released');
      expect((await second).text).toBe('released');
      expect(own.maxInFlight).toBe(2);
    } finally {
      await own.close();
    }
  });

  it('passes a call without credentials to the handler, which decides', async () => {
    fake.respond((call) =>
      call.headers.authorization === undefined
        ? { kind: 'error', status: 401, message: 'No API key' }
        : { kind: 'text', text: 'ok' },
    );

    const response = await fetch(`${fake.baseURL}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi.' }] }),
    });

    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: { message: 'No API key' } });
    expect(fake.calls[0]).toMatchObject({ protocol: 'openai-chat', prompt: 'Hi.', stream: false });
  });

  it('ends stalled streams on close(), leaving nothing in flight', async () => {
    const own = await startFakeAi(() => ({ kind: 'stall' }));
    const model = createOpenAI({ baseURL: own.baseURL, apiKey: API_KEY }).chat('gpt-4o-mini');
    const result = streamText({ model, prompt: 'Hi.', ...SETTINGS });
    // Wait for the first delta, so the stream is open when the server closes.
    const first = await result.textStream[Symbol.asyncIterator]().next();
    expect(first.value).toBe('partial 1 ');
    expect(own.inFlight).toBe(1);

    await own.close();

    expect(own.inFlight).toBe(0);
    const error = await apiCallError(result.text);
    expect(error.message).toBe('Failed to process successful response');
  });
});
