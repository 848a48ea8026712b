import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  APIUserAbortError,
  ConflictError,
  type FetchLike,
  NotFoundError,
  Pgs,
  PgsError,
  TRACE_SEVERITIES,
  type Trace,
} from '../src/index.ts';
import { envelope, hang, json, startServer, type TestServer } from './http-server.ts';
import { type RealServer, sharedRealServer } from './pgs-server.ts';

// projects.trace: first against a small local server (the request, the errors, retries and
// the abort), then against the real one.

const KEY = 'pgs_test_abcdefghijklmnopqrstuvwxyz0123456789';
const ID = '7d0f2c8e-4a9b-4e43-9a55-0d2b8f1c6e21';
const IDEA = 'A habit tracker for remote teams';

const trace: Trace = {
  nodes: [
    {
      id: 'FR-1',
      kind: 'requirement',
      document: 'PRODUCT_REQUIREMENTS.md',
      section: 'Functional requirements',
      title: 'Track habits',
      line: 12,
      priority: 'must',
    },
    {
      id: 'T-1',
      kind: 'task',
      document: 'IMPLEMENTATION_PLAN.md',
      section: 'Tasks',
      title: 'Write the habit store',
    },
  ],
  edges: [{ from: 'T-1', to: 'FR-1', document: 'IMPLEMENTATION_PLAN.md', section: 'Tasks' }],
  coverage: {
    requirements: [
      {
        id: 'FR-1',
        title: 'Track habits',
        priority: 'must',
        criteria: [],
        stories: [],
        components: [],
        tasks: ['T-1'],
      },
    ],
    totals: {
      frs: 1,
      withCriterion: 0,
      withStory: 0,
      withComponent: 0,
      withTask: 1,
      musts: 1,
      mustsWithStory: 0,
    },
  },
  findings: [
    {
      rule: 'fr-without-criterion',
      severity: 'high',
      message: 'FR-1 ("Track habits") has no acceptance criteria.',
      document: 'PRODUCT_REQUIREMENTS.md',
      ids: ['FR-1'],
    },
  ],
};
const notCompleted = json(
  409,
  envelope('PROJECT_NOT_COMPLETED', 'The project is still in progress.', undefined, {
    resource_type: 'project',
    resource_id: ID,
    status: 'in_progress',
  }),
);

describe('projects.trace against a local server', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => server.close());
  const client = () => new Pgs({ apiKey: KEY, baseUrl: server.url, sleep: async () => {} });

  it('GETs /projects/{id}/trace as JSON and resolves with data', async () => {
    server.reply(json(200, { success: true, data: trace }, { etag: '"t-1"' }));
    expect(await client().projects.trace(ID)).toEqual(trace);
    expect(server.requests).toHaveLength(1);
    const [request] = server.requests;
    expect(request).toMatchObject({ method: 'GET', url: `/api/v1/projects/${ID}/trace` });
    expect(request?.headers.accept).toBe('application/json');
    expect(request?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(request?.headers['idempotency-key']).toBeUndefined();
  });

  it('encodes the id as one path segment and refuses an empty one before any request', async () => {
    server.reply(json(404, envelope('RESOURCE_NOT_FOUND', 'No project with this identifier.')));
    await expect(client().projects.trace('a/b')).rejects.toBeInstanceOf(NotFoundError);
    expect(server.requests[0]?.url).toBe('/api/v1/projects/a%2Fb/trace');
    server.reply(json(200, { success: true, data: trace }));
    await expect(client().projects.trace(' ')).rejects.toBeInstanceOf(PgsError);
    expect(server.requests).toHaveLength(0);
  });

  it('a project not completed is a ConflictError, asked once', async () => {
    server.reply(notCompleted);
    const error = await client()
      .projects.trace(ID)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConflictError);
    expect(error).toMatchObject({
      code: 'PROJECT_NOT_COMPLETED',
      details: { status: 'in_progress' },
    });
    expect(server.requests).toHaveLength(1);
  });

  it('retries a 503 and a 429, then resolves', async () => {
    server.reply(
      json(503, envelope('INTERNAL_ERROR', 'down')),
      json(429, envelope('RATE_LIMIT_EXCEEDED', 'slow down'), { 'retry-after': '1' }),
      json(200, { success: true, data: trace }),
    );
    expect(await client().projects.trace(ID)).toEqual(trace);
    expect(server.requests).toHaveLength(3);
  });

  it('an abort rejects with APIUserAbortError while the server has not answered', async () => {
    server.reply(hang);
    const controller = new AbortController();
    const pending = client().projects.trace(ID, { signal: controller.signal });
    await vi.waitFor(() => expect(server.requests).toHaveLength(1), { timeout: 20_000 });
    controller.abort();
    await expect(pending).rejects.toBeInstanceOf(APIUserAbortError);
  });

  it('TRACE_SEVERITIES lists every severity, the worst first', () => {
    expect(TRACE_SEVERITIES).toEqual(['critical', 'high', 'medium', 'low']);
  });
});

describe('projects.trace against the real server', () => {
  let server: RealServer;
  beforeAll(async () => {
    server = await sharedRealServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('a completed project: coverage per FR, totals that add up, findings worst first', async () => {
    const pgs = new Pgs({ apiKey: server.apiKey, baseUrl: server.url });
    const { projectId } = await pgs.projects.create({
      idea: IDEA,
      simulate: { outcome: 'completed', durationMs: 500 },
    });
    const done = await pgs.projects.waitForCompletion(projectId, { pollIntervalMs: 200 });
    expect(done.status).toBe('completed');

    const { nodes, edges, coverage, findings } = await pgs.projects.trace(projectId);
    const requirements = nodes.filter((node) => node.kind === 'requirement');
    expect(requirements.length).toBeGreaterThan(0);
    expect(coverage.requirements.map((fr) => fr.id)).toEqual(requirements.map((node) => node.id));
    const { totals } = coverage;
    const count = (key: 'criteria' | 'stories' | 'components' | 'tasks') =>
      coverage.requirements.filter((fr) => fr[key].length > 0).length;
    expect(totals).toMatchObject({
      frs: coverage.requirements.length,
      withCriterion: count('criteria'),
      withStory: count('stories'),
      withComponent: count('components'),
      withTask: count('tasks'),
    });
    for (const edge of edges) expect(typeof edge.to).toBe('string');
    const ranks = findings.map((finding) => TRACE_SEVERITIES.indexOf(finding.severity));
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
  });

  it('a project in progress is a ConflictError, answered once; an unknown id is a NotFoundError', async () => {
    let requests = 0;
    const counting: FetchLike = (input, init) => {
      requests++;
      return globalThis.fetch(input, init);
    };
    const pgs = new Pgs({ apiKey: server.apiKey, baseUrl: server.url, fetch: counting });
    const { projectId } = await pgs.projects.create({
      idea: IDEA,
      simulate: { outcome: 'completed', durationMs: 600_000 },
    });
    requests = 0;
    const error = await pgs.projects.trace(projectId).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConflictError);
    expect(error).toMatchObject({
      code: 'PROJECT_NOT_COMPLETED',
      details: { status: 'in_progress' },
    });
    expect(requests).toBe(1);
    await pgs.projects.cancel(projectId);
    await expect(pgs.projects.trace('00000000-0000-4000-8000-000000000000')).rejects.toBeInstanceOf(
      NotFoundError,
    );
  });
});
