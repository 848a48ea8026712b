import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { generateText, type LanguageModel, type ModelMessage, streamText } from 'ai';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FakeAi, type FakeAiCall, startFakeAi } from './helpers/fake-ai.ts';
import { PromptCache } from './helpers/fake-ai-cache.ts';

const API_KEY = 'sk-fake-test';
const SETTINGS = { maxOutputTokens: 256, maxRetries: 0 } as const;
const ANSWER = 'A short answer of a few tokens.';

/** Deterministic prose of about `tokens` o200k tokens (each word one token, or close). */
function prose(tokens: number, seed = 'alpha'): string {
  const words = ['project', 'model', 'cache', 'prompt', 'token', 'document', 'server', seed];
  return Array.from({ length: tokens }, (_, i) => words[(i * 7 + (i >> 3)) % words.length]).join(
    ' ',
  );
}

const tokensOf = (...texts: string[]) => texts.flatMap((text) => encode(text));
function commonPrefix(a: number[], b: number[]): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}
const lastCall = (fake: FakeAi): FakeAiCall => fake.calls.at(-1)!;

/** One request through the real provider package, streamed or not; the SDK's usage. */
async function ask(
  model: LanguageModel,
  request: { system?: string; messages: ModelMessage[]; providerOptions?: object },
  stream: boolean,
) {
  const options = { model, ...SETTINGS, ...request } as Parameters<typeof generateText>[0];
  if (!stream) return (await generateText(options)).usage;
  const result = streamText(options as Parameters<typeof streamText>[0]);
  await result.text;
  return result.usage;
}

let fake: FakeAi;
beforeAll(async () => {
  fake = await startFakeAi(() => ({ kind: 'text', text: ANSWER }), { promptCache: true });
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

// About 3,000 tokens, long enough that the common prefix is not a multiple of 64 either.
const SYSTEM = prose(3060);
const user = (text: string): ModelMessage[] => [{ role: 'user', content: text }];

describe.each([
  {
    name: 'OpenAI Responses',
    model: () => createOpenAI({ baseURL: fake.baseURL, apiKey: API_KEY })('gpt-4.1-mini'),
  },
  {
    name: 'OpenAI Chat',
    model: () => createOpenAI({ baseURL: fake.baseURL, apiKey: API_KEY }).chat('gpt-4.1-mini'),
  },
])('$name: automatic prefix caching', ({ model }) => {
  it.each([false, true])(
    'two requests sharing a 3,000-token prefix: the second reads the common prefix rounded down to 128 (streamed: %s)',
    async (stream) => {
      const first = await ask(
        model(),
        { system: SYSTEM, messages: user('Write the brief.') },
        stream,
      );
      const total = tokensOf(SYSTEM, 'Write the brief.').length;
      expect(lastCall(fake).reported).toEqual({
        input: total,
        cacheRead: 0,
        cacheWrite: 0,
        output: encode(ANSWER).length,
      });
      expect(first.inputTokens).toBe(total);
      expect(first.inputTokenDetails.cacheReadTokens).toBe(0);

      const second = await ask(
        model(),
        { system: SYSTEM, messages: user('Write the README.') },
        stream,
      );
      const lcp = commonPrefix(
        tokensOf(SYSTEM, 'Write the brief.'),
        tokensOf(SYSTEM, 'Write the README.'),
      );
      expect(lcp).toBeGreaterThan(3000);
      expect(lcp % 128).toBeGreaterThan(64);
      const cached = lcp - (lcp % 128);
      const input = tokensOf(SYSTEM, 'Write the README.').length;
      expect(lastCall(fake).reported).toMatchObject({ input, cacheRead: cached, cacheWrite: 0 });
      expect(second.inputTokens).toBe(input);
      expect(second.inputTokenDetails.cacheReadTokens).toBe(cached);
      expect(second.inputTokenDetails.noCacheTokens).toBe(input - cached);
      expect(second.outputTokens).toBe(encode(ANSWER).length);
    },
  );

  it('a different prompt_cache_key shares nothing; the same key does', async () => {
    const keyed = (promptCacheKey: string) => ({ openai: { promptCacheKey } });
    await ask(
      model(),
      { system: SYSTEM, messages: user('One.'), providerOptions: keyed('p-1') },
      false,
    );
    expect(lastCall(fake).body.prompt_cache_key).toBe('p-1');
    const other = await ask(
      model(),
      { system: SYSTEM, messages: user('Two.'), providerOptions: keyed('p-2') },
      false,
    );
    expect(other.inputTokenDetails.cacheReadTokens).toBe(0);
    expect(lastCall(fake).reported?.cacheRead).toBe(0);
    const same = await ask(
      model(),
      { system: SYSTEM, messages: user('Three.'), providerOptions: keyed('p-1') },
      false,
    );
    expect(same.inputTokenDetails.cacheReadTokens).toBeGreaterThanOrEqual(2944);
  });

  it('another model shares nothing', async () => {
    await ask(model(), { system: SYSTEM, messages: user('One.') }, false);
    const other = createOpenAI({ baseURL: fake.baseURL, apiKey: API_KEY })('gpt-4.1');
    const usage = await ask(other, { system: SYSTEM, messages: user('Two.') }, false);
    expect(usage.inputTokenDetails.cacheReadTokens).toBe(0);
  });

  it('a common prefix under 1,024 tokens is not cached', async () => {
    const short = prose(1000);
    await ask(model(), { system: short, messages: user(`One. ${prose(800, 'beta')}`) }, false);
    const usage = await ask(
      model(),
      { system: short, messages: user(`Two. ${prose(800, 'beta')}`) },
      false,
    );
    expect(lastCall(fake).reported?.input).toBeGreaterThan(1024);
    expect(usage.inputTokenDetails.cacheReadTokens).toBe(0);
  });
});

describe('Anthropic Messages: caching up to cache_control breakpoints', () => {
  const model = () =>
    createAnthropic({ baseURL: fake.baseURL, apiKey: API_KEY })('claude-sonnet-4-5');
  const LONG = prose(3000);
  const marked = (tail: string): ModelMessage[] => [
    {
      role: 'user',
      content: [
        {
          type: 'text',
          text: LONG,
          providerOptions: { anthropic: { cacheControl: { type: 'ephemeral' } } },
        },
        { type: 'text', text: tail },
      ],
    },
  ];

  it.each([false, true])(
    'without cache_control nothing is ever read or written (streamed: %s)',
    async (stream) => {
      for (const tail of ['One.', 'Two.', 'Two.']) {
        const usage = await ask(model(), { system: SYSTEM, messages: user(tail) }, stream);
        const input = tokensOf(SYSTEM, tail).length;
        expect(lastCall(fake).reported).toMatchObject({ input, cacheRead: 0, cacheWrite: 0 });
        expect(usage.inputTokens).toBe(input);
        expect(usage.inputTokenDetails).toMatchObject({
          noCacheTokens: input,
          cacheReadTokens: 0,
          cacheWriteTokens: 0,
        });
      }
    },
  );

  it.each([false, true])(
    'a marked first part: the first request writes it, the second (another tail) reads it (streamed: %s)',
    async (stream) => {
      const prefix = encode(LONG).length;
      const first = await ask(model(), { messages: marked('Write the brief.') }, stream);
      const body = lastCall(fake).body;
      expect(body.messages[0].content[0].cache_control).toEqual({ type: 'ephemeral' });
      const input1 = tokensOf(LONG, 'Write the brief.').length;
      expect(lastCall(fake).reported).toEqual({
        input: input1,
        cacheRead: 0,
        cacheWrite: prefix,
        output: encode(ANSWER).length,
      });
      expect(first.inputTokens).toBe(input1);
      expect(first.inputTokenDetails).toEqual({
        noCacheTokens: input1 - prefix,
        cacheReadTokens: 0,
        cacheWriteTokens: prefix,
      });

      const second = await ask(model(), { messages: marked('Write the README.') }, stream);
      const input2 = tokensOf(LONG, 'Write the README.').length;
      expect(lastCall(fake).reported).toMatchObject({
        input: input2,
        cacheRead: prefix,
        cacheWrite: 0,
      });
      expect(second.inputTokens).toBe(input2);
      expect(second.inputTokenDetails).toEqual({
        noCacheTokens: input2 - prefix,
        cacheReadTokens: prefix,
        cacheWriteTokens: 0,
      });
    },
  );

  it('reports as the API does: input_tokens without cached and written tokens, in the body and message_start', async () => {
    const raw = async (stream: boolean) => {
      const res = await fetch(`${fake.baseURL}/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          model: 'claude-sonnet-4-5',
          max_tokens: 16,
          stream,
          messages: [
            {
              role: 'user',
              content: [
                { type: 'text', text: LONG, cache_control: { type: 'ephemeral' } },
                { type: 'text', text: 'Tail.' },
              ],
            },
          ],
        }),
      });
      return stream ? res.text() : res.json();
    };
    const prefix = encode(LONG).length;
    const tail = encode('Tail.').length;
    expect((await raw(false)).usage).toEqual({
      input_tokens: tail,
      cache_creation_input_tokens: prefix,
      cache_read_input_tokens: 0,
      output_tokens: encode(ANSWER).length,
    });
    const streamed = (await raw(true)) as string;
    const start = JSON.parse(/event: message_start\ndata: (.*)\n/.exec(streamed)![1]!);
    expect(start.message.usage).toMatchObject({
      input_tokens: tail,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: prefix,
    });
  });

  it('a breakpoint under 1,024 tokens caches nothing', async () => {
    const short: ModelMessage[] = [
      {
        role: 'user',
        content: [
          {
            type: 'text',
            text: prose(900),
            providerOptions: { anthropic: { cacheControl: { type: 'ephemeral' } } },
          },
          { type: 'text', text: prose(900, 'beta') },
        ],
      },
    ];
    await ask(model(), { messages: short }, false);
    const usage = await ask(model(), { messages: short }, false);
    expect(usage.inputTokenDetails).toMatchObject({ cacheReadTokens: 0, cacheWriteTokens: 0 });
  });
});

describe('the Anthropic model: lookback and several breakpoints', () => {
  const text = (i: number) => `block ${i}: ${prose(120, `w${i}`)}`;
  /** A Messages body of `n` text blocks, `cache_control` on the given indexes. */
  const body = (n: number, marks: number[], from = 0) => ({
    model: 'claude-sonnet-4-5',
    messages: [
      {
        role: 'user',
        content: Array.from({ length: n }, (_, i) => ({
          type: 'text',
          text: text(i < 10 ? i : i + from),
          ...(marks.includes(i) ? { cache_control: { type: 'ephemeral' } } : {}),
        })),
      },
    ],
  });
  const upTo = (n: number) =>
    Array.from({ length: n + 1 }, (_, i) => encode(text(i)).length).reduce((a, b) => a + b, 0);

  it('reads a stored prefix 20 blocks before a breakpoint, not 21', () => {
    const cache = new PromptCache();
    cache.lookup('anthropic-messages', body(10, [9])).commit();
    // Blocks 0..9 as before, then others: a breakpoint at block 29 looks back to block 9.
    const near = cache.lookup('anthropic-messages', body(30, [29], 100));
    expect(near.cacheRead).toBe(upTo(9));
    expect(near.cacheWrite).toBe(near.input - upTo(9));
    const far = cache.lookup('anthropic-messages', body(31, [30], 100));
    expect(far.cacheRead).toBe(0);
    expect(far.cacheWrite).toBe(far.input);
  });

  it('an earlier breakpoint of the same request brings the lookback in reach', () => {
    const cache = new PromptCache();
    cache.lookup('anthropic-messages', body(10, [9])).commit();
    const hit = cache.lookup('anthropic-messages', body(40, [15, 39], 100));
    expect(hit.cacheRead).toBe(upTo(9));
    // Written: everything after the read up to the last breakpoint (block 39, the last).
    expect(hit.cacheWrite).toBe(hit.input - upTo(9));
  });

  it('a refused request leaves nothing: lookups are kept only on commit', () => {
    const cache = new PromptCache();
    cache.lookup('anthropic-messages', body(10, [9]));
    expect(cache.lookup('anthropic-messages', body(10, [9])).cacheRead).toBe(0);
  });
});

describe('with the option off', () => {
  let plain: FakeAi;
  beforeAll(async () => {
    plain = await startFakeAi();
  });
  afterAll(() => plain.close());

  it('usage stays {input: 10, output: 5}, with no cache fields on the wire, and is reported', async () => {
    const model = createOpenAI({ baseURL: plain.baseURL, apiKey: API_KEY })('gpt-4.1-mini');
    for (let i = 0; i < 2; i++) {
      const { usage } = await generateText({ model, ...SETTINGS, system: SYSTEM, prompt: 'Hi.' });
      expect(usage.inputTokens).toBe(10);
      expect(usage.inputTokenDetails.cacheReadTokens).toBe(0);
    }
    expect(plain.calls.map((call) => call.reported)).toEqual([
      { input: 10, cacheRead: 0, cacheWrite: 0, output: 5 },
      { input: 10, cacheRead: 0, cacheWrite: 0, output: 5 },
    ]);
    const res = await fetch(`${plain.baseURL}/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'claude-sonnet-4-5', max_tokens: 16, messages: user('Hi.') }),
    });
    expect(((await res.json()) as { usage: object }).usage).toEqual({
      input_tokens: 10,
      output_tokens: 5,
    });
  });

  it('a reply may state cache usage itself', async () => {
    plain.respond(() => ({
      kind: 'text',
      text: 'ok',
      usage: { input: 100, output: 3, cacheRead: 60, cacheWrite: 30 },
    }));
    const model = createAnthropic({ baseURL: plain.baseURL, apiKey: API_KEY })('claude-sonnet-4-5');
    const { usage } = await generateText({ model, ...SETTINGS, prompt: 'Hi.' });
    expect(usage.inputTokens).toBe(100);
    expect(usage.inputTokenDetails).toEqual({
      noCacheTokens: 10,
      cacheReadTokens: 60,
      cacheWriteTokens: 30,
    });
  });
});
