import { describe, expect, it } from 'vitest';
import { Pgs } from '../client.ts';

const PROJECT = '7d0f2c8e-4a9b-4e43-9a55-0d2b8f1c6e21';
const CHECK = 'chk_01JD3Q2V8Y7K6M5N4P3R2S1T0V';
const check = (status: string) => ({
  id: CHECK,
  projectId: PROJECT,
  revision: 1,
  status,
  repository: { name: 'petpal', commit: null, files: 1, citations: 0 },
  totals: null,
  error: null,
  createdAt: '2026-11-28T12:00:00.000Z',
  finishedAt: null,
});

/** A client on a fake fetch answering each GET of the check with the next status given. */
function client(statuses: string[]) {
  const calls: string[] = [];
  const slept: number[] = [];
  let clock = 0;
  const pgs = new Pgs({
    apiKey: 'pgs_test_abcdefghijklmnopqrstuvwxyz0123456789',
    baseUrl: 'http://127.0.0.1:3000',
    maxRetries: 0,
    now: () => clock,
    sleep: async (ms) => {
      slept.push(ms);
      clock += ms;
    },
    fetch: async (url, init) => {
      calls.push(`${init.method ?? 'GET'} ${url.replace('http://127.0.0.1:3000/api/v1', '')}`);
      if (init.method === 'POST') {
        return Response.json(
          { success: true, data: check('queued') },
          {
            status: 202,
            headers: { location: `/api/v1/projects/${PROJECT}/conformance/${CHECK}` },
          },
        );
      }
      if (url.endsWith('/conformance')) return Response.json({ success: true, data: [] });
      return Response.json({ success: true, data: check(statuses.shift() ?? 'running') });
    },
  });
  return { pgs, calls, slept };
}

describe('pgs.projects.conformance', () => {
  it('creates, lists and waits for a check, sleeping the interval between reads', async () => {
    const { pgs, calls, slept } = client(['queued', 'running', 'succeeded']);
    const repository = { name: 'petpal', files: [{ path: 'a.ts', content: '' }] };
    const created = await pgs.projects.conformance.create(PROJECT, { context: { repository } });
    expect(created.location).toBe(`/api/v1/projects/${PROJECT}/conformance/${CHECK}`);
    expect(await pgs.projects.conformance.list(PROJECT)).toEqual([]);
    const done = await pgs.projects.conformance.waitForCompletion(PROJECT, CHECK, {
      intervalMs: 500,
    });
    expect(done.status).toBe('succeeded');
    expect(slept).toEqual([500, 500]);
    expect(calls).toEqual([
      `POST /projects/${PROJECT}/conformance`,
      `GET /projects/${PROJECT}/conformance`,
      ...Array(3).fill(`GET /projects/${PROJECT}/conformance/${CHECK}`),
    ]);
  });

  it('gives up after maxWaitMs, and stops when the signal aborts', async () => {
    const { pgs } = client([]);
    await expect(
      pgs.projects.conformance.waitForCompletion(PROJECT, CHECK, {
        intervalMs: 1_000,
        maxWaitMs: 2_500,
      }),
    ).rejects.toThrow(/still running after 2500 ms/);
    const controller = new AbortController();
    controller.abort();
    await expect(
      pgs.projects.conformance.waitForCompletion(PROJECT, CHECK, { signal: controller.signal }),
    ).rejects.toThrow();
  });
});
