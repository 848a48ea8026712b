import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// Type-checks the example with the rest of the code; erased at run time.
import type {} from '../examples/quickstart.ts';
import {
  AuthenticationError,
  ConflictError,
  type FetchLike,
  InsufficientCreditsError,
  NotFoundError,
  Pgs,
  PgsAdmin,
  type PgsOptions,
  PollTimeoutError,
  type ProjectEvent,
  type ProjectInProgress,
  ValidationError,
} from '../src/index.ts';
import { cleanEnv, NODE, type RealServer, ROOT, sharedRealServer } from './pgs-server.ts';

// The SDK against the real server on an ephemeral port; `simulate` drives every state.
// Polls are paced with pollIntervalMs here to keep the tests short; the server's own
// pace (Retry-After, 10–30 s) is exercised by the README example below.

const IDEA = 'A habit tracker for remote teams';
const EXAMPLE = join(ROOT, 'packages/client/examples/quickstart.ts');
const README = join(ROOT, 'packages/client/README.md');

/** A fetch that counts the requests it sends. */
function countingFetch(): { fetch: FetchLike; count: () => number; statuses: number[] } {
  let n = 0;
  const statuses: number[] = [];
  return {
    fetch: async (input, init) => {
      n++;
      const response = await globalThis.fetch(input, init);
      statuses.push(response.status);
      return response;
    },
    count: () => n,
    statuses,
  };
}

describe('the SDK against the real server', () => {
  let server: RealServer;
  const pgs = (options: PgsOptions = {}) =>
    new Pgs({ apiKey: server.apiKey, baseUrl: server.url, ...options });

  beforeAll(async () => {
    server = await sharedRealServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('completed: progress while in_progress, then the project; a second read is revalidated (304)', async () => {
    const counter = countingFetch();
    const client = pgs({ fetch: counter.fetch });

    // Progress is watched on a project held in progress (a 10-minute simulation, cancelled
    // once two polls were seen), so a slow machine cannot finish it before the first poll.
    const held = await client.projects.create({
      idea: IDEA,
      simulate: { outcome: 'completed', durationMs: 600_000 },
    });
    expect(held).toMatchObject({
      status: 'in_progress',
      location: `${server.url}/api/v1/projects/${held.projectId}`,
      replayed: false,
    });
    expect(held.retryAfter).toBeGreaterThanOrEqual(10);
    expect(held.retryAfter).toBeLessThanOrEqual(30);
    const progress: ProjectInProgress[] = [];
    const enough = new AbortController();
    await expect(
      client.projects.waitForCompletion(held.projectId, {
        pollIntervalMs: 250,
        signal: enough.signal,
        onProgress: (status) => {
          progress.push(status);
          if (progress.length === 2) enough.abort();
        },
      }),
    ).rejects.toThrow();
    expect(progress.length).toBe(2);
    for (const status of progress) {
      expect(Object.keys(status).sort()).toEqual(['estimatedCompletionMs', 'projectId', 'status']);
    }
    const estimates = progress.map((s) => s.estimatedCompletionMs);
    expect(estimates[0]).toBeLessThanOrEqual(600_000);
    expect(estimates.at(-1)).toBeLessThan(estimates[0]!);
    await client.projects.cancel(held.projectId);

    const before = await client.credits.get();
    const created = await client.projects.create({
      idea: IDEA,
      simulate: { outcome: 'completed', durationMs: 1_500 },
    });
    const result = await client.projects.waitForCompletion(created.projectId, {
      pollIntervalMs: 250,
      maxWaitMs: 60_000,
    });
    expect(result.status).toBe('completed');
    if (result.status !== 'completed') return;
    expect(result.project.documents.length).toBeGreaterThanOrEqual(5);
    expect(result.project.documents.every((d) => d.filename.endsWith('.md'))).toBe(true);
    expect(result.metadata.documentsGenerated).toBe(result.project.documents.length);
    expect(result.metadata.creditsConsumed).toBeGreaterThan(0);

    // A completed project changes when a revision completes: each later read asks with
    // If-None-Match, and the server's 304 is answered from memory.
    const requests = counter.count();
    await expect(client.projects.get(created.projectId)).resolves.toEqual(result);
    await expect(client.projects.waitForCompletion(created.projectId)).resolves.toEqual(result);
    expect(counter.count()).toBe(requests + 2);
    expect(counter.statuses.slice(-2)).toEqual([304, 304]);

    const after = await client.credits.get();
    expect(after).toEqual({
      mode: 'test',
      balance: before.balance - result.metadata.creditsConsumed,
      reserved: 0,
    });
  });

  it('completed by the offline engine itself (no simulate), the type inferred', async () => {
    const client = pgs();
    const created = await client.projects.create({ idea: IDEA });
    const result = await client.projects.waitForCompletion(created.projectId, {
      pollIntervalMs: 200,
      maxWaitMs: 30_000,
    });
    expect(result.status).toBe('completed');
    if (result.status !== 'completed') return;
    expect(result.project.type).toBe('web');
    expect(result.project.questionnaire.targetAudience).toBeTruthy();
    expect(result.project.documents.map((d) => d.filename)).toContain('README.md');
  });

  it('failed: a result with generation_failed, and the credits come back', async () => {
    const client = pgs();
    const before = await client.credits.get();
    const created = await client.projects.create({
      idea: IDEA,
      simulate: { outcome: 'failed', durationMs: 300 },
    });
    const result = await client.projects.waitForCompletion(created.projectId, {
      pollIntervalMs: 200,
      maxWaitMs: 15_000,
    });
    expect(result).toMatchObject({
      projectId: created.projectId,
      status: 'failed',
      error: { code: 'generation_failed' },
    });
    if (result.status === 'failed') expect(result.error.message).toMatch(/refunded/);
    expect(await client.credits.get()).toEqual(before);
  });

  it('in_progress: get shows the estimate and the reservation; maxWaitMs ends the wait', async () => {
    const client = pgs();
    const created = await client.projects.create({
      idea: IDEA,
      type: 'mcp',
      name: 'Habit MCP',
      simulate: { outcome: 'completed', durationMs: 60_000 },
    });
    const status = await client.projects.get(created.projectId);
    expect(status.status).toBe('in_progress');
    if (status.status === 'in_progress') {
      expect(status.estimatedCompletionMs).toBeGreaterThan(50_000);
      expect(status.estimatedCompletionMs).toBeLessThanOrEqual(60_000);
    }
    expect((await client.credits.get()).reserved).toBeGreaterThanOrEqual(50);

    const error = (await client.projects
      .waitForCompletion(created.projectId, { pollIntervalMs: 100, maxWaitMs: 350 })
      .catch((e: unknown) => e)) as PollTimeoutError;
    expect(error).toBeInstanceOf(PollTimeoutError);
    expect(error.lastStatus).toMatchObject({
      projectId: created.projectId,
      status: 'in_progress',
    });
  });

  it('the same Idempotency-Key replays the first answer: one project, charged once', async () => {
    const client = pgs();
    const key = `test-${randomUUID()}`;
    const params = { idea: IDEA, simulate: { outcome: 'completed' as const, durationMs: 0 } };
    const first = await client.projects.create(params, { idempotencyKey: key });
    // Settled first: the reservation's unused part comes back when the project completes.
    await client.projects.waitForCompletion(first.projectId, { pollIntervalMs: 200 });
    const balance = (await client.credits.get()).balance;
    const second = await client.projects.create(params, { idempotencyKey: key });
    expect(second.projectId).toBe(first.projectId);
    expect(first.replayed).toBe(false);
    expect(second.replayed).toBe(true);
    expect((await client.credits.get()).balance).toBe(balance);
  });

  it('events() follows a project to project.completed; document() and archive() deliver it', async () => {
    const client = pgs();
    const { projectId } = await client.projects.create({
      idea: IDEA,
      simulate: { outcome: 'completed', durationMs: 1_500 },
    });
    const events: ProjectEvent[] = [];
    for await (const event of client.projects.events(projectId)) events.push(event);
    expect(events[0]?.type).toBe('status');
    expect(events.at(-1)).toMatchObject({
      type: 'project.completed',
      data: { status: 'completed' },
    });
    const ids = events.map((e) => Number(e.id));
    expect(ids.slice(1)).toEqual([...ids.slice(1)].sort((a, b) => a - b));
    const documents = events.filter((e) => e.type === 'document.completed');
    const final = events.at(-1);
    expect(final?.type === 'project.completed' && final.data.documentsGenerated).toBe(
      documents.length,
    );

    // A resume from the status event replays everything after it, nothing before.
    const resumed: ProjectEvent[] = [];
    for await (const event of client.projects.events(projectId, { lastEventId: events[0]!.id })) {
      resumed.push(event);
    }
    expect(resumed).toEqual(events.slice(1));

    const first = documents[0];
    if (first?.type !== 'document.completed') throw new Error('no document.completed event');
    const markdown = await client.projects.document(projectId, first.data.filename);
    const status = await client.projects.get(projectId);
    if (status.status !== 'completed') throw new Error(`unexpected ${status.status}`);
    expect(markdown).toBe(
      status.project.documents.find((d) => d.filename === first.data.filename)?.content,
    );
    await expect(client.projects.document(projectId, 'NOPE.md')).rejects.toThrow(NotFoundError);

    const zip = await client.projects.archive(projectId);
    expect([...zip.subarray(0, 4)]).toEqual([0x50, 0x4b, 0x03, 0x04]);
    const kiro = await client.projects.archive(projectId, { layout: 'kiro' });
    expect([...kiro.subarray(0, 4)]).toEqual([0x50, 0x4b, 0x03, 0x04]);
  });

  it('archive() of a project in progress is a ConflictError, answered once', async () => {
    const counter = countingFetch();
    const client = pgs({ fetch: counter.fetch });
    const { projectId } = await client.projects.create({
      idea: IDEA,
      simulate: { outcome: 'completed', durationMs: 60_000 },
    });
    const before = counter.count();
    const error = await client.projects.archive(projectId).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConflictError);
    expect(error).toMatchObject({
      code: 'PROJECT_NOT_COMPLETED',
      details: { status: 'in_progress' },
    });
    expect(counter.count() - before).toBe(1);
    await client.projects.cancel(projectId);
  });

  it('typed errors: 401, 404, 400 and 402 stop at once', async () => {
    const counter = countingFetch();
    const bad = new Pgs({
      apiKey: `pgs_test_${'x'.repeat(40)}`,
      baseUrl: `${server.url}/api/v1`,
      fetch: counter.fetch,
    });
    const unauthorized = await bad.projects
      .waitForCompletion(randomUUID())
      .catch((e: unknown) => e);
    expect(unauthorized).toBeInstanceOf(AuthenticationError);
    expect(unauthorized).toMatchObject({ status: 401, code: 'AUTHENTICATION_FAILED' });
    expect((unauthorized as AuthenticationError).requestId).toMatch(/^req_/);
    expect(counter.count()).toBe(1);

    const client = pgs();
    await expect(client.projects.waitForCompletion(randomUUID())).rejects.toBeInstanceOf(
      NotFoundError,
    );
    const malformed = await client.projects.get('not-a-uuid').catch((e: unknown) => e);
    expect(malformed).toBeInstanceOf(ValidationError);
    expect(Object.keys((malformed as ValidationError).invalidFields)).toContain('projectId');
    const short = await client.projects.create({ idea: 'short' }).catch((e: unknown) => e);
    expect(short).toBeInstanceOf(ValidationError);
    expect(Object.keys((short as ValidationError).invalidFields)).toContain('idea');

    const admin = new PgsAdmin({ adminToken: await server.adminToken(), baseUrl: server.url });
    const poor = await admin.keys.create({ mode: 'test', credits: 10 });
    const error = (await pgs({ apiKey: poor.key })
      .projects.create({ idea: IDEA })
      .catch((e: unknown) => e)) as InsufficientCreditsError;
    expect(error).toBeInstanceOf(InsufficientCreditsError);
    expect(error.details).toMatchObject({ available: 10 });
  });

  it('the README example is examples/quickstart.ts and runs as written (long-polls)', async () => {
    const readme = await readFile(README, 'utf8');
    const example = await readFile(EXAMPLE, 'utf8');
    const block = /```ts\n(import \{[\s\S]*?)```/.exec(readme)?.[1];
    expect(block).toBe(example);

    const run = await new Promise<{ code: number | null; stdout: string; stderr: string }>(
      (resolve, reject) => {
        const child = spawn(NODE, [EXAMPLE], {
          cwd: ROOT,
          env: { ...cleanEnv(), PGS_API_KEY: server.apiKey, PGS_BASE_URL: server.url },
        });
        let stdout = '';
        let stderr = '';
        child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
        child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
        child.on('error', reject);
        child.on('close', (code) => resolve({ code, stdout, stderr }));
      },
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^Created project [0-9a-f-]{36}$/);
    // The first long-poll is held until the project ends, so no in-progress line is printed.
    expect(lines.filter((l) => l.startsWith('in_progress'))).toEqual([]);
    expect(lines).toContainEqual(expect.stringMatching(/^\S.* \(web\), \d+ credits:$/));
    expect(lines.filter((l) => /^ {2}[A-Z_]+\.md$/.test(l)).length).toBeGreaterThanOrEqual(5);
  }, 150_000);
});
