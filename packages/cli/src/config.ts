import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { MissingApiKeyError, MissingTokenError, UsageError } from './errors.ts';

/** The environment as the CLI sees it (injected, so tests need not touch `process.env`). */
export type Env = Readonly<Record<string, string | undefined>>;

/** Where the API key came from, to name it in error messages. */
export interface ApiKey {
  key: string;
  /** `the --api-key flag` or `PGS_API_KEY`. */
  source: string;
}

/** Where the admin token came from, to name it in error messages. */
export interface AdminToken {
  token: string;
  /** e.g. `PGS_ADMIN_TOKEN` or `the file /srv/.pgs/admin-token`. */
  source: string;
}

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

/**
 * The server: `--base-url`, else `PGS_BASE_URL`, else `http://127.0.0.1:$PORT` (PORT default 3000).
 *
 * @example
 * resolveBaseUrl(undefined, { PORT: '4000' }); // 'http://127.0.0.1:4000'
 */
export function resolveBaseUrl(flag: string | undefined, env: Env): string {
  const given = nonEmpty(flag) ?? nonEmpty(env.PGS_BASE_URL);
  const url = given ?? `http://127.0.0.1:${nonEmpty(env.PORT) ?? '3000'}`;
  if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) {
    const from = nonEmpty(flag) ? '--base-url' : given ? 'PGS_BASE_URL' : 'PORT';
    throw new UsageError(`${from} does not give a valid http(s) URL: ${JSON.stringify(url)}`);
  }
  return url;
}

/**
 * The data directory: `PGS_DATA_DIR`, else `./.pgs`, relative to `cwd`.
 *
 * @example
 * dataDir({}, '/srv'); // '/srv/.pgs'
 */
export function dataDir(env: Env, cwd: string): string {
  return resolve(cwd, nonEmpty(env.PGS_DATA_DIR) ?? '.pgs');
}

/**
 * The operator token: `--admin-token`, else `PGS_ADMIN_TOKEN`, else the file
 * `admin-token` in the data directory. Throws {@link MissingTokenError} naming
 * every place it looked.
 *
 * @example
 * const { token, source } = await resolveAdminToken(undefined, process.env, process.cwd());
 */
export async function resolveAdminToken(
  flag: string | undefined,
  env: Env,
  cwd: string,
): Promise<AdminToken> {
  const fromFlag = nonEmpty(flag);
  if (fromFlag) return { token: fromFlag, source: 'the --admin-token flag' };
  const fromEnv = nonEmpty(env.PGS_ADMIN_TOKEN);
  if (fromEnv) return { token: fromEnv, source: 'PGS_ADMIN_TOKEN' };

  const dir = dataDir(env, cwd);
  const file = resolve(dir, 'admin-token');
  const dirOrigin = nonEmpty(env.PGS_DATA_DIR)
    ? `PGS_DATA_DIR=${env.PGS_DATA_DIR}`
    : 'PGS_DATA_DIR is unset, so ./.pgs in the current directory';
  let problem: string;
  try {
    const fromFile = nonEmpty(await readFile(file, 'utf8'));
    if (fromFile) return { token: fromFile, source: `the file ${file}` };
    problem = `${file} is empty`;
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    problem =
      code === 'ENOENT' ? `${file} does not exist` : `${file} could not be read (${String(code)})`;
  }
  throw new MissingTokenError(
    `no admin token found: looked at --admin-token (not given), PGS_ADMIN_TOKEN (not set) and ` +
      `the token file, but ${problem} (${dirOrigin}). The server writes that file on its first ` +
      'start; run pgs from the directory you started it in, or set PGS_DATA_DIR or PGS_ADMIN_TOKEN.',
  );
}

/** How to get an API key, for the messages that need one. */
export const API_KEY_HELP =
  'Use the "Test API key" npm start printed on its first start, or create one while the ' +
  'server runs: npx pgs keys create --mode test --credits 1000';

/**
 * The API key: `--api-key`, else `PGS_API_KEY`. Throws {@link MissingApiKeyError}
 * saying how to get one.
 *
 * @example
 * const { key, source } = resolveApiKey(undefined, process.env);
 */
export function resolveApiKey(flag: string | undefined, env: Env): ApiKey {
  const fromFlag = nonEmpty(flag);
  if (fromFlag) return { key: fromFlag, source: 'the --api-key flag' };
  const fromEnv = nonEmpty(env.PGS_API_KEY);
  if (fromEnv) return { key: fromEnv, source: 'PGS_API_KEY' };
  throw new MissingApiKeyError(
    `no API key: pass --api-key or set PGS_API_KEY (export PGS_API_KEY=pgs_test_…). ${API_KEY_HELP}.`,
  );
}
