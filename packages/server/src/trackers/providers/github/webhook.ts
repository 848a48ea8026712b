/**
 * GitHub's webhook deliveries: the `X-Hub-Signature-256` HMAC over the exact bytes received,
 * checked with Octokit's own `verify`, and the issue state changes they carry.
 *
 * GitHub does not date-sign a delivery (the signature covers the body, which has no delivery
 * time), so a captured delivery stays valid: a replay is refused upstream by its
 * `X-GitHub-Delivery` ID, which the inbound route records, and an old change loses to a newer
 * one since the newest `updated_at` wins. `now` is therefore not read here.
 */
import { verify } from '@octokit/webhooks-methods';
import type { InboundChange, WebhookInput, WebhookVerdict } from '../provider.ts';

interface IssuesEvent {
  action?: unknown;
  issue?: { number?: unknown; updated_at?: unknown };
}

/**
 * Verifies one delivery and reads it: `issues` events with action `closed` or `reopened`
 * become one change; every other event (`ping` included) is acknowledged with none.
 *
 * @example await verifyGitHubDelivery({ headers, rawBody, secret, now })
 */
export async function verifyGitHubDelivery(input: WebhookInput): Promise<WebhookVerdict> {
  const signature = input.headers['x-hub-signature-256'];
  if (!signature) {
    return {
      ok: false,
      reason: 'the delivery has no X-Hub-Signature-256 header: set the secret on the webhook',
    };
  }
  if (input.rawBody.length === 0 || !input.secret) {
    return { ok: false, reason: 'the delivery has an empty body' };
  }
  // verify() takes text: a body that is not UTF-8 cannot be a JSON delivery, and decoding it
  // changes its bytes, so its signature fails, as it should.
  const valid = await verify(input.secret, input.rawBody.toString('utf8'), signature);
  if (!valid) {
    return {
      ok: false,
      reason: "the X-Hub-Signature-256 signature does not match the connection's webhook secret",
    };
  }
  const deliveryId = input.headers['x-github-delivery'];
  if (!deliveryId) return { ok: false, reason: 'the delivery has no X-GitHub-Delivery header' };
  let payload: IssuesEvent;
  try {
    payload = JSON.parse(input.rawBody.toString('utf8')) as IssuesEvent;
  } catch {
    return {
      ok: false,
      reason: 'the delivery is not JSON: set the content type to application/json',
    };
  }
  const changes: InboundChange[] = [];
  const issue = payload?.issue;
  if (
    input.headers['x-github-event'] === 'issues' &&
    (payload.action === 'closed' || payload.action === 'reopened') &&
    typeof issue?.number === 'number' &&
    typeof issue.updated_at === 'string'
  ) {
    changes.push({
      externalId: String(issue.number),
      state: payload.action === 'closed' ? 'closed' : 'open',
      updatedAt: issue.updated_at,
    });
  }
  return { ok: true, delivery: { deliveryId, changes } };
}
