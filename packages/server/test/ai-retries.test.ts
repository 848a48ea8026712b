import { describe, expect, it } from 'vitest';
import { FAILURE_MESSAGES } from '../src/projects/result.ts';
import { documentPlan } from '../src/runs/catalogue.ts';
import {
  CHAIN,
  COMPATIBLE_KEY,
  competent,
  expectNoSecrets,
  generate,
  isDefinition,
  kindOf,
  respondWith,
  setupFor,
  usageOf,
} from './helpers/ai-harness.ts';
import type { FakeAiCall, FakeAiReply } from './helpers/fake-ai.ts';
import { answerPrompt } from './helpers/prompt-context.ts';

/**
 * Issue 7: the one retry policy for live generation, against the fake provider: the model
 * chain's fallback, 404s, a 429's retry-after, refused credentials, a corrected definition
 * that is still invalid, dropped streams, and the time-outs (streamed and not).
 */

describe('the retry policy and the model chain', () => {
  const s = setupFor(
    CHAIN,
    // Time-outs far above any answer's time, however loaded the machine: a competent call that
    // timed out would be retried and break the exact call counts below. The time-outs
    // themselves are tested under 'time-outs' with short ones.
    { timeoutMs: 30_000, idleTimeoutMs: 30_000, concurrency: 8 },
  );
  const start = (handler: (call: FakeAiCall) => FakeAiReply | Promise<FakeAiReply>) =>
    respondWith(s, handler);

  it('moves to the next model after three 5xx answers, and stays there for the rest of the run', async () => {
    start((call) =>
      call.model === 'primary'
        ? { kind: 'error', status: 503, message: 'overloaded' }
        : competent(call),
    );
    const { data, provenance } = await generate(s, { type: 'mcp' });
    expect(data.status).toBe('completed');
    const primary = s.fake.calls.filter((c) => c.model === 'primary');
    expect(primary).toHaveLength(3);
    expect(s.fake.calls.filter((c) => c.model === 'fallback')).toHaveLength(
      1 + documentPlan('mcp').length,
    );
    expect(provenance.definition).toMatchObject({ engine: 'anthropic:fallback', attempts: 4 });
    expect(
      provenance.documents.every((p: { engine: string }) => p.engine === 'anthropic:fallback'),
    ).toBe(true);
  });

  it('moves on at once when the model does not exist (404)', async () => {
    start((call) =>
      call.model === 'primary'
        ? { kind: 'error', status: 404, message: 'model not found' }
        : competent(call),
    );
    const { data } = await generate(s, { type: 'web' });
    expect(data.status).toBe('completed');
    expect(s.fake.calls.filter((c) => c.model === 'primary')).toHaveLength(1);
  });

  it("honours a 429's retry-after, then succeeds on the same model", async () => {
    let limited = false;
    start((call) => {
      if (!limited && call.model === 'primary') {
        limited = true;
        return {
          kind: 'error',
          status: 429,
          message: 'slow down',
          headers: { 'retry-after': '1' },
        };
      }
      return competent(call);
    });
    const { data, provenance } = await generate(s, { type: 'web' });
    expect(data.status).toBe('completed');
    expect(s.fake.calls.every((c) => c.model === 'primary')).toBe(true);
    expect(provenance.definition.attempts).toBe(2);
    const retried = s.logs.find((line) => line.startsWith('model call failed'));
    expect(retried).toContain('"reason":"rate-limited"');
    expect(retried).toContain('"status":429');
  });

  it('401: one call, the project fails at once with a refund, the log names the provider, never the key', async () => {
    start((call) =>
      call.model === 'primary'
        ? { kind: 'error', status: 401, message: `Incorrect API key provided: ${COMPATIBLE_KEY}` }
        : competent(call),
    );
    const before = await s.h.credits(s.key);
    const { data, body } = await generate(s, { type: 'web' });
    expect(data).toMatchObject({ status: 'failed', error: { message: FAILURE_MESSAGES.failure } });
    expect(s.fake.calls).toHaveLength(1);
    expect(await s.h.credits(s.key)).toEqual(before);
    expect(
      s.logs.some((line) => line.includes('openai-compatible:primary refused the credentials')),
    ).toBe(true);
    expectNoSecrets(s, body);
  });

  it('a model that still answers an invalid definition after its correction hands over to the next', async () => {
    start((call) => {
      if (call.model === 'primary' && isDefinition(call)) {
        const value = JSON.parse(answerPrompt(call.prompt));
        value.questionnaire.coreFeatures = [];
        return { kind: 'json', value, usage: usageOf(call) };
      }
      return competent(call);
    });
    const { data, provenance } = await generate(s, { type: 'web' });
    expect(data.status).toBe('completed');
    const definitions = s.fake.calls.filter(isDefinition).map((c) => c.model);
    expect(definitions).toEqual(['primary', 'primary', 'fallback']);
    expect(provenance.definition).toMatchObject({
      engine: 'anthropic:fallback',
      attempts: 3,
      repairs: 1,
    });
    expect(provenance.definition.initialFindings[0].message).toContain('coreFeatures');
    // The documents stay with the model that wrote the definition.
    expect(
      provenance.documents.every((p: { engine: string }) => p.engine === 'anthropic:fallback'),
    ).toBe(true);
  });

  it('a dropped stream is retried on the same model', async () => {
    let dropped = false;
    start((call) => {
      if (!dropped && !isDefinition(call)) {
        dropped = true;
        return { kind: 'drop', afterChunks: 1 };
      }
      return competent(call);
    });
    const { data, provenance } = await generate(s, { type: 'web' });
    expect(data.status).toBe('completed');
    expect(
      s.fake.calls.every((c) => c.model === 'primary'),
      s.logs.join('\n'),
    ).toBe(true);
    expect(
      provenance.documents.find((p: { kind: string }) => p.kind === 'project-brief').attempts,
    ).toBe(2);
  });
});

describe('time-outs', () => {
  describe('a stream that stops between chunks', () => {
    // Only the silence between chunks is short: the competent calls of the same run (the
    // definition, the brief) have all the time they need, so only the stalled one is retried.
    const s = setupFor(CHAIN, { timeoutMs: 30_000, idleTimeoutMs: 1_000, concurrency: 8 });
    const start = (handler: (call: FakeAiCall) => FakeAiReply | Promise<FakeAiReply>) =>
      respondWith(s, handler);

    it('a stalled stream times out on every model: failed, and the reservation refunded', async () => {
      start((call) =>
        isDefinition(call) || kindOf(call) === 'project-brief'
          ? competent(call)
          : { kind: 'stall', afterChunks: 1 },
      );
      const before = await s.h.credits(s.key);
      const { data, provenance } = await generate(s, { type: 'web' });
      expect(data).toMatchObject({
        status: 'failed',
        error: { code: 'generation_failed', message: FAILURE_MESSAGES.timeout },
      });
      expect(await s.h.credits(s.key)).toEqual(before);
      // Three attempts on each of the two models, for the one document that stalled.
      const stalled = s.fake.calls.filter((c) => kindOf(c) === 'product-requirements');
      expect(stalled.map((c) => c.model)).toEqual([
        'primary',
        'primary',
        'primary',
        'fallback',
        'fallback',
        'fallback',
      ]);
      expect(provenance.documents.map((p: { kind: string }) => p.kind)).toEqual(['project-brief']);
    });
  });

  describe('a model that never answers', () => {
    // Every call stalls, so a short total time-out cannot catch a competent answer.
    const s = setupFor(CHAIN, { timeoutMs: 1_000, idleTimeoutMs: 1_000, concurrency: 8 });
    const start = (handler: (call: FakeAiCall) => FakeAiReply | Promise<FakeAiReply>) =>
      respondWith(s, handler);

    it('a model that never answers (non-streamed) times out: failed and refunded', async () => {
      start(() => ({ kind: 'stall' }));
      const before = await s.h.credits(s.key);
      const { data } = await generate(s, { type: 'web' });
      expect(data).toMatchObject({
        status: 'failed',
        error: { message: FAILURE_MESSAGES.timeout },
      });
      expect(s.fake.calls).toHaveLength(6);
      expect(await s.h.credits(s.key)).toEqual(before);
    });
  });
});
