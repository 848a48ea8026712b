/**
 * An account's webhook endpoints and their delivery log, as the routes ask for them: the
 * endpoint limit is held here, under a lock per account and mode, so two creations at once
 * cannot both pass it.
 */
import { ApiError } from '../errors.ts';
import { newUlid } from '../ids.ts';
import type { Db, Tx } from '../storage/db.ts';
import type { Mode } from '../storage/sql/accounts.ts';
import {
  countWebhookEndpoints,
  deleteOwnedWebhookEndpoint,
  findOwnedWebhookEndpoint,
  insertWebhookEndpoint,
  listWebhookDeliveries,
  listWebhookEndpoints,
  lockWebhookOwner,
  type WebhookEndpointRow,
} from '../storage/sql/webhooks.ts';

/** Webhook endpoints one account may have in one mode. */
export const MAX_WEBHOOK_ENDPOINTS = 10;

/** Whose endpoints: one account in one mode. */
export interface EndpointOwner {
  accountId: string;
  mode: Mode;
}

/**
 * Creates, lists and deletes an owner's endpoints, and reads their deliveries.
 *
 * @example
 * const endpoints = new WebhookEndpoints(database.db);
 * const row = await endpoints.create(owner, { url, events, secret }, async () => {});
 * const deliveries = await endpoints.deliveries(owner, row.id, 50); // undefined: not theirs
 */
export class WebhookEndpoints {
  readonly #db: Db;

  constructor(db: Db) {
    this.#db = db;
  }

  /**
   * Creates an endpoint unless the owner has {@link MAX_WEBHOOK_ENDPOINTS} already (400
   * VALIDATION_ERROR); `withinTransaction` runs in the creating transaction (e.g. to
   * remember an idempotent response).
   */
  create(
    owner: EndpointOwner,
    endpoint: { url: string; events: string[]; secret: string },
    withinTransaction: (tx: Tx, row: WebhookEndpointRow) => Promise<void>,
  ): Promise<WebhookEndpointRow> {
    const { accountId, mode } = owner;
    return this.#db.transaction(async (tx) => {
      await lockWebhookOwner(tx, accountId, mode);
      if ((await countWebhookEndpoints(tx, accountId, mode)) >= MAX_WEBHOOK_ENDPOINTS) {
        throw new ApiError(
          'VALIDATION_ERROR',
          `At most ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints per account and mode; delete one first.`,
          { details: { limit: MAX_WEBHOOK_ENDPOINTS } },
        );
      }
      const row = await insertWebhookEndpoint(tx, {
        id: `we_${newUlid()}`,
        accountId,
        mode,
        ...endpoint,
      });
      await withinTransaction(tx, row);
      return row;
    });
  }

  /** The owner's endpoints. */
  list(owner: EndpointOwner): Promise<WebhookEndpointRow[]> {
    return listWebhookEndpoints(this.#db, owner.accountId, owner.mode);
  }

  /** Deletes the owner's endpoint; false when they have none with this id. */
  delete(owner: EndpointOwner, endpointId: string): Promise<boolean> {
    return deleteOwnedWebhookEndpoint(this.#db, endpointId, owner.accountId, owner.mode);
  }

  /** The latest `limit` delivery attempts to the owner's endpoint; undefined when it is not theirs. */
  async deliveries(owner: EndpointOwner, endpointId: string, limit: number) {
    const endpoint = await findOwnedWebhookEndpoint(
      this.#db,
      endpointId,
      owner.accountId,
      owner.mode,
    );
    return endpoint === undefined ? undefined : listWebhookDeliveries(this.#db, endpoint.id, limit);
  }
}
