/**
 * Verifying PGS webhooks (Standard Webhooks signatures) with Web Crypto only: no
 * dependency and no `node:` import, so it runs on Node 20+, Deno, Bun, edge runtimes
 * and browsers. Web Crypto is asynchronous, so {@link verify} returns a promise.
 */
import type { WebhookEvent } from '@pgs/contract';
import { PgsError } from './errors.ts';

/** Why a webhook was refused by {@link verify}. */
export type WebhookVerificationIssue =
  | 'missing_header'
  | 'invalid_timestamp'
  | 'timestamp_out_of_tolerance'
  | 'invalid_signature'
  | 'invalid_secret'
  | 'invalid_body';

/**
 * A webhook that must not be trusted: a header is missing, no signature matches, or its
 * timestamp is too far from now. Answer it with a 4xx and do not act on it.
 *
 * @example
 * catch (err) { if (err instanceof WebhookVerificationError) return new Response(null, { status: 400 }); }
 */
export class WebhookVerificationError extends PgsError {
  override name = 'WebhookVerificationError';
  readonly issue: WebhookVerificationIssue;

  constructor(issue: WebhookVerificationIssue, message: string) {
    super(message);
    this.issue = issue;
  }
}

export interface VerifyOptions {
  /** How far (seconds) `webhook-timestamp` may be from now, either way (default 300). */
  toleranceSeconds?: number;
  /** The current time in epoch milliseconds (tests). */
  now?: number | (() => number);
}

type HeaderSource = Headers | Readonly<Record<string, string | string[] | undefined>>;

function header(headers: HeaderSource, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') {
    return (headers as Headers).get(name) ?? undefined;
  }
  for (const [key, value] of Object.entries(headers as Record<string, unknown>)) {
    if (key.toLowerCase() !== name) continue;
    if (Array.isArray(value)) return value.join(' ');
    if (typeof value === 'string') return value;
  }
  return undefined;
}

function base64ToBytes(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** Equal bytes, in time that depends only on the lengths. */
function timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}

/**
 * Verifies a webhook from PGS and returns its event: checks `webhook-id`,
 * `webhook-timestamp` (within `toleranceSeconds`, default 5 minutes, of now) and that one
 * of the space-separated `v1,<base64>` signatures in `webhook-signature` is the
 * HMAC-SHA256 of `<id>.<timestamp>.<body>` keyed with the secret's bytes. Pass the body
 * exactly as received (the raw text, not re-serialized JSON). Throws
 * {@link WebhookVerificationError}. Deduplicate on `webhook-id`: delivery is at least once.
 *
 * @example
 * const event = await webhooks.verify(await request.text(), request.headers, process.env.PGS_WEBHOOK_SECRET!);
 * if (event.type === 'project.completed') await fetchResult(event.data.projectId);
 */
export async function verify(
  body: string,
  headers: HeaderSource,
  secret: string,
  { toleranceSeconds = 300, now = Date.now }: VerifyOptions = {},
): Promise<WebhookEvent> {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  for (const [name, value] of [
    ['webhook-id', id],
    ['webhook-timestamp', timestamp],
    ['webhook-signature', signatures],
  ] as const) {
    if (value === undefined || value.trim() === '') {
      throw new WebhookVerificationError('missing_header', `The ${name} header is missing.`);
    }
  }
  if (!/^\d{1,15}$/.test(timestamp!.trim())) {
    throw new WebhookVerificationError('invalid_timestamp', 'webhook-timestamp is not a number.');
  }
  const sentAt = Number(timestamp!.trim());
  const current = Math.floor((typeof now === 'function' ? now() : now) / 1000);
  if (Math.abs(current - sentAt) > toleranceSeconds) {
    throw new WebhookVerificationError(
      'timestamp_out_of_tolerance',
      `webhook-timestamp is more than ${toleranceSeconds} s from now.`,
    );
  }
  let keyBytes: Uint8Array<ArrayBuffer>;
  try {
    keyBytes = base64ToBytes(secret.startsWith('whsec_') ? secret.slice(6) : secret);
  } catch {
    throw new WebhookVerificationError('invalid_secret', 'The secret is not a whsec_ secret.');
  }
  const subtle = globalThis.crypto.subtle;
  const key = await subtle.importKey('raw', keyBytes, { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
  ]);
  const signed = new TextEncoder().encode(`${id!.trim()}.${timestamp!.trim()}.${body}`);
  const expected = new Uint8Array(await subtle.sign('HMAC', key, signed));
  let matched = false;
  for (const candidate of signatures!.trim().split(/\s+/)) {
    const comma = candidate.indexOf(',');
    if (comma === -1 || candidate.slice(0, comma) !== 'v1') continue;
    let bytes: Uint8Array;
    try {
      bytes = base64ToBytes(candidate.slice(comma + 1));
    } catch {
      continue;
    }
    // Every candidate is compared (no early exit), each in constant time.
    if (timingSafeEqual(bytes, expected)) matched = true;
  }
  if (!matched) {
    throw new WebhookVerificationError('invalid_signature', 'No webhook signature matches.');
  }
  try {
    return JSON.parse(body) as WebhookEvent;
  } catch {
    throw new WebhookVerificationError('invalid_body', 'The webhook body is not JSON.');
  }
}

/**
 * Webhook helpers.
 *
 * @example
 * import { webhooks } from '@pgs/client';
 * const event = await webhooks.verify(rawBody, headers, secret);
 */
export const webhooks = { verify } as const;
