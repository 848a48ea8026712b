import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { generateAdminToken } from '../../src/accounts/api-keys.ts';
import { Accounts, type CreatedKey } from '../../src/accounts/service.ts';
import { createLogger } from '../../src/api/logging.ts';
import { buildApp } from '../../src/app.ts';
import { createLimiters, RATE_LIMIT_RULES } from '../../src/limits/rules.ts';
import { type Dispatcher, Projects } from '../../src/projects/projects.ts';
import { documentPlan } from '../../src/runs/catalogue.ts';
import { engineOf, offlineModels } from '../../src/runs/models.ts';
import type { Database } from '../../src/storage/db.ts';
import { trackerConnections } from '../../src/storage/schema.ts';
import { insertDocument, updateProject } from '../../src/storage/sql/projects.ts';
import { sealContext } from '../../src/trackers/connections.ts';
import { Sealer, seal } from '../../src/trackers/sealed.ts';
import { memoryDatabase } from '../helpers/database.ts';
import { DOCS_URL, roomy } from '../helpers/harness.ts';

/** The key ring the fuzz app seals tracker credentials with (tests seal seeded rows with it). */
export const FUZZ_KEY_RING = { current: randomBytes(32), previous: [] };

/** One route of the app, as its onRoute hook reported it. */
export interface AppRoute {
  method: string;
  /** Fastify's pattern, e.g. `/api/v1/projects/:projectId`. */
  url: string;
  operationId: string | undefined;
}

/** Identifiers worth aiming at: real ones of the caller, of another account, and fakes. */
export interface Targets {
  /** The caller's completed project (with documents) and failed (cancelled) project. */
  ownProjects: string[];
  /** A completed project of another account. */
  otherProjects: string[];
  ownEndpoints: string[];
  otherEndpoints: string[];
  /** A tracker connection of the caller (Linear, sealed with {@link FUZZ_KEY_RING}). */
  ownConnections: string[];
  accounts: string[];
  /** Keys that may be revoked by a fuzzed admin request (never the ones the fuzz uses). */
  spareKeyIds: string[];
  filenames: string[];
}

/** The real app on an in-memory PGlite, seeded, with everything a fuzz run needs. */
export interface FuzzApp {
  app: FastifyInstance;
  database: Database;
  routes: AppRoute[];
  adminToken: string;
  keys: { test: CreatedKey; live: CreatedKey; other: CreatedKey };
  targets: Targets;
  bodyLimitBytes: number;
  /** Every line the app logged (at info, as `npm start` does): no secret may be in one. */
  logLines: string[];
  /** What a refused request must leave as it was: row counts and every balance. */
  snapshot(): Promise<string>;
  close(): Promise<void>;
}

/** The tables whose rows a request may create, change or delete. */
const WATCHED_TABLES = [
  'accounts',
  'api_keys',
  'credit_balances',
  'credit_ledger',
  'projects',
  'project_revisions',
  'project_contexts',
  'documents',
  'project_events',
  'provenance',
  'idempotency_keys',
  'webhook_endpoints',
  'webhook_deliveries',
];

/** Limits out of reach for all rules: the fuzz is about input, the limits are tested elsewhere. */
const ALL_ROOMY = roomy(...(Object.keys(RATE_LIMIT_RULES) as (keyof typeof RATE_LIMIT_RULES)[]));

/**
 * Projects are accepted and stay in progress (no worker): nothing changes in the background,
 * so a snapshot before and after a request sees only what that request did.
 */
const holdingDispatcher: Dispatcher = { enqueue: async () => {} };

const IDEA = 'A web dashboard where community gardeners share compost schedules and seed swaps.';

/**
 * Starts the real app (every route, as `main.ts` builds it, minus the console) with roomy
 * limits, seeds two accounts with keys, projects in each final state and webhook endpoints,
 * and records the routes through the app's onRoute hook: a new route is fuzzed at once.
 *
 * @example
 * const fuzz = await startFuzzApp();
 * const before = await fuzz.snapshot();
 */
export async function startFuzzApp({
  bodyLimitBytes = 65_536,
  consoleDir,
}: {
  bodyLimitBytes?: number;
  /** Serve the console from here (its routes then join the list); none: no console. */
  consoleDir?: string;
} = {}): Promise<FuzzApp> {
  const database = await memoryDatabase();
  const adminToken = generateAdminToken();
  const routes: AppRoute[] = [];
  const onRoute = (route: RouteOptions) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const config = route.config as { operationId?: string } | undefined;
    for (const method of methods) {
      routes.push({ method: String(method), url: route.url, operationId: config?.operationId });
    }
  };
  const models = offlineModels();
  const logLines: string[] = [];
  const app = await buildApp({
    logger: createLogger('info', { write: (line: string) => void logLines.push(line) }),
    config: {
      docsUrl: DOCS_URL,
      bodyLimitBytes,
      trustProxy: false,
      webhooksAllowPrivate: false,
      ...(consoleDir === undefined ? {} : { consoleDir }),
    },
    database,
    adminToken,
    limiters: await createLimiters({ kind: 'memory' }, { ...RATE_LIMIT_RULES, ...ALL_ROOMY }),
    dispatcher: holdingDispatcher,
    models,
    onRoute,
    // Syncs are queued and never run: no tracker is reachable from the fuzzer.
    trackers: {
      sealer: Sealer.of(FUZZ_KEY_RING),
      allowPrivate: false,
      syncs: { enqueueSync: async () => {} },
    },
  });
  await app.ready();

  const accounts = new Accounts(database.db);
  const test = await accounts.createKey({ mode: 'test', credits: 1_000_000 });
  const live = await accounts.createKey({
    mode: 'live',
    accountId: test.accountId,
    credits: 1_000_000,
  });
  const other = await accounts.createKey({ mode: 'test', credits: 1_000 });
  const spare = await accounts.createKey({ mode: 'test', accountId: other.accountId });
  const projects = new Projects(database.db, holdingDispatcher, engineOf(models));

  const inject = async (key: CreatedKey, method: 'POST' | 'GET', url: string, body?: unknown) => {
    const res = await app.inject({
      method,
      url,
      headers: {
        authorization: `Bearer ${key.key}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
    if (res.statusCode >= 300) throw new Error(`seeding ${method} ${url}: ${res.body}`);
    return res.json().data;
  };
  /** A completed project with two documents, through the real completion (ledger included). */
  const completed = async (key: CreatedKey) => {
    const { projectId } = await inject(key, 'POST', '/api/v1/projects', {
      idea: IDEA,
      type: 'web',
    });
    // What the definition stage stores before any document.
    await updateProject(database.db, projectId, {
      name: 'CompostHub',
      description: 'A web dashboard where community gardeners share compost schedules.',
      type: 'web',
      questionnaire: {
        targetAudience: 'Community gardeners',
        monetization: 'Free',
        techStack: ['TypeScript', 'PostgreSQL'],
        platforms: ['web'],
      },
    });
    const plan = documentPlan('web');
    for (const [position, doc] of plan.slice(0, 2).entries()) {
      await insertDocument(database.db, {
        projectId,
        type: doc.kind,
        filename: doc.filename,
        content: `# ${doc.filename}\n\nCompost schedules for community gardens.`,
        stage: doc.stage,
        tokensUsed: 100,
        generatedAt: new Date(),
        position,
      });
    }
    if (!(await projects.complete(projectId))) throw new Error('seeding: completion refused');
    return projectId as string;
  };
  const cancelled = async (key: CreatedKey) => {
    const { projectId } = await inject(key, 'POST', '/api/v1/projects', { idea: IDEA });
    await inject(key, 'POST', `/api/v1/projects/${projectId}/cancel`);
    return projectId as string;
  };
  const endpoint = async (key: CreatedKey, host: string) =>
    (await inject(key, 'POST', '/api/v1/webhook-endpoints', { url: `https://${host}/pgs` }))
      .id as string;

  // Stored as a creation stores one: no tracker is reachable from a fuzz run.
  const connection = async (key: CreatedKey) => {
    const id = 'tc_01JD6WQ8V4Z9K3M2N5P7R8S0TA';
    await database.db.insert(trackerConnections).values({
      id,
      accountId: key.accountId,
      mode: key.mode,
      provider: 'linear',
      name: 'ENG',
      target: { team: 'ENG' },
      credentials: seal(FUZZ_KEY_RING, '{"token":"lin_api_fuzz"}', sealContext.credentials(id)),
      webhookSecret: seal(FUZZ_KEY_RING, 'fuzz-secret', sealContext.webhookSecret(id)),
    });
    return id;
  };

  const targets: Targets = {
    ownProjects: [await completed(test), await cancelled(test), await completed(live)],
    otherProjects: [await completed(other)],
    // Public addresses as literals: no DNS lookup at creation.
    ownEndpoints: [await endpoint(test, '93.184.215.14')],
    otherEndpoints: [await endpoint(other, '93.184.215.15')],
    ownConnections: [await connection(test)],
    accounts: [test.accountId, other.accountId],
    spareKeyIds: [spare.keyId],
    filenames: documentPlan('web')
      .slice(0, 3)
      .map((doc) => doc.filename),
  };

  // Every write to a table a request could store in bumps one counter (statement triggers,
  // in this test database only): reading that single row tells whether anything was written,
  // and the full snapshot below is taken again only when something was.
  for (const statement of [
    'create table fuzz_writes (n bigint not null)',
    'insert into fuzz_writes values (0)',
    `create function fuzz_count_write() returns trigger language plpgsql as $$
       begin update fuzz_writes set n = n + 1; return null; end $$`,
    ...WATCHED_TABLES.map(
      (table) => `create trigger fuzz_${table} after insert or update or delete on ${table}
        for each statement execute function fuzz_count_write()`,
    ),
  ]) {
    await database.db.execute(sql.raw(statement));
  }
  const writes = async () => {
    const result = (await database.db.execute(
      sql`select n::text as n from fuzz_writes`,
    )) as unknown as {
      rows: { n: string }[];
    };
    return result.rows[0]!.n;
  };
  let last: { writes: string; state: string } | undefined;

  return {
    app,
    database,
    routes,
    adminToken,
    keys: { test, live, other },
    targets,
    bodyLimitBytes,
    logLines,
    async snapshot() {
      const counted = await writes();
      if (last?.writes === counted) return last.state;
      const result = (await database.db.execute(sql`
        select json_build_array(
          (select count(*) from projects),
          (select count(*) from documents),
          (select count(*) from credit_ledger),
          (select count(*) from project_events),
          (select count(*) from webhook_endpoints),
          (select count(*) from webhook_deliveries),
          (select count(*) from idempotency_keys),
          (select count(*) from accounts),
          (select count(*) from api_keys where revoked_at is null),
          (select coalesce(string_agg(account_id || ':' || mode || '=' || balance, ' '
            order by account_id, mode), '') from credit_balances)
        )::text as state`)) as unknown as { rows: { state: string }[] };
      last = { writes: counted, state: result.rows[0]!.state };
      return last.state;
    },
    async close() {
      await app.close();
      await database.close();
    },
  };
}

/**
 * The run budget, bounded by counts: CI runs `ci` cases, a local run `local`, and
 * `PGS_FUZZ_RUNS` overrides both. A time limit would make the proof depend on the machine's
 * load (a loaded CI machine once reached a fifth of its cases), so there is none unless
 * `PGS_FUZZ_SECONDS` asks for one (a long local hunt): then `minimum` is a fifth of the runs.
 * `timeoutMs` guards against a hang; it is not a speed target.
 *
 * @example
 * const { runs, limit, minimum, timeoutMs } = fuzzBudget({ ci: 5_000, local: 800 });
 * await fc.check(property, { numRuns: runs, ...limit });
 */
export function fuzzBudget({ ci, local }: { ci: number; local: number }) {
  const runs = Number(process.env.PGS_FUZZ_RUNS ?? (process.env.CI === 'true' ? ci : local));
  const seconds = process.env.PGS_FUZZ_SECONDS ? Number(process.env.PGS_FUZZ_SECONDS) : undefined;
  return {
    runs,
    limit: seconds === undefined ? {} : { interruptAfterTimeLimit: 1000 * seconds },
    minimum: seconds === undefined ? runs : Math.ceil(runs / 5),
    timeoutMs: 600_000 + 1000 * (seconds ?? 0),
  };
}
