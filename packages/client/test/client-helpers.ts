import { afterAll, afterEach, beforeAll, vi } from 'vitest';
import { Pgs, PgsAdmin, type SleepFn } from '../src/index.ts';
import { startServer, type TestServer } from './http-server.ts';

// Shared setup for the client tests (client*.test.ts), run against a small local server.

export const KEY = 'pgs_test_abcdefghijklmnopqrstuvwxyz0123456789';
export const PROJECT_ID = '7d0f2c8e-4a9b-4e43-9a55-0d2b8f1c6e21';
export const REQ = 'req_01JD6WQ8V4Z9K3M2N5P7R8S0TA';
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

export const inProgress = {
  success: true,
  data: { projectId: PROJECT_ID, status: 'in_progress', estimatedCompletionMs: 42000 },
};

/** The file's test server, started by useClientServer(). */
export let server: TestServer;

/** Starts the test server for the calling file and unstubs environment variables after each test. */
export function useClientServer(): void {
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server.close();
  });
  afterEach(() => {
    vi.unstubAllEnvs();
  });
}

/** A sleep that does not sleep, and remembers what it was asked to wait. */
export function recordingSleep(): { sleep: SleepFn; delays: number[] } {
  const delays: number[] = [];
  return {
    delays,
    sleep: async (ms) => {
      delays.push(ms);
    },
  };
}

export function client(options: ConstructorParameters<typeof Pgs>[0] = {}): Pgs {
  return new Pgs({ apiKey: KEY, baseUrl: server.url, ...options });
}

export function admin(options: ConstructorParameters<typeof PgsAdmin>[0] = {}): PgsAdmin {
  return new PgsAdmin({ adminToken: 'adm_secret', baseUrl: server.url, ...options });
}
