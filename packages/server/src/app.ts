import type { Socket } from 'node:net';
import { schemaBundle } from '@pgs/contract';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import Fastify, { type FastifyInstance } from 'fastify';
import { HouseConventions } from './accounts/conventions.ts';
import { IdempotencyKeys } from './accounts/idempotency-keys.ts';
import { Accounts } from './accounts/service.ts';
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
import { HTTP_TIMEOUTS } from './config.ts';
import { ConformanceChecks } from './conformance/service.ts';
import { CreditReads } from './credits/reads.ts';
import { databaseBroadcast } from './events/broadcast.ts';
import { ProjectEventHub } from './events/hub.ts';
import { SharedEventReads } from './events/reads.ts';
import { newRequestId } from './ids.ts';
import { httpMetrics } from './metrics/http.ts';
import { Metrics } from './metrics/registry.ts';
import { DEFAULT_PRICES, priceOf } from './models/prices.ts';
import { Projects } from './projects/projects.ts';
import { ProjectQuestions } from './projects/questions.ts';
import { ProjectReads } from './projects/reads.ts';
import { Revisions } from './projects/revisions.ts';
import { ProjectStatusReader } from './projects/status.ts';
import { engineOf } from './runs/models.ts';
import { TraceCache } from './runs/trace/project.ts';
import { Tasks } from './tasks/service.ts';
import { Connections } from './trackers/connections.ts';
import { Sealer } from './trackers/sealed.ts';
import { ProjectSyncs } from './trackers/syncs.ts';
import { WebhookEndpoints } from './webhooks/endpoints.ts';

export type { AppDeps } from './app-deps.ts';

/**
 * Builds the Fastify app; never listens (`main.ts` does).
 *
 * @example
 * const app = await buildApp({ config, database, adminToken, limiters, dispatcher, models });
 * const res = await app.inject({ method: 'GET', url: '/health' });
 */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, database } = deps;
  const routes = new KnownRoutes();
  const timeouts = { ...HTTP_TIMEOUTS, ...definedOnly(config) };
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

  // One Ajv (JSON Schema 2020-12, the OpenAPI 3.1 dialect) holding the contract's schemas.
  const ajv = new Ajv2020({ allErrors: true, strictSchema: false, coerceTypes: false });
  addFormats.default(ajv);
  // ajv-formats' uuid also accepts `urn:uuid:…`, which PostgreSQL's uuid type refuses.
  ajv.addFormat('uuid', /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);
  ajv.addSchema(schemaBundle);
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

  const accounts = new Accounts(database.db);
  const stopWatching = await accounts.watchRevocations(database);
  app.addHook('onClose', async () => stopWatching());
  let events = deps.events;
  if (events === undefined) {
    const own = await ProjectEventHub.start(database);
    app.addHook('onClose', async () => own.stop());
    events = own;
  }
  // In-progress projects and unknown ids from memory, kept by the hub's announcements
  // (deletions through any process among them); see docs/performance.md.
  const now = deps.now ?? Date.now;
  const statusReader = new ProjectStatusReader(database.db, {
    now,
    hub: events,
    // PGlite's listeners run before the committing statement returns: no barrier to await.
    barrierFree: deps.events === undefined && database.kind === 'pglite',
  });
  app.addHook('onClose', async () => statusReader.close());
  const metrics = deps.metrics ?? new Metrics();
  // Traces made for the REST route serve the MCP tool too, and the other way round.
  const traces = new TraceCache();
  const projects = new Projects(
    database.db,
    deps.dispatcher,
    engineOf(deps.models),
    now,
    metrics.generation,
    (mode) =>
      deps.models
        .forProject({ mode, simulate: null, type: null })
        .map((model) => model.engine)
        .filter((engine) => priceOf(deps.prices ?? DEFAULT_PRICES, engine) === undefined),
  );

  // One service for the REST task routes and the MCP task tools (and the sources it caches).
  const tasks = new Tasks(database.db, now, { dispatcher: deps.dispatcher });
  // Checks of repositories against the spec (docs/conformance.md), for REST, MCP and the trace.
  const checks = new ConformanceChecks(database.db, now);
  // Pushes of projects to trackers (docs/trackers.md), for REST and MCP; the workers run them.
  const syncs = new ProjectSyncs(database.db, tasks, deps.trackers?.syncs);
  const revisions = new Revisions(
    database.db,
    deps.dispatcher,
    engineOf(deps.models),
    now,
    metrics.generation,
  );

  // What the edge reads and keeps, as services: the routes never hold the database.
  const projectReads = new ProjectReads(database.db);
  // A project's open questions, answered as a revision (docs/clarify.md), for REST and MCP.
  const questions = new ProjectQuestions(projectReads, revisions);
  const credits = new CreditReads(database.db);
  const idempotency = new IdempotencyKeys(database.db);
  // Streams of one project (REST or MCP) that wake on the same event share the read that follows.
  const eventReads = new SharedEventReads(database.db, events);
  app.addHook('onClose', async () => eventReads.close());

  const trackerDeps = {
    db: database.db,
    sealer: deps.trackers?.sealer ?? Sealer.of(undefined),
    ...(deps.trackers?.adapters ? { adapters: deps.trackers.adapters } : {}),
  };
  const connections = new Connections(trackerDeps, {
    allowPrivate: deps.trackers?.allowPrivate ?? false,
    ...(deps.trackers?.resolve ? { resolve: deps.trackers.resolve } : {}),
  });

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
    metrics,
    streamRoutes: ['/api/v1/projects/:projectId/events'],
    longPollRoutes: [
      '/api/v1/projects/:projectId',
      '/api/v1/projects/:projectId/revisions/:revision',
    ],
  });

  await app.register(
    async (api) => {
      // A parameter a route does not read is refused, never silently ignored (docs/api.md).
      api.addHook('onRoute', closedQuery);
      await api.register(apiKeyAuth, { accounts, failures: deps.limiters.authFailures });
      await api.register(rateLimit, { limiters: deps.limiters });
      await api.register(versioning);
      await api.register(projectRoutes, {
        statusReader,
        projects,
        reads: projectReads,
        idempotency,
        events,
      });
      await api.register(eventRoutes, {
        statusReader,
        eventReads,
        events,
        keepAliveMs: deps.keepAliveMs ?? 15_000,
      });
      await api.register(documentRoutes, {
        statusReader,
        reads: projectReads,
        traces,
        tasks,
        checks,
      });
      await api.register(manageRoutes, {
        statusReader,
        projects,
        reads: projectReads,
        idempotency,
      });
      await api.register(revisionRoutes, {
        revisions,
        reads: projectReads,
        idempotency,
        events,
        now,
      });
      await api.register(answerRoutes, { questions, idempotency });
      await api.register(taskRoutes, { tasks });
      await api.register(syncRoutes, { syncs, idempotency });
      await api.register(conformanceRoutes, { checks, idempotency });
      await api.register(ideaRoutes);
      await api.register(conventionRoutes, { conventions: new HouseConventions(database.db, now) });
      await api.register(creditRoutes, { credits });
      await api.register(connectionRoutes, { connections, idempotency });
      await api.register(webhookRoutes, {
        endpoints: new WebhookEndpoints(database.db),
        idempotency,
        allowPrivate: config.webhooksAllowPrivate,
      });
    },
    { prefix: '/api/v1' },
  );

  // A tracker's deliveries: no API key (the tracker has none), its own signature instead.
  await app.register(trackerWebhookRoutes, {
    prefix: '/api/v1',
    inbound: { ...trackerDeps, dispatcher: deps.dispatcher, now },
    failures: deps.limiters.authFailures,
  });

  // The Model Context Protocol (docs/mcp.md): the same key, limits and services as /api/v1.
  await app.register(async (mcp) => {
    await mcp.register(apiKeyAuth, { accounts, failures: deps.limiters.authFailures });
    await mcp.register(rateLimit, { limiters: deps.limiters });
    await mcp.register(mcpEndpoint, {
      broadcast: databaseBroadcast(database),
      projects,
      projectReads,
      credits,
      reads: eventReads,
      statusReader,
      events,
      traces,
      tasks,
      checks,
      syncs,
      questions,
      limiters: deps.limiters,
    });
  });

  await app.register(
    async (admin) => {
      admin.addHook('onRoute', closedQuery);
      await admin.register(adminAuth, {
        token: deps.adminToken,
        failures: deps.limiters.authFailures,
      });
      await admin.register(adminRoutes, { accounts });
      await admin.register(auditRoutes, { credits });
    },
    { prefix: '/admin/v1' },
  );

  await app.register(metricsRoutes, {
    metrics,
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
