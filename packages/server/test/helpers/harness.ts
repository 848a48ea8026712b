import { randomUUID } from 'node:crypto';
import { assertMatchesContract } from '@pgs/contract/testing';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, expect } from 'vitest';
import { generateAdminToken } from '../../src/accounts/api-keys.ts';
import { Accounts, type CreatedKey } from '../../src/accounts/service.ts';
import { type AppDeps, buildApp } from '../../src/app.ts';
import type { HTTP_TIMEOUTS } from '../../src/config.ts';
import { announceCreated, ProjectEventHub } from '../../src/events/hub.ts';
import type { RateLimitRule, RateLimitStore } from '../../src/limits/rate-limiter.ts';
import { createLimiters, RATE_LIMIT_RULES } from '../../src/limits/rules.ts';
import { ModelCaller, type ModelCallerOptions } from '../../src/models/calls.ts';
import { DEFAULT_PRICES } from '../../src/models/prices.ts';
import { type Dispatcher, Projects } from '../../src/projects/projects.ts';
import { completedStatus } from '../../src/projects/result.ts';
import { Revisions } from '../../src/projects/revisions.ts';
import { runStore } from '../../src/projects/run-store.ts';
import { GenerationQueue } from '../../src/queue/generation-queue.ts';
import type { WebhookQueueOptions } from '../../src/queue/webhook-queue.ts';
import { jobHandlers } from '../../src/runs/jobs.ts';
import { engineOf, type ModelSelector, offlineModels } from '../../src/runs/models.ts';
import { RevisionWorkflow } from '../../src/runs/revision-workflow.ts';
import { GenerationWorkflow, type WorkflowOptions } from '../../src/runs/workflow.ts';
import { type Database, openDatabase } from '../../src/storage/db.ts';
import type { Mode } from '../../src/storage/sql/accounts.ts';
import {
  insertDocument,
  insertProject,
  listDocuments,
  updateProject,
} from '../../src/storage/sql/projects.ts';
import { Tasks } from '../../src/tasks/service.ts';
import { openConnection } from '../../src/trackers/connections.ts';
import { ProjectSyncs, type SyncWorkerOptions } from '../../src/trackers/syncs.ts';
import { memoryDatabase } from './database.ts';
import { createTestDatabase, postgresUnavailable } from './services.ts';

export type Backend = 'pglite' | 'postgres';

/**
 * The real app on a database, with test defaults: no queue (creating a project throws),
 * the offline models, in-memory limits with the documented rules.
 */
export async function buildTestApp(
  database: Database,
  overrides: Partial<
    Pick<
      AppDeps,
      | 'limiters'
      | 'dispatcher'
      | 'models'
      | 'adminToken'
      | 'keepAliveMs'
      | 'now'
      | 'trackers'
      | 'logger'
    >
  > & {
    bodyLimitBytes?: number;
    webhooksAllowPrivate?: boolean;
    /** `PGS_PUBLIC_URL` (default: none, the request's own host). */
    publicUrl?: string;
    /** The HTTP time limits (default: the configuration's). */
    timeouts?: Partial<typeof HTTP_TIMEOUTS>;
  } = {},
): Promise<FastifyInstance> {
  return buildApp({
    config: {
      docsUrl: DOCS_URL,
      bodyLimitBytes: overrides.bodyLimitBytes ?? 65_536,
      trustProxy: false,
      webhooksAllowPrivate: overrides.webhooksAllowPrivate ?? false,
      publicUrl: overrides.publicUrl,
      ...overrides.timeouts,
    },
    database,
    adminToken: overrides.adminToken ?? generateAdminToken(),
    limiters: overrides.limiters ?? (await createLimiters({ kind: 'memory' })),
    dispatcher: overrides.dispatcher ?? noDispatcher,
    models: overrides.models ?? offlineModels(),
    ...(overrides.keepAliveMs === undefined ? {} : { keepAliveMs: overrides.keepAliveMs }),
    ...(overrides.now === undefined ? {} : { now: overrides.now }),
    ...(overrides.trackers === undefined ? {} : { trackers: overrides.trackers }),
    ...(overrides.logger === undefined ? {} : { logger: overrides.logger }),
  });
}

const noDispatcher: Dispatcher = {
  enqueue: async () => {
    throw new Error('start the harness with { generation: "workers" } to create projects');
  },
};

/** The backends to run a suite on: PGlite always, PostgreSQL when reachable (always in CI). */
export async function backends(): Promise<Backend[]> {
  return (await postgresUnavailable()) === undefined ? ['pglite', 'postgres'] : ['pglite'];
}

export const DOCS_URL = 'http://docs.test/pgs';

/**
 * Limits too roomy to be reached, for suites that run projects to their end and poll as
 * they like; the limits themselves are tested elsewhere.
 *
 * @example
 * startHarness(backend, { rules: roomy('status', 'create') });
 */
export function roomy<K extends keyof typeof RATE_LIMIT_RULES>(
  ...names: K[]
): Record<K, RateLimitRule> {
  return Object.fromEntries(
    names.map((name) => [name, { name, points: 100_000, durationSec: 60, window: '1 minute' }]),
  ) as unknown as Record<K, RateLimitRule>;
}

export interface HarnessOptions {
  rules?: Partial<Record<keyof typeof RATE_LIMIT_RULES, RateLimitRule>>;
  store?: (database: Database) => RateLimitStore;
  bodyLimitBytes?: number;
  /** The HTTP time limits (default: the configuration's). */
  timeouts?: Partial<typeof HTTP_TIMEOUTS>;
  /**
   * `workers`: a real generation queue (pg-boss on the same database) with workers running
   * the offline engine, so projects can be created and run to their end. Default: none
   * (creating a project then throws).
   */
  generation?: 'none' | 'workers';
  /** Generations the workers run at once (default 4, as a PGS process). */
  workerConcurrency?: number;
  /** Workflow settings for `generation: 'workers'`. */
  workflow?: Omit<WorkflowOptions, 'caller'>;
  /** Model-call settings (retry pauses default to 10 ms here). */
  caller?: ModelCallerOptions;
  /** The model chains; default: the offline engine for both modes. */
  models?: ModelSelector;
  /** Milliseconds between keep-alive comments on event streams. */
  keepAliveMs?: number;
  /** The app's clock of project times (see `AppDeps.now`); default `Date.now`. */
  now?: () => number;
  /**
   * Webhook settings: `allowPrivate` reaches the app (URL checks) and the queue
   * (deliveries); the rest (retry schedule, polling) the queue.
   */
  webhooks?: WebhookQueueOptions;
  /** Tracker connections: the sealer, the address policy, adapters (see `AppDeps.trackers`). */
  trackers?: AppDeps['trackers'];
  /**
   * Tracker syncs' workers (with `generation: 'workers'` and `trackers`): the sleep and
   * retry policy of their calls, the link back to a project.
   */
  syncs?: Omit<SyncWorkerOptions, 'open'>;
  /** The app's logger (default: none). */
  logger?: AppDeps['logger'];
  /** Adds routes or hooks to the app before it is ready (e.g. a route that throws). */
  extend?: (app: FastifyInstance) => void | Promise<void>;
}

/** The real app on a real database, with helpers that check every response against the contract. */
export interface Harness {
  app: FastifyInstance;
  database: Database;
  adminToken: string;
  accounts: Accounts;
  /** `app.inject()` plus a contract check of the response. */
  request(options: InjectOptions & { url: string }): Promise<LightMyRequestResponse>;
  /** A new account with one key. */
  createKey(mode?: Mode, options?: { accountId?: string; credits?: number }): Promise<CreatedKey>;
  seedProject(key: CreatedKey, state: ProjectSeed): Promise<string>;
  /** `GET /api/v1/projects/{id}` with the key (checked against the contract). */
  getProject(
    key: CreatedKey,
    id: string,
    headers?: Record<string, string>,
  ): Promise<LightMyRequestResponse>;
  /** `POST /api/v1/projects` with the key and a JSON body. */
  createProject(
    key: CreatedKey,
    body: unknown,
    headers?: Record<string, string>,
  ): Promise<LightMyRequestResponse>;
  /** `GET /api/v1/credits` with the key; asserts 200 and returns `data`. */
  credits(key: CreatedKey): Promise<{ mode: string; balance: number; reserved: number }>;
  close(): Promise<void>;
}

export type ProjectSeed =
  | { status: 'in_progress'; estimatedCompletionMs?: number }
  | { status: 'completed'; documents?: number }
  | { status: 'failed'; message?: string };

/**
 * A harness for the enclosing `describe`: started before its tests, closed after them.
 * Returns a getter (the harness exists only once `beforeAll` has run).
 *
 * @example
 * const harness = harnessFor(backend, { generation: 'workers' });
 * it('creates', async () => { await harness().createProject(key, { idea }); });
 */
export function harnessFor(backend: Backend, options: HarnessOptions = {}): () => Harness {
  let h: Harness | undefined;
  beforeAll(async () => {
    h = await startHarness(backend, options);
  });
  afterAll(async () => h?.close());
  return () => {
    if (h === undefined) throw new Error('the harness starts in beforeAll: use it inside tests');
    return h;
  };
}

export async function startHarness(
  backend: Backend,
  options: HarnessOptions = {},
): Promise<Harness> {
  let dropDatabase: (() => Promise<void>) | undefined;
  let database: Database;
  if (backend === 'postgres') {
    const created = await createTestDatabase();
    dropDatabase = created.drop;
    database = await openDatabase({ kind: 'postgres', url: created.url, poolSize: 4 });
  } else {
    database = await memoryDatabase();
  }
  const adminToken = generateAdminToken();
  const store = options.store?.(database) ?? { kind: 'memory' };
  const limiters = await createLimiters(store, { ...RATE_LIMIT_RULES, ...options.rules });
  const models = options.models ?? offlineModels();
  let queue: GenerationQueue | undefined;
  let workerEvents: ProjectEventHub | undefined;
  let dispatcher: Dispatcher = noDispatcher;
  if (options.generation === 'workers') {
    queue = await GenerationQueue.create(database, {
      concurrency: options.workerConcurrency ?? 4,
      retryDelaySeconds: 1,
      // New jobs wake a worker (NOTIFY); the poll finds retries come due, at a CPU cost on PGlite.
      pollingIntervalSeconds: 5,
      ...(options.webhooks ? { webhooks: options.webhooks } : {}),
    });
    // The workers' own subscription, as a worker process has (cancel aborts a run through it).
    workerEvents = await ProjectEventHub.start(database);
    const caller = new ModelCaller({ retryDelayMs: 10, prices: DEFAULT_PRICES, ...options.caller });
    const workflow = new GenerationWorkflow(
      runStore(database.db),
      new Projects(database.db, queue, engineOf(models)),
      models,
      { ...options.workflow, caller, events: workerEvents },
    );
    const revising = new RevisionWorkflow(
      runStore(database.db),
      new Revisions(database.db, queue, engineOf(models)),
      models,
      { ...options.workflow, caller, events: workerEvents },
    );
    await queue.start(jobHandlers(workflow, revising));
    dispatcher = queue;
    const trackers = options.trackers;
    if (trackers !== undefined) {
      const deps = {
        db: database.db,
        sealer: trackers.sealer,
        ...(trackers.adapters ? { adapters: trackers.adapters } : {}),
        network: {
          allowPrivate: trackers.allowPrivate,
          ...(trackers.resolve ? { resolve: trackers.resolve } : {}),
        },
      };
      const syncs = new ProjectSyncs(
        database.db,
        new Tasks(database.db, options.now),
        queue.syncs,
        {
          ...options.syncs,
          open: (owner) => openConnection(deps, owner),
        },
      );
      await queue.syncs.start((job) => syncs.run(job));
      options = { ...options, trackers: { ...trackers, syncs: queue.syncs } };
    }
  }
  const app = await buildTestApp(database, {
    adminToken,
    limiters,
    dispatcher,
    models,
    ...(options.bodyLimitBytes === undefined ? {} : { bodyLimitBytes: options.bodyLimitBytes }),
    ...(options.timeouts === undefined ? {} : { timeouts: options.timeouts }),
    ...(options.keepAliveMs === undefined ? {} : { keepAliveMs: options.keepAliveMs }),
    ...(options.now === undefined ? {} : { now: options.now }),
    ...(options.trackers === undefined ? {} : { trackers: options.trackers }),
    ...(options.logger === undefined ? {} : { logger: options.logger }),
    webhooksAllowPrivate: options.webhooks?.allowPrivate ?? false,
  });
  await options.extend?.(app);
  await app.ready();
  const accounts = new Accounts(database.db);

  const request = async (opts: InjectOptions & { url: string }) => {
    const res = await app.inject(opts);
    assertMatchesContract(opts.method ?? 'GET', opts.url, res);
    return res;
  };
  return {
    app,
    database,
    adminToken,
    accounts,
    request,
    getProject: (key, id, headers = {}) =>
      request({
        method: 'GET',
        url: `/api/v1/projects/${id}`,
        headers: { ...bearer(key.key), ...headers },
      }),
    createProject: (key, body, headers = {}) =>
      request({
        method: 'POST',
        url: '/api/v1/projects',
        headers: { ...bearer(key.key), 'content-type': 'application/json', ...headers },
        payload: JSON.stringify(body),
      }),
    async credits(key) {
      const res = await request({
        method: 'GET',
        url: '/api/v1/credits',
        headers: bearer(key.key),
      });
      expect(res.statusCode).toBe(200);
      return res.json().data;
    },
    createKey: (mode = 'test', opts = {}) =>
      accounts.createKey({ mode, accountId: opts.accountId, credits: opts.credits }),
    async seedProject(key, seed) {
      const id = randomUUID();
      const now = Date.now();
      const row = await insertProject(database.db, {
        id,
        accountId: key.accountId,
        mode: key.mode,
        status: 'in_progress',
        idea: 'A habit tracker for remote teams that nudges people at the right time.',
        estimatedCompletionAt:
          seed.status === 'in_progress'
            ? new Date(now + (seed.estimatedCompletionMs ?? 60_000))
            : null,
      });
      if (seed.status === 'failed') {
        await updateProject(database.db, id, {
          status: 'failed',
          errorCode: 'generation_failed',
          errorMessage:
            seed.message ??
            'The AI service timed out while generating the project. Your credits have been refunded.',
        });
      }
      if (seed.status === 'completed') {
        const count = seed.documents ?? 2;
        for (let i = 0; i < count; i++) {
          await insertDocument(database.db, {
            projectId: id,
            type: i === 0 ? 'project-brief' : `doc-${i}`,
            filename: i === 0 ? 'PROJECT_BRIEF.md' : `DOC_${i}.md`,
            content: `# Document ${i}\n\nHabit tracking for remote teams.`,
            stage: i === 0 ? 'project-brief' : 'requirements',
            tokensUsed: 100 + i,
            generatedAt: new Date(now),
            position: i,
          });
        }
        const named = {
          ...row,
          name: 'TeamPulse',
          description: 'A habit tracker for remote teams.',
          type: 'web' as const,
          questionnaire: {
            targetAudience: 'Remote teams',
            monetization: 'Per-seat subscription',
            techStack: ['TypeScript', 'PostgreSQL'],
            platforms: ['web'],
          },
        };
        const data = completedStatus(named, await listDocuments(database.db, id), {
          creditsConsumed: 5 * count,
          generationTimeMs: 1234,
          documentsGenerated: count,
        });
        await updateProject(database.db, id, {
          ...named,
          status: 'completed',
          creditsConsumed: 5 * count,
          generationTimeMs: 1234,
          resultBody: JSON.stringify({ success: true, data }),
          completedAt: new Date(now),
        });
      }
      // As the service's creation does: every process's view of existing ids learns of it.
      await database.db.transaction((tx) => announceCreated(tx, id));
      return id;
    },
    async close() {
      await app.close();
      await queue?.stop(2_000);
      await workerEvents?.stop();
      await database.close();
      await dropDatabase?.();
    },
  };
}

/** `Authorization: Bearer <key>` */
export const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
