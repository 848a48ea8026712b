/**
 * Tracker connections, per account and mode (docs/trackers.md): made only once the tracker
 * accepted the credentials and the target, kept with their secrets sealed (`sealed.ts`),
 * listed and read without them, deleted with their links. {@link openConnection} is how the
 * sync, the inbound webhook and the reconcile reach a connection's tracker.
 */
import { randomBytes } from 'node:crypto';
import { DomainError } from '../errors.ts';
import { newUlid } from '../ids.ts';
import type { Db, Tx } from '../storage/db.ts';
import type { Mode } from '../storage/sql/accounts.ts';
import {
  countTrackerConnections,
  deleteOwnedTrackerConnection,
  findOwnedTrackerConnection,
  findTrackerConnection,
  insertTrackerConnection,
  listTrackerConnections,
  lockTrackerOwner,
  type TrackerConnectionRow,
} from '../storage/sql/trackers.ts';
import { checkWebhookUrl, type Resolver } from '../webhooks/url-policy.ts';
import { guardedFetch } from './guarded-fetch.ts';
import { adapterFor } from './providers/index.ts';
import type {
  TrackerAdapter,
  TrackerClient,
  TrackerCredentials,
  TrackerProvider,
  TrackerTarget,
} from './providers/provider.ts';
import { TrackerRequestError } from './providers/provider.ts';
import { bounded, scrub } from './retry.ts';
import { scrubbedClient, secretsOf } from './scrubbed.ts';
import type { Sealer } from './sealed.ts';

/** Connections one account may have in one mode. */
export const MAX_CONNECTIONS = 20;
/** Time limit of one call to a tracker made on a request's behalf (the verification). */
export const TRACKER_TIMEOUT_MS = 15_000;

/** Whose connections: one account in one mode. */
export interface ConnectionOwner {
  accountId: string;
  mode: Mode;
}

/** What a user asks for: `POST /connections`'s body, its shape checked by the adapter. */
export interface CreateConnectionInput {
  provider: TrackerProvider;
  name?: string | undefined;
  baseUrl?: string | undefined;
  credentials: unknown;
  target: unknown;
}

/** A connection as it is shown: never its credentials nor its webhook secret. */
export interface ConnectionView {
  id: string;
  provider: TrackerProvider;
  name: string;
  baseUrl: string | null;
  target: Record<string, string>;
  reconciledAt: string | null;
  createdAt: string;
}

/** A connection made: the view, and the webhook secret (unsealed, shown this once). */
export interface CreatedConnection {
  connection: ConnectionView;
  webhookSecret: string;
  /** What to configure on the tracker for the inbound webhook. */
  webhookHelp: string;
}

/** An open connection: its row's view, its tracker's client and adapter. */
export interface OpenConnection {
  connection: ConnectionView & { accountId: string; mode: Mode };
  client: TrackerClient;
  adapter: TrackerAdapter;
}

/** Which addresses a connection's calls may reach (guarded-fetch.ts). */
export interface ConnectionNetwork {
  /** PGS_CONNECTIONS_ALLOW_PRIVATE: any address (redirects are still not followed). */
  allowPrivate: boolean;
  /** The resolver the guarded lookup checks (tests inject one; default the system's). */
  resolve?: Resolver;
}

/** What the connection service is built from. */
export interface ConnectionDeps {
  db: Db;
  sealer: Sealer;
  /** Default: public addresses only, through the system's resolver. */
  network?: ConnectionNetwork;
  /** The adapters by provider (tests may substitute); default the registry's. */
  adapters?: (provider: TrackerProvider) => TrackerAdapter | undefined;
}

/** The view of a row. */
export function connectionView(row: TrackerConnectionRow): ConnectionView {
  return {
    id: row.id,
    provider: row.provider,
    name: row.name,
    baseUrl: row.baseUrl,
    target: row.target,
    reconciledAt: row.reconciledAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

/** The contexts the secrets of a connection are sealed under (sealed.ts binds them in). */
export const sealContext = {
  credentials: (id: string) => `${id}:credentials`,
  webhookSecret: (id: string) => `${id}:webhook-secret`,
  /** The copy kept in an idempotent 201 to replay (never in plain text). */
  replaySecret: (id: string) => `${id}:webhook-secret-replay`,
};

const notFound = (id: string) =>
  new DomainError('RESOURCE_NOT_FOUND', 'No connection with this identifier exists.', {
    resource_type: 'connection',
    resource_id: id,
  });

function adapterOf(deps: ConnectionDeps, provider: TrackerProvider): TrackerAdapter {
  const adapter = (deps.adapters ?? adapterFor)(provider);
  if (adapter === undefined) {
    throw new DomainError('VALIDATION_ERROR', `This server has no ${provider} adapter.`, {
      invalid_fields: { provider: `${provider} is not available on this server` },
    });
  }
  return adapter;
}

/**
 * The caller's connection (404 when another account's, another mode's, or none), with its
 * credentials opened and its tracker's client ready.
 *
 * @example
 * const { client, connection } = await openConnection(deps, { accountId, mode, connectionId });
 * const issue = await client.get('12');
 */
export async function openConnection(
  deps: ConnectionDeps,
  { accountId, mode, connectionId }: ConnectionOwner & { connectionId: string },
): Promise<OpenConnection> {
  const row = await findOwnedTrackerConnection(deps.db, connectionId, accountId, mode);
  if (row === undefined) throw notFound(connectionId);
  return openRow(deps, row);
}

/** A connection's row opened: the client over its unsealed credentials. */
export async function openRow(
  deps: ConnectionDeps,
  row: TrackerConnectionRow,
): Promise<OpenConnection> {
  const adapter = adapterOf(deps, row.provider);
  const credentials = JSON.parse(
    await deps.sealer.open(row.credentials, sealContext.credentials(row.id)),
  ) as TrackerCredentials;
  // Scrubbed: the sync's items and the reconcile's log read these clients' reasons.
  const client = scrubbedClient(
    adapter.connect({
      baseUrl: row.baseUrl,
      credentials,
      target: row.target as TrackerTarget,
      timeoutMs: TRACKER_TIMEOUT_MS,
      // Checked again on every connection: the host's DNS may have changed since creation.
      fetch: guardedFetch(deps.network ?? { allowPrivate: false }),
    }),
    credentials,
  );
  return {
    connection: { ...connectionView(row), accountId: row.accountId, mode: row.mode },
    client,
    adapter,
  };
}

/** The connection with this id, whoever owns it, and its webhook secret unsealed. */
export async function connectionWithSecret(
  deps: ConnectionDeps,
  connectionId: string,
): Promise<{ row: TrackerConnectionRow; secret: string } | undefined> {
  const row = await findTrackerConnection(deps.db, connectionId);
  if (row === undefined) return undefined;
  const secret = await deps.sealer.open(row.webhookSecret, sealContext.webhookSecret(row.id));
  return { row, secret };
}

/**
 * A tracker's refusal or failure as the catalogue says it: TRACKER_REJECTED (422, the
 * provider's reason) for a wrong token or target, TRACKER_UNAVAILABLE (502) for what may
 * pass (rate limits, 5xx, the network).
 */
export function trackerFailure(
  provider: TrackerProvider,
  error: unknown,
  secrets: readonly string[],
): DomainError {
  if (error instanceof TrackerRequestError) {
    const reason = bounded(scrub(error.reason, secrets));
    const details = {
      provider,
      reason,
      ...(error.status === undefined ? {} : { provider_status: error.status }),
      ...(error.retryAfterMs === undefined
        ? {}
        : { retry_after: Math.ceil(error.retryAfterMs / 1000) }),
    };
    return error.retryable
      ? new DomainError('TRACKER_UNAVAILABLE', `${provider} did not answer: ${reason}`, details)
      : new DomainError('TRACKER_REJECTED', `${provider} refused: ${reason}`, details);
  }
  return new DomainError('TRACKER_UNAVAILABLE', `${provider} could not be reached.`, {
    provider,
    reason: 'the tracker could not be reached',
  });
}

/** The default name: what people call the target. */
function defaultName(target: Record<string, string>): string {
  if (target.owner !== undefined && target.repo !== undefined)
    return `${target.owner}/${target.repo}`;
  return target.team ?? target.projectKey ?? 'tracker';
}

/**
 * Creates, lists, reads and deletes an owner's connections.
 *
 * @example
 * const connections = new Connections({ db, sealer }, { allowPrivate: false });
 * const made = await connections.create(owner, input, async () => {});
 */
export class Connections {
  readonly #deps: ConnectionDeps;
  readonly #allowPrivate: boolean;
  readonly #resolve: Resolver | undefined;

  constructor(
    deps: ConnectionDeps,
    { allowPrivate, resolve }: { allowPrivate: boolean; resolve?: Resolver },
  ) {
    // The connections this service opens (the sync's, the reconcile's) obey its policy too.
    this.#deps = {
      ...deps,
      network: deps.network ?? { allowPrivate, ...(resolve ? { resolve } : {}) },
    };
    this.#allowPrivate = allowPrivate;
    this.#resolve = resolve;
  }

  /** The service's dependencies (for {@link openConnection}). */
  get deps(): ConnectionDeps {
    return this.#deps;
  }

  /**
   * Checks the input's shape and `baseUrl` against the address policy, verifies the
   * credentials and target with the tracker (outside any transaction), then stores the
   * connection sealed; `withinTransaction` runs in the creating transaction (e.g. to
   * remember an idempotent response).
   */
  async create(
    owner: ConnectionOwner,
    input: CreateConnectionInput,
    withinTransaction: (tx: Tx, made: CreatedConnection) => Promise<void>,
  ): Promise<CreatedConnection> {
    const adapter = adapterOf(this.#deps, input.provider);
    const invalid = adapter.validate(input.credentials, input.target, input.baseUrl ?? null);
    if (invalid !== undefined) {
      throw new DomainError('VALIDATION_ERROR', invalid, { invalid_fields: { body: invalid } });
    }
    const baseUrl = await this.#baseUrl(input.baseUrl);
    // Refused before the tracker is called: a server without a key makes no connection.
    await this.#deps.sealer.ring();
    const credentials = input.credentials as TrackerCredentials;
    const client = adapter.connect({
      baseUrl,
      credentials,
      target: input.target as TrackerTarget,
      timeoutMs: TRACKER_TIMEOUT_MS,
      // The address checked above is checked again at connection (no rebinding in between).
      fetch: guardedFetch(this.#deps.network ?? { allowPrivate: this.#allowPrivate }),
    });
    let target: Record<string, string>;
    try {
      target = await client.verify(AbortSignal.timeout(TRACKER_TIMEOUT_MS));
    } catch (error) {
      throw trackerFailure(input.provider, error, secretsOf(input.credentials));
    }
    const id = `tc_${newUlid()}`;
    const webhookSecret = randomBytes(24).toString('base64url');
    const sealed = {
      credentials: await this.#deps.sealer.seal(
        JSON.stringify(credentials),
        sealContext.credentials(id),
      ),
      webhookSecret: await this.#deps.sealer.seal(webhookSecret, sealContext.webhookSecret(id)),
    };
    const { accountId, mode } = owner;
    return this.#deps.db.transaction(async (tx) => {
      await lockTrackerOwner(tx, accountId, mode);
      if ((await countTrackerConnections(tx, accountId, mode)) >= MAX_CONNECTIONS) {
        throw new DomainError(
          'VALIDATION_ERROR',
          `At most ${MAX_CONNECTIONS} connections per account and mode; delete one first.`,
          { limit: MAX_CONNECTIONS },
        );
      }
      const row = await insertTrackerConnection(tx, {
        id,
        accountId,
        mode,
        provider: input.provider,
        name: input.name?.trim() || defaultName(target),
        baseUrl,
        target,
        ...sealed,
      });
      const made = {
        connection: connectionView(row),
        webhookSecret,
        webhookHelp: adapter.webhookHelp,
      };
      await withinTransaction(tx, made);
      return made;
    });
  }

  /**
   * The webhook secret sealed for an idempotency record: a replayed 201 shows it again, but
   * the stored body never holds it in plain text.
   */
  sealForReplay(connectionId: string, secret: string): Promise<string> {
    return this.#deps.sealer.seal(secret, sealContext.replaySecret(connectionId));
  }

  /** Opens what {@link sealForReplay} sealed. */
  openForReplay(connectionId: string, sealed: string): Promise<string> {
    return this.#deps.sealer.open(sealed, sealContext.replaySecret(connectionId));
  }

  /** The owner's connections, oldest first. */
  async list(owner: ConnectionOwner): Promise<ConnectionView[]> {
    const rows = await listTrackerConnections(this.#deps.db, owner.accountId, owner.mode);
    return rows.map(connectionView);
  }

  /** One of the owner's connections; 404 otherwise. */
  async get(owner: ConnectionOwner, connectionId: string): Promise<ConnectionView> {
    const row = await findOwnedTrackerConnection(
      this.#deps.db,
      connectionId,
      owner.accountId,
      owner.mode,
    );
    if (row === undefined) throw notFound(connectionId);
    return connectionView(row);
  }

  /** Deletes one of the owner's connections and its links; 404 when it is not theirs. */
  async delete(owner: ConnectionOwner, connectionId: string): Promise<void> {
    const deleted = await deleteOwnedTrackerConnection(
      this.#deps.db,
      connectionId,
      owner.accountId,
      owner.mode,
    );
    if (!deleted) throw notFound(connectionId);
  }

  /** The caller's connection opened (see {@link openConnection}). */
  open(owner: ConnectionOwner, connectionId: string): Promise<OpenConnection> {
    return openConnection(this.#deps, { ...owner, connectionId });
  }

  async #baseUrl(raw: string | undefined): Promise<string | null> {
    if (raw === undefined) return null;
    const verdict = await checkWebhookUrl(raw, {
      allowPrivate: this.#allowPrivate,
      ...(this.#resolve ? { resolve: this.#resolve } : {}),
    });
    if (!verdict.ok) {
      throw new DomainError('VALIDATION_ERROR', `baseUrl ${verdict.reason}.`, {
        invalid_fields: { baseUrl: verdict.reason },
      });
    }
    return verdict.url.href.replace(/\/+$/, '');
  }
}
