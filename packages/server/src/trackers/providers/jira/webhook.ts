/**
 * Jira Cloud's webhook deliveries, verified. A webhook an admin registers with a secret
 * (Settings › System › WebHooks) is signed the WebSub way: `X-Hub-Signature: sha256=<hex>`,
 * the HMAC-SHA256 of the raw body under the secret. Each delivery carries its identifier in
 * `X-Atlassian-Webhook-Identifier` (the same across Jira's retries) and its time in the
 * payload's `timestamp` (milliseconds), which must be within five minutes of now.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { InboundChange, WebhookInput, WebhookVerdict } from '../provider.ts';
import { jiraTime } from './wire.ts';

/** How far a delivery's `timestamp` may be from now, either way. */
export const JIRA_WEBHOOK_TOLERANCE_MS = 5 * 60_000;

interface JiraWebhookPayload {
  timestamp?: unknown;
  webhookEvent?: unknown;
  issue?: {
    id?: unknown;
    fields?: { status?: { statusCategory?: { key?: unknown } }; updated?: unknown };
  };
  changelog?: { items?: { field?: unknown; fieldId?: unknown }[] };
}

/**
 * The `X-Hub-Signature` value Jira sends for a body under a secret.
 *
 * @example jiraSignature('{"webhookEvent":"jira:issue_updated"}', secret) // 'sha256=3f…'
 */
export function jiraSignature(rawBody: Buffer | string, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(rawBody).digest('hex')}`;
}

/**
 * Verifies a Jira delivery and reads the status changes it carries: `jira:issue_updated`
 * with a `status` item in its changelog gives one change; other events are acknowledged with
 * none.
 */
export async function verifyJiraWebhook(input: WebhookInput): Promise<WebhookVerdict> {
  const signature = input.headers['x-hub-signature'];
  if (!signature) return { ok: false, reason: 'unsigned delivery: no X-Hub-Signature header' };
  const expected = Buffer.from(jiraSignature(input.rawBody, input.secret));
  const given = Buffer.from(signature.trim());
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return { ok: false, reason: 'the X-Hub-Signature does not match the webhook secret' };
  }
  let payload: JiraWebhookPayload;
  try {
    payload = JSON.parse(input.rawBody.toString('utf8')) as JiraWebhookPayload;
  } catch {
    return { ok: false, reason: 'the delivery is not JSON' };
  }
  if (!payload || typeof payload !== 'object') {
    return { ok: false, reason: 'the delivery is not a JSON object' };
  }
  const sentAt = typeof payload.timestamp === 'number' ? payload.timestamp : Number.NaN;
  if (!Number.isFinite(sentAt)) return { ok: false, reason: 'the delivery carries no timestamp' };
  if (Math.abs(input.now.getTime() - sentAt) > JIRA_WEBHOOK_TOLERANCE_MS) {
    return { ok: false, reason: 'stale delivery: its timestamp is more than 5 minutes from now' };
  }
  const deliveryId =
    input.headers['x-atlassian-webhook-identifier']?.trim() ||
    `sha256:${createHash('sha256').update(input.rawBody).digest('hex')}`;
  return { ok: true, delivery: { deliveryId, changes: statusChanges(payload, sentAt) } };
}

function statusChanges(payload: JiraWebhookPayload, sentAt: number): InboundChange[] {
  if (payload.webhookEvent !== 'jira:issue_updated') return [];
  const items = Array.isArray(payload.changelog?.items) ? payload.changelog.items : [];
  if (!items.some((item) => item?.field === 'status' || item?.fieldId === 'status')) return [];
  const issue = payload.issue;
  const id = issue?.id;
  const category = issue?.fields?.status?.statusCategory?.key;
  if ((typeof id !== 'string' && typeof id !== 'number') || typeof category !== 'string') return [];
  const updated = issue?.fields?.updated;
  return [
    {
      externalId: String(id),
      state: category === 'done' ? 'closed' : 'open',
      updatedAt: jiraTime(updated) ?? new Date(sentAt).toISOString(),
    },
  ];
}
