import { describe, expect, it } from 'vitest';
import { PgsError, type PollProgress } from '../src/index.ts';
import type { Handler } from './http-server.ts';
import {
  client,
  completed,
  completedData,
  failed,
  failedData,
  ID,
  running,
  server,
  T0,
  usePollingServer,
} from './polling-helpers.ts';

// waitForCompletion: long-poll, pacing and the cache of finished projects. Setup in polling-helpers.ts.

usePollingServer();

describe('waitForCompletion: long-poll', () => {
  it('asks the server to hold each poll (Prefer: wait=30) and asks again at once after a held answer', async () => {
    const held = { 'preference-applied': 'wait=30' };
    server.reply(running(30_000, held), running(5_000, held), completed);
    const { pgs, clock } = client();
    const result = await pgs.projects.waitForCompletion(ID);
    expect(result).toEqual(completedData);
    expect(clock.sleeps).toEqual([0, 0]);
    expect(server.requests.map((r) => r.headers.prefer)).toEqual(['wait=30', 'wait=30', 'wait=30']);
  });

  it('a server that does not hold (no Preference-Applied) is polled at its pace', async () => {
    server.reply(running(30_000), completed);
    const { pgs, clock } = client();
    await pgs.projects.waitForCompletion(ID);
    expect(clock.sleeps).toEqual([12_000]);
  });

  it('never asks to hold past maxWaitMs, and not at all when off or when a pace is given', async () => {
    server.reply(completed);
    await client().pgs.projects.waitForCompletion(ID, { maxWaitMs: 8_000 });
    expect(server.requests.at(-1)?.headers.prefer).toBe('wait=7');
    for (const options of [{ longPollSeconds: 0 }, { pollIntervalMs: 1_000 }]) {
      server.reply(completed);
      await client().pgs.projects.waitForCompletion(ID, options);
      expect(server.requests.at(-1)?.headers.prefer).toBeUndefined();
    }
    server.reply(completed);
    await client().pgs.projects.waitForCompletion(ID, {
      pollIntervalMs: 1_000,
      longPollSeconds: 45,
    });
    expect(server.requests.at(-1)?.headers.prefer).toBe('wait=45');
  });
});

describe('waitForCompletion: pace', () => {
  it('polls at once, then at the Retry-After pace, and resolves with the completed status', async () => {
    server.reply(running(30_000), running(18_000, { 'retry-after': '18' }), completed);
    const { pgs, clock } = client();
    const seen: [number, PollProgress][] = [];
    const result = await pgs.projects.waitForCompletion(ID, {
      onProgress: (status, progress) => {
        seen.push([status.estimatedCompletionMs, progress]);
      },
    });
    expect(result).toEqual(completedData);
    expect(clock.sleeps).toEqual([12_000, 18_000]);
    expect(seen).toEqual([
      [30_000, { polls: 1, elapsedMs: 0, nextPollMs: 12_000 }],
      [18_000, { polls: 2, elapsedMs: 12_000, nextPollMs: 18_000 }],
    ]);
    expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual(
      Array(3).fill(`GET /api/v1/projects/${ID}`),
    );
    expect(server.requests[0]?.headers['idempotency-key']).toBeUndefined();
  });

  it.each([
    ['a short hint', { 'retry-after': '2' }, 10_000],
    ['a long hint', { 'retry-after': '300' }, 30_000],
    ['a fractional hint', { 'retry-after': '15.5' }, 15_500],
  ])('clamps %s to 10–30 s', async (_name, headers, expected) => {
    server.reply(running(5_000, headers), completed);
    const { pgs, clock } = client();
    await pgs.projects.waitForCompletion(ID);
    expect(clock.sleeps).toEqual([expected]);
  });

  it('without Retry-After, paces by the estimate, clamped to 10–30 s', async () => {
    const noHint: Handler = (req, res) => {
      void req;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          success: true,
          data: { projectId: ID, status: 'in_progress', estimatedCompletionMs: 21_000 },
        }),
      );
    };
    server.reply(noHint, completed);
    const { pgs, clock } = client();
    await pgs.projects.waitForCompletion(ID);
    expect(clock.sleeps).toEqual([21_000]);
  });

  it('pollIntervalMs replaces the server hint', async () => {
    server.reply(running(9_000), running(8_000), completed);
    const { pgs, clock } = client();
    await pgs.projects.waitForCompletion(ID, { pollIntervalMs: 500 });
    expect(clock.sleeps).toEqual([500, 500]);
  });

  it('waits for the window to reset after a success that used its last request', async () => {
    const reset = String(T0 / 1000 + 45);
    server.reply(
      running(9_000, { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset }),
      completed,
    );
    const { pgs, clock } = client();
    await pgs.projects.waitForCompletion(ID);
    expect(clock.sleeps).toEqual([45_000]);
  });

  it('a failed generation is a result, not an exception', async () => {
    server.reply(running(1_000), failed);
    const { pgs } = client();
    const result = await pgs.projects.waitForCompletion(ID);
    expect(result).toEqual(failedData);
    if (result.status === 'failed') expect(result.error.code).toBe('generation_failed');
  });
});

/** The completed project, or a 304 to a read that names its ETag (as the server answers). */
const revalidated: Handler = (req, res) => {
  if (req.headers['if-none-match'] === '"c"') {
    res.writeHead(304, { etag: '"c"', 'pgs-revision': '1' });
    res.end();
    return;
  }
  completed(req, res);
};

describe('waitForCompletion: the cache of finished projects', () => {
  it('a second wait or get of a completed project revalidates it; a 304 answers a copy from memory', async () => {
    server.reply(revalidated);
    const { pgs } = client();
    const first = await pgs.projects.waitForCompletion(ID);
    expect(server.requests).toHaveLength(1);
    if (first.status === 'completed') first.project.name = 'changed by the caller';

    const again = await pgs.projects.waitForCompletion(ID);
    const read = await pgs.projects.get(ID);
    expect(again).toEqual(completedData);
    expect(read).toEqual(completedData);
    // One conditional request each, with the ETag the first answer carried.
    expect(server.requests.map((r) => r.headers['if-none-match'])).toEqual([
      undefined,
      '"c"',
      '"c"',
    ]);
    // Another client has its own memory.
    await client().pgs.projects.get(ID);
    expect(server.requests.at(-1)?.headers['if-none-match']).toBeUndefined();
  });

  it('caches a failed status read with get, never an in-progress one', async () => {
    server.reply(running(5_000), running(4_000), failed);
    const { pgs } = client();
    expect((await pgs.projects.get(ID)).status).toBe('in_progress');
    expect((await pgs.projects.get(ID)).status).toBe('in_progress');
    expect((await pgs.projects.get(ID)).status).toBe('failed');
    expect((await pgs.projects.waitForCompletion(ID)).status).toBe('failed');
    expect(server.requests).toHaveLength(3);
  });

  it('refuses a maxCachedProjects that is not a count', () => {
    for (const maxCachedProjects of [-1, 1.5, Number.NaN]) {
      expect(() => client({ maxCachedProjects })).toThrow(PgsError);
    }
  });

  it('maxCachedProjects bounds the memory (0 turns it off)', async () => {
    server.reply(revalidated);
    const off = client({ maxCachedProjects: 0 }).pgs;
    await off.projects.get(ID);
    await off.projects.get(ID);
    expect(server.requests.map((r) => r.headers['if-none-match'])).toEqual([undefined, undefined]);

    server.reply(revalidated);
    const other = '00000000-0000-4000-8000-000000000000';
    const one = client({ maxCachedProjects: 1 }).pgs;
    await one.projects.get(ID);
    await one.projects.get(other); // evicts ID
    await one.projects.get(other);
    await one.projects.get(ID);
    expect(
      server.requests.map((r) => [r.url.split('/').at(-1), r.headers['if-none-match']]),
    ).toEqual([
      [ID, undefined],
      [other, undefined],
      [other, '"c"'],
      [ID, undefined],
    ]);
  });
});
