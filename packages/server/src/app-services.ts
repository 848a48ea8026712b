import { HouseConventions } from './accounts/conventions.ts';
import { IdempotencyKeys } from './accounts/idempotency-keys.ts';
import { Accounts } from './accounts/service.ts';
import type { AppDeps } from './app-deps.ts';
import { ConformanceChecks } from './conformance/service.ts';
import { CreditReads } from './credits/reads.ts';
import { ProjectEventHub } from './events/hub.ts';
import { SharedEventReads } from './events/reads.ts';
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

/**
 * The services the edge (REST and MCP) is handed: what it reads and keeps, never the
 * database itself. One instance of each serves both protocols.
 */
export interface AppServices {
  now: () => number;
  accounts: Accounts;
  events: ProjectEventHub;
  statusReader: ProjectStatusReader;
  metrics: Metrics;
  /** Traces made for the REST route serve the MCP tool too, and the other way round. */
  traces: TraceCache;
  projects: Projects;
  revisions: Revisions;
  /** The REST task routes and the MCP task tools (and the sources it caches). */
  tasks: Tasks;
  /** Checks of repositories against the spec (docs/conformance.md). */
  checks: ConformanceChecks;
  /** Pushes of projects to trackers (docs/trackers.md); the workers run them. */
  syncs: ProjectSyncs;
  projectReads: ProjectReads;
  /** A project's open questions, answered as a revision (docs/clarify.md). */
  questions: ProjectQuestions;
  credits: CreditReads;
  idempotency: IdempotencyKeys;
  /** Streams of one project (REST or MCP) that wake on the same event share the read that follows. */
  eventReads: SharedEventReads;
  conventions: HouseConventions;
  webhookEndpoints: WebhookEndpoints;
  connections: Connections;
  /** What a tracker's inbound deliveries need: the database, the sealer, the adapters. */
  trackers: TrackerDeps;
}

type TrackerDeps = ConstructorParameters<typeof Connections>[0];

/**
 * Builds the services from the app's dependencies. `onClose` receives what must be stopped
 * when the app closes (the hub it started, the status reader's subscriptions, the shared reads).
 *
 * @example
 * const services = await buildServices(deps, (stop) => app.addHook('onClose', async () => stop()));
 */
export async function buildServices(
  deps: AppDeps,
  onClose: (stop: () => unknown) => void,
): Promise<AppServices> {
  const { database } = deps;
  const db = database.db;
  const accounts = new Accounts(db);
  onClose(await accounts.watchRevocations(database));
  let events = deps.events;
  if (events === undefined) {
    const own = await ProjectEventHub.start(database);
    onClose(() => own.stop());
    events = own;
  }
  // In-progress projects and unknown ids from memory, kept by the hub's announcements
  // (deletions through any process among them); see docs/performance.md.
  const now = deps.now ?? Date.now;
  const statusReader = new ProjectStatusReader(db, {
    now,
    hub: events,
    // PGlite's listeners run before the committing statement returns: no barrier to await.
    barrierFree: deps.events === undefined && database.kind === 'pglite',
  });
  onClose(() => statusReader.close());
  const metrics = deps.metrics ?? new Metrics();
  const engine = engineOf(deps.models);
  const projects = new Projects(db, deps.dispatcher, engine, now, metrics.generation, (mode) =>
    deps.models
      .forProject({ mode, simulate: null, type: null })
      .map((model) => model.engine)
      .filter((name) => priceOf(deps.prices ?? DEFAULT_PRICES, name) === undefined),
  );
  const tasks = new Tasks(db, now, { dispatcher: deps.dispatcher });
  const revisions = new Revisions(db, deps.dispatcher, engine, now, metrics.generation);
  const projectReads = new ProjectReads(db);
  const eventReads = new SharedEventReads(db, events);
  onClose(() => eventReads.close());
  const trackers: TrackerDeps = {
    db,
    sealer: deps.trackers?.sealer ?? Sealer.of(undefined),
    ...(deps.trackers?.adapters ? { adapters: deps.trackers.adapters } : {}),
  };
  return {
    now,
    accounts,
    events,
    statusReader,
    metrics,
    traces: new TraceCache(),
    projects,
    revisions,
    tasks,
    checks: new ConformanceChecks(db, now),
    syncs: new ProjectSyncs(db, tasks, deps.trackers?.syncs),
    projectReads,
    questions: new ProjectQuestions(projectReads, revisions),
    credits: new CreditReads(db),
    idempotency: new IdempotencyKeys(db),
    eventReads,
    conventions: new HouseConventions(db, now),
    webhookEndpoints: new WebhookEndpoints(db),
    connections: new Connections(trackers, {
      allowPrivate: deps.trackers?.allowPrivate ?? false,
      ...(deps.trackers?.resolve ? { resolve: deps.trackers.resolve } : {}),
    }),
    trackers,
  };
}
