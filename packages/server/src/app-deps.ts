/**
 * What the Fastify app is built from (`buildApp` in app.ts): `main.ts` makes these from the
 * config, tests make their own.
 */
import type { FastifyBaseLogger, RouteOptions } from 'fastify';
import { type Config, HTTP_TIMEOUTS } from './config.ts';
import type { ProjectEventHub } from './events/hub.ts';
import type { Limiters } from './limits/rules.ts';
import type { Metrics } from './metrics/registry.ts';
import type { PriceTable } from './models/prices.ts';
import type { Dispatcher } from './projects/projects.ts';
import type { ModelSelector } from './runs/models.ts';
import type { Database } from './storage/db.ts';
import type { TrackerAdapter, TrackerProvider } from './trackers/providers/index.ts';
import type { Sealer } from './trackers/sealed.ts';
import type { SyncDispatcher } from './trackers/syncs.ts';

/** The time limits a config sets (an absent one keeps its default). */
export function definedOnly(config: AppDeps['config']): Partial<typeof HTTP_TIMEOUTS> {
  const set: { -readonly [K in keyof typeof HTTP_TIMEOUTS]?: number } = {};
  for (const name of Object.keys(HTTP_TIMEOUTS) as (keyof typeof HTTP_TIMEOUTS)[]) {
    const value = config[name];
    if (value !== undefined) set[name] = value;
  }
  return set;
}

/** What the app is built from; `main.ts` makes these from the config, tests make their own. */
export interface AppDeps {
  config: Pick<Config, 'docsUrl' | 'bodyLimitBytes' | 'trustProxy' | 'webhooksAllowPrivate'> &
    // Absent: no console at `/` (the test harness); the runtime passes PGS_CONSOLE_DIR.
    // Absent publicUrl: a tracker's webhook URL is the request's own host.
    Partial<Pick<Config, 'consoleDir' | 'publicUrl'>> &
    // Absent: the defaults of the configuration (HTTP_TIMEOUTS).
    Partial<
      Pick<
        Config,
        'requestTimeoutMs' | 'headersTimeoutMs' | 'connectionTimeoutMs' | 'drainTimeoutMs'
      >
    >;
  database: Database;
  adminToken: string;
  limiters: Limiters;
  /** Puts new projects' generations on the queue. */
  dispatcher: Dispatcher;
  /** The models projects are generated with (estimates depend on them). */
  models: ModelSelector;
  /** Model prices (`PGS_MODEL_PRICES` over the defaults; absent, the defaults). */
  prices?: PriceTable;
  /**
   * Announcements of project events (long-polls and event streams wait on them); none
   * means the app starts its own and stops it on close.
   */
  events?: ProjectEventHub;
  /** Milliseconds between keep-alive comments on an event stream (default 15 s). */
  keepAliveMs?: number;
  /**
   * The clock of project times: the time left that status reads count down, a new
   * project's estimated end, and the end and generation time a completion or cancellation
   * records (the workers keep their own); default `Date.now`. Tests hold it still to assert
   * exact durations.
   */
  now?: () => number;
  /** The process's logger (pino); none means silent. */
  logger?: FastifyBaseLogger;
  /**
   * Told of every route as it is added, before any is registered (tests enumerate the
   * app's own routes this way, so a new route is fuzzed and checked without a list to edit).
   */
  onRoute?: (route: RouteOptions) => void;
  /**
   * The metrics `GET /metrics` exports (the process's, shared with its workers); none
   * means a registry of the app's own, so apps built side by side never collide.
   */
  metrics?: Metrics;
  /**
   * Tracker connections (docs/trackers.md): the sealer of their credentials (none: every
   * creation answers 503 ENCRYPTION_NOT_CONFIGURED), whether `baseUrl` may be private
   * (`PGS_CONNECTIONS_ALLOW_PRIVATE`), and, for tests, other adapters or DNS.
   */
  trackers?: {
    /** Puts a project's sync on the queue (`POST …/syncs`); none: syncs cannot be created. */
    syncs?: SyncDispatcher;
    sealer: Sealer;
    allowPrivate: boolean;
    adapters?: (provider: TrackerProvider) => TrackerAdapter | undefined;
    resolve?: (host: string) => Promise<string[]>;
  };
}
