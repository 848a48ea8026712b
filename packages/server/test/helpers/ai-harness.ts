import { afterAll, beforeAll, expect } from 'vitest';
import type { CreatedKey } from '../../src/accounts/service.ts';
import type { ModelSpec, ProviderSettings } from '../../src/config.ts';
import { modelSelector } from '../../src/runs/models.ts';
import { type FakeAi, type FakeAiCall, type FakeAiReply, startFakeAi } from './fake-ai.ts';
import {
  type Backend,
  bearer,
  type Harness,
  type HarnessOptions,
  roomy,
  startHarness,
} from './harness.ts';
import { answerPrompt } from './prompt-context.ts';
import * as wait from './wait.ts';

/**
 * The real app and workers on PGlite, generating live keys' projects with the real provider
 * packages against a wire-protocol fake on loopback (see fake-ai.ts). By default the fake is
 * a competent model: it answers every PGS prompt with the offline engine's writing.
 */

export const OPENAI_KEY = 'sk-proj-FAKEOPENAIKEY0123456789abcdef';
export const ANTHROPIC_KEY = 'sk-ant-api03-FAKEANTHROPICKEY0123456789';
export const COMPATIBLE_KEY = 'local-FAKECOMPATKEY-0123456789';
export const SECRETS = [OPENAI_KEY, ANTHROPIC_KEY, COMPATIBLE_KEY];
export const IDEA =
  'A mentoring marketplace where junior designers book paid sessions with senior mentors';

/** Usage the fake reports for the n-th call: distinct per call, so sums are checked exactly. */
export const usageOf = (call: FakeAiCall) => ({ input: 1000 + call.seq, output: 200 + call.seq });

/** A competent model: answers every PGS prompt with the offline engine's writing. */
export function competent(call: FakeAiCall): FakeAiReply {
  const answer = answerPrompt(call.prompt);
  if (call.schema !== undefined)
    return { kind: 'json', value: JSON.parse(answer), usage: usageOf(call) };
  return { kind: 'text', text: answer, usage: usageOf(call) };
}

export const isDefinition = (call: FakeAiCall) => call.schema !== undefined;
/** The document kind a call writes, read from the prompt's context block. */
export const kindOf = (call: FakeAiCall) => /"kind": "([a-z-]+)"/.exec(call.prompt)?.[1];

/** {@link wait.waitFor} with the condition named first (30 s by default). */
export const waitFor = <T>(probe: () => Promise<T | undefined>, what: string, timeoutMs = 55_000) =>
  wait.waitFor(probe, { what, timeoutMs });

export interface Setup {
  h: Harness;
  fake: FakeAi;
  logs: string[];
  key: CreatedKey;
}

export async function setup(
  chain: ModelSpec[],
  options: {
    timeoutMs?: number;
    idleTimeoutMs?: number;
    concurrency?: number;
    testChain?: ModelSpec[];
    harness?: Partial<HarnessOptions>;
    backend?: Backend;
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
  const h = await startHarness(options.backend ?? 'pglite', {
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
    rules: roomy('status', 'create', 'credits'),
    ...options.harness,
  });
  const key = await h.createKey('live', { credits: 1_000 });
  return { h, fake, logs, key };
}

/** A setup for the enclosing `describe`: started before its tests, closed after them. */
export function setupFor(...args: Parameters<typeof setup>): Setup {
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

/** Creates a project with `s.key`, waits until it ends, and reads its provenance. */
export async function generate(s: Setup, body: Record<string, unknown>) {
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

/** No secret in any body given, nor in any captured log line. */
export function expectNoSecrets(s: Setup, ...bodies: string[]) {
  for (const text of [...bodies, ...s.logs]) {
    for (const secret of SECRETS) expect(text).not.toContain(secret);
  }
}

/** Resets the fake and the captured logs, then answers every call with `handler`. */
export function respondWith(
  s: Setup,
  handler: (call: FakeAiCall) => FakeAiReply | Promise<FakeAiReply>,
) {
  s.fake.reset();
  s.fake.respond(handler);
  s.logs.length = 0;
}

/** Two models: an OpenAI-compatible one, then Anthropic as the fallback. */
export const CHAIN: ModelSpec[] = [
  { provider: 'openai-compatible', model: 'primary' },
  { provider: 'anthropic', model: 'fallback' },
];
