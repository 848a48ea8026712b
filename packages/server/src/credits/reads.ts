/**
 * What the edge reads of the ledger: a key's balance, and the operator's audit. A service
 * over the database, so the routes and the MCP tools never hold the database themselves.
 */
import type { Db } from '../storage/db.ts';
import type { Mode } from '../storage/sql/accounts.ts';
import { type AuditReport, auditLedger } from './audit.ts';
import { creditSummary } from './ledger.ts';

/**
 * Balances and the ledger's audit.
 *
 * @example
 * const credits = new CreditReads(database.db);
 * const { balance, reserved } = await credits.summary(accountId, 'test');
 */
export class CreditReads {
  readonly #db: Db;

  constructor(db: Db) {
    this.#db = db;
  }

  /** The spendable balance of an account in a mode, and what running projects hold in reserve. */
  summary(accountId: string, mode: Mode): Promise<{ balance: number; reserved: number }> {
    return creditSummary(this.#db, accountId, mode);
  }

  /** Every account's balances and reservations checked against the ledger (`GET /admin/v1/audit`). */
  audit(): Promise<AuditReport> {
    return auditLedger(this.#db);
  }
}
