import { describe, expect, it, vi } from 'vitest';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIUserAbortError,
  type SleepFn,
} from '../src/index.ts';
import { abortableSleep } from '../src/retry.ts';
import {
  client,
  inProgress,
  PROJECT_ID,
  recordingSleep,
  server,
  useClientServer,
} from './client-helpers.ts';
import { envelope, hang, json } from './http-server.ts';

// Timeouts and aborts. Setup in client-helpers.ts.

useClientServer();

describe('timeouts and aborts', () => {
  it('turns a slow attempt into APIConnectionTimeoutError, after retrying it', async () => {
    server.reply(hang);
    const { sleep } = recordingSleep();
    // Attempts are counted where the SDK makes them: on a loaded machine a 50 ms attempt may
    // time out before its request reaches the server.
    let attempts = 0;
    const fetch: typeof globalThis.fetch = (input, init) => {
      attempts++;
      return globalThis.fetch(input, init);
    };
    const error = await client({ timeoutMs: 50, maxRetries: 1, sleep, fetch })
      .projects.get(PROJECT_ID)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(attempts).toBe(2);
  });

  it('a per-request timeout overrides the client one', async () => {
    server.reply(hang);
    const error = await client({ timeoutMs: 60_000 })
      .projects.get(PROJECT_ID, { timeoutMs: 50, maxRetries: 0 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
  });

  it('rejects with APIUserAbortError when the caller aborts a request in flight', async () => {
    server.reply(hang);
    const controller = new AbortController();
    const pending = client().projects.get(PROJECT_ID, { signal: controller.signal });
    await vi.waitFor(() => expect(server.requests).toHaveLength(1), { timeout: 20_000 });
    controller.abort();
    await expect(pending).rejects.toBeInstanceOf(APIUserAbortError);
  });

  it('an abort during the backoff sleep rejects promptly, with no further attempt', async () => {
    server.reply(
      json(503, envelope('INTERNAL_ERROR', 'down'), { 'retry-after': '30' }),
      json(200, inProgress),
    );
    const controller = new AbortController();
    let sleeping!: () => void;
    const asleep = new Promise<void>((resolve) => {
      sleeping = resolve;
    });
    const sleep: SleepFn = (ms, signal) => {
      sleeping();
      return abortableSleep(ms, signal);
    };
    const started = performance.now();
    const pending = client({ sleep }).projects.get(PROJECT_ID, { signal: controller.signal });
    await asleep;
    controller.abort();
    await expect(pending).rejects.toBeInstanceOf(APIUserAbortError);
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(server.requests).toHaveLength(1);
  });

  it('an already aborted signal sends nothing', async () => {
    server.reply(json(200, inProgress));
    await expect(
      client().projects.get(PROJECT_ID, { signal: AbortSignal.abort() }),
    ).rejects.toBeInstanceOf(APIUserAbortError);
    expect(server.requests).toHaveLength(0);
  });
});
