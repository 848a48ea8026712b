/**
 * Linear's inbound webhook: the raw body signed with HMAC-SHA256 (hex) in `linear-signature`,
 * dated by `webhookTimestamp` (epoch ms) inside the signed body, identified by
 * `linear-delivery`. Only an issue's state change becomes an {@link InboundChange}.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { LINEAR_WEBHOOK_SIGNATURE_HEADER, LINEAR_WEBHOOK_TS_FIELD } from '@linear/sdk/webhooks';
import type { InboundChange, WebhookInput, WebhookVerdict } from '../provider.ts';

/** Linear's own tolerance (its SDK refuses deliveries dated more than a minute away). */
const FRESH_MS = 60_000;
const CLOSED_TYPES = new Set(['completed', 'canceled']);

interface IssueEvent {
  type?: unknown;
  action?: unknown;
  createdAt?: unknown;
  data?: { id?: unknown; updatedAt?: unknown; state?: { type?: unknown } | null } | null;
  updatedFrom?: { stateId?: unknown } | null;
}

/**
 * True when `signature` is the HMAC of the exact bytes. The SDK's `LinearWebhookClient.verify`
 * does the same but judges freshness by the process's clock; PGS judges it by the injected
 * one, so the comparison is done here with the SDK's header and field names.
 */
function signedBy(secret: string, rawBody: Buffer, signature: string): boolean {
  const expected = Buffer.from(createHmac('sha256', secret).update(rawBody).digest('hex'));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/** The state change an Issue update carries, if it is one. */
function changeOf(event: IssueEvent, at: number): InboundChange | undefined {
  if (event.type !== 'Issue' || event.action !== 'update') return undefined;
  if (!event.updatedFrom || !('stateId' in event.updatedFrom)) return undefined;
  const id = event.data?.id;
  const type = event.data?.state?.type;
  if (typeof id !== 'string' || typeof type !== 'string') return undefined;
  const updatedAt = [event.data?.updatedAt, event.createdAt].find(
    (value): value is string => typeof value === 'string' && !Number.isNaN(Date.parse(value)),
  );
  return {
    externalId: id,
    state: CLOSED_TYPES.has(type) ? 'closed' : 'open',
    updatedAt: new Date(updatedAt ?? at).toISOString(),
  };
}

/** Verifies a Linear delivery and reads the issue state change it carries. */
export async function verifyLinearWebhook(input: WebhookInput): Promise<WebhookVerdict> {
  const signature = input.headers[LINEAR_WEBHOOK_SIGNATURE_HEADER];
  if (!signature) return { ok: false, reason: 'the delivery is not signed (no linear-signature)' };
  if (!signedBy(input.secret, input.rawBody, signature)) {
    return { ok: false, reason: 'the linear-signature does not match the body and the secret' };
  }
  let event: IssueEvent & Record<string, unknown>;
  try {
    event = JSON.parse(input.rawBody.toString('utf8'));
  } catch {
    return { ok: false, reason: 'the delivery is not JSON' };
  }
  const at = event[LINEAR_WEBHOOK_TS_FIELD];
  if (typeof at !== 'number' || !Number.isFinite(at)) {
    return { ok: false, reason: `the delivery carries no ${LINEAR_WEBHOOK_TS_FIELD}` };
  }
  if (Math.abs(input.now.getTime() - at) > FRESH_MS) {
    return { ok: false, reason: 'the delivery is stale (dated more than 60 s from now)' };
  }
  const deliveryId = input.headers['linear-delivery'] ?? String(event.webhookId ?? at);
  const change = changeOf(event, at);
  return { ok: true, delivery: { deliveryId, changes: change ? [change] : [] } };
}
