import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ConflictError,
  type FetchLike,
  NotFoundError,
  Pgs,
  type ProjectSummary,
  ValidationError,
} from '../src/index.ts';
import { envelope, json, startServer, type TestServer } from './http-server.ts';
import { type RealServer, sharedRealServer } from './pgs-server.ts';

// projects.list (a page that is also an async iterable over every page), projects.cancel
// and projects.delete: first against a small local server, then against the real one.

const KEY = 'pgs_test_abcdefghijklmnopqrstuvwxyz0123456789';
const IDEA = 'A habit tracker for remote teams';

const summary = (n: number): ProjectSummary => ({
  projectId: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  status: 'completed',
  name: `Project ${n}`,
  ideaExcerpt: 'A habit tracker for remote teams',
  type: 'web',
  createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, 60 - n)).toISOString(),
  completedAt: new Date(Date.UTC(2026, 0, 1, 0, 1, 60 - n)).toISOString(),
  creditsConsumed: 47,
  costUsd: 0,
  errorCode: null,
});
const page = (numbers: number[], hasMore: boolean) =>
  json(200, { success: true, data: numbers.map(summary), has_more: hasMore });

describe('list, cancel and delete against a local server', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => server.close());
  const client = () => new Pgs({ apiKey: KEY, baseUrl: server.url, sleep: async () => {} });

  it('await list(): one page with the query sent as the API names it', async () => {
    server.reply(page([1, 2], true));
    const first = await client().projects.list({
      limit: 2,
      status: 'completed',
      startingAfter: summary(0).projectId,
    });
    expect(first.data.map((p) => p.name)).toEqual(['Project 1', 'Project 2']);
    expect(first.hasMore).toBe(true);
    expect(server.requests.map((r) => [r.method, r.url])).toEqual([
      ['GET', `/api/v1/projects?limit=2&status=completed&starting_after=${summary(0).projectId}`],
    ]);
  });

  it('for await walks every page, each asked for after the last id of the one before', async () => {
    server.reply(page([1, 2], true), page([3, 4], true), page([5], false));
    const seen: string[] = [];
    for await (const project of client().projects.list({ limit: 2 })) {
      seen.push(project.name ?? '');
    }
    expect(seen).toEqual(['Project 1', 'Project 2', 'Project 3', 'Project 4', 'Project 5']);
    expect(server.requests.map((r) => r.url)).toEqual([
      '/api/v1/projects?limit=2',
      `/api/v1/projects?limit=2&starting_after=${summary(2).projectId}`,
      `/api/v1/projects?limit=2&starting_after=${summary(4).projectId}`,
    ]);
  });

  it('asks for nothing until awaited or iterated; stopping early asks for no more pages', async () => {
    server.reply(page([1, 2], true), page([3, 4], false));
    const pages = client().projects.list({ limit: 2 });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(server.requests).toHaveLength(0);
    for await (const project of pages) {
      expect(project.name).toBe('Project 1');
      break;
    }
    expect(server.requests).toHaveLength(1);
    const first = await pages; // the same first page, not asked for again
    expect(server.requests).toHaveLength(1);
    const second = await first.nextPage();
    expect(second?.data.map((p) => p.name)).toEqual(['Project 3', 'Project 4']);
    expect(await second?.nextPage()).toBeUndefined();
  });

  it('a refused cursor is a ValidationError naming starting_after', async () => {
    server.reply(
      json(
        400,
        envelope('VALIDATION_ERROR', 'starting_after is not one of your projects.', undefined, {
          invalid_fields: { starting_after: 'must be one of your projects' },
        }),
      ),
    );
    const error = await client()
      .projects.list({ startingAfter: summary(9).projectId })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(ValidationError);
    expect(Object.keys((error as ValidationError).invalidFields)).toEqual(['starting_after']);
  });

  it('cancel posts no body with an Idempotency-Key kept across retries, and remembers the result', async () => {
    const id = summary(7).projectId;
    const cancelled = {
      projectId: id,
      status: 'failed',
      error: { code: 'generation_cancelled', message: 'The project was cancelled. …' },
    };
    server.reply(
      json(503, envelope('INTERNAL_ERROR', 'down')),
      json(200, { success: true, data: cancelled }),
    );
    const pgs = client();
    expect(await pgs.projects.cancel(id)).toEqual(cancelled);
    const [first, retry] = server.requests;
    expect(first?.method).toBe('POST');
    expect(first?.url).toBe(`/api/v1/projects/${id}/cancel`);
    expect(first?.body).toBe('');
    expect(first?.headers['content-type']).toBeUndefined();
    expect(first?.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(retry?.headers['idempotency-key']).toBe(first?.headers['idempotency-key']);
    // Finished: read from memory.
    expect(await pgs.projects.get(id)).toEqual(cancelled);
    expect(server.requests).toHaveLength(2);
  });

  it('cancel of a finished project is a ConflictError with PROJECT_NOT_IN_PROGRESS', async () => {
    server.reply(
      json(
        409,
        envelope('PROJECT_NOT_IN_PROGRESS', 'The project is already completed.', undefined, {
          status: 'completed',
        }),
      ),
    );
    const error = await client()
      .projects.cancel(summary(8).projectId, { maxRetries: 0 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConflictError);
    expect(error).toMatchObject({
      code: 'PROJECT_NOT_IN_PROGRESS',
      details: { status: 'completed' },
    });
  });

  it('delete sends DELETE, accepts the empty 204 and forgets the cached project', async () => {
    const id = summary(6).projectId;
    const failed = {
      projectId: id,
      status: 'failed',
      error: { code: 'generation_failed', message: 'x' },
    };
    server.reply(
      json(200, { success: true, data: failed }),
      (_req, res) => {
        res.writeHead(204);
        res.end();
      },
      json(404, envelope('RESOURCE_NOT_FOUND', 'No project with this identifier exists.')),
    );
    const pgs = client();
    await pgs.projects.get(id);
    await expect(pgs.projects.delete(id)).resolves.toBeUndefined();
    expect(server.requests[1]).toMatchObject({ method: 'DELETE', url: `/api/v1/projects/${id}` });
    await expect(pgs.projects.get(id)).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe('list, cancel and delete against the real server', () => {
  let server: RealServer;
  beforeAll(async () => {
    server = await sharedRealServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('iterates every page of the real listing, newest first, then cancels and deletes', async () => {
    let requests = 0;
    const counting: FetchLike = (input, init) => {
      if (input.includes('/projects?') || input.endsWith('/projects')) requests++;
      return globalThis.fetch(input, init);
    };
    const pgs = new Pgs({ apiKey: server.apiKey, baseUrl: server.url, fetch: counting });
    const created: string[] = [];
    for (let i = 0; i < 5; i++) {
      const project = await pgs.projects.create({
        idea: `${IDEA}, number ${i + 1}`,
        type: 'web',
        simulate: { outcome: 'completed', durationMs: 600_000 },
      });
      created.push(project.projectId);
    }

    const listed: ProjectSummary[] = [];
    requests = 0;
    for await (const project of pgs.projects.list({ limit: 2 })) listed.push(project);
    expect(requests).toBe(3);
    // Newest first: creation order reversed (ties broken by id, which the server orders).
    expect(new Set(listed.map((p) => p.projectId))).toEqual(new Set(created));
    expect(listed).toHaveLength(5);
    const times = listed.map((p) => Date.parse(p.createdAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(listed.every((p) => p.status === 'in_progress' && p.type === 'web')).toBe(true);

    const first = await pgs.projects.list({ limit: 2, status: 'in_progress' });
    expect(first.data).toHaveLength(2);
    expect(first.hasMore).toBe(true);

    const before = await pgs.credits.get();
    const [target] = created;
    const cancelled = await pgs.projects.cancel(target!);
    expect(cancelled).toEqual({
      projectId: target,
      status: 'failed',
      error: {
        code: 'generation_cancelled',
        message:
          'The project was cancelled before any document was generated; nothing was charged.',
      },
    });
    expect((await pgs.credits.get()).balance).toBe(before.balance + 47);
    const again = await pgs.projects.cancel(target!, { maxRetries: 0 }).catch((e: unknown) => e);
    expect(again).toBeInstanceOf(ConflictError);
    expect(again).toMatchObject({ code: 'PROJECT_NOT_IN_PROGRESS' });

    // The others: deleting a running project cancels it (nothing generated yet, so nothing
    // charged) and removes it.
    for (const id of created) await pgs.projects.delete(id);
    await expect(pgs.projects.get(target!)).rejects.toBeInstanceOf(NotFoundError);
    await expect(pgs.projects.delete(target!)).rejects.toBeInstanceOf(NotFoundError);
    expect((await pgs.projects.list()).data).toEqual([]);
    expect(await pgs.credits.get()).toEqual({
      mode: 'test',
      balance: before.balance + 5 * 47,
      reserved: 0,
    });
  });
});
