import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedKey } from '../src/accounts/service.ts';
import { insertWebhookDelivery } from '../src/storage/sql/webhooks.ts';
import { sweepExpired, WEBHOOK_DELIVERY_RETENTION_MS } from '../src/storage/sweep.ts';
import { backends, bearer, type Harness, startHarness } from './helpers/harness.ts';

/**
 * The periodic sweep (docs/api.md "Delivery, retries, at least once"): webhook delivery
 * attempts older than 30 days leave the log, in batches; younger ones stay.
 */

const DAY = 24 * 60 * 60 * 1000;

describe.each(await backends())('the retention sweep on %s', (backend) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness(backend, { webhooks: { allowPrivate: true } });
  });
  afterAll(async () => h?.close());

  const createEndpoint = async (key: CreatedKey) => {
    const res = await h.request({
      method: 'POST',
      url: '/api/v1/webhook-endpoints',
      headers: bearer(key.key),
      payload: { url: 'http://127.0.0.1:9/hook' },
    });
    expect(res.statusCode).toBe(201);
    return res.json().data.id as string;
  };
  const attempt = (endpointId: string, attemptedAt: number, n: number) =>
    insertWebhookDelivery(h.database.db, {
      endpointId,
      messageId: `msg_${n}`,
      eventType: 'project.completed',
      projectId: randomUUID(),
      attempt: 1,
      statusCode: 200,
      error: null,
      durationMs: 12,
      attemptedAt: new Date(attemptedAt),
      nextAttemptAt: null,
      state: 'succeeded',
    });
  const listed = async (key: CreatedKey, endpointId: string) => {
    const res = await h.request({
      method: 'GET',
      url: `/api/v1/webhook-endpoints/${endpointId}/deliveries`,
      headers: bearer(key.key),
    });
    expect(res.statusCode).toBe(200);
    return (res.json().data as { webhookId: string }[]).map((d) => d.webhookId).sort();
  };

  it('deletes attempts older than 30 days, in batches, and keeps the rest listed', async () => {
    const now = Date.now();
    const key = await h.createKey('test');
    const other = await h.createKey('live');
    const endpoint = await createEndpoint(key);
    const otherEndpoint = await createEndpoint(other);
    const cutoff = now - WEBHOOK_DELIVERY_RETENTION_MS;
    await attempt(endpoint, cutoff - 5 * DAY, 1);
    await attempt(endpoint, cutoff - DAY, 2);
    await attempt(endpoint, cutoff - 1, 3);
    await attempt(endpoint, cutoff + DAY, 4);
    await attempt(endpoint, now, 5);
    await attempt(otherEndpoint, cutoff - 2 * DAY, 6);
    await attempt(otherEndpoint, now - DAY, 7);
    expect(await listed(key, endpoint)).toEqual(['msg_1', 'msg_2', 'msg_3', 'msg_4', 'msg_5']);

    // Batches of 2: four old attempts take two full batches and an empty one.
    const swept = await sweepExpired(h.database.db, { now, batch: 2 });
    expect(swept.webhookDeliveries).toBe(4);
    expect(await listed(key, endpoint)).toEqual(['msg_4', 'msg_5']);
    expect(await listed(other, otherEndpoint)).toEqual(['msg_7']);

    // A second sweep finds nothing more.
    expect((await sweepExpired(h.database.db, { now, batch: 2 })).webhookDeliveries).toBe(0);
  });
});
