import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedKey } from '../src/accounts/service.ts';
import type { ModelSpec, ProviderSettings } from '../src/config.ts';
import { documentPlan, priceOf } from '../src/generation/catalogue.ts';
import { answerPrompt } from '../src/generation/engine/offline-model.ts';
import { modelSelector } from '../src/generation/models.ts';
import { documentPromptOf } from '../src/generation/prompts/documents/index.ts';
import { FAILURE_MESSAGES } from '../src/generation/result.ts';
import { type FakeAi, type FakeAiCall, type FakeAiReply, startFakeAi } from './helpers/fake-ai.ts';
import { bearer, type Harness, startHarness } from './helpers/harness.ts';

/**
 * Issue 7: live keys generate with real provider packages (OpenAI Responses, OpenAI-compatible
 * Chat Completions, Anthropic Messages) against a fake that speaks their wire protocols on
 * loopback; the one retry policy, fallback, time-outs, refusals, corrections, the quality
 * gate's repair, the concurrency limit, usage and provenance.
 */

const OPENAI_KEY = 'sk-proj-FAKEOPENAIKEY0123456789abcdef';
const ANTHROPIC_KEY = 'sk-ant-api03-FAKEANTHROPICKEY0123456789';
const COMPATIBLE_KEY = 'local-FAKECOMPATKEY-0123456789';
const SECRETS = [OPENAI_KEY, ANTHROPIC_KEY, COMPATIBLE_KEY];
const ROOMY = { points: 100_000, durationSec: 60, window: '1 minute' } as const;
const IDEA =
  'A mentoring marketplace where junior designers book paid sessions with senior mentors';

/** Usage the fake reports for the n-th call: distinct per call, so sums are checked exactly. */
const usageOf = (call: FakeAiCall) => ({ input: 1000 + call.seq, output: 200 + call.seq });

/** A competent model: answers every PGS prompt with the offline engine's writing. */
function competent(call: FakeAiCall): FakeAiReply {
  const answer = answerPrompt(call.prompt);
  if (call.schema !== undefined)
    return { kind: 'json', value: JSON.parse(answer), usage: usageOf(call) };
  return { kind: 'text', text: answer, usage: usageOf(call) };
}

const isDefinition = (call: FakeAiCall) => call.schema !== undefined;
/** The document kind a call writes, read from the prompt's context block. */
const kindOf = (call: FakeAiCall) => /"kind": "([a-z-]+)"/.exec(call.prompt)?.[1];

async function waitFor<T>(probe: () => Promise<T | undefined>, what: string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what} not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

interface Setup {
  h: Harness;
  fake: FakeAi;
  logs: string[];
  key: CreatedKey;
}

async function setup(
  chain: ModelSpec[],
  options: {
    timeoutMs?: number;
    idleTimeoutMs?: number;
    concurrency?: number;
    testChain?: ModelSpec[];
  } = {},
): Promise<Setup> {
  const fake = await startFakeAi(competent);
  const logs: string[] = [];
  const log = {
    info: (obj: object, msg: string) => logs.push(`${msg} ${JSON.stringify(obj)}`),
    warn: (obj: object, msg: string) => logs.push(`${msg} ${JSON.stringify(obj)}`),
  };
  const providers: ProviderSettings = {
    openai: { apiKey: OPENAI_KEY, baseURL: fake.baseURL },
    anthropic: { apiKey: ANTHROPIC_KEY, baseURL: fake.baseURL },
    'openai-compatible': { baseURL: fake.baseURL, apiKey: COMPATIBLE_KEY },
  };
  const h = await startHarness('pglite', {
    generation: 'workers',
    models: modelSelector({
      models: chain,
      testModels: options.testChain ?? [{ provider: 'offline', model: 'x' }],
      providers,
    }),
    caller: {
      retryDelayMs: 5,
      timeoutMs: options.timeoutMs ?? 20_000,
      idleTimeoutMs: options.idleTimeoutMs ?? 20_000,
      concurrency: options.concurrency ?? 8,
      secrets: SECRETS,
      log,
    },
    workflow: { log },
    rules: {
      status: { name: 'status', ...ROOMY },
      create: { name: 'create', ...ROOMY },
      credits: { name: 'credits', ...ROOMY },
    },
  });
  const key = await h.createKey('live', { credits: 1_000 });
  return { h, fake, logs, key };
}

/** A setup for the enclosing `describe`: started before its tests, closed after them. */
function setupFor(...args: Parameters<typeof setup>): Setup {
  const s = {} as Setup;
  beforeAll(async () => {
    Object.assign(s, await setup(...args));
  });
  afterAll(async () => {
    await s.h?.close();
    await s.fake?.close();
  });
  return s;
}

async function generate(s: Setup, body: Record<string, unknown>) {
  const created = await s.h.createProject(s.key, { idea: IDEA, ...body });
  expect(created.statusCode, created.body).toBe(202);
  const id = created.json().data.projectId as string;
  const res = await waitFor(async () => {
    const r = await s.h.getProject(s.key, id);
    return r.json().data.status === 'in_progress' ? undefined : r;
  }, `project ${id} finished`);
  const provenance = await s.h.request({
    method: 'GET',
    url: `/api/v1/projects/${id}/provenance`,
    headers: bearer(s.key.key),
  });
  expect(provenance.statusCode).toBe(200);
  return { id, data: res.json().data, body: res.body, provenance: provenance.json().data };
}

function expectNoSecrets(s: Setup, ...bodies: string[]) {
  for (const text of [...bodies, ...s.logs]) {
    for (const secret of SECRETS) expect(text).not.toContain(secret);
  }
}

const PROVIDERS: Array<[string, ModelSpec, FakeAiCall['protocol']]> = [
  ['OpenAI (Responses API)', { provider: 'openai', model: 'gpt-fake-1' }, 'openai-responses'],
  [
    'an OpenAI-compatible server (Chat Completions)',
    { provider: 'openai-compatible', model: 'llama-fake' },
    'openai-chat',
  ],
  [
    'Anthropic (Messages API)',
    { provider: 'anthropic', model: 'claude-fake' },
    'anthropic-messages',
  ],
];

describe.each(PROVIDERS)('a live project generated by %s', (_name, spec, protocol) => {
  const s = setupFor([spec]);

  it('writes every document with the model, from its structured definition and the full text of earlier documents', async () => {
    const { id, data, body, provenance } = await generate(s, { type: 'web' });
    expect(data.status).toBe('completed');
    const plan = documentPlan('web');
    const calls = s.fake.calls;
    expect(calls.every((c) => c.protocol === protocol && c.model === spec.model)).toBe(true);
    expect(calls).toHaveLength(1 + plan.length);

    // The definition: structured output with the schema sent to the provider; the
    // questionnaire is the model's answer.
    const definitionCall = calls.find(isDefinition)!;
    expect(definitionCall.stream).toBe(false);
    expect(JSON.stringify(definitionCall.schema)).toContain('targetAudience');
    const answered = JSON.parse(answerPrompt(definitionCall.prompt));
    expect(data.project.questionnaire).toEqual(answered.questionnaire);
    expect(data.project.name).toBe(answered.name);

    // Documents are streamed, each with its kind's output limit, and later ones carry
    // the full text of the documents they build on.
    const documents = data.project.documents as Array<{
      type: string;
      content: string;
      tokens_used: number;
    }>;
    expect(documents.map((d) => d.type).sort()).toEqual(plan.map((d) => d.kind).sort());
    for (const call of calls.filter((c) => !isDefinition(c))) {
      expect(call.stream).toBe(true);
      expect(call.maxOutputTokens).toBe(documentPromptOf(kindOf(call)!).maxOutputTokens);
    }
    const requirements = documents.find((d) => d.type === 'product-requirements')!;
    const architectureCall = calls.find((c) => !isDefinition(c) && kindOf(c) === 'architecture')!;
    expect(architectureCall.prompt).toContain(requirements.content.trim());
    const planCall = calls.find((c) => !isDefinition(c) && kindOf(c) === 'implementation-plan')!;
    for (const kind of [
      'product-requirements',
      'user-stories',
      'architecture',
      'api-design',
      'data-model',
    ]) {
      expect(planCall.prompt).toContain(documents.find((d) => d.type === kind)!.content.trim());
    }

    // tokens_used is the provider's reported usage of the call that wrote it.
    for (const doc of documents) {
      const call = calls.find((c) => !isDefinition(c) && kindOf(c) === doc.type)!;
      const usage = usageOf(call);
      expect(doc.tokens_used, doc.type).toBe(usage.input + usage.output);
    }

    // Provenance: engine, prompt version, usage, one attempt each, the gate passed.
    expect(provenance.projectId).toBe(id);
    expect(provenance.definition).toMatchObject({
      kind: 'definition',
      engine: `${spec.provider}:${spec.model}`,
      attempts: 1,
      repairs: 0,
    });
    expect(provenance.documents).toHaveLength(plan.length);
    for (const part of provenance.documents) {
      expect(part).toMatchObject({
        engine: `${spec.provider}:${spec.model}`,
        attempts: 1,
        repairs: 0,
        findings: [],
      });
      expect(part.promptVersion).toMatch(new RegExp(`^${part.kind}@\\d+\\+system@\\d+$`));
      const doc = documents.find((d) => d.type === part.kind)!;
      expect(part.tokensUsed).toBe(doc.tokens_used);
    }

    // Charged once, exactly the price.
    expect(data.metadata.creditsConsumed).toBe(priceOf('web'));
    expect(await s.h.credits(s.key)).toEqual({
      mode: 'live',
      balance: 1_000 - priceOf('web'),
      reserved: 0,
    });
    expectNoSecrets(s, body, JSON.stringify(provenance));
  });
});

describe('the retry policy and the model chain', () => {
  const s = setupFor(
    [
      { provider: 'openai-compatible', model: 'primary' },
      { provider: 'anthropic', model: 'fallback' },
    ],
    { timeoutMs: 1_000, idleTimeoutMs: 1_000, concurrency: 8 },
  );
  const start = (handler: (call: FakeAiCall) => FakeAiReply | Promise<FakeAiReply>) => {
    s.fake.reset();
    s.fake.respond(handler);
    s.logs.length = 0;
  };

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

  it('a model that never answers (non-streamed) times out: failed and refunded', async () => {
    start(() => ({ kind: 'stall' }));
    const before = await s.h.credits(s.key);
    const { data } = await generate(s, { type: 'web' });
    expect(data).toMatchObject({ status: 'failed', error: { message: FAILURE_MESSAGES.timeout } });
    expect(s.fake.calls).toHaveLength(6);
    expect(await s.h.credits(s.key)).toEqual(before);
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

describe('corrections and the quality gate', () => {
  const s = setupFor([{ provider: 'openai', model: 'gpt-fake-1' }]);

  it('an invalid structured answer is corrected once, with the validation errors', async () => {
    s.fake.reset();
    let first = true;
    s.fake.respond((call) => {
      if (isDefinition(call) && first) {
        first = false;
        const value = JSON.parse(answerPrompt(call.prompt));
        value.questionnaire.targetAudience = 'beekeepers';
        return { kind: 'json', value, usage: usageOf(call) };
      }
      return competent(call);
    });
    const { data, provenance } = await generate(s, {});
    expect(data.status).toBe('completed');
    const definitions = s.fake.calls.filter(isDefinition);
    expect(definitions).toHaveLength(2);
    expect(definitions[1]!.prompt).toContain('targetAudience');
    expect(definitions[1]!.prompt).toContain('did not pass validation');
    expect(data.project.questionnaire.targetAudience.split(' ').length).toBeGreaterThan(5);
    expect(provenance.definition).toMatchObject({ repairs: 1, attempts: 2 });
    expect(provenance.definition.initialFindings[0].rule).toBe('schema');
    const usage = definitions
      .map(usageOf)
      .reduce((a, b) => ({ input: a.input + b.input, output: a.output + b.output }));
    expect(provenance.definition).toMatchObject({
      inputTokens: usage.input,
      outputTokens: usage.output,
    });
  });

  it('a document the gate finds faults in is repaired once with the findings; tokens_used counts both calls', async () => {
    s.fake.reset();
    s.fake.respond((call) => {
      const reply = competent(call);
      if (
        reply.kind === 'text' &&
        kindOf(call) === 'architecture' &&
        !call.prompt.includes('A review of your document')
      ) {
        // Drop a required section and leave a placeholder.
        const faulty = reply.text
          .replace(/## Security[\s\S]*?(?=\n## )/, '')
          .replace(/\n## Deployment\n/, '\n## Deployment\n\nTBD.\n');
        return { ...reply, text: faulty };
      }
      return reply;
    });
    const { data, provenance } = await generate(s, { type: 'web' });
    expect(data.status).toBe('completed');
    const architecture = s.fake.calls.filter(
      (c) => !isDefinition(c) && kindOf(c) === 'architecture',
    );
    expect(architecture).toHaveLength(2);
    expect(architecture[1]!.prompt).toContain('"Security"');
    expect(architecture[1]!.prompt).toContain('TBD');
    const part = provenance.documents.find((p: { kind: string }) => p.kind === 'architecture');
    expect(part.repairs).toBe(1);
    expect(part.initialFindings.map((f: { rule: string }) => f.rule).sort()).toEqual([
      'missing-section',
      'placeholder',
    ]);
    expect(part.findings).toEqual([]);
    const doc = data.project.documents.find((d: { type: string }) => d.type === 'architecture');
    expect(doc.content).toContain('## Security');
    expect(doc.content).not.toContain('TBD');
    const sum = architecture.map(usageOf).reduce((a, b) => a + b.input + b.output, 0);
    expect(doc.tokens_used).toBe(sum);
  });

  it('a document still faulty after its repair is kept, its findings recorded, the project completed', async () => {
    s.fake.reset();
    s.fake.respond((call) => {
      const reply = competent(call);
      if (reply.kind === 'text' && kindOf(call) === 'readme')
        return { ...reply, text: `${reply.text}\n\nLicense: TBD\n` };
      return reply;
    });
    const { data, provenance } = await generate(s, { type: 'web' });
    expect(data.status).toBe('completed');
    const part = provenance.documents.find((p: { kind: string }) => p.kind === 'readme');
    expect(part).toMatchObject({ repairs: 1, attempts: 2 });
    expect(part.findings.map((f: { rule: string }) => f.rule)).toEqual(['placeholder']);
  });
});

describe('PGS_AI_CONCURRENCY', () => {
  it('never has more model calls in flight than the limit, across projects', async () => {
    const s = await setup([{ provider: 'openai', model: 'gpt-fake-1' }], { concurrency: 2 });
    try {
      // Hold every call until two are in flight together, so the limit is reached for sure.
      let open!: () => void;
      const reached = new Promise<void>((resolve) => {
        open = resolve;
      });
      s.fake.respond(async (call) => {
        if (s.fake.inFlight >= 2) open();
        await reached;
        return competent(call);
      });
      const results = await Promise.all([
        generate(s, { type: 'web' }),
        generate(s, { type: 'mcp' }),
        generate(s, { type: 'mobile' }),
      ]);
      expect(results.map((r) => r.data.status)).toEqual(['completed', 'completed', 'completed']);
      expect(s.fake.maxInFlight).toBe(2);
    } finally {
      await s.h.close();
      await s.fake.close();
    }
  });
});

describe('test keys', () => {
  it('use PGS_TEST_MODELS when it names a provider, but a simulation never calls one', async () => {
    const spec: ModelSpec = { provider: 'anthropic', model: 'claude-test' };
    const s = await setup([{ provider: 'openai', model: 'gpt-fake-1' }], { testChain: [spec] });
    try {
      s.key = await s.h.createKey('test', { credits: 1_000 });
      const real = await generate(s, { type: 'web' });
      expect(real.data.status).toBe('completed');
      expect(s.fake.calls).toHaveLength(1 + documentPlan('web').length);
      expect(s.fake.calls.every((c) => c.model === 'claude-test')).toBe(true);
      expect(real.provenance.definition.engine).toBe('anthropic:claude-test');

      s.fake.reset();
      const simulated = await generate(s, {
        type: 'web',
        simulate: { outcome: 'completed', durationMs: 50 },
      });
      expect(simulated.data.status).toBe('completed');
      expect(s.fake.calls).toHaveLength(0);
      expect(simulated.provenance.definition.engine).toBe('offline');
    } finally {
      await s.h.close();
      await s.fake.close();
    }
  });
});

describe('GET /api/v1/projects/{projectId}/provenance', () => {
  const s = setupFor([{ provider: 'openai', model: 'gpt-fake-1' }]);

  it("answers 404 RESOURCE_NOT_FOUND for another account's project and for the other mode's key", async () => {
    const { id } = await generate(s, { type: 'web' });
    const stranger = await s.h.createKey('live');
    const sameAccountTest = await s.h.createKey('test', { accountId: s.key.accountId });
    for (const key of [stranger, sameAccountTest]) {
      const res = await s.h.request({
        method: 'GET',
        url: `/api/v1/projects/${id}/provenance`,
        headers: bearer(key.key),
      });
      expect(res.statusCode).toBe(404);
      expect(res.json().error).toMatchObject({
        code: 'RESOURCE_NOT_FOUND',
        details: { resource_type: 'project', resource_id: id },
      });
    }
  });

  it('answers 401 without a key and 400 for an id that is not a UUID', async () => {
    const unauthenticated = await s.h.request({
      method: 'GET',
      url: '/api/v1/projects/6f1c9a52-1f7e-4b1e-9c55-2d1f0c8e7a10/provenance',
    });
    expect(unauthenticated.statusCode).toBe(401);
    const invalid = await s.h.request({
      method: 'GET',
      url: '/api/v1/projects/not-a-uuid/provenance',
      headers: bearer(s.key.key),
    });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().error.code).toBe('VALIDATION_ERROR');
  });

  it('lists the definition and each document while the project is still in progress', async () => {
    s.fake.reset();
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    // Hold the requirements call: the definition and the brief are stored, nothing after.
    s.fake.respond(async (call) => {
      if (kindOf(call) === 'product-requirements' && !isDefinition(call)) await held;
      return competent(call);
    });
    const created = await s.h.createProject(s.key, { idea: IDEA, type: 'web' });
    const id = created.json().data.projectId as string;
    const read = async () =>
      (
        await s.h.request({
          method: 'GET',
          url: `/api/v1/projects/${id}/provenance`,
          headers: bearer(s.key.key),
        })
      ).json().data;
    const partial = await waitFor(async () => {
      const data = await read();
      return data.documents.length === 1 ? data : undefined;
    }, 'the brief stored');
    expect(partial).toMatchObject({ projectId: id, status: 'in_progress' });
    expect(partial.definition.kind).toBe('definition');
    expect(partial.documents[0].kind).toBe('project-brief');
    release();
    await waitFor(
      async () => ((await read()).status === 'completed' ? true : undefined),
      'completion',
    );
  });
});
