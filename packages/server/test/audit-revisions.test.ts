import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Accounts, type CreatedKey } from '../src/accounts/service.ts';
import { auditLedger } from '../src/credits/audit.ts';
import {
  creditSummary,
  refundCredits,
  reserveCredits,
  settleCredits,
} from '../src/credits/ledger.ts';
import { type Database, openDatabase } from '../src/storage/db.ts';
import { readAuditTotals, readProjectMismatches } from '../src/storage/sql/audit.ts';
import { insertProject } from '../src/storage/sql/projects.ts';
import { insertRevision } from '../src/storage/sql/revisions.ts';
import { memoryDatabase } from './helpers/database.ts';
import { createTestDatabase, postgresUnavailable } from './helpers/services.ts';

/**
 * The ledger audit over revisions (docs/revisions.md "Credits", docs/api.md "Auditing the
 * ledger"): each revision is a run of its own, its movements `project:<id>:r<n>:…` checked
 * against its `project_revisions` row, and revisions in progress hold credits like projects
 * in progress. Rows and movements are made with the real ledger functions, no generation.
 */

type Status = 'in_progress' | 'completed' | 'failed';

// PGlite always, PostgreSQL when one is reachable (as the harness's `backends()`, without
// starting an app: nothing here needs one).
const backends = (await postgresUnavailable()) === undefined ? ['pglite', 'postgres'] : ['pglite'];

describe.each(backends)('the ledger audit of revisions on %s', (backend) => {
  let database: Database;
  let accounts: Accounts;
  let drop: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    if (backend === 'postgres') {
      const created = await createTestDatabase();
      drop = created.drop;
      database = await openDatabase({ kind: 'postgres', url: created.url, poolSize: 2 });
    } else {
      database = await memoryDatabase();
    }
    accounts = new Accounts(database.db);
  });
  afterAll(async () => {
    await database?.close();
    await drop?.();
  });

  const charge = (key: CreatedKey, projectId: string, revision?: number) => ({
    projectId,
    accountId: key.accountId,
    mode: key.mode,
    ...(revision === undefined ? {} : { revision }),
  });

  /** A project created and completed: reserved `reserved`, charged `consumed`. */
  const completedProject = async (key: CreatedKey, reserved: number, consumed: number) => {
    const id = randomUUID();
    await database.db.transaction(async (tx) => {
      await insertProject(tx, {
        id,
        accountId: key.accountId,
        mode: key.mode,
        status: 'completed',
        idea: 'A shared calendar for a choir, with rehearsal attendance.',
        type: 'web',
        creditsReserved: reserved,
        creditsConsumed: consumed,
      });
      await reserveCredits(tx, { ...charge(key, id), amount: reserved });
      await settleCredits(tx, { ...charge(key, id), reserved, consumed });
    });
    return id;
  };

  /**
   * A revision run as the service runs it: its row and its reservation, then (unless it is
   * still in progress) its settlement: `settled` is what the ledger is told it charged
   * (the row's `consumed` unless a test makes them disagree).
   */
  const revise = async (
    key: CreatedKey,
    projectId: string,
    revision: number,
    run: { status: Status; reserved: number; consumed?: number; settled?: number },
  ) => {
    const ended = run.status !== 'in_progress';
    await database.db.transaction(async (tx) => {
      await insertRevision(tx, {
        projectId,
        revision,
        status: run.status,
        changeRequest: `Revision ${revision}: add a waiting list for full rehearsals.`,
        creditsReserved: run.reserved,
        creditsConsumed: ended ? (run.consumed ?? 0) : null,
      });
      await reserveCredits(tx, { ...charge(key, projectId, revision), amount: run.reserved });
      if (run.status === 'completed') {
        const consumed = run.settled ?? run.consumed ?? 0;
        await settleCredits(tx, {
          ...charge(key, projectId, revision),
          reserved: run.reserved,
          consumed,
        });
      } else if (run.status === 'failed') {
        await refundCredits(tx, { ...charge(key, projectId, revision), reserved: run.reserved });
      }
    });
  };

  const movementsOf = async (projectId: string) => {
    const result = (await database.db.execute(
      sql`select movement_key as "key", amount::int as "amount" from credit_ledger
        where project_id = ${projectId} order by id`,
    )) as unknown as { rows: { key: string; amount: number }[] };
    return result.rows.map((row) => [row.key.replace(projectId, '<id>'), Number(row.amount)]);
  };

  const driftOf = async (key: CreatedKey) =>
    (await auditLedger(database.db)).drift.find((d) => d.accountId === key.accountId);

  it('finds no drift after revisions completed, failed and in progress, each a run of its own', async () => {
    const key = await accounts.createKey({ mode: 'test', credits: 500 });
    const project = await completedProject(key, 20, 12);
    await revise(key, project, 2, { status: 'completed', reserved: 10, consumed: 4 });
    await revise(key, project, 3, { status: 'failed', reserved: 10 });
    await revise(key, project, 4, { status: 'in_progress', reserved: 10 });

    expect(await movementsOf(project)).toEqual([
      ['project:<id>:reserve', -20],
      ['project:<id>:consume', 0],
      ['project:<id>:release', 8],
      ['project:<id>:r2:reserve', -10],
      ['project:<id>:r2:consume', 0],
      ['project:<id>:r2:release', 6],
      ['project:<id>:r3:reserve', -10],
      ['project:<id>:r3:refund', 10],
      ['project:<id>:r4:reserve', -10],
    ]);

    // Revision 4 holds its reservation although the project (revision 1) is completed:
    // the creation's consume does not settle it, and `reserved` counts it.
    expect(await database.db.transaction((tx) => creditSummary(tx, key.accountId, 'test'))).toEqual(
      { balance: 500 - 12 - 4 - 10, reserved: 10 },
    );
    const totals = await database.db.transaction((tx) => readAuditTotals(tx));
    expect(totals.find((t) => t.accountId === key.accountId && t.mode === 'test')).toEqual({
      accountId: key.accountId,
      mode: 'test',
      balance: 474,
      reserved: 10,
      expectedBalance: 474,
      expectedReserved: 10,
    });
    expect(await driftOf(key)).toBeUndefined();

    // Revision 4 completes charging 3: nothing is held any more, and still no drift.
    await database.db.transaction(async (tx) => {
      await tx.execute(
        sql`update project_revisions set status = 'completed', credits_consumed = 3
          where project_id = ${project} and revision = 4`,
      );
      await settleCredits(tx, { ...charge(key, project, 4), reserved: 10, consumed: 3 });
    });
    expect(
      (await database.db.transaction((tx) => creditSummary(tx, key.accountId, 'test'))).reserved,
    ).toBe(0);
    expect(await driftOf(key)).toBeUndefined();
  });

  it('reports a revision whose movements disagree with its credits_consumed, naming its revision', async () => {
    const key = await accounts.createKey({ mode: 'test', credits: 300 });
    const project = await completedProject(key, 20, 12);
    await revise(key, project, 2, { status: 'completed', reserved: 10, consumed: 4 });
    // Revision 3's row says it charged 5; the ledger released as if it charged 2.
    await revise(key, project, 3, { status: 'completed', reserved: 10, consumed: 5, settled: 2 });

    const mismatches = (await database.db.transaction((tx) => readProjectMismatches(tx))).filter(
      (row) => row.projectId === project,
    );
    expect(mismatches).toEqual([
      {
        projectId: project,
        revision: 3,
        accountId: key.accountId,
        mode: 'test',
        status: 'completed',
        creditsReserved: 10,
        creditsConsumed: 5,
        ledgerNet: -2,
        ledgerReserved: 10,
        settled: true,
      },
    ]);

    const drift = await driftOf(key);
    expect(drift).toBeDefined();
    // The balance and the open reservations agree with the ledger: only the run disagrees.
    expect(drift).toMatchObject({ balance: 300 - 12 - 4 - 2, reserved: 0, expectedReserved: 0 });
    expect(drift!.expectedBalance).toBe(drift!.balance);
    expect(drift!.problems).toEqual([
      `project ${project} revision 3 is completed (reserved 10, charged 5); its movements reserved 10 and sum to -2`,
    ]);
    expect(drift!.movements.map((m) => (m.source === 'ledger' ? m.movementKey : m.source))).toEqual(
      [
        'project',
        `project:${project}:reserve`,
        `project:${project}:consume`,
        `project:${project}:release`,
        `project:${project}:r2:reserve`,
        `project:${project}:r2:consume`,
        `project:${project}:r2:release`,
        `project:${project}:r3:reserve`,
        `project:${project}:r3:consume`,
        `project:${project}:r3:release`,
      ],
    );
  });

  it('reports a revision in progress whose reservation the ledger does not hold', async () => {
    const key = await accounts.createKey({ mode: 'test', credits: 200 });
    const project = await completedProject(key, 20, 12);
    await revise(key, project, 2, { status: 'in_progress', reserved: 10 });
    await database.db.execute(
      sql`update project_revisions set credits_reserved = 13
        where project_id = ${project} and revision = 2`,
    );

    const drift = await driftOf(key);
    expect(drift).toMatchObject({ reserved: 13, expectedReserved: 10 });
    expect(drift!.problems).toEqual([
      'projects and revisions in progress hold 13; the ledger has 10 reserved',
      `project ${project} revision 2 is in progress with 13 reserved, the ledger reserved 10`,
    ]);
    // The project being revised, then every movement of its runs.
    expect(drift!.movements[0]).toMatchObject({ source: 'project', projectId: project });
    expect(drift!.movements.at(-1)).toMatchObject({
      source: 'ledger',
      movementKey: `project:${project}:r2:reserve`,
      amount: -10,
    });
  });

  it("follows the deleted-project rule for a deleted project's revisions", async () => {
    const key = await accounts.createKey({ mode: 'test', credits: 200 });
    const settled = await completedProject(key, 20, 12);
    await revise(key, settled, 2, { status: 'completed', reserved: 10, consumed: 4 });
    await revise(key, settled, 3, { status: 'failed', reserved: 10 });
    const holding = await completedProject(key, 20, 12);
    await revise(key, holding, 2, { status: 'completed', reserved: 10, consumed: 4 });
    await revise(key, holding, 3, { status: 'in_progress', reserved: 10 });

    // Deleted behind the service's back: the revisions go with the project, the movements stay.
    await database.db.execute(sql`delete from projects where id in (${settled}, ${holding})`);
    const left = (await database.db.execute(
      sql`select count(*)::int as n from project_revisions where project_id in (${settled}, ${holding})`,
    )) as unknown as { rows: { n: number }[] };
    expect(Number(left.rows[0]!.n)).toBe(0);

    const drift = await driftOf(key);
    // Settled runs of a deleted project are fine; revision 3 of the other still holds 10.
    expect(drift).toMatchObject({ reserved: 0, expectedReserved: 10 });
    expect(drift!.problems).toEqual([
      'projects and revisions in progress hold 0; the ledger has 10 reserved',
      `project ${holding} revision 3 (deleted) still holds a reservation of 10 in the ledger`,
    ]);
  });
});
