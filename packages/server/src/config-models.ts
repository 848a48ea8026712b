/**
 * The model settings of the configuration: the chains (`PGS_MODELS`, `PGS_TEST_MODELS`), the
 * providers they name and the price table, read from the environment config.ts hands over.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigError, type Env, read, url } from './config-env.ts';
import { DEFAULT_PRICES, loadPriceTable, type PriceTable, PriceTableError } from './price-table.ts';

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

/**
 * Reads the settings of each provider the chains name; a missing key or address is an error.
 *
 * @example
 * providerSettings({ OPENAI_API_KEY: 'sk-...' }, [{ provider: 'openai', model: 'gpt-4.1-mini' }]);
 */
export function providerSettings(env: Env, chains: readonly ModelSpec[]): ProviderSettings {
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
 *
 * @example
 * modelPrices({ PGS_MODEL_PRICES: 'prices.json' }, process.cwd());
 */
export function modelPrices(env: Env, cwd: string): PriceTable {
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
