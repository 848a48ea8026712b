import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openapiDocument } from '@pgs/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FuzzApp, startFuzzApp } from '../fuzz/fuzz-app.ts';

/**
 * Issue 11 item 5, OWASP API9 (improper inventory): every route the app serves is in the
 * OpenAPI document, or listed here as not part of the API with the reason. The routes come
 * from the app's onRoute hook, console included, so a new route fails this test until it
 * is documented or listed.
 */

/** Routes that are not API operations, and why they are not in the contract. */
const NOT_API: Record<string, string> = {
  'GET /health': 'liveness probe for load balancers and orchestrators; no data, no auth',
  'GET /openapi.json': 'serves the contract itself',
  'GET /docs/errors': 'the human-readable error reference that error.documentation links to',
  'GET /metrics':
    'Prometheus exposition for operators (admin token), text format outside the JSON API',
  'GET /': 'the web console page (HTML), a client of the API rather than part of it',
  'GET /assets/:file': 'the console’s static assets (hashed file names, JS and CSS)',
  'POST /mcp':
    'the Model Context Protocol endpoint (docs/mcp.md): JSON-RPC over Streamable HTTP, whose operations are MCP tools and resources, not REST resources; its errors use the envelope',
};

type Method = 'get' | 'post' | 'delete' | 'put' | 'patch';

/** `/api/v1/projects/:projectId` and the server bases → the contract's `/projects/{projectId}`. */
function contractOperation(method: string, url: string): string | undefined {
  const paths = openapiDocument.paths as unknown as Record<
    string,
    Partial<Record<Method, { operationId: string }>> & { servers?: { url: string }[] }
  >;
  const rootBases = (openapiDocument.servers as unknown as { url: string }[]).map(
    (server) => new URL(server.url).pathname,
  );
  for (const [template, item] of Object.entries(paths)) {
    const bases = item.servers?.map((server) => new URL(server.url).pathname) ?? rootBases;
    for (const base of bases) {
      const pattern = `${base}${template}`.replace(/\{(\w+)\}/g, ':$1');
      if (pattern !== url) continue;
      const operation = item[method.toLowerCase() as Method];
      if (operation) return operation.operationId;
    }
  }
  return undefined;
}

describe('every route is in the OpenAPI document', () => {
  let fuzz: FuzzApp;
  let consoleDir: string;
  beforeAll(async () => {
    // An empty console directory: the console's routes are registered all the same.
    consoleDir = await mkdtemp(path.join(tmpdir(), 'pgs-console-'));
    fuzz = await startFuzzApp({ consoleDir });
  });
  afterAll(async () => {
    await fuzz?.close();
    await rm(consoleDir, { recursive: true, force: true });
  });

  it('documents each API route under its own operationId, and lists the rest with a reason', () => {
    const problems: string[] = [];
    for (const route of fuzz.routes) {
      // HEAD is answered like GET (Fastify adds it); the contract documents the GET.
      if (
        route.method === 'HEAD' &&
        fuzz.routes.some((r) => r.method === 'GET' && r.url === route.url)
      ) {
        continue;
      }
      const name = `${route.method} ${route.url}`;
      const documented = contractOperation(route.method, route.url);
      if (NOT_API[name] !== undefined) {
        if (documented)
          problems.push(`${name} is in the contract (${documented}): take it off NOT_API`);
        continue;
      }
      if (documented === undefined) {
        problems.push(
          `${name} (operationId ${route.operationId ?? 'none'}) is not in openapi/pgs.openapi.yaml`,
        );
      } else if (documented !== route.operationId) {
        problems.push(
          `${name}: the route says operationId ${route.operationId}, the contract ${documented}`,
        );
      }
    }
    expect(problems).toEqual([]);
  });

  it('refuses a query parameter it does not read on every operation, getProjectStatus aside', async () => {
    const { targets, keys, adminToken } = fuzz;
    const [project] = targets.ownProjects;
    /** A real target for each path parameter, so nothing but the probe can be refused. */
    const values: Record<string, string> = {
      projectId: project!,
      revision: '1',
      filename: targets.filenames[0]!,
      endpointId: targets.ownEndpoints[0]!,
      accountId: targets.accounts[0]!,
      keyId: targets.spareKeyIds[0]!,
      taskId: 'T-1',
      checkId: `chk_${'0'.repeat(26)}`,
      syncId: `sync_${'0'.repeat(26)}`,
      connectionId: targets.ownConnections[0]!,
      version: '1',
    };
    // Valid bodies: Fastify validates the body before the query.
    const bodies: Record<string, unknown> = {
      createProject: { idea: 'A shared calendar for allotment gardeners and their tools.' },
      clarifyIdea: { idea: 'A shared calendar for allotment gardeners and their tools.' },
      putConventions: {},
      createRevision: { changeRequest: 'Add a waiting list for tools.' },
      answerProjectQuestions: { answers: { 'Q-1': 'Yes' } },
      createWebhookEndpoint: { url: 'https://93.184.215.16/pgs' },
      adminCreateAccount: {},
      adminCreateKey: { mode: 'test', accountId: targets.accounts[0] },
      adminGrantCredits: { accountId: targets.accounts[0], mode: 'test', amount: 1 },
      claimNextTask: { agent: 'probe' },
      updateTask: { note: 'probe' },
      renewTaskLease: { agent: 'probe' },
      createConformanceCheck: {
        context: { repository: { name: 'probe', files: [{ path: 'a.ts', content: '' }] } },
      },
      createProjectSync: { connectionId: targets.ownConnections[0], scope: 'tasks' },
      createConnection: {
        provider: 'linear',
        credentials: { token: 'lin_api_probe' },
        target: { team: 'ENG' },
      },
    };
    const problems: string[] = [];
    const before = await fuzz.snapshot();
    for (const route of fuzz.routes) {
      const name = `${route.method} ${route.url}`;
      if (route.method === 'HEAD' || NOT_API[name] !== undefined) continue;
      if (route.operationId === 'getProjectStatus') continue;
      const path = route.url.replace(/:(\w+)/g, (_, param: string) => values[param] ?? param);
      const body = bodies[route.operationId ?? ''];
      const res = await fuzz.app.inject({
        method: route.method as 'GET',
        url: `${path}?pgs_probe=1`,
        headers: {
          authorization: `Bearer ${path.startsWith('/admin/') ? adminToken : keys.test.key}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
      });
      const fields = res.statusCode === 400 ? res.json().error.details?.invalid_fields : undefined;
      if (fields?.pgs_probe !== 'is not allowed') {
        problems.push(
          `${name} (${route.operationId}): ${res.statusCode} ${res.body.slice(0, 200)}`,
        );
      }
    }
    expect(problems).toEqual([]);
    // Refused before anything was done.
    expect(await fuzz.snapshot()).toBe(before);
  });

  it('has no stale entry: each listed non-API route exists', () => {
    const served = new Set(fuzz.routes.map((r) => `${r.method} ${r.url}`));
    expect(Object.keys(NOT_API).filter((name) => !served.has(name))).toEqual([]);
  });
});
