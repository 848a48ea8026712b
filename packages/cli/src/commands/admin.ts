import type { LedgerAuditMovement, LedgerDrift } from '@pgs/client';
import type { Command } from '../context.ts';
import { LedgerDriftError } from '../errors.ts';
import { table } from '../output.ts';
import { ADMIN_OPTIONS, expectPositionals } from './common.ts';

const AUDIT = 'admin audit';

const DRIFT_COLUMNS: readonly [string, (d: LedgerDrift) => string][] = [
  ['ACCOUNT', (d) => d.accountId],
  ['MODE', (d) => d.mode],
  ['BALANCE', (d) => String(d.balance)],
  ['LEDGER', (d) => String(d.expectedBalance)],
  ['RESERVED', (d) => String(d.reserved)],
  ['OPEN RESERVATIONS', (d) => String(d.expectedReserved)],
];

const MOVEMENT_COLUMNS: readonly [string, (m: LedgerAuditMovement) => string][] = [
  ['  SOURCE', (m) => `  ${m.source}`],
  ['WHAT', (m) => (m.source === 'ledger' ? m.kind : m.status)],
  [
    'CREDITS',
    (m) =>
      m.source === 'ledger'
        ? String(m.amount)
        : `reserved ${m.creditsReserved}, charged ${m.creditsConsumed ?? '-'}`,
  ],
  ['AT', (m) => m.createdAt.replace(/\.\d{3}Z$/, 'Z')],
  ['KEY OR PROJECT', (m) => (m.source === 'ledger' ? m.movementKey : m.projectId)],
];

/**
 * `pgs admin audit`: every account's balances and reservations against the credit ledger;
 * exits 13 when anything drifts.
 *
 * @example
 * pgs admin audit --json
 */
export const adminAudit: Command = {
  name: AUDIT,
  summary: 'Check every balance and reservation against the credit ledger',
  usage: 'pgs admin audit [--json]',
  credential: 'admin',
  help: `Checks, for every account in both modes and in one snapshot, that the balance equals
the sum of the ledger, that what projects in progress hold equals the reservations the
ledger leaves open, and that each project's movements match it (docs/api.md, "Auditing the
ledger"). Prints each account and mode that drifts with the problems found and the ledger
rows and projects behind them, and exits 13; exits 0 when nothing drifts.

With --json, prints the audit as one line: {"ok","checkedAt","accounts","drift":[...]}.`,
  options: { ...ADMIN_OPTIONS },
  async run(ctx) {
    expectPositionals(ctx.positionals, 0, AUDIT);
    const admin = await ctx.admin();
    const audit = await admin.ledger.audit({ signal: ctx.io.signal });
    if (ctx.json) {
      ctx.print(JSON.stringify(audit));
    } else {
      const pairs = `${audit.accounts} account ${audit.accounts === 1 ? 'mode' : 'modes'}`;
      const tty = ctx.io.stdout.isTTY === true;
      if (audit.ok) {
        ctx.print(`Ledger audit at ${audit.checkedAt}: ${pairs} checked, no drift.`);
      } else {
        ctx.print(
          `Ledger audit at ${audit.checkedAt}: ${pairs} checked, ${audit.drift.length} drifting.`,
        );
        for (const drift of audit.drift) {
          ctx.print('');
          for (const line of table(DRIFT_COLUMNS, [drift], tty)) ctx.print(line);
          for (const problem of drift.problems) ctx.print(`  - ${problem}`);
          for (const line of table(MOVEMENT_COLUMNS, drift.movements, tty)) ctx.print(line);
        }
      }
    }
    if (!audit.ok) throw new LedgerDriftError(audit.drift.length);
  },
};
