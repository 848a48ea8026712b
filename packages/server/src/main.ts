import { createLogger } from './api/logging.ts';
import { engineLines } from './banner.ts';
import { type Config, ConfigError, loadConfig } from './config.ts';
import { DEV_CREDITS, startRuntime } from './runtime.ts';

/** A shutdown that has not finished by then exits anyway (code 1). */
const SHUTDOWN_DEADLINE_MS = 10_000;

function readConfig(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`PGS cannot start: ${error.message}`);
      process.exit(1);
    }
    throw error;
  }
}

async function main(): Promise<void> {
  const config = readConfig();
  const log = createLogger(config.logLevel);
  const runtime = await startRuntime(config, log);

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) {
      // A second signal: the operator does not want to wait.
      log.warn({ signal }, 'second signal: exiting now');
      process.exit(1);
    }
    stopping = true;
    log.info({ signal }, 'shutting down');
    const deadline = setTimeout(() => {
      log.error({ deadlineMs: SHUTDOWN_DEADLINE_MS }, 'shutdown did not finish in time: exiting');
      process.exit(1);
    }, SHUTDOWN_DEADLINE_MS);
    deadline.unref();
    try {
      await runtime.stop();
    } catch (error) {
      log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
    log.info({ signal }, 'stopped');
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  const storage =
    runtime.database.kind === 'pglite' ? `embedded PGlite in ${config.dataDir}` : 'PostgreSQL';
  if (runtime.metricsServer !== undefined) {
    await runtime.metricsServer.listen({ port: config.metricsPort ?? 0, host: config.host });
    const address = runtime.metricsServer.server.address();
    const port =
      typeof address === 'object' && address !== null ? address.port : config.metricsPort;
    const host = config.host.includes(':') ? `[${config.host}]` : config.host;
    console.log(`PGS metrics on http://${host}:${port}/metrics (admin token)`);
  }
  if (runtime.app === undefined) {
    console.log(
      `PGS worker running (storage: ${storage}, concurrency ${config.workerConcurrency})`,
    );
    for (const line of engineLines(config)) console.log(line);
    return;
  }
  await runtime.app.listen({ port: config.port, host: config.host });
  const address = runtime.app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : config.port;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  const base = `http://${host}:${port}`;
  console.log(`PGS listening on ${base} (storage: ${storage}, role: ${config.role})`);
  for (const line of engineLines(config)) console.log(line);
  if (runtime.devKey !== undefined) {
    console.log(`Test API key: ${runtime.devKey}`);
    console.log(
      `  a development account with ${DEV_CREDITS} test credits; the key is shown only now. Try:`,
    );
    console.log(
      `  curl -s -X POST ${base}/api/v1/projects -H "Authorization: Bearer ${runtime.devKey}" -H "Content-Type: application/json" -d '{"idea":"A habit tracker for remote teams"}'`,
    );
  } else if (config.seedDevAccount) {
    console.log('Create another test key with: npx pgs keys create --mode test --credits 1000');
  }
}

main().catch((error: unknown) => {
  console.error(`PGS failed to start: ${error instanceof Error ? error.message : String(error)}`);
  if (!(error instanceof Error && error.name === 'DataDirLockedError')) console.error(error);
  process.exit(1);
});
