import { LRUCache } from 'lru-cache';
import { grantCredits } from '../credits/ledger.ts';
import { DomainError } from '../errors.ts';
import { newAccountId, newKeyId } from '../ids.ts';
import type { Database, Db } from '../storage/db.ts';
import { listen, notify } from '../storage/driver/notifications.ts';
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

/** Where revocations are announced to every process on the database. */
const REVOKED_CHANNEL = 'pgs_key_revoked';

export interface AccountsOptions {
  /**
   * How long a verified key is trusted without a database read. Revocations reach every
   * process at once (NOTIFY); the limit bounds the damage of a lost notification.
   */
  cacheTtlMs?: number;
  cacheSize?: number;
}

/**
 * No account has this identifier: RESOURCE_NOT_FOUND naming it.
 *
 * @example
 * throw new AccountNotFoundError('acc_01J…');
 */
export class AccountNotFoundError extends DomainError {
  override name = 'AccountNotFoundError';

  constructor(accountId: string) {
    super('RESOURCE_NOT_FOUND', 'No account with this identifier exists.', {
      resource_type: 'account',
      resource_id: accountId,
    });
  }
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
  /** Verified keys by hash: the status endpoint's hot path reads no database row. */
  readonly #verified: LRUCache<string, Principal>;

  constructor(db: Db, { cacheTtlMs = 60_000, cacheSize = 10_000 }: AccountsOptions = {}) {
    this.#db = db;
    this.#verified = new LRUCache({ max: cacheSize, ttl: cacheTtlMs });
  }

  /**
   * The principal of a key verified lately, read from memory with no promise: the hot path
   * of every authenticated request. Undefined means "ask {@link authenticate}" (only valid
   * keys are ever remembered, so a malformed one is never found here).
   *
   * @example
   * const principal = accounts.verified(token) ?? (await accounts.authenticate(token));
   */
  verified(key: string): Principal | undefined {
    return this.#verified.get(hashApiKey(key));
  }

  /** Resolves the secret sent as a bearer token. */
  async authenticate(key: string): Promise<AuthResult> {
    if (parseApiKey(key) === undefined) return { ok: false, issue: 'malformed' };
    const hash = hashApiKey(key);
    const cached = this.#verified.get(hash);
    if (cached !== undefined) return { ok: true, principal: cached };
    const row = await findApiKeyByHash(this.#db, hash);
    if (row === undefined || !sameHash(row.keyHash, hash)) {
      return { ok: false, issue: 'invalid_key' };
    }
    if (row.revokedAt !== null) return { ok: false, issue: 'revoked' };
    const principal: Principal = { keyId: row.id, accountId: row.accountId, mode: row.mode };
    this.#verified.set(hash, principal);
    return { ok: true, principal };
  }

  /**
   * Drops revoked keys from this process's cache as soon as any process revokes them.
   * Returns the function that stops listening.
   */
  async watchRevocations(database: Database): Promise<() => Promise<void>> {
    return listen(
      database,
      REVOKED_CHANNEL,
      (hash) => this.#verified.delete(hash),
      () => this.#verified.clear(),
    );
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

  /** Revokes a key; every process stops accepting it at once. */
  async revokeKey(keyId: string): Promise<KeyView | undefined> {
    const row = await this.#db.transaction(async (tx) => {
      const revoked = await revokeApiKey(tx, keyId, new Date());
      if (revoked) await notify(tx, REVOKED_CHANNEL, revoked.keyHash);
      return revoked;
    });
    if (row === undefined) return undefined;
    this.#verified.delete(row.keyHash);
    return keyView(row);
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
