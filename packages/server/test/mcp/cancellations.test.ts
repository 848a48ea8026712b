import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpCancellations } from '../../src/api/mcp/cancellations.ts';
import { databaseBroadcast } from '../../src/events/broadcast.ts';
import { type Database, openDatabase } from '../../src/storage/db.ts';
import { memoryDatabase } from '../helpers/database.ts';
import { backends } from '../helpers/harness.ts';
import { createTestDatabase } from '../helpers/services.ts';
import { waitFor } from '../helpers/wait.ts';

/**
 * A client's notifications/cancelled reaches the call it names on whichever process holds
 * it: two McpCancellations on one database stand for two API processes (PostgreSQL, when
 * reachable; PGlite's in-process notifications otherwise).
 */
for (const backend of await backends()) {
  describe(`MCP cancellations across processes (${backend})`, () => {
    let database: Database;
    let drop: (() => Promise<void>) | undefined;
    let a: McpCancellations;
    let b: McpCancellations;

    beforeAll(async () => {
      if (backend === 'postgres') {
        const created = await createTestDatabase();
        drop = created.drop;
        database = await openDatabase({ kind: 'postgres', url: created.url, poolSize: 2 });
      } else {
        database = await memoryDatabase();
      }
      a = await McpCancellations.start(databaseBroadcast(database));
      b = await McpCancellations.start(databaseBroadcast(database));
    });

    afterAll(async () => {
      await a?.stop();
      await b?.stop();
      await database?.close();
      await drop?.();
    });

    it('aborts the key’s call with that id on the other process, and no other', async () => {
      const mine = a.track('key_1', 7);
      const sameIdOtherKey = a.track('key_2', 7);
      const otherId = a.track('key_1', '7');
      await b.cancel('key_1', 7);
      await waitFor(async () => (mine.signal.aborted ? true : undefined), {
        what: 'the cancellation to arrive',
      });
      expect(sameIdOtherKey.signal.aborted).toBe(false);
      expect(otherId.signal.aborted).toBe(false);
      for (const call of [mine, sameIdOtherKey, otherId]) call.done();
      expect(a.size).toBe(0);
    });
  });
}
