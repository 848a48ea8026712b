/**
 * The idempotency keys of an account (docs/api.md): a claim per key and mode, the response
 * to replay once the request succeeded, forgotten after a day. The HTTP side (headers,
 * hashing, replay) is api/idempotency.ts; this is what it keeps.
 */
import type { Db, Tx } from '../storage/db.ts';
import type { Mode } from '../storage/sql/accounts.ts';
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  releaseIdempotencyKey,
} from '../storage/sql/idempotency.ts';

/** One key of one account in one mode. */
export interface IdempotencyScope {
  accountId: string;
  mode: Mode;
  key: string;
}

/** A response to send and, for 2xx, to remember. */
export interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Stores the response to replay, inside the transaction that makes the request's effect,
 * so a crash can never leave the effect without the response that names it.
 */
export type Remember = (tx: Tx, response: StoredResponse) => Promise<void>;

/**
 * Claims, completes and releases idempotency keys.
 *
 * @example
 * const keys = new IdempotencyKeys(database.db);
 * const existing = await keys.claim({ ...scope, operation, requestHash, expiresAt, staleBefore });
 * if (existing === undefined) await keys.complete(scope, response);
 */
export class IdempotencyKeys {
  readonly #db: Db;

  constructor(db: Db) {
    this.#db = db;
  }

  /** Claims the key: undefined when this call did, else the live claim or answer already there. */
  claim(
    claim: IdempotencyScope & {
      operation: string;
      requestHash: string;
      expiresAt: Date;
      staleBefore: Date;
    },
  ) {
    return claimIdempotencyKey(this.#db, claim);
  }

  /** A {@link Remember} that stores the response under `scope` in the caller's transaction. */
  rememberIn(scope: IdempotencyScope): Remember {
    return (tx, response) => completeIdempotencyKey(tx, scope, response);
  }

  /** Stores the response to replay, outside any transaction of the request's. */
  complete(scope: IdempotencyScope, response: StoredResponse): Promise<void> {
    return completeIdempotencyKey(this.#db, scope, response);
  }

  /** Forgets a claim whose request failed, so a retry can run. */
  release(scope: IdempotencyScope): Promise<void> {
    return releaseIdempotencyKey(this.#db, scope);
  }
}
