import { afterAll, afterEach, beforeAll, vi } from 'vitest';
import { Pgs, type SleepFn } from '../src/index.ts';
import { envelope, type Handler, json, startServer, type TestServer } from './http-server.ts';

// Shared setup for the waitForCompletion tests (polling*.test.ts), run against a small local
// server. Time is virtual: an injected clock whose sleep records the delay and moves the clock,
// so no test sleeps.

export const KEY = 'pgs_test_abcdefghijklmnopqrstuvwxyz0123456789';
export const ID = '7d0f2c8e-4a9b-4e43-9a55-0d2b8f1c6e21';
export const T0 = Date.parse('2026-11-22T10:00:00Z');

export const running = (
  estimatedCompletionMs: number,
  headers: Record<string, string> = {},
): Handler =>
  json(
    200,
    { success: true, data: { projectId: ID, status: 'in_progress', estimatedCompletionMs } },
    { 'retry-after': '12', etag: '"r"', 'cache-control': 'no-cache', ...headers },
  );

export const completedData = {
  projectId: ID,
  status: 'completed',
  project: {
    name: 'TeamPulse',
    description: 'A habit tracker for remote teams.',
    type: 'web',
    questionnaire: { targetAudience: 'remote teams', monetization: 'seats', techStack: ['TS'] },
    documents: [
      {
        type: 'readme',
        filename: 'README.md',
        content: '# TeamPulse',
        generated_at: '2026-11-22T10:00:00.000Z',
        stage: 'documentation',
        tokens_used: 12,
      },
    ],
  },
  metadata: { creditsConsumed: 3, generationTimeMs: 1200, documentsGenerated: 1 },
};
export const completed = json(200, { success: true, data: completedData }, { etag: '"c"' });
export const failedData = {
  projectId: ID,
  status: 'failed',
  error: { code: 'generation_failed', message: 'The AI service timed out. Credits refunded.' },
};
export const failed = json(200, { success: true, data: failedData });
export const limited = (
  headers: Record<string, string>,
  details?: Record<string, unknown>,
): Handler =>
  json(429, envelope('RATE_LIMIT_EXCEEDED', 'Too many requests.', undefined, details), headers);
export const down = (status = 503): Handler => json(status, envelope('INTERNAL_ERROR', 'down'));
/** Closes the connection without an answer: a network error for the client. */
export const reset: Handler = (req, res) => {
  void req;
  res.socket?.destroy();
};

/** A clock that only moves when the code under test sleeps. */
export function virtualClock() {
  let t = T0;
  const sleeps: number[] = [];
  const sleep: SleepFn = async (ms, signal) => {
    if (signal?.aborted) throw signal.reason;
    sleeps.push(ms);
    t += ms;
  };
  return { sleeps, sleep, now: () => t };
}

/** The file's test server, started by usePollingServer(). */
export let server: TestServer;

/** Starts the test server for the calling file and restores real timers after each test. */
export function usePollingServer(): void {
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server.close();
  });
  afterEach(() => {
    vi.useRealTimers();
  });
}

export function client(options: ConstructorParameters<typeof Pgs>[0] = {}) {
  const clock = virtualClock();
  const pgs = new Pgs({
    apiKey: KEY,
    baseUrl: server.url,
    sleep: clock.sleep,
    now: clock.now,
    random: () => 0.5,
    ...options,
  });
  return { pgs, clock };
}
