import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedKey } from '../src/accounts/service.ts';
import type { AuditReport } from '../src/credits/audit.ts';
import { backends, bearer, type Harness, roomy, startHarness } from './helpers/harness.ts';
import { waitFor } from './helpers/wait.ts';

/**
 * Issue 11 item 4: GET /admin/v1/audit (docs/api.md "Auditing the ledger"). No drift after
 * real flows on both backends; a drift made by hand in SQL is reported with what is behind it.
 */

const IDEA = 'A web dashboard where community gardeners share compost schedules and seed swaps.';
/** Held in progress for ten minutes: only a cancel or a delete ends it within a test. */
const HELD = { outcome: 'completed', durationMs: 600_000 } as const;

describe.each(await backends())('the ledger audit on %s', (backend) => {
  let h: Harness;
  let test: CreatedKey;
  let live: CreatedKey;
  let other: CreatedKey;

  beforeAll(async () => {
    h = await startHarness(backend, {
      generation: 'workers',
      rules: roomy('status', 'create', 'credits', 'manage'),
    });
    test = await h.createKey('test', { credits: 1000 });
    live = await h.createKey('live', { accountId: test.accountId, credits: 300 });
    other = await h.createKey('test', { credits: 200 });
  });
  afterAll(async () => h?.close());

  const audit = async (): Promise<AuditReport> => {
    const res = await h.request({
      method: 'GET',
      url: '/admin/v1/audit',
      headers: bearer(h.adminToken),
    });
    expect(res.statusCode).toBe(200);
    return res.json().data;
  };

  const create = async (key: CreatedKey, body: Record<string, unknown>) => {
    const res = await h.createProject(key, { idea: IDEA, ...body });
    expect(res.statusCode).toBe(202);
    return res.json().data.projectId as string;
  };

  const ended = (key: CreatedKey, id: string) =>
    waitFor(
      async () => {
        const data = (await h.getProject(key, id)).json().data;
        return data.status === 'in_progress' ? undefined : (data.status as string);
      },
      { what: `project ${id} to end`, timeoutMs: 30_000 },
    );

  const post = (key: CreatedKey, url: string, method: 'POST' | 'DELETE' = 'POST') =>
    h.request({ method, url, headers: bearer(key.key) });

  it('refuses a request without the admin token, and an API key in its place', async () => {
    const none = await h.request({ method: 'GET', url: '/admin/v1/audit' });
    expect(none.statusCode).toBe(401);
    const apiKey = await h.request({
      method: 'GET',
      url: '/admin/v1/audit',
      headers: bearer(test.key),
    });
    expect(apiKey.statusCode).toBe(401);
    expect(apiKey.json().error.code).toBe('AUTHENTICATION_FAILED');
  });

  it('finds no drift after projects completed, failed, cancelled and deleted, and while one runs', async () => {
    const completed = await create(test, { simulate: { outcome: 'completed', durationMs: 200 } });
    const failed = await create(test, { simulate: { outcome: 'failed', durationMs: 200 } });
    const generated = await create(live, { type: 'web' });
    const cancelled = await create(test, { simulate: HELD });
    const deleted = await create(other, { simulate: HELD });
    const running = await create(test, { simulate: HELD });

    expect(await ended(test, completed)).toBe('completed');
    expect(await ended(test, failed)).toBe('failed');
    expect(await ended(live, generated)).toBe('completed');
    expect((await post(test, `/api/v1/projects/${cancelled}/cancel`)).statusCode).toBe(200);
    expect((await post(other, `/api/v1/projects/${deleted}`, 'DELETE')).statusCode).toBe(204);

    const report = await audit();
    expect(report.drift).toEqual([]);
    expect(report.ok).toBe(true);
    expect(Date.parse(report.checkedAt)).not.toBeNaN();
    // Every account in both modes, whether it has a balance there or not.
    const accounts = await h.database.db.execute(sql`select count(*)::int as n from accounts`);
    expect(report.accounts).toBe(
      2 * Number((accounts as unknown as { rows: { n: number }[] }).rows[0]!.n),
    );

    // The figures the audit agreed with are the ones clients see.
    const credits = await h.credits(test);
    expect(credits.reserved).toBeGreaterThan(0);
    expect(credits.balance + credits.reserved).toBeLessThan(1000);

    expect((await post(test, `/api/v1/projects/${running}/cancel`)).statusCode).toBe(200);
    expect((await audit()).ok).toBe(true);
  });

  it('reports a balance changed behind the ledger, with the movements behind it', async () => {
    const key = await h.createKey('test', { credits: 120 });
    const done = await create(key, { simulate: { outcome: 'completed', durationMs: 100 } });
    expect(await ended(key, done)).toBe('completed');
    const before = await h.credits(key);

    await h.database.db.execute(
      sql`update credit_balances set balance = balance + 7 where account_id = ${key.accountId} and mode = 'test'`,
    );
    try {
      const report = await audit();
      expect(report.ok).toBe(false);
      expect(report.drift).toHaveLength(1);
      const [drift] = report.drift;
      expect(drift).toMatchObject({
        accountId: key.accountId,
        mode: 'test',
        balance: before.balance + 7,
        expectedBalance: before.balance,
        reserved: 0,
        expectedReserved: 0,
      });
      expect(drift!.problems).toEqual([
        `balance is ${before.balance + 7}; the ledger sums to ${before.balance}`,
      ]);
      // Every ledger row of the pair: the grant, then the project's reserve, consume and release.
      const ledger = drift!.movements.filter((m) => m.source === 'ledger');
      expect(ledger.map((m) => m.movementKey.replace(/^grant:.*/, 'grant'))).toEqual([
        'grant',
        `project:${done}:reserve`,
        `project:${done}:consume`,
        `project:${done}:release`,
      ]);
      expect(ledger.reduce((sum, m) => sum + (m.source === 'ledger' ? m.amount : 0), 0)).toBe(
        before.balance,
      );
    } finally {
      await h.database.db.execute(
        sql`update credit_balances set balance = balance - 7 where account_id = ${key.accountId} and mode = 'test'`,
      );
    }
    expect((await audit()).ok).toBe(true);
  });

  it('reports a reservation changed behind the ledger, naming the project and its movements', async () => {
    const key = await h.createKey('test', { credits: 200 });
    const running = await create(key, { simulate: HELD });
    await h.database.db.execute(
      sql`update projects set credits_reserved = credits_reserved + 3 where id = ${running}`,
    );
    const report = await audit();
    const drift = report.drift.find((d) => d.accountId === key.accountId);
    expect(report.ok).toBe(false);
    expect(drift).toBeDefined();
    expect(drift!.reserved).toBe(drift!.expectedReserved + 3);
    expect(drift!.balance).toBe(drift!.expectedBalance);
    expect(drift!.problems).toHaveLength(2);
    expect(drift!.problems[1]).toContain(`project ${running} is in progress`);
    expect(drift!.movements).toEqual([
      expect.objectContaining({
        source: 'project',
        projectId: running,
        status: 'in_progress',
        creditsReserved: drift!.expectedReserved + 3,
      }),
      expect.objectContaining({
        source: 'ledger',
        kind: 'reserve',
        amount: -drift!.expectedReserved,
        movementKey: `project:${running}:reserve`,
      }),
    ]);
    // Cancelling settles what the (altered) row says it holds: the ledger then disagrees
    // with the project's own charge, and the audit still says so.
    expect((await post(key, `/api/v1/projects/${running}/cancel`)).statusCode).toBe(200);
    const after = (await audit()).drift.find((d) => d.accountId === key.accountId);
    expect(after?.problems.some((p) => p.includes(`project ${running} is failed`))).toBe(true);
  });

  it('reports a lost settlement movement', async () => {
    const key = await h.createKey('test', { credits: 100 });
    const done = await create(key, { simulate: { outcome: 'completed', durationMs: 100 } });
    expect(await ended(key, done)).toBe('completed');
    await h.database.db.execute(
      sql`delete from credit_ledger where movement_key = ${`project:${done}:release`}`,
    );
    const drift = (await audit()).drift.find((d) => d.accountId === key.accountId);
    expect(drift?.balance).toBeGreaterThan(drift?.expectedBalance ?? Infinity);
    expect(drift?.problems.some((p) => p.startsWith(`project ${done} is completed`))).toBe(true);
    expect(drift?.movements.map((m) => (m.source === 'ledger' ? m.kind : m.source))).toEqual([
      'project',
      'grant',
      'reserve',
      'consume',
    ]);
  });
});
