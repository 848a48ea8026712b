import type { AdminGrantResponse, Mode } from '@pgs/contract';
import type { RequestOptions } from '../../core.ts';
import { APIResource } from '../resource.ts';

/** Body of `credits.grant`. */
export interface AdminGrantCreditsParams {
  accountId: string;
  mode: Mode;
  /** A positive integer. */
  amount: number;
}

/** A grant and the balance after it: `{ accountId, mode, amount, balance }`. */
export type AdminGrant = AdminGrantResponse['data'];

/**
 * Credits, through the admin API. `admin.credits`.
 *
 * @example
 * const { balance } = await admin.credits.grant({ accountId, mode: 'test', amount: 100 });
 */
export class AdminCredits extends APIResource {
  /**
   * Grants credits to an account in one mode.
   *
   * @example
   * const grant = await admin.credits.grant({ accountId: 'acct_…', mode: 'live', amount: 500 });
   */
  async grant(params: AdminGrantCreditsParams, options: RequestOptions = {}): Promise<AdminGrant> {
    const { body } = await this.request<AdminGrantResponse>({
      ...options,
      method: 'POST',
      path: '/credits/grants',
      body: { accountId: params.accountId, mode: params.mode, amount: params.amount },
    });
    return body.data;
  }
}
