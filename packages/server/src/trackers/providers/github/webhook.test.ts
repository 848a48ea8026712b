import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { verifyGitHubDelivery } from './webhook.ts';

const SECRET = 'whsec-unit';
const now = new Date('2026-03-01T12:00:00Z');

function delivery(body: Buffer | string, headers: Record<string, string | undefined> = {}) {
  const raw = Buffer.isBuffer(body) ? body : Buffer.from(body);
  const signature = `sha256=${createHmac('sha256', SECRET).update(raw).digest('hex')}`;
  return verifyGitHubDelivery({
    headers: {
      'x-github-event': 'issues',
      'x-github-delivery': 'd-1',
      'x-hub-signature-256': signature,
      ...headers,
    },
    rawBody: raw,
    secret: SECRET,
    now,
  });
}

describe('verifyGitHubDelivery', () => {
  it('reads closed and reopened issues events, and nothing else', async () => {
    const event = (
      action: string,
      issue: object = { number: 7, updated_at: '2026-03-01T11:00:00Z' },
    ) => JSON.stringify({ action, issue });
    expect(await delivery(event('closed'))).toEqual({
      ok: true,
      delivery: {
        deliveryId: 'd-1',
        changes: [{ externalId: '7', state: 'closed', updatedAt: '2026-03-01T11:00:00Z' }],
      },
    });
    expect(await delivery(event('reopened'))).toMatchObject({
      delivery: { changes: [{ externalId: '7', state: 'open' }] },
    });
    for (const action of ['opened', 'edited', 'labeled', 'deleted', 'transferred']) {
      expect(await delivery(event(action)), action).toMatchObject({
        ok: true,
        delivery: { changes: [] },
      });
    }
    // A payload without the fields PGS reads is acknowledged, not guessed at.
    expect(await delivery(event('closed', { number: '7' }))).toMatchObject({
      delivery: { changes: [] },
    });
    expect(await delivery(event('closed'), { 'x-github-event': 'pull_request' })).toMatchObject({
      delivery: { changes: [] },
    });
  });

  it('refuses what it cannot trust or read', async () => {
    expect(await delivery('{"action":"closed"}', { 'x-github-delivery': undefined })).toEqual({
      ok: false,
      reason: expect.stringMatching(/X-GitHub-Delivery/),
    });
    expect(await delivery('payload=%7B%7D')).toEqual({
      ok: false,
      reason: expect.stringMatching(/application\/json/),
    });
    expect(await delivery('')).toEqual({ ok: false, reason: expect.stringMatching(/empty/) });
    // Bytes that are not UTF-8 were signed as bytes: decoding them changes them, so they fail.
    const latin1 = Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xe9, 0x22, 0x7d]);
    expect((await delivery(latin1)).ok).toBe(false);
    expect(await delivery('{}', { 'x-hub-signature-256': 'sha256=00' })).toEqual({
      ok: false,
      reason: expect.stringMatching(/does not match/),
    });
  });
});
