import type {
  AdminKey,
  AdminKeyCreatedResponse,
  AdminKeyRevokedResponse,
  Mode,
} from '@pgs/contract';
import type { RequestOptions } from '../../core.ts';
import { APIResource, segment } from '../resource.ts';

/** Body of `keys.create`. */
export interface AdminCreateKeyParams {
  /** `test` or `live`: live and test keys see separate projects and credits. */
  mode: Mode;
  /** An existing account; a new account is created when absent. */
  accountId?: string | undefined;
  /** Credits to grant in the key's mode. */
  credits?: number | undefined;
  /** A label for the key. */
  name?: string | undefined;
}

/** A new key with its secret: `{ key, keyId, accountId, mode, createdAt, creditsGranted? }`. */
export type AdminKeyCreated = AdminKeyCreatedResponse['data'];

/**
 * API keys, through the admin API. `admin.keys`.
 *
 * @example
 * const { key } = await admin.keys.create({ mode: 'test', credits: 50 });
 */
export class AdminKeys extends APIResource {
  /**
   * Creates an API key. The secret (`key`) is returned only here: store it now.
   *
   * @example
   * const created = await admin.keys.create({ mode: 'test', accountId: 'acct_…', credits: 100, name: 'ci' });
   */
  async create(
    params: AdminCreateKeyParams,
    options: RequestOptions = {},
  ): Promise<AdminKeyCreated> {
    const { body } = await this.request<AdminKeyCreatedResponse>({
      ...options,
      method: 'POST',
      path: '/keys',
      body: {
        mode: params.mode,
        accountId: params.accountId,
        credits: params.credits,
        name: params.name,
      },
    });
    return body.data;
  }

  /**
   * Revokes a key; it stops working on its next request. Revoking twice is not an error.
   *
   * @example
   * const { revokedAt } = await admin.keys.revoke('key_01JD6WQ8V4Z9K3M2N5P7R8S0TA');
   */
  async revoke(keyId: string, options: RequestOptions = {}): Promise<AdminKey> {
    const { body } = await this.request<AdminKeyRevokedResponse>({
      ...options,
      method: 'DELETE',
      path: `/keys/${segment('keyId', keyId)}`,
    });
    return body.data;
  }
}
