import { describe, expect, it } from 'vitest';
import { Pgs } from '../client.ts';

describe('pgs.webhookEndpoints', () => {
  it('calls the four operations with the key', async () => {
    const calls: { url: string; method: string; body: unknown; auth: string | null }[] = [];
    const endpoint = {
      id: 'we_01JD6WQ8V4Z9K3M2N5P7R8S0TA',
      url: 'https://hooks.example.com/pgs',
      events: ['project.completed'],
      createdAt: '2026-01-01T00:00:00.000Z',
    };
    const pgs = new Pgs({
      apiKey: 'pgs_test_abcdefghijklmnopqrstuvwxyz0123456789',
      baseUrl: 'http://127.0.0.1:3000',
      maxRetries: 0,
      fetch: async (url, init) => {
        const headers = new Headers(init.headers);
        calls.push({
          url,
          method: init.method ?? 'GET',
          body: init.body ? JSON.parse(String(init.body)) : undefined,
          auth: headers.get('authorization'),
        });
        if (init.method === 'DELETE') return new Response(null, { status: 204 });
        const data =
          init.method === 'POST'
            ? { ...endpoint, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' }
            : url.endsWith('/deliveries')
              ? []
              : [endpoint];
        return Response.json(
          { success: true, data },
          { status: init.method === 'POST' ? 201 : 200 },
        );
      },
    });
    const created = await pgs.webhookEndpoints.create({
      url: endpoint.url,
      events: ['project.completed'],
    });
    expect(created.secret).toMatch(/^whsec_/);
    expect(await pgs.webhookEndpoints.list()).toEqual([endpoint]);
    expect(await pgs.webhookEndpoints.deliveries(endpoint.id)).toEqual([]);
    await pgs.webhookEndpoints.delete(endpoint.id);
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual([
      'POST http://127.0.0.1:3000/api/v1/webhook-endpoints',
      'GET http://127.0.0.1:3000/api/v1/webhook-endpoints',
      `GET http://127.0.0.1:3000/api/v1/webhook-endpoints/${endpoint.id}/deliveries`,
      `DELETE http://127.0.0.1:3000/api/v1/webhook-endpoints/${endpoint.id}`,
    ]);
    expect(calls[0]!.body).toEqual({ url: endpoint.url, events: ['project.completed'] });
    expect(calls.every((c) => c.auth?.startsWith('Bearer pgs_test_'))).toBe(true);
  });
});
