import { grantCredits } from '../credits/ledger.ts';
import { newAccountId, newKeyId } from '../ids.ts';
import type { Db } from '../storage/db.ts';
import {
  type AccountRow,
  type ApiKeyRow,
  countAccounts,
  findAccount,
  findApiKeyByHash,
  insertAccount,
  insertApiKey,
  listApiKeys,
  listBalances,
  type Mode,
  revokeApiKey,
} from '../storage/sql/accounts.ts';
import { generateApiKey, hashApiKey, keyPrefix, parseApiKey, sameHash } from './api-keys.ts';

/** Who made an authenticated request. */
export interface Principal {
  keyId: string;
  accountId: string;
  mode: Mode;
}

export type AuthIssue = 'missing' | 'malformed' | 'invalid_key' | 'revoked';
export type AuthResult = { ok: true; principal: Principal } | { ok: false; issue: AuthIssue };

export interface CreatedKey {
  key: string;
  keyId: string;
  accountId: string;
  mode: Mode;
  createdAt: string;
  creditsGranted?: number;
}

export interface AccountView {
  accountId: string;
  name: string | null;
  createdAt: string;
  balances: { live: number; test: number };
  keys: KeyView[];
}

export interface KeyView {
  keyId: string;
  accountId: string;
  mode: Mode;
  prefix: string;
  name: string | null;
  createdAt: string;
  revokedAt: string | null;
}

export class AccountNotFoundError extends Error {
  override name = 'AccountNotFoundError';
}

const keyView = (row: ApiKeyRow): KeyView => ({
  keyId: row.id,
  accountId: row.accountId,
  mode: row.mode,
  prefix: row.prefix,
  name: row.name,
  createdAt: row.createdAt.toISOString(),
  revokedAt: row.revokedAt?.toISOString() ?? null,
});

/**
 * Accounts, their API keys and credit grants.
 *
 * @example
 * const accounts = new Accounts(database.db);
 * const { key } = await accounts.createKey({ mode: 'test', credits: 100 });
 */
export class Accounts {
  readonly #db: Db;

  constructor(db: Db) {
    this.#db = db;
  }

  /** Resolves the secret sent as a bearer token. */
  async authenticate(key: string): Promise<AuthResult> {
    if (parseApiKey(key) === undefined) return { ok: false, issue: 'malformed' };
    const hash = hashApiKey(key);
    const row = await findApiKeyByHash(this.#db, hash);
    if (row === undefined || !sameHash(row.keyHash, hash))
      return { ok: false, issue: 'invalid_key' };
    if (row.revokedAt !== null) return { ok: false, issue: 'revoked' };
    return { ok: true, principal: { keyId: row.id, accountId: row.accountId, mode: row.mode } };
  }

  async createAccount(input: { name?: string | null } = {}): Promise<AccountView> {
    const row = await insertAccount(this.#db, { id: newAccountId(), name: input.name ?? null });
    return this.#view(row);
  }

  async getAccount(accountId: string): Promise<AccountView | undefined> {
    const row = await findAccount(this.#db, accountId);
    return row && this.#view(row);
  }

  /** Creates a key (and an account unless `accountId` is given); the secret is returned only here. */
  async createKey(input: {
    mode: Mode;
    accountId?: string | undefined;
    credits?: number | undefined;
    name?: string | undefined;
  }): Promise<CreatedKey> {
    const key = generateApiKey(input.mode);
    return this.#db.transaction(async (tx) => {
      let accountId = input.accountId;
      if (accountId === undefined) {
        accountId = (await insertAccount(tx, { id: newAccountId(), name: null })).id;
      } else if ((await findAccount(tx, accountId)) === undefined) {
        throw new AccountNotFoundError(accountId);
      }
      const row = await insertApiKey(tx, {
        id: newKeyId(),
        accountId,
        mode: input.mode,
        keyHash: hashApiKey(key),
        prefix: keyPrefix(key),
        name: input.name ?? null,
      });
      const created: CreatedKey = {
        key,
        keyId: row.id,
        accountId,
        mode: input.mode,
        createdAt: row.createdAt.toISOString(),
      };
      if (input.credits !== undefined && input.credits > 0) {
        await grantCredits(tx, { accountId, mode: input.mode, amount: input.credits });
        created.creditsGranted = input.credits;
      }
      return created;
    });
  }

  async revokeKey(keyId: string): Promise<KeyView | undefined> {
    const row = await revokeApiKey(this.#db, keyId, new Date());
    return row && keyView(row);
  }

  async grantCredits(input: { accountId: string; mode: Mode; amount: number }): Promise<number> {
    return this.#db.transaction(async (tx) => {
      if ((await findAccount(tx, input.accountId)) === undefined) {
        throw new AccountNotFoundError(input.accountId);
      }
      return grantCredits(tx, input);
    });
  }

  async isEmpty(): Promise<boolean> {
    return (await countAccounts(this.#db)) === 0;
  }

  async #view(row: AccountRow): Promise<AccountView> {
    const [balances, keys] = await Promise.all([
      listBalances(this.#db, row.id),
      listApiKeys(this.#db, row.id),
    ]);
    return {
      accountId: row.id,
      name: row.name,
      createdAt: row.createdAt.toISOString(),
      balances: {
        live: balances.find((b) => b.mode === 'live')?.balance ?? 0,
        test: balances.find((b) => b.mode === 'test')?.balance ?? 0,
      },
      keys: keys.map(keyView),
    };
  }
}
