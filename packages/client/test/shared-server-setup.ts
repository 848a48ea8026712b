import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestProject } from 'vitest/node';
import { type RealServer, type SharedServerInfo, startRealServer } from './pgs-server.ts';

/**
 * The integration project's global setup: one real server for the whole run, shared by the
 * SDK's and the CLI's files that need only "a server and an account of their own"
 * (`sharedRealServer` in pgs-server.ts). A server process costs 8–9 s of CPU to start
 * (module loading, PGlite, Fastify's schemas); eighteen files each started one.
 *
 * The server starts lazily: this process listens on loopback, and the first request (from a
 * test file's beforeAll) starts it; every later request gets the same one. A run without
 * such a file starts none. The server is stopped when the run ends.
 *
 * The shared server's environment differs from `startRealServer`'s default in two ways:
 * tracker connections to loopback are allowed (the connections file talks to a fake
 * Linear there), and it runs 16 generations at once instead of 4, because several files'
 * held projects (simulated 60 s and 10 min runs, cancelled later) must not queue the
 * others' generations behind them.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  let started: Promise<{ server: RealServer; info: SharedServerInfo }> | undefined;
  const start = async () => {
    const server = await startRealServer({
      env: { PGS_CONNECTIONS_ALLOW_PRIVATE: 'true', PGS_WORKER_CONCURRENCY: '16' },
      // The root setup (packages/server/test/helpers/global-setup.ts) provided it by now.
      seed: project.getProvidedContext().pgliteDataDir,
    });
    const info = {
      url: server.url,
      dataDir: server.dataDir,
      adminToken: await server.adminToken(),
    };
    return { server, info };
  };
  const broker = createServer((_request, response) => {
    // A start that failed (its deadline on a loaded machine) is tried again by the next file.
    started ??= start().catch((error: unknown) => {
      started = undefined;
      throw error;
    });
    started.then(
      ({ info }) =>
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(info)),
      (error: unknown) =>
        response.writeHead(500).end(error instanceof Error ? error.message : String(error)),
    );
  });
  await new Promise<void>((resolve) => broker.listen(0, '127.0.0.1', resolve));
  project.provide('sharedRealServer', `http://127.0.0.1:${(broker.address() as AddressInfo).port}`);
  return async () => {
    await new Promise((resolve) => broker.close(resolve));
    const shared = await started?.catch(() => undefined);
    await shared?.server.stop();
  };
}
