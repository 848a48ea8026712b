import { describe, expect, it } from 'vitest';
import { verify, WebhookVerificationError, webhooks } from './webhooks.ts';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const OTHER = 'whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
const ID = 'msg_01JD6WQ8V4Z9K3M2N5P7R8S0TA';
const NOW = 1_767_225_600_000;
const TS = String(NOW / 1000);
const BODY = JSON.stringify({
  type: 'project.completed',
  timestamp: '2026-01-01T00:00:00.000Z',
  data: { projectId: '7d0f2c8e-4a9b-4e43-9a55-0d2b8f1c6e21', status: 'completed' },
});

/** The signature as the Standard Webhooks reference computes it. */
async function signature(secret: string, id: string, ts: string, body: string): Promise<string> {
  const raw = Uint8Array.from(atob(secret.slice(6)), (c) => c.charCodeAt(0));
  const key = await crypto.subtle.importKey('raw', raw, { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
  ]);
  const mac = new Uint8Array(
    await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(`${id}.${ts}.${body}`)),
  );
  return `v1,${btoa(String.fromCharCode(...mac))}`;
}

const headers = async (overrides: Record<string, string> = {}) => ({
  'webhook-id': ID,
  'webhook-timestamp': TS,
  'webhook-signature': await signature(SECRET, ID, TS, BODY),
  ...overrides,
});

async function refusal(promise: Promise<unknown>): Promise<WebhookVerificationError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WebhookVerificationError);
  return error as WebhookVerificationError;
}

describe('webhooks.verify', () => {
  it('returns the event of a well-signed message (Headers or a plain object)', async () => {
    const plain = await headers();
    await expect(webhooks.verify(BODY, plain, SECRET, { now: NOW })).resolves.toEqual(
      JSON.parse(BODY),
    );
    const upper = Object.fromEntries(Object.entries(plain).map(([k, v]) => [k.toUpperCase(), v]));
    await expect(verify(BODY, upper, SECRET, { now: NOW })).resolves.toMatchObject({
      type: 'project.completed',
    });
    await expect(verify(BODY, new Headers(plain), SECRET, { now: () => NOW })).resolves.toEqual(
      JSON.parse(BODY),
    );
  });

  it('refuses a tampered body', async () => {
    const tampered = BODY.replace('completed', 'failed');
    expect((await refusal(verify(tampered, await headers(), SECRET, { now: NOW }))).issue).toBe(
      'invalid_signature',
    );
  });

  it('refuses a wrong secret', async () => {
    expect((await refusal(verify(BODY, await headers(), OTHER, { now: NOW }))).issue).toBe(
      'invalid_signature',
    );
  });

  it('refuses a timestamp more than the tolerance away, either way', async () => {
    const old = await refusal(verify(BODY, await headers(), SECRET, { now: NOW + 301_000 }));
    expect(old.issue).toBe('timestamp_out_of_tolerance');
    const future = await refusal(verify(BODY, await headers(), SECRET, { now: NOW - 301_000 }));
    expect(future.issue).toBe('timestamp_out_of_tolerance');
    await expect(
      verify(BODY, await headers(), SECRET, { now: NOW + 301_000, toleranceSeconds: 600 }),
    ).resolves.toBeDefined();
  });

  it('accepts any of several space-separated signatures', async () => {
    const good = await signature(SECRET, ID, TS, BODY);
    const bad = await signature(OTHER, ID, TS, BODY);
    const list = { 'webhook-signature': `v1a,abc ${bad} v1,not-base64! ${good}` };
    await expect(verify(BODY, await headers(list), SECRET, { now: NOW })).resolves.toBeDefined();
    const none = { 'webhook-signature': `${bad} v2,${good.slice(3)}` };
    expect((await refusal(verify(BODY, await headers(none), SECRET, { now: NOW }))).issue).toBe(
      'invalid_signature',
    );
  });

  it('refuses a missing header', async () => {
    for (const name of ['webhook-id', 'webhook-timestamp', 'webhook-signature']) {
      const partial: Record<string, string> = await headers();
      delete partial[name];
      const error = await refusal(verify(BODY, partial, SECRET, { now: NOW }));
      expect(error.issue).toBe('missing_header');
      expect(error.message).toContain(name);
    }
  });
});
