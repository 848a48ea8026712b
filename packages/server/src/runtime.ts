import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { generateAdminToken } from './accounts/api-keys.ts';
import { Accounts } from './accounts/service.ts';
import { buildMetricsServer } from './api/metrics-server.ts';
import { buildApp } from './app.ts';
import type { Config } from './config.ts';
import { ProjectEventHub } from './events/hub.ts';
import type { RateLimitStore } from './limits/rate-limiter.ts';
import { createLimiters, RATE_LIMIT_RULES } from './limits/rules.ts';
import { Metrics } from './metrics/registry.ts';
import { ModelCaller } from './models/calls.ts';
import { Projects } from './projects/projects.ts';
import { Revisions } from './projects/revisions.ts';
import { runStore } from './projects/run-store.ts';
import { GENERATE_QUEUE, GenerationQueue } from './queue/generation-queue.ts';
import { SYNC_QUEUE } from './queue/sync-queue.ts';
import { WEBHOOK_QUEUE } from './queue/webhook-queue.ts';
import { jobHandlers } from './runs/jobs.ts';
import { engineOf, type ModelSelector, modelSelector } from './runs/models.ts';
import { RevisionWorkflow } from './runs/revision-workflow.ts';
import { GenerationWorkflow } from './runs/workflow.ts';
import { ensureSecretFile, lockDataDir } from './storage/data-dir.ts';
import { type Database, openDatabase } from './storage/db.ts';
import { listInProgressProjectIds } from './storage/sql/projects.ts';
import { readQueueStats } from './storage/sql/queue.ts';
import { listRevising } from './storage/sql/revisions.ts';
import { sweepExpired } from './storage/sweep.ts';
import { Tasks } from './tasks/service.ts';
import { openConnection } from './trackers/connections.ts';
import { resealAll, sealerOf } from './trackers/keys.ts';
import { startReconciler } from './trackers/reconcile.ts';
import type { Sealer } from './trackers/sealed.ts';
import { ProjectSyncs } from './trackers/syncs.ts';

const SWEEP_INTERVAL_MS = 15 * 60 * 1000;

/**
 * The shutdown's budget, inside main.ts's 10 s hard deadline: running generations are
 * handed back and HTTP drains at the same time; a request still open after the drain
 * budget has its connection closed; then the queue and the database stop.
 */
const RELEASE_JOBS_MS = 4_000;
const HTTP_DRAIN_MS = 6_000;
const QUEUE_STOP_MS = 1_500;

/** Closes an app: no new connections, held responses released, requests in flight finished. */
async function drain(app: FastifyInstance, budgetMs: number): Promise<void> {
  // A response still open when the budget runs out (a slow download) loses its connection.
  const timer = setTimeout(() => app.server.closeAllConnections(), budgetMs);
  try {
    await app.close();
  } finally {
    clearTimeout(timer);
  }
}

/** The provider keys, scrubbed from anything the model caller logs. */
function providerSecrets(config: Config): string[] {
  const { openai, anthropic } = config.providers;
  return [openai?.apiKey, anthropic?.apiKey, config.providers['openai-compatible']?.apiKey].filter(
    (key): key is string => key !== undefined,
  );
}

/** Credits the development account starts with. */
export const DEV_CREDITS = 1000;

/** A started PGS process: its parts and how to stop them in order. */
export interface Runtime {
  database: Database;
  queue: GenerationQueue;
  /** The HTTP app (absent for `PGS_ROLE=worker`). */
  app: FastifyInstance | undefined;
  /** The listener of `GET /metrics` alone (`PGS_METRICS_PORT`), not yet listening. */
  metricsServer: FastifyInstance | undefined;
  /** This process's metrics (the app's and the workers'). */
  metrics: Metrics;
  /** The test key of the development account created on this start, if any. */
  devKey: string | undefined;
  /**
   * Stops in order: running generations are aborted and handed back while HTTP stops
   * accepting, releases long-polls and event streams and finishes the requests in flight;
   * then the queue, the event subscription and the database. Within about 8 s.
   */
  stop(): Promise<void>;
}

async function openStorage(
  config: Config,
): Promise<{ database: Database; release: () => Promise<void> }> {
  if (config.databaseUrl !== undefined) {
    return {
      database: await openDatabase({ kind: 'postgres', url: config.databaseUrl }),
      release: async () => {},
    };
  }
  await mkdir(config.dataDir, { recursive: true });
  const release = await lockDataDir(config.dataDir);
  try {
    return { database: await openDatabase({ kind: 'pglite', dataDir: config.dataDir }), release };
  } catch (error) {
    await release();
    throw error;
  }
}

/** What one process shares between its workers and its edge. */
interface Core {
  config: Config;
  log: Logger;
  database: Database;
  queue: GenerationQueue;
  /** One subscription to project events per process, shared by the workers and the API. */
  events: ProjectEventHub;
  models: ModelSelector;
  metrics: Metrics;
  sealer: Sealer;
}

/** The Redis client of the rate limits, if configured; while unreachable they count in memory. */
function connectRedis(config: Config, log: Logger): Redis | undefined {
  const redis = config.redisUrl
    ? new Redis(config.redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: false })
    : undefined;
  redis?.on('error', (error) =>
    log.warn({ err: error }, 'redis unavailable; rate limits count in memory'),
  );
  return redis;
}

/** The queue, the event hub, the models, the metrics and the sealer, on an open database. */
async function startCore(config: Config, log: Logger, database: Database): Promise<Core> {
  const queue = await GenerationQueue.create(database, {
    concurrency: config.workerConcurrency,
    webhooks: { allowPrivate: config.webhooksAllowPrivate },
  });
  const events = await ProjectEventHub.start(database);
  const models = modelSelector(config);
  const metrics = new Metrics({
    processMetrics: true,
    queues: () => readQueueStats(database.db, [GENERATE_QUEUE, WEBHOOK_QUEUE, SYNC_QUEUE]),
  });
  const sealer = sealerOf(config);
  if (config.encryptionKeysPrevious.length > 0) {
    // A rotation (docs/security.md): what the previous keys sealed is sealed again with the
    // current one, so the previous keys can be dropped from the configuration afterwards.
    const resealed = await resealAll(database.db, await sealer.ring());
    log.info(resealed, 'tracker credentials re-sealed with the current key');
  }
  return { config, log, database, queue, events, models, metrics, sealer };
}

/**
 * The trackers' side of a worker: the reconciler's poller and the pushes of projects to
 * trackers (docs/trackers.md), on the queue beside generations. Returns the poller's stop.
 */
async function startTrackerWorkers(core: Core): Promise<() => void> {
  const { config, log, database, queue, sealer } = core;
  const network = { allowPrivate: config.connectionsAllowPrivate };
  const stopReconciler = startReconciler(
    { db: database.db, sealer, network, dispatcher: queue, now: Date.now },
    config.trackerReconcileSeconds * 1000,
    log.child({ component: 'trackers' }),
  );
  const publicUrl = config.publicUrl;
  const syncs = new ProjectSyncs(database.db, new Tasks(database.db), queue.syncs, {
    open: (owner) => openConnection({ db: database.db, sealer, network }, owner),
    projectUrl: (id) => (publicUrl === undefined ? undefined : `${publicUrl}/#/projects/${id}`),
  });
  await queue.syncs.start((job) => syncs.run(job));
  return stopReconciler;
}

/** The generation workers: creations and revisions, after recovering what died with a restart. */
async function startGenerationWorkers(core: Core): Promise<void> {
  const { config, log, database, queue, events, models, metrics } = core;
  // The workers complete projects and revisions: a task sync that fails there is logged.
  const taskLog = log.child({ component: 'tasks' });
  const engines = engineOf(models);
  const meter = metrics.generation;
  const projects = new Projects(database.db, queue, engines, Date.now, meter, undefined, taskLog);
  const revisions = new Revisions(database.db, queue, engines, Date.now, meter, taskLog);
  // One caller per process: the AI concurrency limit spans creations and revisions.
  const caller = new ModelCaller({
    meter,
    timeoutMs: config.aiTimeoutMs,
    idleTimeoutMs: config.aiIdleTimeoutMs,
    concurrency: config.aiConcurrency,
    secrets: providerSecrets(config),
    log: log.child({ component: 'models' }),
    prices: config.modelPrices,
  });
  // Runs see the database through the run store's ports (runs/ports.ts).
  const store = runStore(database.db);
  const workflow = new GenerationWorkflow(store, projects, models, {
    meter,
    caller,
    log: log.child({ component: 'workflow' }),
    events,
  });
  if (database.kind === 'pglite') {
    // This process holds the data directory's lock: whatever was running died with its owner.
    const recovered = await queue.recover(
      await listInProgressProjectIds(database.db),
      await listRevising(database.db),
    );
    if (recovered.resumed + recovered.requeued > 0)
      log.info(recovered, 'resuming interrupted generations');
  }
  const revising = new RevisionWorkflow(store, revisions, models, {
    caller,
    log: log.child({ component: 'revisions' }),
    events,
  });
  await queue.start(jobHandlers(workflow, revising));
}

/** The edge of a process: the HTTP app and the metrics listener, neither yet listening. */
interface Edge {
  app: FastifyInstance | undefined;
  metricsServer: FastifyInstance | undefined;
  devKey: string | undefined;
  sweep: NodeJS.Timeout | undefined;
}

/**
 * Builds the metrics listener (when `PGS_METRICS_PORT` is set) and, unless the role is
 * `worker`, the HTTP app with its sweep of expired records and the development account.
 */
async function buildEdge(core: Core, redis: Redis | undefined): Promise<Edge> {
  const { config, log, database, queue, events, models, metrics, sealer } = core;
  const edge: Edge = {
    app: undefined,
    metricsServer: undefined,
    devKey: undefined,
    sweep: undefined,
  };
  const store: RateLimitStore = redis
    ? { kind: 'redis', client: redis }
    : database.pool
      ? { kind: 'postgres', pool: database.pool }
      : { kind: 'memory' };
  const adminToken =
    config.role === 'worker' && config.metricsPort === undefined
      ? undefined
      : (config.adminToken ??
        (await ensureSecretFile(path.join(config.dataDir, 'admin-token'), generateAdminToken)));
  if (adminToken !== undefined && config.metricsPort !== undefined) {
    edge.metricsServer = await buildMetricsServer({
      metrics,
      adminToken,
      failures: (await createLimiters(store)).authFailures,
      docsUrl: config.docsUrl,
      logger: log,
    });
  }
  if (config.role === 'worker' || adminToken === undefined) return edge;
  edge.app = await buildApp({
    config,
    database,
    adminToken,
    limiters: await createLimiters(store, {
      ...RATE_LIMIT_RULES,
      status: { ...RATE_LIMIT_RULES.status, points: config.statusRateLimit },
    }),
    dispatcher: queue,
    events,
    models,
    prices: config.modelPrices,
    logger: log,
    metrics,
    trackers: { sealer, allowPrivate: config.connectionsAllowPrivate, syncs: queue.syncs },
  });
  // Idempotency keys are kept 24 h and webhook delivery attempts 30 days; sweep the
  // expired ones now and then.
  edge.sweep = setInterval(() => {
    sweepExpired(database.db).catch((error: unknown) =>
      log.warn({ err: error }, 'sweeping expired records failed'),
    );
  }, SWEEP_INTERVAL_MS);
  edge.sweep.unref();
  edge.devKey = await seedDevAccount(config, database);
  return edge;
}

/** The test key of a development account, created when asked for and no account exists yet. */
async function seedDevAccount(config: Config, database: Database): Promise<string | undefined> {
  const accounts = new Accounts(database.db);
  if (!config.seedDevAccount || !(await accounts.isEmpty())) return undefined;
  return (await accounts.createKey({ mode: 'test', credits: DEV_CREDITS, name: 'development' }))
    .key;
}

/**
 * Starts what the config's role asks for: storage (locking the embedded data directory),
 * the generation queue and its workers, and the HTTP app (not yet listening).
 *
 * @example
 * const runtime = await startRuntime(loadConfig(), createLogger('info'));
 * await runtime.app?.listen({ port: 3000 });
 */
export async function startRuntime(config: Config, log: Logger): Promise<Runtime> {
  const { database, release } = await openStorage(config);
  const redis = connectRedis(config, log);
  const core = await startCore(config, log, database);
  let stopReconciler: (() => void) | undefined;
  if (config.role !== 'api') {
    stopReconciler = await startTrackerWorkers(core);
    await startGenerationWorkers(core);
  }
  const edge = await buildEdge(core, redis);
  const { queue, events, metrics } = core;
  const { app, metricsServer, devKey, sweep } = edge;
  return {
    database,
    queue,
    app,
    metricsServer,
    metrics,
    devKey,
    async stop() {
      clearInterval(sweep);
      stopReconciler?.();
      // Requests in flight may still create projects: the queue keeps accepting jobs until
      // HTTP has drained; only its workers stop now.
      await Promise.all([
        queue.release(RELEASE_JOBS_MS),
        app && drain(app, HTTP_DRAIN_MS),
        metricsServer && drain(metricsServer, HTTP_DRAIN_MS),
      ]);
      await queue.stop(QUEUE_STOP_MS);
      await events.stop();
      redis?.disconnect();
      await database.close();
      await release();
    },
  };
}
