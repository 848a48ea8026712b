import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryDatabase } from '../../../test/helpers/database.ts';
import type { Database } from '../db.ts';
import { generationStats } from '../schema.ts';
import {
  cachedGenerationStats,
  readGenerationStats,
  recordGenerationTime,
  STATS_MAX_AGE_MS,
} from './stats.ts';

describe('cached generation stats (the estimate of every creation and run start)', () => {
  let database: Database;
  beforeAll(async () => {
    database = await memoryDatabase();
  });
  afterAll(async () => {
    await database.close();
  });

  it('serves a copy, replaced at once by this process’s own measurement', async () => {
    await recordGenerationTime(database.db, 'offline:brief', 1_000);
    expect((await cachedGenerationStats(database.db)).get('offline:brief')).toBe(1_000);

    // Written behind the cache's back (as another process would): not seen while fresh.
    await database.db.update(generationStats).set({ avgMs: 5_000 });
    expect((await cachedGenerationStats(database.db)).get('offline:brief')).toBe(1_000);

    // A measurement of this process replaces the copy: the next estimate sees the table.
    await recordGenerationTime(database.db, 'offline:brief', 5_000);
    const fresh = await cachedGenerationStats(database.db);
    expect(fresh).toEqual(await readGenerationStats(database.db));
    expect(fresh.get('offline:brief')).toBe(5_000);
  });

  it('reads the table again once the copy is older than the maximum age', async () => {
    let clock = 1_000_000;
    const now = () => clock;
    await recordGenerationTime(database.db, 'offline:plan', 2_000);
    expect((await cachedGenerationStats(database.db, now)).get('offline:plan')).toBe(2_000);
    await database.db.update(generationStats).set({ avgMs: 3_000 });
    clock += STATS_MAX_AGE_MS + 1;
    // The stale copy answers once while the fresh read runs; the read after it sees the table.
    await cachedGenerationStats(database.db, now);
    await expect
      .poll(async () => (await cachedGenerationStats(database.db, now)).get('offline:plan'))
      .toBe(3_000);
  });
});
