import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { assertMatchesContract } from '@pgs/contract/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { Accounts } from '../src/accounts/service.ts';
import { createLogger } from '../src/api/logging.ts';
import { loadConfig } from '../src/config.ts';
import { priceOf, priceWithoutType } from '../src/runs/pricing.ts';
import { DEV_CREDITS, type Runtime, startRuntime } from '../src/runtime.ts';
import { competent } from './helpers/ai-harness.ts';
import { seedDataDir } from './helpers/database.ts';
import { startFakeAi } from './helpers/fake-ai.ts';
import { backends } from './helpers/harness.ts';
import { createTestDatabase } from './helpers/services.ts';
import { waitFor } from './helpers/wait.ts';

/**
 * Issue 10, item 6: `GET /metrics` of the real runtime (the wiring main.ts starts: app,
 * queue, workers on the offline engine), scraped before and after real projects, over HTTP.
 */

const ADMIN_TOKEN = 'metrics-test-admin-token-0123456789';
const cleanups: Array<() => Promise<void>> = [];

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
}, 60_000);

/** One sample of the exposition: its family name, labels and value. */
interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const NAME = '[a-zA-Z_:][a-zA-Z0-9_:]*';
const SAMPLE_LINE = new RegExp(`^(${NAME})(?:\\{(.*)\\})? (\\S+)$`);
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"(,|$)/y;

/**
 * Parses the Prometheus text format strictly: every line a HELP, a TYPE or a sample whose
 * family was declared, labels well formed, values numbers. Throws on anything else.
 */
function parseExposition(text: string): Sample[] {
  const types = new Map<string, string>();
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const meta = new RegExp(`^# (HELP|TYPE) (${NAME}) (.*)$`).exec(line);
    if (meta) {
      if (meta[1] === 'TYPE') {
        expect(['counter', 'gauge', 'histogram', 'summary', 'untyped']).toContain(meta[3]);
        types.set(meta[2]!, meta[3]!);
      }
      continue;
    }
    const match = SAMPLE_LINE.exec(line);
    if (!match) throw new Error(`not a sample line: ${line}`);
    const [, name, rawLabels = '', rawValue] = match;
    const family = name!.replace(/_(bucket|sum|count|total|created)$/, '');
    if (!types.has(name!) && !types.has(family)) throw new Error(`no TYPE for ${name}`);
    const labels: Record<string, string> = {};
    LABEL.lastIndex = 0;
    while (LABEL.lastIndex < rawLabels.length) {
      const label = LABEL.exec(rawLabels);
      if (!label) throw new Error(`bad labels in: ${line}`);
      labels[label[1]!] = label[2]!;
    }
    // Go's ParseFloat, which Prometheus uses, reads NaN and Inf in any case (prom-client
    // writes `Nan` for an event-loop lag not measured yet).
    const value = /^[+-]?inf$/i.test(rawValue!)
      ? rawValue!.startsWith('-')
        ? -Infinity
        : Infinity
      : Number(rawValue);
    if (Number.isNaN(value) && !/^nan$/i.test(rawValue!)) throw new Error(`bad value in: ${line}`);
    samples.push({ name: name!, labels, value });
  }
  return samples;
}

/** The value of the one sample with this name and (at least) these labels; 0 when absent. */
function sampleValue(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  const found = samples.filter(
    (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
  );
  expect(found.length, `${name} ${JSON.stringify(labels)} matches one sample`).toBeLessThanOrEqual(
    1,
  );
  return found[0]?.value ?? 0;
}

interface Reply {
  status: number;
  headers: Record<string, string>;
  body: string;
  // biome-ignore lint/suspicious/noExplicitAny: test reads of checked JSON
  json(): any;
}

async function started(backend: 'pglite' | 'postgres') {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'pgs-metrics-test-'));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  let databaseUrl: string | undefined;
  if (backend === 'postgres') {
    const created = await createTestDatabase();
    cleanups.push(created.drop);
    databaseUrl = created.url;
  } else await seedDataDir(dataDir);
  // Live keys generate with a provider: the fake on loopback, which reports its usage.
  const fake = await startFakeAi(competent);
  cleanups.push(() => fake.close());
  const config = loadConfig(
    {
      PGS_DATA_DIR: dataDir,
      PGS_ADMIN_TOKEN: ADMIN_TOKEN,
      PGS_STATUS_RATE_LIMIT: '100000',
      PGS_METRICS_PORT: '0',
      PGS_MODELS: 'openai-compatible:fake-model',
      PGS_OPENAI_COMPATIBLE_BASE_URL: fake.baseURL,
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    },
    dataDir,
  );
  const runtime: Runtime = await startRuntime(config, createLogger('silent'));
  cleanups.push(() => runtime.stop());
  const key =
    runtime.devKey ??
    (await new Accounts(runtime.database.db).createKey({ mode: 'test', credits: DEV_CREDITS })).key;
  const app = runtime.app!;
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

  /** One request over HTTP, its response checked against the contract. */
  const call = async (
    method: string,
    url: string,
    options: { token?: string | null; body?: unknown; headers?: Record<string, string> } = {},
  ): Promise<Reply> => {
    const token = options.token === undefined ? key : options.token;
    const res = await fetch(`${base}${url}`, {
      method,
      headers: {
        ...(token === null ? {} : { authorization: `Bearer ${token}` }),
        ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...options.headers,
      },
      ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
    });
    const headers: Record<string, string> = {};
    res.headers.forEach((value, name) => {
      headers[name] = value;
    });
    const reply = { statusCode: res.status, headers, body: await res.text() };
    assertMatchesContract(method, url, reply);
    return {
      status: res.status,
      headers,
      body: reply.body,
      json: () => JSON.parse(reply.body),
    };
  };
  const scrape = async () => {
    const res = await call('GET', '/metrics', { token: ADMIN_TOKEN });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    return { text: res.body, samples: parseExposition(res.body) };
  };
  const liveKey = (
    await new Accounts(runtime.database.db).createKey({ mode: 'live', credits: DEV_CREDITS })
  ).key;
  return { runtime, base, call, scrape, key, liveKey, fake };
}

describe.each(await backends())('GET /metrics of the real runtime on %s', (backend) => {
  // One runtime per backend, shared by the tests below (each compares before and after).
  let context: ReturnType<typeof started> | undefined;
  const runtime = () => {
    context ??= started(backend);
    return context;
  };

  it('refuses a scrape without the admin token, in the envelope', async () => {
    const { call } = await runtime();
    for (const token of [
      null,
      'not-the-admin-token',
      'pgs_test_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
    ]) {
      const res = await call('GET', '/metrics', { token });
      expect(res.status).toBe(401);
      const body = res.json();
      expect(body.success).toBe(false);
      expect(body.error.code).toBe('AUTHENTICATION_FAILED');
      expect(typeof body.error.message).toBe('string');
      expect(body.error.request_id).toBe(res.headers['x-request-id']);
      expect(res.body).not.toContain('pgs_http_request_duration_seconds');
    }
  }, 60_000);

  it('counts a project created and completed: credits, tokens, documents and requests by route, exactly', async () => {
    const { call, scrape } = await runtime();
    const before = await scrape();

    const created = await call('POST', '/api/v1/projects', {
      body: { idea: 'A web app where cycling clubs plan group rides and share routes.' },
    });
    expect(created.status).toBe(202);
    const projectId: string = created.json().data.projectId;
    // A long-poll until it completes (itself counted while held).
    const done = await waitFor(
      async () => {
        const res = await call('GET', `/api/v1/projects/${projectId}`, {
          headers: { prefer: 'wait=30' },
        });
        return res.json().data.status === 'in_progress' ? undefined : res;
      },
      { timeoutMs: 60_000, intervalMs: 10, what: 'the project to complete' },
    );
    const data = done.json().data;
    expect(data.status).toBe('completed');
    const provenance = (await call('GET', `/api/v1/projects/${projectId}/provenance`)).json().data;
    await call('GET', `/api/v1/no-such-route/${projectId}`);

    const after = await scrape();
    const delta = (name: string, labels: Record<string, string> = {}) =>
      sampleValue(after.samples, name, labels) - sampleValue(before.samples, name, labels);

    // Credits: the dearest type's price reserved (no type was asked), the documents of the
    // type chosen charged, the rest given back.
    const reserved = priceWithoutType();
    const consumed: number = data.metadata.creditsConsumed;
    expect(consumed).toBeGreaterThan(0);
    expect(delta('pgs_credits_reserved_total', { mode: 'test' })).toBe(reserved);
    expect(delta('pgs_credits_consumed_total', { mode: 'test' })).toBe(consumed);
    expect(delta('pgs_credits_refunded_total', { mode: 'test' })).toBe(reserved - consumed);
    expect(delta('pgs_credits_reserved_total', { mode: 'live' })).toBe(0);

    // Tokens: what the offline engine reported, as provenance recorded it.
    const records = [provenance.definition, ...provenance.documents];
    const sum = (field: 'inputTokens' | 'outputTokens') =>
      records.reduce((total: number, r: Record<string, number>) => total + r[field]!, 0);
    expect(sum('inputTokens')).toBeGreaterThan(0);
    const offline = { provider: 'offline', model: 'offline' };
    expect(delta('pgs_model_tokens_total', { ...offline, direction: 'input' })).toBe(
      sum('inputTokens'),
    );
    expect(delta('pgs_model_tokens_total', { ...offline, direction: 'output' })).toBe(
      sum('outputTokens'),
    );
    // The offline engine has no prompt cache.
    expect(delta('pgs_model_tokens_total', { ...offline, direction: 'cache_read' })).toBe(0);

    // One duration per document and one for the definition, by kind and engine.
    const kinds = ['definition', ...data.project.documents.map((d: { type: string }) => d.type)];
    expect(kinds.length).toBeGreaterThan(5);
    for (const kind of kinds) {
      expect(
        delta('pgs_generation_duration_seconds_count', { kind, engine: 'offline' }),
        kind,
      ).toBe(1);
    }

    // Requests by route pattern and status; never a raw id.
    const requests = (method: string, route: string, status: string) =>
      delta('pgs_http_request_duration_seconds_count', { method, route, status });
    expect(requests('POST', '/api/v1/projects', '202')).toBe(1);
    expect(requests('GET', '/api/v1/projects/:projectId', '200')).toBeGreaterThanOrEqual(1);
    expect(requests('GET', '/api/v1/projects/:projectId/provenance', '200')).toBe(1);
    expect(requests('GET', 'unmatched', '404')).toBe(1);
    // The scrape before this one was counted once it was answered.
    expect(requests('GET', '/metrics', '200')).toBe(1);
    expect(after.text).not.toContain(projectId);

    // The queue, read at scrape time: nothing waits, nothing runs.
    expect(
      sampleValue(after.samples, 'pgs_queue_jobs', { queue: 'pgs-generate', state: 'ready' }),
    ).toBe(0);
    expect(
      sampleValue(after.samples, 'pgs_queue_jobs', { queue: 'pgs-generate', state: 'active' }),
    ).toBe(0);
    expect(
      sampleValue(after.samples, 'pgs_queue_oldest_job_age_seconds', { queue: 'pgs-generate' }),
    ).toBe(0);
    // Process metrics are exported once per process.
    expect(sampleValue(after.samples, 'process_resident_memory_bytes')).toBeGreaterThan(0);
  }, 120_000);

  it("shows open event streams and long-polls while they are held, and a cancel's credits", async () => {
    const { call, scrape, base, key } = await runtime();
    const gauges = async () => {
      const { samples } = await scrape();
      return {
        streams: sampleValue(samples, 'pgs_event_streams_open'),
        longPolls: sampleValue(samples, 'pgs_long_polls_open'),
        samples,
      };
    };
    const before = await gauges();
    expect(before.streams).toBe(0);
    expect(before.longPolls).toBe(0);
    const balanceBefore: number = (await call('GET', '/api/v1/credits')).json().data.balance;

    const created = await call('POST', '/api/v1/projects', {
      body: {
        idea: 'A habit tracker for remote teams',
        type: 'web',
        simulate: { outcome: 'completed', durationMs: 600_000 },
      },
    });
    const projectId: string = created.json().data.projectId;
    const streamAbort = new AbortController();
    const stream = await fetch(`${base}/api/v1/projects/${projectId}/events`, {
      headers: { authorization: `Bearer ${key}` },
      signal: streamAbort.signal,
    });
    expect(stream.status).toBe(200);
    const longPoll = call('GET', `/api/v1/projects/${projectId}`, {
      headers: { prefer: 'wait=60' },
    });
    await waitFor(
      async () => {
        const now = await gauges();
        return now.streams === 1 && now.longPolls === 1 ? true : undefined;
      },
      { timeoutMs: 10_000, intervalMs: 20, what: 'one stream and one long-poll open' },
    );

    const cancelled = await call('POST', `/api/v1/projects/${projectId}/cancel`);
    expect(cancelled.status).toBe(200);
    expect((await longPoll).json().data.status).toBe('failed');
    // The stream ends with the project's final event.
    const streamed = await stream.text();
    expect(streamed).toContain('event: project.failed');
    const after = await waitFor(
      async () => {
        const now = await gauges();
        return now.streams === 0 && now.longPolls === 0 ? now : undefined;
      },
      { timeoutMs: 10_000, intervalMs: 20, what: 'the stream and long-poll closed' },
    );
    const balanceAfter: number = (await call('GET', '/api/v1/credits')).json().data.balance;
    const charged = balanceBefore - balanceAfter;
    const delta = (name: string) =>
      sampleValue(after.samples, name, { mode: 'test' }) -
      sampleValue(before.samples, name, { mode: 'test' });
    const price = created.json().data && delta('pgs_credits_reserved_total');
    expect(price).toBeGreaterThan(0);
    expect(delta('pgs_credits_consumed_total')).toBe(charged);
    expect(delta('pgs_credits_refunded_total')).toBe(price - charged);
  }, 120_000);

  it('serves the same metrics on PGS_METRICS_PORT, behind the same token', async () => {
    const { runtime: started, scrape } = await runtime();
    const server = started.metricsServer!;
    expect(server).toBeDefined();
    await server.listen({ port: 0, host: '127.0.0.1' });
    const address = server.server.address();
    const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/metrics`;
    const refused = await fetch(url);
    const refusal = {
      statusCode: refused.status,
      headers: Object.fromEntries(refused.headers),
      body: await refused.text(),
    };
    assertMatchesContract('GET', url, refusal);
    expect(refused.status).toBe(401);
    expect(JSON.parse(refusal.body).error.code).toBe('AUTHENTICATION_FAILED');
    const api = await scrape();
    const res = await fetch(url, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    expect(res.status).toBe(200);
    const samples = parseExposition(await res.text());
    // One registry: the counters the API's scrape showed are the same here.
    for (const name of ['pgs_credits_reserved_total', 'pgs_credits_consumed_total']) {
      expect(sampleValue(samples, name, { mode: 'test' })).toBe(
        sampleValue(api.samples, name, { mode: 'test' }),
      );
    }
    // The metrics port serves only /metrics.
    expect((await fetch(url.replace('/metrics', '/api/v1/credits'))).status).toBe(404);
  });

  it('counts the tokens a provider reported, by provider, exactly as it reported them', async () => {
    const { call, scrape, liveKey, fake } = await runtime();
    const before = await scrape();
    fake.reset();
    const created = await call('POST', '/api/v1/projects', {
      token: liveKey,
      body: { idea: 'A web app where cycling clubs plan group rides.', type: 'web' },
    });
    expect(created.status).toBe(202);
    const projectId: string = created.json().data.projectId;
    await waitFor(
      async () => {
        const res = await call('GET', `/api/v1/projects/${projectId}`, {
          token: liveKey,
          headers: { prefer: 'wait=30' },
        });
        return res.json().data.status === 'completed' ? true : undefined;
      },
      { timeoutMs: 60_000, intervalMs: 10, what: 'the live project to complete' },
    );
    const after = await scrape();
    const delta = (provider: string, direction: string) => {
      const model = provider === 'offline' ? 'offline' : 'fake-model';
      const labels = { provider, model, direction };
      return (
        sampleValue(after.samples, 'pgs_model_tokens_total', labels) -
        sampleValue(before.samples, 'pgs_model_tokens_total', labels)
      );
    };
    // The fake reports distinct usage per call (1000 + n in, 200 + n out).
    expect(fake.calls.length).toBeGreaterThan(5);
    const sent = (field: 'input' | 'output') =>
      fake.calls.reduce((sum, c) => sum + (field === 'input' ? 1000 : 200) + c.seq, 0);
    expect(delta('openai-compatible', 'input')).toBe(sent('input'));
    expect(delta('openai-compatible', 'output')).toBe(sent('output'));
    expect(delta('offline', 'input')).toBe(0);
    expect(
      sampleValue(after.samples, 'pgs_generation_duration_seconds_count', {
        kind: 'architecture',
        engine: 'openai-compatible:fake-model',
      }) -
        sampleValue(before.samples, 'pgs_generation_duration_seconds_count', {
          kind: 'architecture',
          engine: 'openai-compatible:fake-model',
        }),
    ).toBe(1);
    expect(
      sampleValue(after.samples, 'pgs_credits_reserved_total', { mode: 'live' }) -
        sampleValue(before.samples, 'pgs_credits_reserved_total', { mode: 'live' }),
    ).toBe(priceOf('web'));
  }, 120_000);
});
