import path from 'node:path';

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
  /** Trust `X-Forwarded-For` from a proxy in front of the server (client address for limits). */
  readonly trustProxy: boolean;
  /** Create a development account with a test key on the first start of an empty database. */
  readonly seedDevAccount: boolean;
  /** `all` serves the API and runs generations; `api` and `worker` split them (PostgreSQL only). */
  readonly role: Role;
  /** Generations one process runs at once. */
  readonly workerConcurrency: number;
  /** Time limit of one AI call, in milliseconds. */
  readonly aiTimeoutMs: number;
  /** getProjectStatus requests per minute per key (the seed's 100; raise it for load tests). */
  readonly statusRateLimit: number;
}

export const ROLES = ['all', 'api', 'worker'] as const;
export type Role = (typeof ROLES)[number];

/** A configuration value that cannot be used; the message names the variable and what it accepts. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

type Env = Readonly<Record<string, string | undefined>>;

function read(env: Env, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(value) || value < min || value > max) {
    throw new ConfigError(
      `${name}=${raw} is invalid: expected a whole number from ${min} to ${max}`,
    );
  }
  return value;
}

function boolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  if (/^(1|true|yes|on)$/i.test(raw)) return true;
  if (/^(0|false|no|off)$/i.test(raw)) return false;
  throw new ConfigError(`${name}=${raw} is invalid: expected true or false`);
}

function url(env: Env, name: string, protocols: readonly string[]): string | undefined {
  const raw = read(env, name);
  if (raw === undefined) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(`${name} is invalid: expected a URL (${protocols.join(', ')})`);
  }
  if (!protocols.includes(parsed.protocol.replace(/:$/, ''))) {
    throw new ConfigError(`${name} is invalid: expected a ${protocols.join(' or ')} URL`);
  }
  return raw;
}

/**
 * Reads and validates the configuration; throws {@link ConfigError} naming the variable.
 *
 * @example
 * const config = loadConfig({ PORT: '8080' });
 */
export function loadConfig(env: Env = process.env, cwd = process.cwd()): Config {
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
    trustProxy: boolean(env, 'PGS_TRUST_PROXY', false),
    seedDevAccount: boolean(env, 'PGS_SEED_DEV_ACCOUNT', databaseUrl === undefined),
    role,
    workerConcurrency: integer(env, 'PGS_WORKER_CONCURRENCY', 4, 1, 64),
    aiTimeoutMs: integer(env, 'PGS_AI_TIMEOUT_MS', 120_000, 1_000, 3_600_000),
    statusRateLimit: integer(env, 'PGS_STATUS_RATE_LIMIT', 100, 1, 10_000_000),
  });
}
