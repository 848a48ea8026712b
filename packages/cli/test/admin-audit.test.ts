import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedKey } from '../../server/src/accounts/service.ts';
import { type Harness, roomy, startHarness } from '../../server/test/helpers/harness.ts';
import { waitFor } from '../../server/test/helpers/wait.ts';
import { EXIT, run } from '../src/index.ts';

// `pgs admin audit` in-process against the real app (PGlite) on an ephemeral port.

describe('pgs admin audit', () => {
  let h: Harness;
  let url: string;
  let key: CreatedKey;
  let projectId: string;

  beforeAll(async () => {
    h = await startHarness('pglite', { generation: 'workers', rules: roomy('status', 'create') });
    url = await h.app.listen({ port: 0, host: '127.0.0.1' });
    key = await h.createKey('test', { credits: 100 });
    const res = await h.createProject(key, {
      idea: 'A web dashboard where community gardeners share compost schedules.',
      simulate: { outcome: 'completed', durationMs: 100 },
    });
    expect(res.statusCode).toBe(202);
    projectId = res.json().data.projectId;
    await waitFor(
      async () => {
        const r = await h.getProject(key, projectId);
        if (r.statusCode !== 200) throw new Error(`status ${r.statusCode}: ${r.body}`);
        return r.json().data.status === 'completed' ? true : undefined;
      },
      { what: 'the project to complete', timeoutMs: 60_000, intervalMs: 100 },
    );
  });
  afterAll(async () => h?.close());

  async function pgs(argv: string[], { tty = false } = {}) {
    let stdout = '';
    let stderr = '';
    const code = await run(argv, {
      env: { PGS_BASE_URL: url, PGS_ADMIN_TOKEN: h.adminToken },
      stdout: { write: (s: string) => (stdout += s), isTTY: tty },
      stderr: { write: (s: string) => (stderr += s) },
    });
    return { code, stdout, stderr };
  }

  it('exits 0 and says so when nothing drifts', async () => {
    const r = await pgs(['admin', 'audit']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(EXIT.OK);
    expect(r.stdout).toMatch(
      /^Ledger audit at \d{4}-\d\d-\d\dT[\d:.]+Z: 2 account modes checked, no drift\.\n$/,
    );
    const json = await pgs(['admin', 'audit', '--json']);
    expect(json.code).toBe(EXIT.OK);
    expect(JSON.parse(json.stdout)).toMatchObject({ ok: true, accounts: 2, drift: [] });
  });

  it('prints the drift as a table with the movements behind it, and exits 13', async () => {
    await h.database.db.execute(
      sql`update credit_balances set balance = balance + 5 where account_id = ${key.accountId} and mode = 'test'`,
    );
    try {
      const { balance } = await h.credits(key);
      const r = await pgs(['admin', 'audit'], { tty: true });
      expect(r.code).toBe(EXIT.LEDGER_DRIFT);
      expect(r.stderr).toBe('error: the ledger audit found drift in 1 account mode\n');
      const lines = r.stdout.split('\n');
      expect(lines[0]).toMatch(/: 2 account modes checked, 1 drifting\.$/);
      expect(lines.slice(1, 5)).toEqual([
        '',
        'ACCOUNT                          MODE  BALANCE  LEDGER  RESERVED  OPEN RESERVATIONS',
        `${key.accountId}  test  ${String(balance).padEnd(7)}  ${String(balance - 5).padEnd(6)}  0         0`,
        `  - balance is ${balance}; the ledger sums to ${balance - 5}`,
      ]);
      expect(lines[5]).toMatch(/^ {2}SOURCE +WHAT +CREDITS +AT +KEY OR PROJECT$/);
      const rows = lines.slice(6).filter((line) => line !== '');
      expect(rows.map((line) => line.trim().split(/\s+/).slice(0, 3).join(' '))).toEqual([
        'ledger grant 100',
        expect.stringMatching(/^ledger reserve -\d+$/),
        'ledger consume 0',
        expect.stringMatching(/^ledger release \d+$/),
      ]);
      expect(rows[1]).toContain(`project:${projectId}:reserve`);

      const json = await pgs(['admin', 'audit', '--json']);
      expect(json.code).toBe(EXIT.LEDGER_DRIFT);
      expect(JSON.parse(json.stdout).drift[0]).toMatchObject({
        accountId: key.accountId,
        balance,
        expectedBalance: balance - 5,
      });
      expect(JSON.parse(json.stderr).error).toMatchObject({
        code: 'LEDGER_DRIFT',
        details: { drifting: 1 },
      });
    } finally {
      await h.database.db.execute(
        sql`update credit_balances set balance = balance - 5 where account_id = ${key.accountId} and mode = 'test'`,
      );
    }
  });

  it('without a token, fails as every admin command does', async () => {
    let stderr = '';
    const code = await run(['admin', 'audit', '--admin-token', 'wrong'], {
      env: { PGS_BASE_URL: url },
      stdout: { write: () => true },
      stderr: { write: (s: string) => (stderr += s) },
    });
    expect(code).toBe(EXIT.AUTHENTICATION);
    expect(stderr).toContain('AUTHENTICATION_FAILED');
  });
});
