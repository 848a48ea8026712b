import type { AdminAccount, AdminAccountResponse } from '@pgs/contract';
import type { RequestOptions } from '../../core.ts';
import { APIResource, segment } from '../resource.ts';

/** Body of `accounts.create`. */
export interface AdminCreateAccountParams {
  /** A label for the account (1 to 200 characters). */
  name?: string | undefined;
}

/**
 * Accounts, through the admin API. `admin.accounts`.
 *
 * @example
 * const account = await admin.accounts.create({ name: 'Acme' });
 */
export class AdminAccounts extends APIResource {
  /**
   * Creates an account with zero balances and no keys.
   *
   * @example
   * const { accountId } = await admin.accounts.create({ name: 'Acme' });
   */
  async create(
    params: AdminCreateAccountParams = {},
    options: RequestOptions = {},
  ): Promise<AdminAccount> {
    const { body } = await this.request<AdminAccountResponse>({
      ...options,
      method: 'POST',
      path: '/accounts',
      body: { name: params.name },
    });
    return body.data;
  }

  /**
   * Reads an account with its balances per mode and its keys.
   *
   * @example
   * const { balances } = await admin.accounts.get('acct_01JD6WQ8V4Z9K3M2N5P7R8S0TA');
   */
  async get(accountId: string, options: RequestOptions = {}): Promise<AdminAccount> {
    const { body } = await this.request<AdminAccountResponse>({
      ...options,
      method: 'GET',
      path: `/accounts/${segment('accountId', accountId)}`,
    });
    return body.data;
  }
}
