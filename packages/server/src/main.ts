import path from 'node:path';
import { Redis } from 'ioredis';
import { generateAdminToken } from './accounts/api-keys.ts';
import { Accounts } from './accounts/service.ts';
import { loggerOptions } from './api/logging.ts';
import { buildApp } from './app.ts';
import { type Config, ConfigError, loadConfig } from './config.ts';
import type { RateLimitStore } from './limits/rate-limiter.ts';
import { createLimiters } from './limits/rules.ts';
import { ensureSecretFile, lockDataDir } from './storage/data-dir.ts';
import { type Database, openDatabase } from './storage/db.ts';

const DEV_CREDITS = 1000;

async function openStorage(
  config: Config,
): Promise<{ database: Database; release: () => Promise<void> }> {
  if (config.databaseUrl !== undefined) {
    return {
      database: await openDatabase({ kind: 'postgres', url: config.databaseUrl }),
      release: async () => {},
    };
  }
  await import('node:fs/promises').then((fs) => fs.mkdir(config.dataDir, { recursive: true }));
  const release = await lockDataDir(config.dataDir);
  try {
    return { database: await openDatabase({ kind: 'pglite', dataDir: config.dataDir }), release };
  } catch (error) {
    await release();
    throw error;
  }
}

async function seedDevelopmentAccount(database: Database): Promise<string | undefined> {
  const accounts = new Accounts(database.db);
  if (!(await accounts.isEmpty())) return undefined;
  const created = await accounts.createKey({
    mode: 'test',
    credits: DEV_CREDITS,
    name: 'development',
  });
  return created.key;
}

async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`PGS cannot start: ${error.message}`);
      process.exit(1);
    }
    throw error;
  }

  const { database, release } = await openStorage(config);
  const redis = config.redisUrl
    ? new Redis(config.redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: false })
    : undefined;
  redis?.on('error', () => {
    // Reconnects by itself; meanwhile the limiters count in memory (insurance limiter).
  });
  const store: RateLimitStore = redis
    ? { kind: 'redis', client: redis }
    : database.pool
      ? { kind: 'postgres', pool: database.pool }
      : { kind: 'memory' };
  const adminToken =
    config.adminToken ??
    (await ensureSecretFile(path.join(config.dataDir, 'admin-token'), generateAdminToken));

  const app = await buildApp({
    config,
    database,
    adminToken,
    limiters: await createLimiters(store),
    logger: loggerOptions(config.logLevel),
  });
  const devKey = config.seedDevAccount ? await seedDevelopmentAccount(database) : undefined;

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    await app.close();
    redis?.disconnect();
    await database.close();
    await release();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  const address = app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : config.port;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  const storage =
    database.kind === 'pglite' ? `embedded PGlite in ${config.dataDir}` : 'PostgreSQL';
  console.log(`PGS listening on http://${host}:${port} (storage: ${storage})`);
  if (devKey !== undefined) {
    console.log(`Test API key: ${devKey}`);
    console.log(
      `  (a development account with ${DEV_CREDITS} test credits; the key is shown only now)`,
    );
    console.log(
      `  curl -H "Authorization: Bearer ${devKey}" http://${host}:${port}/api/v1/projects/00000000-0000-4000-8000-000000000000`,
    );
  } else if (config.seedDevAccount) {
    console.log('Create a test key with: npx pgs keys create --mode test --credits 1000');
  }
}

main().catch((error: unknown) => {
  console.error(`PGS failed to start: ${error instanceof Error ? error.message : String(error)}`);
  if (!(error instanceof Error && error.name === 'DataDirLockedError')) console.error(error);
  process.exit(1);
});
