import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Pgs, PgsAdmin } from '@pgs/client';
import { seedDataDir } from '../../../server/test/helpers/database.ts';
import {
  LISTENING,
  type Proc,
  startServerProcess,
  TEST_KEY,
} from '../../../server/test/helpers/process.ts';

/** A PGS server started as a user starts it, serving the console at `/`. */
export interface ConsoleServer {
  /** `http://127.0.0.1:<port>`, the console's origin. */
  baseUrl: string;
  /** The test key the first start printed (1,000 test credits). */
  testKey: string;
  /** The SDK with the printed key, to set up and check what the page shows. */
  pgs: Pgs;
  /** The admin SDK (the server was given `PGS_ADMIN_TOKEN`). */
  admin: PgsAdmin;
  proc: Proc;
  /** Stops the server (SIGTERM, as Ctrl-C) and removes its data directory. */
  stop(): Promise<void>;
}

/**
 * Spawns `node packages/server/src/main.ts` with a temporary `PGS_DATA_DIR`, a free port, an
 * admin token and tracker connections allowed to loopback (`PGS_CONNECTIONS_ALLOW_PRIVATE`),
 * and reads the port and the printed test key from its output. The server reads the
 * console's build at each request, so the build may finish while it starts.
 *
 * @example
 * const server = await startConsoleServer();
 * await page.goto(server.baseUrl);
 */
export async function startConsoleServer(): Promise<ConsoleServer> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'pgs-web-test-'));
  await seedDataDir(dataDir);
  const adminToken = randomBytes(24).toString('hex');
  const proc = startServerProcess({
    PGS_DATA_DIR: dataDir,
    PGS_ADMIN_TOKEN: adminToken,
    // The tracker scenario connects to a fake GitHub on loopback.
    PGS_CONNECTIONS_ALLOW_PRIVATE: 'true',
  });
  const stop = async () => {
    await proc.kill('SIGTERM').catch(() => proc.kill('SIGKILL'));
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    const [, port] = await proc.waitForOutput(LISTENING, 120_000);
    const [, testKey] = await proc.waitForOutput(TEST_KEY, 5_000);
    const baseUrl = `http://127.0.0.1:${port}`;
    return {
      baseUrl,
      testKey: testKey!,
      pgs: new Pgs({ apiKey: testKey, baseUrl, maxCachedProjects: 0 }),
      admin: new PgsAdmin({ adminToken, baseUrl }),
      proc,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
