import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedKey } from '../src/accounts/service.ts';
import { ProjectEventHub, recordEvent } from '../src/events/hub.ts';
import { SharedEventReads } from '../src/events/reads.ts';
import { backends, type Harness, startHarness } from './helpers/harness.ts';

/**
 * Event streams of one project that wake on the same announcement share one read of the
 * events that follow (events/reads.ts), on the real database and the real hub.
 */
describe.each(await backends())('shared event reads on %s', (backend) => {
  let h: Harness;
  let hub: ProjectEventHub;
  let reads: SharedEventReads;
  let key: CreatedKey;

  beforeAll(async () => {
    h = await startHarness(backend);
    hub = await ProjectEventHub.start(h.database);
    reads = new SharedEventReads(h.database.db, hub);
    key = await h.createKey('test', { credits: 100 });
  });
  afterAll(async () => {
    reads?.close();
    await hub?.stop();
    await h?.close();
  });

  const record = (projectId: string, stage: string) =>
    h.database.db.transaction((tx) =>
      recordEvent(tx, projectId, 'stage.started', { stage }, { whileInProgress: true }),
    );

  it('answers many streams asking at once with one query', async () => {
    const id = await h.seedProject(key, { status: 'in_progress' });
    await record(id, 'definition');
    const before = reads.queries;
    const answers = await Promise.all(Array.from({ length: 200 }, () => reads.read(id, 0)));
    expect(reads.queries - before).toBe(1);
    expect(new Set(answers).size).toBe(1);
    expect(answers[0]!.map((event) => event.data)).toEqual([{ stage: 'definition' }]);
    // Another position, or another project, is another read.
    await Promise.all([reads.read(id, 1), reads.read(id, 1)]);
    expect(reads.queries - before).toBe(2);
  });

  it('a read asked for after an announcement sees the announced event', async () => {
    const id = await h.seedProject(key, { status: 'in_progress' });
    const first = await record(id, 'definition');
    expect((await reads.read(id, 0)).map((event) => event.seq)).toEqual([first]);
    const announced = hub.next(id, 20_000);
    const second = await record(id, 'documents');
    expect(await announced, 'the announcement arrived').toBe(true);
    const before = reads.queries;
    const woken = await Promise.all(Array.from({ length: 50 }, () => reads.read(id, first)));
    expect(reads.queries - before).toBe(1);
    for (const events of woken) expect(events.map((event) => event.seq)).toEqual([second]);
  });
});
