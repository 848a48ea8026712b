import type { SleepFn } from '@pgs/client';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { json, startServer, type TestServer } from '../../client/test/http-server.ts';
import { run } from '../src/index.ts';

// Shared by manage.test.ts and webhooks.test.ts: the CLI in-process against a small fake API,
// with the SDK's retry pauses virtual.

export const KEY = 'pgs_test_abcdefghijklmnopqrstuvwxyz0123456789';

/** The fake API of the calling test file, set by `useFakeApi()`. */
export let server: TestServer;

/** Starts the fake API for the calling file and resets its handler before each test. */
export function useFakeApi(): void {
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => server.close());
  beforeEach(() => server.reply(json(500, { message: 'no handler' })));
}

/** Runs `pgs argv` in-process against the fake API with the test key. */
export async function pgs(argv: string[], { tty = false } = {}) {
  let stdout = '';
  let stderr = '';
  const sleep: SleepFn = async () => {};
  const code = await run(argv, {
    env: { PGS_BASE_URL: server.url, PGS_API_KEY: KEY },
    stdout: { write: (s: string) => (stdout += s), isTTY: tty },
    stderr: { write: (s: string) => (stderr += s) },
    client: { sleep },
  });
  return { code, stdout, stderr };
}
