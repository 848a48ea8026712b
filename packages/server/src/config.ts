import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DEFAULT_PRICES, loadPriceTable, type PriceTable, PriceTableError } from './price-table.ts';

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
   * Where people reach this server (`PGS_PUBLIC_URL`, e.g. `https://pgs.example.com`): a
   * synced issue links back to its project's page in the console there; none, no link.
   */
  readonly publicUrl: string | undefined;
}

/**
 * Where `npm start` builds the console (packages/web/dist), found from this package rather
 * than imported: the server never imports the web package's code.
 */
export const DEFAULT_CONSOLE_DIR = path.resolve(import.meta.dirname, '..', '..', 'web', 'dist');

/** The AI providers a model chain may name. */
export const PROVIDERS = ['openai', 'anthropic', 'openai-compatible', 'offline'] as const;
export type Provider = (typeof PROVIDERS)[number];

/** One link of a model chain: `provider:model` (the offline engine needs no model). */
export interface ModelSpec {
  readonly provider: Provider;
  readonly model: string;
}

/** What each provider needs to be called; present only for providers a chain names. */
export interface ProviderSettings {
  readonly openai?: { readonly apiKey: string; readonly baseURL: string | undefined };
  readonly anthropic?: { readonly apiKey: string; readonly baseURL: string | undefined };
  readonly 'openai-compatible'?: { readonly baseURL: string; readonly apiKey: string | undefined };
}

/** The HTTP time limits' defaults, in milliseconds (the app's too, when a config names none). */
export const HTTP_TIMEOUTS: Readonly<
  Record<'requestTimeoutMs' | 'headersTimeoutMs' | 'connectionTimeoutMs' | 'drainTimeoutMs', number>
> = {
  requestTimeoutMs: 30_000,
  headersTimeoutMs: 10_000,
  connectionTimeoutMs: 120_000,
  drainTimeoutMs: 5_000,
};

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

/** The offline engine's model id in a chain (`offline` alone means this). */
export const OFFLINE_MODEL_ID = 'pgs-offline-1';

/**
 * Parses a model chain: comma-separated `provider:model`, e.g.
 * `anthropic:claude-sonnet-4-5,openai:gpt-4.1-mini`; `offline` needs no model.
 */
export function parseModelChain(name: string, raw: string): ModelSpec[] {
  const links = raw.split(',').map((link) => link.trim());
  if (links.some((link) => link === '')) {
    throw new ConfigError(`${name}=${raw} is invalid: an empty entry in the comma-separated list`);
  }
  return links.map((link) => {
    const colon = link.indexOf(':');
    const provider = (colon === -1 ? link : link.slice(0, colon)).trim() as Provider;
    const model = colon === -1 ? '' : link.slice(colon + 1).trim();
    if (!PROVIDERS.includes(provider)) {
      throw new ConfigError(
        `${name}: unknown provider "${provider}" in "${link}": expected one of ${PROVIDERS.join(', ')}`,
      );
    }
    if (provider === 'offline') return { provider, model: model || OFFLINE_MODEL_ID };
    if (model === '') {
      throw new ConfigError(
        `${name}: "${link}" names no model: write ${provider}:<model id>, e.g. ${EXAMPLE_MODEL[provider]}`,
      );
    }
    return { provider, model };
  });
}

const EXAMPLE_MODEL: Record<Exclude<Provider, 'offline'>, string> = {
  openai: 'openai:gpt-4.1-mini',
  anthropic: 'anthropic:claude-sonnet-4-5',
  'openai-compatible': 'openai-compatible:llama3.1',
};

/** Reads the settings of each provider the chains name; a missing key or address is an error. */
function providerSettings(env: Env, chains: readonly ModelSpec[]): ProviderSettings {
  const used = new Set(chains.map((spec) => spec.provider));
  const required = (variable: string, provider: string) => {
    const value = read(env, variable);
    if (value === undefined) {
      throw new ConfigError(
        `${variable} is missing: PGS_MODELS or PGS_TEST_MODELS names ${provider}, which needs it`,
      );
    }
    return value;
  };
  const settings: {
    -readonly [K in keyof ProviderSettings]: ProviderSettings[K];
  } = {};
  if (used.has('openai')) {
    settings.openai = {
      apiKey: required('OPENAI_API_KEY', 'openai'),
      baseURL: url(env, 'OPENAI_BASE_URL', ['http', 'https']),
    };
  }
  if (used.has('anthropic')) {
    settings.anthropic = {
      apiKey: required('ANTHROPIC_API_KEY', 'anthropic'),
      baseURL: url(env, 'ANTHROPIC_BASE_URL', ['http', 'https']),
    };
  }
  if (used.has('openai-compatible')) {
    required('PGS_OPENAI_COMPATIBLE_BASE_URL', 'openai-compatible');
    settings['openai-compatible'] = {
      baseURL: url(env, 'PGS_OPENAI_COMPATIBLE_BASE_URL', ['http', 'https'])!,
      apiKey: read(env, 'PGS_OPENAI_COMPATIBLE_API_KEY'),
    };
  }
  return settings;
}

const READ_ERRORS: Readonly<Record<string, string>> = {
  ENOENT: 'no such file',
  EISDIR: 'a directory',
  EACCES: 'permission denied',
};

/**
 * Reads the price file `PGS_MODEL_PRICES` names, if any. Messages name the file and the
 * offending key, never quote its contents (they may be a secret file mistaken for this one).
 */
function modelPrices(env: Env, cwd: string): PriceTable {
  const file = read(env, 'PGS_MODEL_PRICES');
  if (file === undefined) return DEFAULT_PRICES;
  let text: string;
  try {
    text = readFileSync(path.resolve(cwd, file), 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unknown error';
    const reason = READ_ERRORS[code] ?? code;
    throw new ConfigError(`PGS_MODEL_PRICES=${file} cannot be read: ${reason}`);
  }
  let json: unknown;
  const source = text.replace(/^\uFEFF/, '');
  try {
    json = JSON.parse(source);
  } catch (error) {
    // V8's message may quote the text; keep only where it broke (Node 20 gives no line).
    const at = /at position (\d+)/.exec(String(error))?.[1];
    const lines = at === undefined ? undefined : source.slice(0, Number(at)).split('\n');
    const where = lines ? ` at line ${lines.length} column ${lines.at(-1)!.length + 1}` : '';
    throw new ConfigError(`PGS_MODEL_PRICES=${file} is not valid JSON${where}`);
  }
  try {
    return loadPriceTable(json, `PGS_MODEL_PRICES=${file}`);
  } catch (error) {
    throw error instanceof PriceTableError ? new ConfigError(error.message) : error;
  }
}

/** A 32-byte key written as base64, or a {@link ConfigError} naming the variable. */
function encryptionKey(name: string, raw: string): Buffer {
  const key = /^[A-Za-z0-9+/_-]+={0,2}$/.test(raw) ? Buffer.from(raw, 'base64') : undefined;
  if (key?.length !== 32) {
    // Never quote the value: it is a secret.
    throw new ConfigError(
      `${name} is invalid: expected 32 random bytes written as base64 (e.g. openssl rand -base64 32)`,
    );
  }
  return key;
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
  const requestTimeoutMs = integer(
    env,
    'PGS_REQUEST_TIMEOUT_MS',
    HTTP_TIMEOUTS.requestTimeoutMs,
    1_000,
    600_000,
  );
  const headersTimeoutMs = integer(
    env,
    'PGS_HEADERS_TIMEOUT_MS',
    HTTP_TIMEOUTS.headersTimeoutMs,
    1_000,
    600_000,
  );
  if (headersTimeoutMs > requestTimeoutMs) {
    throw new ConfigError(
      `PGS_HEADERS_TIMEOUT_MS=${headersTimeoutMs} is invalid: expected at most PGS_REQUEST_TIMEOUT_MS (${requestTimeoutMs}), since the headers are part of the request`,
    );
  }
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
    connectionTimeoutMs: integer(
      env,
      'PGS_CONNECTION_TIMEOUT_MS',
      HTTP_TIMEOUTS.connectionTimeoutMs,
      65_000,
      3_600_000,
    ),
    drainTimeoutMs: integer(
      env,
      'PGS_DRAIN_TIMEOUT_MS',
      HTTP_TIMEOUTS.drainTimeoutMs,
      100,
      600_000,
    ),
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
    encryptionKey:
      read(env, 'PGS_ENCRYPTION_KEY') === undefined
        ? undefined
        : encryptionKey('PGS_ENCRYPTION_KEY', read(env, 'PGS_ENCRYPTION_KEY')!),
    encryptionKeysPrevious: (read(env, 'PGS_ENCRYPTION_KEYS_PREVIOUS') ?? '')
      .split(',')
      .map((entry) => entry.trim())
      .filter((entry) => entry !== '')
      .map((entry) => encryptionKey('PGS_ENCRYPTION_KEYS_PREVIOUS', entry)),
    connectionsAllowPrivate: boolean(env, 'PGS_CONNECTIONS_ALLOW_PRIVATE', false),
    trackerReconcileSeconds: integer(env, 'PGS_TRACKER_RECONCILE_SECONDS', 300, 10, 86_400),
    publicUrl: url(env, 'PGS_PUBLIC_URL', ['http', 'https'])?.replace(/\/+$/, ''),
  });
}
