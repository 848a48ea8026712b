import type { components } from '@pgs/contract';
import type { RequestOptions } from '../../core.ts';
import { APIResource } from '../resource.ts';

type AuditResponse = components['schemas']['AdminAuditResponse'];

/** The audit: `{ ok, checkedAt, accounts, drift }`; `ok` is true exactly when `drift` is empty. */
export type LedgerAudit = AuditResponse['data'];
/** An account and mode whose balance or reservations disagree with the ledger. */
export type LedgerDrift = components['schemas']['AdminAuditDrift'];
/** A ledger row (`source: 'ledger'`) or a project (`source: 'project'`) behind a drift. */
export type LedgerAuditMovement = components['schemas']['AdminAuditMovement'];

/**
 * The credit ledger, through the admin API. `admin.ledger`.
 *
 * @example
 * const { ok, drift } = await admin.ledger.audit();
 */
export class AdminLedger extends APIResource {
  /**
   * Checks every account's balances and reservations against the ledger, in one snapshot;
   * a drift is an answer (`ok: false`), not an error.
   *
   * @example
   * const audit = await admin.ledger.audit();
   * for (const d of audit.drift) console.log(d.accountId, d.mode, d.problems.join('; '));
   */
  async audit(options: RequestOptions = {}): Promise<LedgerAudit> {
    const { body } = await this.request<AuditResponse>({
      ...options,
      method: 'GET',
      path: '/audit',
    });
    return body.data;
  }
}
