import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { githubAdapter } from '../src/trackers/providers/github.ts';
import type { TrackerClient } from '../src/trackers/providers/provider.ts';
import { type FakeGitHub, startFakeGitHub } from './fakes/github.ts';
import { draft, failure, stamp } from './helpers/trackers-github.ts';

/**
 * Issue 31 items 4 and 6: the GitHub adapter's failures against the fake GitHub (rate limits
 * as GitHub answers them, recognised by Octokit's throttling plugin and never waited on
 * inside; 5xx; lost answers; aborts) and its webhook deliveries, signed as GitHub signs them.
 */

const SECRET = 'whsec-github-test';
const clock = new Date('2026-03-01T10:00:00Z');

let fake: FakeGitHub;
let client: TrackerClient;
let known: string;

const issue = (externalId: string) => fake.issues().find((i) => i.externalId === externalId)!;

beforeAll(async () => {
  fake = await startFakeGitHub({ owner: 'acme', repo: 'booking', now: () => clock });
  client = githubAdapter.connect({
    baseUrl: fake.baseUrl,
    credentials: fake.credentials,
    target: fake.target,
    timeoutMs: 5_000,
  });
  known = (await client.create(draft('T-1'))).externalId;
});
afterAll(() => fake.close());

describe('failures', () => {
  it("a primary rate limit is retryable after GitHub's reset, and never retried inside", async () => {
    fake.primaryRateLimit(1, 120);
    const before = fake.calls();
    const error = await failure(client.get(known));
    expect(error).toMatchObject({ status: 403, retryable: true, retryAfterMs: 121_000 });
    expect(error.reason).toMatch(/^GitHub rate limit: API rate limit exceeded/);
    expect(fake.calls()).toBe(before + 1);
    expect((await client.get(known)).externalId).toBe(known);
  });

  it('a secondary rate limit is retryable after retry-after, 403 or 429', async () => {
    for (const status of [403, 429] as const) {
      fake.secondaryRateLimit(1, 37, status);
      const before = fake.calls();
      const error = await failure(client.create(draft('T-40')));
      expect(error).toMatchObject({ status, retryable: true, retryAfterMs: 37_000 });
      expect(error.reason).toMatch(/^GitHub secondary rate limit: You have exceeded a secondary/);
      expect(fake.calls()).toBe(before + 1);
    }
    // Without retry-after only the message says it is a secondary limit: Octokit's
    // throttling recognises it and its fallback wait (60 s) is the hint.
    fake.secondaryRateLimit(1, null);
    expect((await failure(client.get(known))).retryAfterMs).toBe(60_000);
    fake.rateLimit(1, 5);
    expect((await failure(client.get(known))).retryAfterMs).toBe(5_000);
  });

  it('5xx and an unreachable GitHub are retryable; a failed write wrote nothing', async () => {
    const count = fake.issues().length;
    fake.failWrites(1, 502);
    const error = await failure(client.create(draft('T-41')));
    expect(error).toMatchObject({ status: 502, retryable: true });
    expect(error.retryAfterMs).toBeUndefined();
    expect(fake.issues().length).toBe(count);
    const away = await failure(
      githubAdapter
        .connect({
          baseUrl: 'http://127.0.0.1:9',
          credentials: fake.credentials,
          target: fake.target,
        })
        .get('1'),
    );
    expect(away.retryable).toBe(true);
    expect(away.reason).toMatch(/^GitHub could not be reached/);
  });

  it("a create retried after its parent failed, or after GitHub's answer was lost, makes one issue", async () => {
    const group = (await client.create(draft('FR-5', { labels: ['pgs', 'FR-5'] }))).externalId;
    const count = fake.issues().length;
    fake.failNext(/^POST .*\/sub_issues$/, 1);
    const first = await failure(client.create(draft('T-60', { parent: group })));
    expect(first).toMatchObject({ status: 502, retryable: true });
    const made = await client.create(draft('T-60', { parent: group }));
    expect(fake.issues().length).toBe(count + 1);
    expect(issue(made.externalId).parent).toBe(group);

    fake.failNext(/^POST \/repos\/acme\/booking\/issues$/, 1, { afterWriting: true });
    expect((await failure(client.create(draft('T-61')))).retryable).toBe(true);
    expect(fake.issues().length).toBe(count + 2);
    const again = await client.create(draft('T-61', { title: 'T-61 Build it again' }));
    expect(fake.issues().length).toBe(count + 2);
    expect(issue(again.externalId).title).toBe('T-61 Build it again');
  });

  it('a close retried after its comment went in comments once', async () => {
    const made = (await client.create(draft('T-62'))).externalId;
    fake.failNext(new RegExp(`^PATCH /repos/acme/booking/issues/${made}$`), 1);
    await failure(client.setState(made, 'closed', 'Obsolete.'));
    await client.setState(made, 'closed', 'Obsolete.');
    expect(issue(made)).toMatchObject({ state: 'closed', comments: ['Obsolete.'] });
  });

  it('a caller who aborts gets the abort, not a tracker error', async () => {
    const stop = new AbortController();
    stop.abort(new Error('sync cancelled'));
    await expect(client.get(known, stop.signal)).rejects.toThrow('sync cancelled');
  });
});

describe('verifyWebhook', () => {
  const now = new Date('2026-03-01T12:00:00Z');
  const check = (delivery: { headers: Record<string, string>; body: string }) =>
    githubAdapter.verifyWebhook({
      headers: delivery.headers,
      rawBody: Buffer.from(delivery.body),
      secret: SECRET,
      now,
    });

  it('reads a signed close and reopen', async () => {
    const at = new Date('2026-03-01T11:59:00Z');
    fake.setState(known, 'closed', at);
    const closed = fake.delivery(known, { secret: SECRET, at });
    expect(await check(closed)).toEqual({
      ok: true,
      delivery: {
        deliveryId: closed.headers['x-github-delivery'],
        changes: [{ externalId: known, state: 'closed', updatedAt: '2026-03-01T11:59:00Z' }],
      },
    });
    fake.setState(known, 'open', now);
    const reopened = await check(fake.delivery(known, { secret: SECRET, at: now }));
    expect(reopened.ok && reopened.delivery.changes).toEqual([
      { externalId: known, state: 'open', updatedAt: '2026-03-01T12:00:00Z' },
    ]);
  });

  it('refuses a wrong or missing signature, and a changed body', async () => {
    const wrong = await check(
      fake.delivery(known, { secret: SECRET, at: now, signature: 'wrong' }),
    );
    expect(wrong).toEqual({ ok: false, reason: expect.stringMatching(/does not match/) });
    const missing = await check(
      fake.delivery(known, { secret: SECRET, at: now, signature: 'missing' }),
    );
    expect(missing).toEqual({ ok: false, reason: expect.stringMatching(/no X-Hub-Signature-256/) });
    const good = fake.delivery(known, { secret: SECRET, at: now });
    const altered = await check({ ...good, body: good.body.replace('"reopened"', '"closed"') });
    expect(altered.ok).toBe(false);
  });

  it('acknowledges a ping and other events and actions with no change', async () => {
    const ping = fake.deliveryOf(
      'ping',
      { zen: 'Keep it logically awesome.', hook_id: 471100 },
      { secret: SECRET },
    );
    expect(await check(ping)).toEqual({
      ok: true,
      delivery: { deliveryId: ping.headers['x-github-delivery'], changes: [] },
    });
    const labeled = fake.deliveryOf(
      'issues',
      { action: 'labeled', issue: { number: 1, updated_at: stamp(now) } },
      { secret: SECRET },
    );
    expect(await check(labeled)).toMatchObject({ ok: true, delivery: { changes: [] } });
    const comment = fake.deliveryOf(
      'issue_comment',
      { action: 'closed', issue: { number: 1, updated_at: stamp(now) } },
      { secret: SECRET },
    );
    expect(await check(comment)).toMatchObject({ ok: true, delivery: { changes: [] } });
  });
});
