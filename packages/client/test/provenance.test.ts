import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  APIUserAbortError,
  NotFoundError,
  type PartProvenance,
  Pgs,
  PgsError,
  type ProjectCompleted,
  type Provenance,
} from '../src/index.ts';
import { envelope, hang, json, startServer, type TestServer } from './http-server.ts';
import { type RealServer, startRealServer } from './pgs-server.ts';

const NO_TOTALS = {
  inputTokens: 0,
  cachedInputTokens: 0,
  cacheWriteTokens: 0,
  outputTokens: 0,
  costUsd: null,
};

// projects.provenance: first against a small local server (the request, the errors, retries
// and the abort), then against the real one.

const KEY = 'pgs_test_abcdefghijklmnopqrstuvwxyz0123456789';
const ID = '7d0f2c8e-4a9b-4e43-9a55-0d2b8f1c6e21';
const IDEA = 'A habit tracker for remote teams';

const part = (kind: string, extra: Partial<PartProvenance> = {}): PartProvenance => ({
  kind,
  engine: 'anthropic:claude-sonnet-4-5',
  promptVersion: `${kind}@1+system@1`,
  inputTokens: 1200,
  cachedInputTokens: 0,
  cacheWriteTokens: 0,
  outputTokens: 800,
  tokensUsed: 2000,
  costUsd: null,
  attempts: 1,
  repairs: 0,
  durationMs: 4200,
  initialFindings: [],
  findings: [],
  trimmedContext: [],
  createdAt: '2026-11-25T03:35:27.000Z',
  ...extra,
});

const provenance: Provenance = {
  projectId: ID,
  status: 'completed',
  detail: 'standard',
  requirementStyle: 'ears',
  conventionsVersion: null,
  language: null,
  writtenInEnglish: [],
  context: null,
  totals: NO_TOTALS,
  definition: part('definition', { promptVersion: 'definition@1+system@1' }),
  documents: [
    part('project-brief'),
    part('product-requirements', {
      attempts: 2,
      repairs: 1,
      initialFindings: [
        { rule: 'missing-section', severity: 'high', message: 'No "Functional requirements".' },
      ],
      findings: [{ rule: 'fr-without-task', severity: 'medium', message: 'FR-2 has no task.' }],
    }),
  ],
};

describe('projects.provenance against a local server', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => server.close());
  const client = () => new Pgs({ apiKey: KEY, baseUrl: server.url, sleep: async () => {} });

  it('GETs /projects/{id}/provenance as JSON and resolves with data', async () => {
    server.reply(json(200, { success: true, data: provenance }));
    expect(await client().projects.provenance(ID)).toEqual(provenance);
    expect(server.requests).toHaveLength(1);
    const [request] = server.requests;
    expect(request).toMatchObject({ method: 'GET', url: `/api/v1/projects/${ID}/provenance` });
    expect(request?.headers.accept).toBe('application/json');
    expect(request?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(request?.headers['idempotency-key']).toBeUndefined();
  });

  it('encodes the id as one path segment and refuses an empty one before any request', async () => {
    server.reply(json(404, envelope('RESOURCE_NOT_FOUND', 'No project with this identifier.')));
    await expect(client().projects.provenance('a/b')).rejects.toBeInstanceOf(NotFoundError);
    expect(server.requests[0]?.url).toBe('/api/v1/projects/a%2Fb/provenance');
    server.reply(json(200, { success: true, data: provenance }));
    await expect(client().projects.provenance(' ')).rejects.toBeInstanceOf(PgsError);
    expect(server.requests).toHaveLength(0);
  });

  it('retries a 503 and a 429, then resolves', async () => {
    server.reply(
      json(503, envelope('INTERNAL_ERROR', 'down')),
      json(429, envelope('RATE_LIMIT_EXCEEDED', 'slow down'), { 'retry-after': '1' }),
      json(200, { success: true, data: provenance }),
    );
    expect(await client().projects.provenance(ID)).toEqual(provenance);
    expect(server.requests).toHaveLength(3);
  });

  it('an abort rejects with APIUserAbortError while the server has not answered', async () => {
    server.reply(hang);
    const controller = new AbortController();
    const pending = client().projects.provenance(ID, { signal: controller.signal });
    await vi.waitFor(() => expect(server.requests).toHaveLength(1), { timeout: 20_000 });
    controller.abort();
    await expect(pending).rejects.toBeInstanceOf(APIUserAbortError);
  });
});

describe('projects.provenance against the real server', () => {
  let server: RealServer;
  beforeAll(async () => {
    server = await startRealServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('a completed project: the definition and one part per document, all by the offline engine', async () => {
    const pgs = new Pgs({ apiKey: server.apiKey, baseUrl: server.url });
    const { projectId } = await pgs.projects.create({
      idea: IDEA,
      simulate: { outcome: 'completed', durationMs: 500 },
    });
    const done = await pgs.projects.waitForCompletion(projectId, { pollIntervalMs: 200 });
    expect(done.status).toBe('completed');
    const { project } = done as ProjectCompleted;

    const read = await pgs.projects.provenance(projectId);
    expect(read).toMatchObject({ projectId, status: 'completed' });
    expect(read.definition?.kind).toBe('definition');
    expect(read.documents.map((d) => d.kind).sort()).toEqual(
      project.documents.map((d) => d.type).sort(),
    );
    // Without PGS_TEST_MODELS a test key's projects are written by the built-in engine.
    for (const p of [read.definition!, ...read.documents]) {
      expect(p.engine).toBe('offline');
      expect(p.attempts).toBeGreaterThanOrEqual(1);
      expect(p.tokensUsed).toBe(p.inputTokens + p.outputTokens);
      for (const finding of p.findings) {
        expect(['critical', 'high', 'medium', 'low']).toContain(finding.severity);
      }
    }
  });

  it('a project in progress has a provenance too; an unknown id is a NotFoundError', async () => {
    const pgs = new Pgs({ apiKey: server.apiKey, baseUrl: server.url });
    const { projectId } = await pgs.projects.create({
      idea: IDEA,
      simulate: { outcome: 'completed', durationMs: 600_000 },
    });
    const read = await pgs.projects.provenance(projectId);
    expect(read).toMatchObject({ projectId, status: 'in_progress' });
    for (const p of read.documents) expect(p.engine).toBe('offline');
    await pgs.projects.cancel(projectId);
    await expect(
      pgs.projects.provenance('00000000-0000-4000-8000-000000000000'),
    ).rejects.toBeInstanceOf(NotFoundError);
  });
});
