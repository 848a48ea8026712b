import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeLinear } from '../../server/test/fakes/linear.ts';
import type { FakeTracker } from '../../server/test/fakes/tracker.ts';
import { APIError, NotFoundError, Pgs } from '../src/index.ts';
import { type RealServer, sharedRealServer } from './pgs-server.ts';

// pgs.connections against the real server (its embedded database generates the sealing key)
// and a fake Linear on loopback, which the server's Linear adapter verifies the key against.

describe('connections against the real server', { timeout: 120_000 }, () => {
  let server: RealServer;
  let fake: FakeTracker;
  let pgs: Pgs;

  beforeAll(async () => {
    fake = await startFakeLinear();
    server = await sharedRealServer();
    pgs = new Pgs({ apiKey: server.apiKey, baseUrl: server.url });
  }, 150_000);
  afterAll(async () => {
    await server?.stop();
    await fake?.close();
  });

  it('creates, lists, reads and deletes, never showing the token', async () => {
    const token = (fake.credentials as { token: string }).token;
    const made = await pgs.connections.create({
      provider: 'linear',
      baseUrl: fake.baseUrl,
      credentials: { token },
      target: fake.target as { team: string },
    });
    expect(made.connection).toMatchObject({ provider: 'linear', reconciledAt: null });
    expect(made.webhook.url).toBe(`${server.url}/api/v1/connections/${made.connection.id}/webhook`);
    expect(made.webhook.secret).toHaveLength(32);
    expect(JSON.stringify(made)).not.toContain(token);

    const listed = await pgs.connections.list();
    expect(listed).toEqual([made.connection]);
    expect(await pgs.connections.get(made.connection.id)).toEqual(made.connection);

    await pgs.connections.delete(made.connection.id);
    await expect(pgs.connections.get(made.connection.id)).rejects.toBeInstanceOf(NotFoundError);
    expect(await pgs.connections.list()).toEqual([]);
  });

  it("answers a token the tracker refuses with TRACKER_REJECTED and the tracker's reason", async () => {
    const refused = await pgs.connections
      .create({
        provider: 'linear',
        baseUrl: fake.baseUrl,
        credentials: { token: 'lin_api_notTheRightOne' },
        target: fake.target as { team: string },
      })
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(refused).toBeInstanceOf(APIError);
    const error = refused as APIError;
    expect(error.status).toBe(422);
    expect(error.code).toBe('TRACKER_REJECTED');
    expect(String((error.details as { reason?: unknown })?.reason)).not.toBe('');
  });
});
