import type { Socket } from 'node:net';
import { schemaBundle } from '@pgs/contract';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import Fastify, { type FastifyInstance } from 'fastify';
import { clientErrorResponse, refuseConnect } from './api/client-error.ts';
import { endThenCut, wasAnsweredEarly } from './api/drain.ts';
import { KnownRoutes } from './api/known-routes.ts';
import { mcpEndpoint } from './api/mcp/endpoint.ts';
import { adminAuth, apiKeyAuth } from './api/plugins/auth.ts';
import { errorHandling, sendError, toApiError } from './api/plugins/errors.ts';
import { jsonBody } from './api/plugins/json-body.ts';
import { rateLimit } from './api/plugins/rate-limit.ts';
import { keyInUrlError, requestContext } from './api/plugins/request-context.ts';
import { shutdownSignal } from './api/plugins/shutdown.ts';
import { versioning } from './api/plugins/versioning.ts';
import { closedQuery, queryValidator } from './api/query.ts';
import { auditRoutes } from './api/routes/admin/audit.ts';
import { adminRoutes } from './api/routes/admin/index.ts';
import { connectionRoutes, trackerWebhookRoutes } from './api/routes/connections.ts';
import { consoleRoutes } from './api/routes/console.ts';
import { conventionRoutes } from './api/routes/conventions.ts';
import { creditRoutes } from './api/routes/credits.ts';
import { docsRoutes } from './api/routes/docs.ts';
import { ideaRoutes } from './api/routes/ideas.ts';
import { metricsRoutes } from './api/routes/metrics.ts';
import { answerRoutes } from './api/routes/projects/answers.ts';
import { conformanceRoutes } from './api/routes/projects/conformance.ts';
import { documentRoutes } from './api/routes/projects/documents.ts';
import { eventRoutes } from './api/routes/projects/events.ts';
import { projectRoutes } from './api/routes/projects/index.ts';
import { manageRoutes } from './api/routes/projects/manage.ts';
import { revisionRoutes } from './api/routes/projects/revisions.ts';
import { syncRoutes } from './api/routes/projects/syncs.ts';
import { taskRoutes } from './api/routes/projects/tasks.ts';
import { webhookRoutes } from './api/routes/webhooks.ts';
import { type AppDeps, definedOnly } from './app-deps.ts';
import { type AppServices, buildServices } from './app-services.ts';
import { HTTP_TIMEOUTS } from './config.ts';
import { databaseBroadcast } from './events/broadcast.ts';
import { newRequestId } from './ids.ts';
import { httpMetrics } from './metrics/http.ts';

export type { AppDeps } from './app-deps.ts';

/**
 * Builds the Fastify app; never listens (`main.ts` does).
 *
 * @example
 * const app = await buildApp({ config, database, adminToken, limiters, dispatcher, models });
 * const res = await app.inject({ method: 'GET', url: '/health' });
 */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config } = deps;
  const routes = new KnownRoutes();
  const timeouts = { ...HTTP_TIMEOUTS, ...definedOnly(config) };
  const drain = { maxMs: timeouts.drainTimeoutMs };
  const app = createFastify(deps, routes, timeouts);
  useContractSchemas(app);
  const services = await buildServices(deps, (stop) =>
    app.addHook('onClose', async () => {
      await stop();
    }),
  );

  await app.register(errorHandling, {
    docsUrl: config.docsUrl,
    bodyLimit: config.bodyLimitBytes,
    drain,
    routes,
  });
  await app.register(jsonBody);
  await app.register(requestContext, { routes });
  await app.register(shutdownSignal);
  await app.register(httpMetrics, {
    metrics: services.metrics,
    streamRoutes: ['/api/v1/projects/:projectId/events'],
    longPollRoutes: [
      '/api/v1/projects/:projectId',
      '/api/v1/projects/:projectId/revisions/:revision',
    ],
  });
  await app.register(async (api) => registerApi(api, deps, services), { prefix: '/api/v1' });
  // A tracker's deliveries: no API key (the tracker has none), its own signature instead.
  await app.register(trackerWebhookRoutes, {
    prefix: '/api/v1',
    inbound: { ...services.trackers, dispatcher: deps.dispatcher, now: services.now },
    failures: deps.limiters.authFailures,
  });
  // The Model Context Protocol (docs/mcp.md): the same key, limits and services as /api/v1.
  await app.register(async (mcp) => registerMcp(mcp, deps, services));
  await app.register(
    async (admin) => {
      admin.addHook('onRoute', closedQuery);
      await admin.register(adminAuth, {
        token: deps.adminToken,
        failures: deps.limiters.authFailures,
      });
      await admin.register(adminRoutes, { accounts: services.accounts });
      await admin.register(auditRoutes, { credits: services.credits });
    },
    { prefix: '/admin/v1' },
  );
  await app.register(metricsRoutes, {
    metrics: services.metrics,
    adminToken: deps.adminToken,
    failures: deps.limiters.authFailures,
  });
  await app.register(docsRoutes);
  if (config.consoleDir !== undefined) {
    await app.register(consoleRoutes, { dir: config.consoleDir });
  }
  app.get('/health', async () => ({ status: 'ok' }));
  return app;
}

type Timeouts = typeof HTTP_TIMEOUTS;

/** The Fastify instance with the server's limits, and answers in the envelope for what Fastify and Node refuse themselves. */
function createFastify(deps: AppDeps, routes: KnownRoutes, timeouts: Timeouts): FastifyInstance {
  const { config } = deps;
  const drain = { maxMs: timeouts.drainTimeoutMs };
  const app = Fastify({
    ...(deps.logger ? { loggerInstance: deps.logger } : { logger: false }),
    genReqId: newRequestId,
    requestIdHeader: false,
    bodyLimit: config.bodyLimitBytes,
    trustProxy: config.trustProxy,
    routerOptions: { maxParamLength: 200 },
    // Slow clients (docs/security.md): the whole request within requestTimeout, its headers
    // within headersTimeout, no silence longer than connectionTimeout. Node checks the first
    // two every connectionsCheckingInterval; a quarter of the deadline keeps the cut close to it.
    requestTimeout: timeouts.requestTimeoutMs,
    connectionTimeout: timeouts.connectionTimeoutMs,
    http: {
      // Node answers a missing Host with a bare 400 of its own; requestContext refuses it
      // in the envelope instead.
      requireHostHeader: false,
      headersTimeout: timeouts.headersTimeoutMs,
      connectionsCheckingInterval: Math.max(
        100,
        Math.min(1_000, Math.floor(timeouts.headersTimeoutMs / 4)),
      ),
    },
    // While closing, requests on open keep-alive connections are served (with Connection:
    // close), not refused with Fastify's 503 body, which is not the contract's envelope.
    return503OnClosing: false,
    clientErrorHandler: (error, socket) => {
      // A request already answered (its body being drained) gets no second answer.
      if (wasAnsweredEarly(socket as Socket)) socket.destroy();
      else if (socket.writable) {
        const answer = clientErrorResponse(error, config.docsUrl, routes, timeouts);
        endThenCut(socket, answer, timeouts.drainTimeoutMs);
      } else socket.destroy(error);
    },
    frameworkErrors: (error, request, reply) => {
      const refused = keyInUrlError(request.url) ?? toApiError(error, config.bodyLimitBytes);
      sendError(reply, refused, config.docsUrl, drain);
    },
  });
  if (deps.onRoute) app.addHook('onRoute', deps.onRoute);
  // Node gives CONNECT only to `connect` listeners (never to Fastify) and, with none,
  // destroys the socket without an answer.
  app.server.on('connect', (request, socket) =>
    refuseConnect(request, socket, config.docsUrl, routes),
  );
  return app;
}

/**
 * One Ajv (JSON Schema 2020-12, the OpenAPI 3.1 dialect) holding the contract's schemas, for
 * every app of the process: Ajv keeps what it compiled by schema, so an app built again (a
 * test file's, or the next file's in a shared worker) reuses the validators instead of
 * compiling every route's schemas anew (about a quarter of a second of CPU each time).
 */
let contractAjv: Ajv2020 | undefined;

function sharedAjv(): Ajv2020 {
  if (contractAjv !== undefined) return contractAjv;
  const ajv = new Ajv2020({ allErrors: true, strictSchema: false, coerceTypes: false });
  addFormats.default(ajv);
  // ajv-formats' uuid also accepts `urn:uuid:…`, which PostgreSQL's uuid type refuses.
  ajv.addFormat('uuid', /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);
  ajv.addSchema(schemaBundle);
  contractAjv = ajv;
  return ajv;
}

/** The contract's validators for an app's routes. */
function useContractSchemas(app: FastifyInstance): void {
  const ajv = sharedAjv();
  // Query strings and paths are text: an integer parameter is read only from a plain
  // decimal integer (`/revisions/2`, `?revision=2`).
  app.setValidatorCompiler(({ schema, httpPart }) =>
    httpPart === 'querystring' || httpPart === 'params'
      ? queryValidator(ajv, schema)
      : ajv.compile(schema),
  );
  // Response schemas document the routes; bodies are plain JSON.stringify (or
  // pre-serialized bytes), which measured faster than fast-json-stringify here.
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
}

/** `/api/v1`: the key, the limits, the version, then every route with the services it reads. */
async function registerApi(api: FastifyInstance, deps: AppDeps, s: AppServices): Promise<void> {
  // A parameter a route does not read is refused, never silently ignored (docs/api.md).
  api.addHook('onRoute', closedQuery);
  await api.register(apiKeyAuth, { accounts: s.accounts, failures: deps.limiters.authFailures });
  await api.register(rateLimit, { limiters: deps.limiters });
  await api.register(versioning);
  const { statusReader, projects, projectReads: reads, idempotency, events } = s;
  await api.register(projectRoutes, { statusReader, projects, reads, idempotency, events });
  await api.register(eventRoutes, {
    statusReader,
    eventReads: s.eventReads,
    events,
    keepAliveMs: deps.keepAliveMs ?? 15_000,
  });
  await api.register(documentRoutes, {
    statusReader,
    reads,
    traces: s.traces,
    tasks: s.tasks,
    checks: s.checks,
  });
  await api.register(manageRoutes, { statusReader, projects, reads, idempotency });
  await api.register(revisionRoutes, {
    revisions: s.revisions,
    reads,
    idempotency,
    events,
    now: s.now,
  });
  await api.register(answerRoutes, { questions: s.questions, idempotency });
  await api.register(taskRoutes, { tasks: s.tasks });
  await api.register(syncRoutes, { syncs: s.syncs, idempotency });
  await api.register(conformanceRoutes, { checks: s.checks, idempotency });
  await api.register(ideaRoutes);
  await api.register(conventionRoutes, { conventions: s.conventions });
  await api.register(creditRoutes, { credits: s.credits });
  await api.register(connectionRoutes, {
    connections: s.connections,
    idempotency,
    publicUrl: deps.config.publicUrl,
  });
  await api.register(webhookRoutes, {
    endpoints: s.webhookEndpoints,
    idempotency,
    allowPrivate: deps.config.webhooksAllowPrivate,
  });
}

/** `/mcp`: the same key, limits and services as `/api/v1`, as MCP tools and resources. */
async function registerMcp(mcp: FastifyInstance, deps: AppDeps, s: AppServices): Promise<void> {
  await mcp.register(apiKeyAuth, { accounts: s.accounts, failures: deps.limiters.authFailures });
  await mcp.register(rateLimit, { limiters: deps.limiters });
  await mcp.register(mcpEndpoint, {
    broadcast: databaseBroadcast(deps.database),
    projects: s.projects,
    projectReads: s.projectReads,
    credits: s.credits,
    reads: s.eventReads,
    statusReader: s.statusReader,
    events: s.events,
    traces: s.traces,
    tasks: s.tasks,
    checks: s.checks,
    syncs: s.syncs,
    questions: s.questions,
    limiters: deps.limiters,
  });
}
