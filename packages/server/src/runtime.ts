import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { generateAdminToken } from './accounts/api-keys.ts';
import { Accounts } from './accounts/service.ts';
import { buildApp } from './app.ts';
import type { Config } from './config.ts';
import { ModelCaller } from './generation/calls.ts';
import { ProjectEventHub } from './generation/events.ts';
import { engineOf, modelSelector } from './generation/models.ts';
import { Projects } from './generation/projects.ts';
import { GenerationWorkflow } from './generation/workflow.ts';
import type { RateLimitStore } from './limits/rate-limiter.ts';
import { createLimiters, RATE_LIMIT_RULES } from './limits/rules.ts';
import { GenerationQueue } from './queue/generation-queue.ts';
import { ensureSecretFile, lockDataDir } from './storage/data-dir.ts';
import { type Database, openDatabase } from './storage/db.ts';
import { deleteExpiredIdempotencyKeys } from './storage/sql/idempotency.ts';
import { listInProgressProjectIds } from './storage/sql/projects.ts';

const SWEEP_INTERVAL_MS = 15 * 60 * 1000;

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
  /** The test key of the development account created on this start, if any. */
  devKey: string | undefined;
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
  const redis = config.redisUrl
    ? new Redis(config.redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: false })
    : undefined;
  redis?.on('error', (error) =>
    log.warn({ err: error }, 'redis unavailable; rate limits count in memory'),
  );

  const queue = await GenerationQueue.create(database, {
    concurrency: config.workerConcurrency,
    webhooks: { allowPrivate: config.webhooksAllowPrivate },
  });
  // One subscription to project events per process, shared by the workers and the API.
  const events = await ProjectEventHub.start(database);
  const models = modelSelector(config);
  const projects = new Projects(database.db, queue, engineOf(models));
  if (config.role !== 'api') {
    const workflow = new GenerationWorkflow(database.db, projects, models, {
      caller: new ModelCaller({
        timeoutMs: config.aiTimeoutMs,
        idleTimeoutMs: config.aiIdleTimeoutMs,
        concurrency: config.aiConcurrency,
        secrets: providerSecrets(config),
        log: log.child({ component: 'models' }),
      }),
      log: log.child({ component: 'workflow' }),
      events,
    });
    if (database.kind === 'pglite') {
      // This process holds the data directory's lock: whatever was running died with its owner.
      const recovered = await queue.recover(await listInProgressProjectIds(database.db));
      if (recovered.resumed + recovered.requeued > 0)
        log.info(recovered, 'resuming interrupted generations');
    }
    await queue.start({
      run: async (job) => {
        await workflow.run(job);
      },
      dead: (projectId) => workflow.giveUp(projectId),
    });
  }

  let app: FastifyInstance | undefined;
  let devKey: string | undefined;
  let sweep: NodeJS.Timeout | undefined;
  if (config.role !== 'worker') {
    const store: RateLimitStore = redis
      ? { kind: 'redis', client: redis }
      : database.pool
        ? { kind: 'postgres', pool: database.pool }
        : { kind: 'memory' };
    const adminToken =
      config.adminToken ??
      (await ensureSecretFile(path.join(config.dataDir, 'admin-token'), generateAdminToken));
    app = await buildApp({
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
      logger: log,
    });
    // Idempotency keys are kept 24 h; sweep the expired ones now and then.
    sweep = setInterval(() => {
      deleteExpiredIdempotencyKeys(database.db).catch((error: unknown) =>
        log.warn({ err: error }, 'sweeping expired idempotency keys failed'),
      );
    }, SWEEP_INTERVAL_MS);
    sweep.unref();
    const accounts = new Accounts(database.db);
    if (config.seedDevAccount && (await accounts.isEmpty())) {
      devKey = (
        await accounts.createKey({ mode: 'test', credits: DEV_CREDITS, name: 'development' })
      ).key;
    }
  }

  return {
    database,
    queue,
    app,
    devKey,
    async stop() {
      clearInterval(sweep);
      await app?.close();
      await queue.stop();
      await events.stop();
      redis?.disconnect();
      await database.close();
      await release();
    },
  };
}
