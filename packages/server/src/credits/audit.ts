import type { components } from '@pgs/contract';
import type { Db, Tx } from '../storage/db.ts';
import type { Mode } from '../storage/sql/accounts.ts';
import {
  type AuditProjectRow,
  type LedgerMovementRow,
  type ProjectMismatchRow,
  readAuditTotals,
  readPairMovements,
  readPairProjects,
  readProjectMismatches,
} from '../storage/sql/audit.ts';

/** At most this many ledger rows are reported per drifting account and mode. */
export const MAX_AUDIT_MOVEMENTS = 200;

// The report's shape is the contract's (`GET /admin/v1/audit`), so it cannot drift from it.
/**
 * One thing behind a drift: a ledger row (a revision's have `:r<n>:` in their key), or a
 * project (in progress, being revised, or with a run that disagrees).
 */
export type AuditMovement = components['schemas']['AdminAuditMovement'];

/** An account and mode whose stored figures disagree with its ledger. */
export type AuditDrift = components['schemas']['AdminAuditDrift'];

/** What `GET /admin/v1/audit` answers in `data`. */
export type AuditReport = components['schemas']['AdminAuditResponse']['data'];

const pairKey = (accountId: string, mode: Mode) => `${accountId} ${mode}`;

/** `project <id>` for the creation (revision 1), `project <id> revision <n>` for a revision. */
const runName = (row: { projectId: string; revision: number }) =>
  row.revision > 1
    ? `project ${row.projectId} revision ${row.revision}`
    : `project ${row.projectId}`;

function projectProblem(row: ProjectMismatchRow): string {
  const id = runName(row);
  if (row.status === null) {
    return row.settled
      ? `${id} (deleted): its movements sum to ${row.ledgerNet}, outside 0…-${row.ledgerReserved}`
      : `${id} (deleted) still holds a reservation of ${row.ledgerReserved} in the ledger`;
  }
  if (row.status === 'in_progress') {
    return row.settled
      ? `${id} is in progress but its reservation was settled in the ledger`
      : `${id} is in progress with ${row.creditsReserved} reserved, the ledger reserved ${row.ledgerReserved}`;
  }
  if (!row.settled) return `${id} is ${row.status} but its reservation was never settled`;
  return (
    `${id} is ${row.status} (reserved ${row.creditsReserved}, charged ${row.creditsConsumed ?? 0}); ` +
    `its movements reserved ${row.ledgerReserved} and sum to ${row.ledgerNet}`
  );
}

const ledgerMovement = (row: LedgerMovementRow): AuditMovement => ({
  source: 'ledger',
  id: row.id,
  kind: row.kind,
  amount: row.amount,
  projectId: row.projectId,
  movementKey: row.movementKey,
  createdAt: row.createdAt.toISOString(),
});

const projectMovement = (row: AuditProjectRow): AuditMovement => ({
  source: 'project',
  projectId: row.projectId,
  status: row.status,
  creditsReserved: row.creditsReserved,
  creditsConsumed: row.creditsConsumed,
  createdAt: row.createdAt.toISOString(),
});

/**
 * Checks, for every account and mode, that the stored balance equals the sum of the ledger,
 * that what projects and revisions in progress hold equals the reservations the ledger
 * leaves open, and that each run's movements match its row, a run being a project's creation
 * (revision 1) or one of its revisions (docs/api.md, "Auditing the ledger"). All in one
 * read-only snapshot, so projects moving meanwhile cannot show as drift.
 *
 * @example
 * const report = await auditLedger(database.db);
 * if (!report.ok) console.log(report.drift[0]?.problems);
 */
export async function auditLedger(
  db: Db,
  now: () => Date = () => new Date(),
): Promise<AuditReport> {
  return db.transaction(
    async (tx) => {
      const totals = await readAuditTotals(tx);
      const mismatches = await readProjectMismatches(tx);
      const byPair = new Map<string, ProjectMismatchRow[]>();
      for (const row of mismatches) {
        const key = pairKey(row.accountId, row.mode);
        byPair.set(key, [...(byPair.get(key) ?? []), row]);
      }
      const drift: AuditDrift[] = [];
      for (const pair of totals) {
        const projects = byPair.get(pairKey(pair.accountId, pair.mode)) ?? [];
        const balanceDrifts = pair.balance !== pair.expectedBalance;
        const reservedDrifts = pair.reserved !== pair.expectedReserved;
        if (!balanceDrifts && !reservedDrifts && projects.length === 0) continue;
        const problems = [
          ...(balanceDrifts
            ? [`balance is ${pair.balance}; the ledger sums to ${pair.expectedBalance}`]
            : []),
          ...(reservedDrifts
            ? [
                `projects and revisions in progress hold ${pair.reserved}; the ledger has ${pair.expectedReserved} reserved`,
              ]
            : []),
          ...projects.map(projectProblem),
        ];
        drift.push({
          ...pair,
          problems,
          movements: await movementsBehind(tx, pair, projects, balanceDrifts),
        });
      }
      return {
        ok: drift.length === 0,
        checkedAt: now().toISOString(),
        accounts: totals.length,
        drift,
      };
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
}

/**
 * The projects in progress or being revised and those with a run that disagrees, then their
 * ledger rows (every run's); when the balance itself disagrees, the pair's newest other rows
 * too (any of them may be wrong).
 */
async function movementsBehind(
  tx: Tx,
  pair: { accountId: string; mode: Mode },
  mismatched: ProjectMismatchRow[],
  balanceDrifts: boolean,
): Promise<AuditMovement[]> {
  const named = [...new Set(mismatched.map((row) => row.projectId))];
  const projects = await readPairProjects(tx, pair.accountId, pair.mode, named);
  const ledger = await readPairMovements(tx, pair.accountId, pair.mode, {
    projectIds: [...new Set([...named, ...projects.map((p) => p.projectId)])],
    everything: balanceDrifts,
    limit: MAX_AUDIT_MOVEMENTS,
  });
  return [...projects.map(projectMovement), ...ledger.map(ledgerMovement)];
}
