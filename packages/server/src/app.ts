import { schemaBundle } from '@pgs/contract';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { Accounts } from './accounts/service.ts';
import { clientErrorResponse, refuseConnect } from './api/client-error.ts';
import { KnownRoutes } from './api/known-routes.ts';
import { adminAuth, apiKeyAuth } from './api/plugins/auth.ts';
import { errorHandling, sendError, toApiError } from './api/plugins/errors.ts';
import { jsonBody } from './api/plugins/json-body.ts';
import { rateLimit } from './api/plugins/rate-limit.ts';
import { requestContext } from './api/plugins/request-context.ts';
import { versioning } from './api/plugins/versioning.ts';
import { adminRoutes } from './api/routes/admin/index.ts';
import { creditRoutes } from './api/routes/credits.ts';
import { docsRoutes } from './api/routes/docs.ts';
import { documentRoutes } from './api/routes/projects/documents.ts';
import { eventRoutes } from './api/routes/projects/events.ts';
import { projectRoutes } from './api/routes/projects/index.ts';
import { manageRoutes } from './api/routes/projects/manage.ts';
import { webhookRoutes } from './api/routes/webhooks.ts';
import type { Config } from './config.ts';
import { ProjectEventHub } from './generation/events.ts';
import { engineOf, type ModelSelector } from './generation/models.ts';
import { type Dispatcher, Projects } from './generation/projects.ts';
import { ProjectStatusReader } from './generation/status.ts';
import { newRequestId } from './ids.ts';
import type { Limiters } from './limits/rules.ts';
import type { Database } from './storage/db.ts';

/** What the app is built from; `main.ts` makes these from the config, tests make their own. */
export interface AppDeps {
  config: Pick<Config, 'docsUrl' | 'bodyLimitBytes' | 'trustProxy' | 'webhooksAllowPrivate'>;
  database: Database;
  adminToken: string;
  limiters: Limiters;
  /** Puts new projects' generations on the queue. */
  dispatcher: Dispatcher;
  /** The models projects are generated with (estimates depend on them). */
  models: ModelSelector;
  /**
   * Announcements of project events (long-polls and event streams wait on them); none
   * means the app starts its own and stops it on close.
   */
  events?: ProjectEventHub;
  /** Milliseconds between keep-alive comments on an event stream (default 15 s). */
  keepAliveMs?: number;
  /** The process's logger (pino); none means silent. */
  logger?: FastifyBaseLogger;
}

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
  const app = Fastify({
    ...(deps.logger ? { loggerInstance: deps.logger } : { logger: false }),
    genReqId: newRequestId,
    requestIdHeader: false,
    bodyLimit: config.bodyLimitBytes,
    trustProxy: config.trustProxy,
    routerOptions: { maxParamLength: 200 },
    clientErrorHandler: (error, socket) => {
      if (socket.writable) socket.end(clientErrorResponse(error, config.docsUrl, routes));
      else socket.destroy(error);
    },
    frameworkErrors: (error, _request, reply) => {
      sendError(reply, toApiError(error, config.bodyLimitBytes), config.docsUrl);
    },
  });
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
  // Query strings are text: there (only there) `limit=10` is read as the integer it declares.
  const queryAjv = new Ajv2020({ allErrors: true, strictSchema: false, coerceTypes: true });
  addFormats.default(queryAjv);
  queryAjv.addFormat('uuid', /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);
  queryAjv.addSchema(schemaBundle);
  app.setValidatorCompiler(({ schema, httpPart }) =>
    (httpPart === 'querystring' ? queryAjv : ajv).compile(schema),
  );
  // Response schemas document the routes; bodies are plain JSON.stringify (or
  // pre-serialized bytes), which measured faster than fast-json-stringify here.
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));

  const accounts = new Accounts(database.db);
  const stopWatching = await accounts.watchRevocations(database);
  app.addHook('onClose', async () => stopWatching());
  const statusReader = new ProjectStatusReader(database.db);
  // A project deleted through any process leaves every process's cache of final bodies.
  const stopWatchingDeletions = await statusReader.watchDeletions(database);
  app.addHook('onClose', async () => stopWatchingDeletions());
  let events = deps.events;
  if (events === undefined) {
    const own = await ProjectEventHub.start(database);
    app.addHook('onClose', async () => own.stop());
    events = own;
  }
  const projects = new Projects(database.db, deps.dispatcher, engineOf(deps.models));

  await app.register(errorHandling, {
    docsUrl: config.docsUrl,
    bodyLimit: config.bodyLimitBytes,
    routes,
  });
  await app.register(jsonBody);
  await app.register(requestContext, { routes });

  await app.register(
    async (api) => {
      await api.register(apiKeyAuth, { accounts, failures: deps.limiters.authFailures });
      await api.register(rateLimit, { limiters: deps.limiters });
      await api.register(versioning);
      await api.register(projectRoutes, {
        statusReader,
        projects,
        db: database.db,
        events,
      });
      await api.register(eventRoutes, {
        statusReader,
        db: database.db,
        events,
        keepAliveMs: deps.keepAliveMs ?? 15_000,
      });
      await api.register(documentRoutes, { statusReader, db: database.db });
      await api.register(manageRoutes, { statusReader, projects, db: database.db });
      await api.register(creditRoutes, { db: database.db });
      await api.register(webhookRoutes, {
        db: database.db,
        allowPrivate: config.webhooksAllowPrivate,
      });
    },
    { prefix: '/api/v1' },
  );

  await app.register(
    async (admin) => {
      await admin.register(adminAuth, {
        token: deps.adminToken,
        failures: deps.limiters.authFailures,
      });
      await admin.register(adminRoutes, { accounts });
    },
    { prefix: '/admin/v1' },
  );

  await app.register(docsRoutes);
  app.get('/health', async () => ({ status: 'ok' }));
  return app;
}
