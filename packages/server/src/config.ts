/**
 * The configuration: the only reader of the environment, which it hands to the readers of its
 * parts (config-env.ts, config-http.ts, config-models.ts); their exports are re-exported here.
 */
import path from 'node:path';
import { boolean, ConfigError, type Env, encryptionKey, integer, read, url } from './config-env.ts';
import { connectionTimeouts, requestTimeouts } from './config-http.ts';
import {
  type ModelSpec,
  modelPrices,
  type ProviderSettings,
  parseModelChain,
  providerSettings,
} from './config-models.ts';
import type { PriceTable } from './price-table.ts';

export { ConfigError } from './config-env.ts';
export { HTTP_TIMEOUTS } from './config-http.ts';
export {
  type ModelSpec,
  OFFLINE_MODEL_ID,
  PROVIDERS,
  type Provider,
  type ProviderSettings,
  parseModelChain,
} from './config-models.ts';

/** Log levels accepted by `PGS_LOG_LEVEL` (pino's). */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** The server's whole configuration, read once from the environment. */
export interface Config {
  readonly port: number;
  readonly host: string;
  /** PostgreSQL connection string; absent means the embedded PGlite database in `dataDir`. */
  readonly databaseUrl: string | undefined;
  /** Redis connection string; when set, rate-limit counters live there. */
  readonly redisUrl: string | undefined;
  readonly dataDir: string;
  /** Operator token for `/admin/v1`; absent means a generated token kept in `dataDir`. */
  readonly adminToken: string | undefined;
  readonly logLevel: LogLevel;
  /** Base of `error.documentation` links: `<docsUrl>/errors#CODE`. */
  readonly docsUrl: string;
  readonly bodyLimitBytes: number;
  /**
   * Time to receive a whole request, headers and body, in milliseconds: a client trickling
   * a body is cut off with 408 and nothing is stored (`PGS_REQUEST_TIMEOUT_MS`).
   */
  readonly requestTimeoutMs: number;
  /** Time to receive a request's headers, in milliseconds (`PGS_HEADERS_TIMEOUT_MS`). */
  readonly headersTimeoutMs: number;
  /**
   * A connection that sends and receives nothing for this long is closed, in milliseconds
   * (`PGS_CONNECTION_TIMEOUT_MS`); above the longest long-poll wait (60 s), since a waiting
   * long-poll is silent.
   */
  readonly connectionTimeoutMs: number;
  /**
   * How long a connection lingers after an answer sent before its request was read whole
   * (a 401, 408 or 413 to a body still arriving), in milliseconds (`PGS_DRAIN_TIMEOUT_MS`):
   * time for the client to finish sending and read the answer; then the socket is cut.
   */
  readonly drainTimeoutMs: number;
  /** Trust `X-Forwarded-For` from a proxy in front of the server (client address for limits). */
  readonly trustProxy: boolean;
  /** Create a development account with a test key on the first start of an empty database. */
  readonly seedDevAccount: boolean;
  /** `all` serves the API and runs generations; `api` and `worker` split them (PostgreSQL only). */
  readonly role: Role;
  /** Generations one process runs at once. */
  readonly workerConcurrency: number;
  /** The model chain for live keys (`PGS_MODELS`), first choice first. */
  readonly models: readonly ModelSpec[];
  /** The model chain for test keys (`PGS_TEST_MODELS`). */
  readonly testModels: readonly ModelSpec[];
  /** Credentials and addresses of the providers the chains name (only those). */
  readonly providers: ProviderSettings;
  /** Time limit of one AI call, in milliseconds. */
  readonly aiTimeoutMs: number;
  /** A streamed answer that sends nothing for this long is a time-out, in milliseconds. */
  readonly aiIdleTimeoutMs: number;
  /** Model calls in flight at once per worker process, shared by all projects. */
  readonly aiConcurrency: number;
  /** getProjectStatus requests per minute per key (the seed's 100; raise it for load tests). */
  readonly statusRateLimit: number;
  /**
   * Webhook URLs may be http and point to private addresses (development and tests only:
   * it lets API clients make the server call into its own network).
   */
  readonly webhooksAllowPrivate: boolean;
  /**
   * A listener of its own for `GET /metrics` (`PGS_METRICS_PORT`; 0 picks a free port),
   * beside the API's; absent means none (a worker then exports no metrics).
   */
  readonly metricsPort: number | undefined;
  /** The web console's build output, served at `/` (`PGS_CONSOLE_DIR`). */
  readonly consoleDir: string;
  /** Model prices: the defaults, with the file `PGS_MODEL_PRICES` names merged over them. */
  readonly modelPrices: PriceTable;
  /**
   * The key trackers' credentials are sealed with (`PGS_ENCRYPTION_KEY`, 32 bytes); absent
   * means a key generated into `dataDir` on the embedded database, and no tracker
   * connections on PostgreSQL (docs/security.md).
   */
  readonly encryptionKey: Buffer | undefined;
  /** Earlier keys, to open what they sealed during a rotation (`PGS_ENCRYPTION_KEYS_PREVIOUS`). */
  readonly encryptionKeysPrevious: readonly Buffer[];
  /**
   * A connection's `baseUrl` may be http and point to private addresses (development and
   * tests only, as `webhooksAllowPrivate`).
   */
  readonly connectionsAllowPrivate: boolean;
  /** Seconds between two reconciles of a tracker connection (`PGS_TRACKER_RECONCILE_SECONDS`). */
  readonly trackerReconcileSeconds: number;
  /**
   * Where people and trackers reach this server (`PGS_PUBLIC_URL`, e.g.
   * `https://pgs.example.com`): a connection's webhook URL is built from it (none, from the
   * request's host), and a synced issue links back to its project's console page there
   * (none, no link).
   */
  readonly publicUrl: string | undefined;
}

/**
 * Where `npm start` builds the console (packages/web/dist), found from this package rather
 * than imported: the server never imports the web package's code.
 */
export const DEFAULT_CONSOLE_DIR = path.resolve(import.meta.dirname, '..', '..', 'web', 'dist');

export const ROLES = ['all', 'api', 'worker'] as const;
export type Role = (typeof ROLES)[number];

/** The listener and what names it: port, host, log level, the operator token, the docs' base. */
function listenerSettings(env: Env) {
  const port = integer(env, 'PORT', 3000, 0, 65535);
  const host = read(env, 'HOST') ?? '127.0.0.1';
  const logLevel = (read(env, 'PGS_LOG_LEVEL') ?? 'info') as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError(
      `PGS_LOG_LEVEL=${logLevel} is invalid: expected one of ${LOG_LEVELS.join(', ')}`,
    );
  }
  const adminToken = read(env, 'PGS_ADMIN_TOKEN');
  if (adminToken !== undefined && adminToken.length < 16) {
    throw new ConfigError('PGS_ADMIN_TOKEN is invalid: expected at least 16 characters');
  }
  const displayHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  const docsUrl =
    url(env, 'PGS_DOCS_URL', ['http', 'https'])?.replace(/\/+$/, '') ??
    `http://${displayHost.includes(':') ? `[${displayHost}]` : displayHost}:${port || 3000}/docs`;
  return { port, host, logLevel, adminToken, docsUrl };
}

/** The database and the process's role: only PostgreSQL can be shared by split roles. */
function deployment(env: Env): { databaseUrl: string | undefined; role: Role } {
  const databaseUrl = url(env, 'DATABASE_URL', ['postgres', 'postgresql']);
  const role = (read(env, 'PGS_ROLE') ?? 'all') as Role;
  if (!ROLES.includes(role)) {
    throw new ConfigError(`PGS_ROLE=${role} is invalid: expected one of ${ROLES.join(', ')}`);
  }
  if (role !== 'all' && databaseUrl === undefined) {
    throw new ConfigError(
      `PGS_ROLE=${role} needs DATABASE_URL: separate API and worker processes share one PostgreSQL database (the embedded database belongs to one process)`,
    );
  }
  return { databaseUrl, role };
}

/** The key trackers' credentials are sealed with, and the earlier keys of a rotation. */
function encryptionKeys(env: Env): Pick<Config, 'encryptionKey' | 'encryptionKeysPrevious'> {
  return {
    encryptionKey:
      read(env, 'PGS_ENCRYPTION_KEY') === undefined
        ? undefined
        : encryptionKey('PGS_ENCRYPTION_KEY', read(env, 'PGS_ENCRYPTION_KEY')!),
    encryptionKeysPrevious: (read(env, 'PGS_ENCRYPTION_KEYS_PREVIOUS') ?? '')
      .split(',')
      .map((entry) => entry.trim())
      .filter((entry) => entry !== '')
      .map((entry) => encryptionKey('PGS_ENCRYPTION_KEYS_PREVIOUS', entry)),
  };
}

/**
 * Reads and validates the configuration; throws {@link ConfigError} naming the variable.
 *
 * @example
 * const config = loadConfig({ PORT: '8080' });
 */
export function loadConfig(env: Env = process.env, cwd = process.cwd()): Config {
  const { port, host, logLevel, adminToken, docsUrl } = listenerSettings(env);
  const { databaseUrl, role } = deployment(env);
  const { requestTimeoutMs, headersTimeoutMs } = requestTimeouts(env);
  const models = parseModelChain('PGS_MODELS', read(env, 'PGS_MODELS') ?? 'offline');
  const testModels = parseModelChain('PGS_TEST_MODELS', read(env, 'PGS_TEST_MODELS') ?? 'offline');
  return Object.freeze({
    port,
    host,
    databaseUrl,
    redisUrl: url(env, 'REDIS_URL', ['redis', 'rediss']),
    dataDir: path.resolve(cwd, read(env, 'PGS_DATA_DIR') ?? '.pgs'),
    adminToken,
    logLevel,
    docsUrl,
    bodyLimitBytes: integer(env, 'PGS_BODY_LIMIT_BYTES', 65_536, 1_024, 10_485_760),
    requestTimeoutMs,
    headersTimeoutMs,
    ...connectionTimeouts(env),
    trustProxy: boolean(env, 'PGS_TRUST_PROXY', false),
    seedDevAccount: boolean(env, 'PGS_SEED_DEV_ACCOUNT', databaseUrl === undefined),
    role,
    workerConcurrency: integer(env, 'PGS_WORKER_CONCURRENCY', 4, 1, 64),
    models,
    testModels,
    providers: providerSettings(env, [...models, ...testModels]),
    aiTimeoutMs: integer(env, 'PGS_AI_TIMEOUT_MS', 120_000, 1_000, 3_600_000),
    aiIdleTimeoutMs: integer(env, 'PGS_AI_IDLE_TIMEOUT_MS', 30_000, 1_000, 3_600_000),
    aiConcurrency: integer(env, 'PGS_AI_CONCURRENCY', 8, 1, 256),
    statusRateLimit: integer(env, 'PGS_STATUS_RATE_LIMIT', 100, 1, 10_000_000),
    webhooksAllowPrivate: boolean(env, 'PGS_WEBHOOKS_ALLOW_PRIVATE', false),
    metricsPort:
      read(env, 'PGS_METRICS_PORT') === undefined
        ? undefined
        : integer(env, 'PGS_METRICS_PORT', 0, 0, 65535),
    consoleDir: path.resolve(cwd, read(env, 'PGS_CONSOLE_DIR') ?? DEFAULT_CONSOLE_DIR),
    modelPrices: modelPrices(env, cwd),
    ...encryptionKeys(env),
    connectionsAllowPrivate: boolean(env, 'PGS_CONNECTIONS_ALLOW_PRIVATE', false),
    trackerReconcileSeconds: integer(env, 'PGS_TRACKER_RECONCILE_SECONDS', 300, 10, 86_400),
    publicUrl: url(env, 'PGS_PUBLIC_URL', ['http', 'https'])?.replace(/\/+$/, ''),
  });
}
