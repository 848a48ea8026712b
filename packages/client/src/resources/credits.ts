import type { CreditsResponse } from '@pgs/contract';
import type { RequestOptions } from '../core.ts';
import { APIResource } from './resource.ts';

/** The key's balance in its mode: `{ mode, balance, reserved }`. */
export type CreditBalance = CreditsResponse['data'];

/**
 * The credit balance of the calling key's account. `pgs.credits`.
 *
 * @example
 * const { mode, balance, reserved } = await pgs.credits.get();
 */
export class Credits extends APIResource {
  /**
   * Reads the balance in the key's own mode (live and test are separate): `balance`
   * is spendable now, `reserved` is held by projects still in progress (already
   * taken from the balance).
   *
   * @example
   * const { balance } = await pgs.credits.get();
   * if (balance < 50) console.warn('low on credits');
   */
  async get(options: RequestOptions = {}): Promise<CreditBalance> {
    const { body } = await this.request<CreditsResponse>({
      ...options,
      method: 'GET',
      path: '/credits',
    });
    return body.data;
  }
}
