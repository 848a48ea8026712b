import { adminBaseUrl, DEFAULT_SERVER_URL } from './base-url.ts';
import type { CommonClientOptions } from './client.ts';
import { createTransport } from './core.ts';
import { PgsError } from './errors.ts';
import { AdminAccounts } from './resources/admin/accounts.ts';
import { AdminCredits } from './resources/admin/credits.ts';
import { AdminKeys } from './resources/admin/keys.ts';
import { AdminLedger } from './resources/admin/ledger.ts';
import { readEnv } from './runtime.ts';

/** Options of {@link PgsAdmin}. */
export interface PgsAdminOptions extends CommonClientOptions {
  /** The operator token; default `PGS_ADMIN_TOKEN`. */
  adminToken?: string | undefined;
  /**
   * The server root; a `/api/v1` or `/admin/v1` base is stripped to it. Default
   * `PGS_BASE_URL`, else `http://127.0.0.1:3000`.
   */
  baseUrl?: string | undefined;
}

/**
 * The operator client of the admin API (`<root>/admin/v1`): accounts, API keys, credits and
 * the ledger audit.
 *
 * @example
 * const admin = new PgsAdmin({ adminToken: process.env.PGS_ADMIN_TOKEN });
 * const { key } = await admin.keys.create({ mode: 'test', credits: 50 });
 */
export class PgsAdmin {
  /** The admin base every path is appended to, e.g. `http://127.0.0.1:3000/admin/v1`. */
  readonly baseUrl: string;
  readonly accounts: AdminAccounts;
  readonly keys: AdminKeys;
  readonly credits: AdminCredits;
  /** The ledger audit: `admin.ledger.audit()`. */
  readonly ledger: AdminLedger;

  constructor({
    adminToken = readEnv('PGS_ADMIN_TOKEN'),
    baseUrl = readEnv('PGS_BASE_URL') ?? DEFAULT_SERVER_URL,
    ...common
  }: PgsAdminOptions = {}) {
    if (!adminToken) {
      throw new PgsError(
        'Missing admin token: pass new PgsAdmin({ adminToken }) or set PGS_ADMIN_TOKEN.',
      );
    }
    this.baseUrl = adminBaseUrl(baseUrl);
    const request = createTransport({ ...common, baseUrl: this.baseUrl, token: adminToken });
    this.accounts = new AdminAccounts(request);
    this.keys = new AdminKeys(request);
    this.credits = new AdminCredits(request);
    this.ledger = new AdminLedger(request);
  }
}
