/**
 * One attempt at delivering a webhook message, signed as the Standard Webhooks
 * specification says (https://www.standardwebhooks.com): `webhook-id`,
 * `webhook-timestamp`, `webhook-signature: v1,<base64 HMAC-SHA256>` over
 * `<id>.<timestamp>.<body>`, keyed with the base64-decoded part of the secret after `whsec_`.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { isIP } from 'node:net';
import { checkUrlSyntax, forbiddenAddress, hostOf } from './url-policy.ts';

/** A new signing secret: `whsec_` and the base64 of 24 random bytes. */
export const newWebhookSecret = (): string => `whsec_${randomBytes(24).toString('base64')}`;

/**
 * The `webhook-signature` value of a message.
 *
 * @example
 * sign('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'msg_01J…', 1735689600, '{"type":"project.completed"}');
 */
export function sign(secret: string, messageId: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const mac = createHmac('sha256', key)
    .update(`${messageId}.${timestamp}.${body}`)
    .digest('base64');
  return `v1,${mac}`;
}

export interface DeliveryRequest {
  url: string;
  secret: string;
  messageId: string;
  body: string;
  /** PGS_WEBHOOKS_ALLOW_PRIVATE: http and private addresses are allowed. */
  allowPrivate: boolean;
  /** An answer must arrive within this many milliseconds (10 s). */
  timeoutMs: number;
  now?: () => number;
}

export interface DeliveryResult {
  ok: boolean;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  /** Unix seconds sent in `webhook-timestamp`. */
  timestamp: number;
  /** Epoch milliseconds when the attempt began. */
  startedAt: number;
}

/** Refused before any connection: the URL or an address of its host is not allowed. */
class RefusedAddressError extends Error {
  override name = 'RefusedAddressError';
}

/**
 * Resolves like node:dns lookup but fails when any address is forbidden; the socket then
 * connects to the very addresses checked, so a DNS answer that changes between a check and
 * the connection (rebinding) cannot slip a private address through.
 */
const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { all: true, verbatim: true }, (error, addresses: LookupAddress[]) => {
    if (error) return callback(error, '', 0);
    for (const { address } of addresses) {
      const why = forbiddenAddress(address);
      if (why !== undefined) {
        return callback(new RefusedAddressError(`${hostname} → ${address} ${why}`), '', 0);
      }
    }
    if (addresses.length === 0) return callback(new Error(`${hostname} does not resolve`), '', 0);
    if (options.all) return (callback as (e: null, a: LookupAddress[]) => void)(null, addresses);
    const first = addresses[0]!;
    return callback(null, first.address, first.family);
  });
};

/**
 * Sends one attempt; never throws: a refused URL, a connection error, a time-out and a
 * non-2xx answer are all a failed result with the reason.
 *
 * @example
 * const result = await deliver({ url, secret, messageId, body, allowPrivate: false, timeoutMs: 10_000 });
 */
export async function deliver(request: DeliveryRequest): Promise<DeliveryResult> {
  const now = request.now ?? Date.now;
  const started = now();
  const timestamp = Math.floor(started / 1000);
  const finish = (statusCode: number | null, error: string | null): DeliveryResult => ({
    ok: error === null && statusCode !== null && statusCode >= 200 && statusCode < 300,
    statusCode,
    error,
    durationMs: Math.max(0, now() - started),
    timestamp,
    startedAt: started,
  });
  const syntax = checkUrlSyntax(request.url, request.allowPrivate);
  if (!syntax.ok) return finish(null, `refused: the URL ${syntax.reason}`);
  const url = syntax.url;
  const host = hostOf(url);
  if (!request.allowPrivate && isIP(host) !== 0) {
    const why = forbiddenAddress(host);
    if (why !== undefined) return finish(null, `refused: ${host} ${why}`);
  }
  const headers = {
    'content-type': 'application/json',
    'user-agent': 'PGS-Webhooks/1',
    'webhook-id': request.messageId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': sign(request.secret, request.messageId, timestamp, request.body),
    'content-length': String(Buffer.byteLength(request.body)),
  };
  const send = url.protocol === 'https:' ? https.request : http.request;
  return new Promise<DeliveryResult>((resolve) => {
    let settled = false;
    const settle = (result: DeliveryResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const req = send(
      url,
      {
        method: 'POST',
        headers,
        ...(request.allowPrivate ? {} : { lookup: guardedLookup }),
      },
      (res) => {
        // The status is the answer; the body is read and dropped so the socket is freed.
        res.resume();
        res.on('error', () => {});
        settle(
          finish(
            res.statusCode ?? null,
            res.statusCode !== undefined && res.statusCode >= 200 && res.statusCode < 300
              ? null
              : `HTTP ${res.statusCode}`,
          ),
        );
      },
    );
    const timer = setTimeout(() => {
      settle(finish(null, `no answer within ${request.timeoutMs} ms`));
      req.destroy();
    }, request.timeoutMs);
    req.on('error', (error) => {
      const reason =
        error instanceof RefusedAddressError ? `refused: ${error.message}` : error.message;
      settle(finish(null, reason || error.name));
    });
    req.end(request.body);
  });
}
