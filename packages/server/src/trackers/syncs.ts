/**
 * Pushes of a project to a tracker as a resource (docs/trackers.md, "Pushing a project"):
 * `POST …/syncs` records a sync and enqueues its job in one transaction; a worker runs it
 * with the engine (`sync.ts`) and records what it did per item. A worker that dies mid-sync
 * leaves the job to be retried; the links written so far and the search by marker make the
 * retry create nothing twice. Each claim of a sync gives its attempt a token, and every write
 * of the sync (its links, its end) is made only while that token holds it: an earlier
 * attempt still alive when a retry took over is refused, and stops.
 */
import type { components } from '@pgs/contract';
import { DomainError } from '../errors.ts';
import { newUlid } from '../ids.ts';
import type { Db, Tx } from '../storage/db.ts';
import type { Mode } from '../storage/sql/accounts.ts';
import { findProject, listDocuments } from '../storage/sql/projects.ts';
import { findTaskProject } from '../storage/sql/tasks.ts';
import {
  claimSync,
  findSync,
  finishSync,
  holdsSync,
  insertSync,
  listSyncLinks,
  listSyncs,
  type ProjectSyncRow,
  saveSyncLink,
} from '../storage/sql/tracker-syncs.ts';
import { findOwnedTrackerConnection } from '../storage/sql/trackers.ts';
import type { Tasks } from '../tasks/service.ts';
import { readSpec, type SyncScope } from './drafts.ts';
import type { TrackerClient, TrackerProvider } from './providers/provider.ts';
import { DEFAULT_RETRY_POLICY, type RetryPolicy, realSleep, type Sleep } from './retry.ts';
import {
  type ItemLink,
  type LinkStore,
  runSync,
  type SyncItem,
  SyncRecoveryError,
  SyncSuperseded,
} from './sync.ts';

/** A sync as the API answers it (the contract's `ProjectSync`). */
export type SyncView = components['schemas']['ProjectSync'];
export type CreateSyncRequest = components['schemas']['CreateSyncRequest'];

/** Who asks: an API key of an account in one mode. */
export interface SyncCaller {
  keyId: string;
  accountId: string;
  mode: Mode;
}

/** Puts a sync's job on the queue, inside the transaction that records the sync. */
export interface SyncDispatcher {
  enqueueSync(tx: Tx, syncId: string): Promise<void>;
}

/** Opens a connection's tracker client for its owner (trackers/connections.ts's openConnection). */
export type OpenTracker = (owner: {
  accountId: string;
  mode: Mode;
  connectionId: string;
}) => Promise<{ connection: { id: string; provider: TrackerProvider }; client: TrackerClient }>;

/** One attempt at a sync's job. */
export interface SyncJob {
  syncId: string;
  /** No retry follows this attempt if it throws: the sync is recorded failed. */
  lastAttempt: boolean;
  signal: AbortSignal;
}

/** The most syncs a list answers (the newest). */
export const SYNC_LIST_LIMIT = 50;

/** What the worker's side needs besides the database. */
export interface SyncWorkerOptions {
  open: OpenTracker;
  /** The project's page for people (`PGS_PUBLIC_URL`'s console), none when not configured. */
  projectUrl?: (projectId: string) => string | undefined;
  sleep?: Sleep;
  policy?: RetryPolicy;
  now?: () => number;
}

/** The view of a stored sync. */
export function syncView(row: ProjectSyncRow): SyncView {
  return {
    id: row.id,
    projectId: row.projectId,
    connectionId: row.connectionId,
    status: row.status,
    scope: row.scope,
    dryRun: row.dryRun,
    items: row.items as SyncItem[],
    // Only an ended sync has an error; the attempt's token (tracker-syncs.ts) is never shown.
    error: row.status === 'succeeded' || row.status === 'failed' ? (row.error ?? null) : null,
    createdAt: row.createdAt.toISOString(),
    startedAt: row.startedAt?.toISOString() ?? null,
    finishedAt: row.finishedAt?.toISOString() ?? null,
  };
}

const notFound = (type: string, id: string, message: string) =>
  new DomainError('RESOURCE_NOT_FOUND', message, { resource_type: type, resource_id: id });

/**
 * The sync resource: create (check, record, enqueue), read, list, and run a job.
 *
 * @example
 * const syncs = new ProjectSyncs(db, tasks, queue, { open });
 * const sync = await syncs.create(caller, projectId, { connectionId, scope: 'tasks' });
 */
export class ProjectSyncs {
  readonly #db: Db;
  readonly #tasks: Tasks;
  readonly #dispatcher: SyncDispatcher | undefined;
  readonly #worker: SyncWorkerOptions | undefined;
  readonly #now: () => number;

  constructor(
    db: Db,
    tasks: Tasks,
    dispatcher: SyncDispatcher | undefined,
    worker?: SyncWorkerOptions,
  ) {
    this.#db = db;
    this.#tasks = tasks;
    this.#dispatcher = dispatcher;
    this.#worker = worker;
    this.#now = worker?.now ?? Date.now;
  }

  /**
   * Records a sync and enqueues it. The project must be the caller's and completed (the
   * task routes' 404 and 409) and the connection the caller's (404 otherwise).
   */
  async create(
    caller: SyncCaller,
    projectId: string,
    request: CreateSyncRequest,
    options: { withinTransaction?: (tx: Tx, sync: SyncView) => Promise<void> } = {},
  ): Promise<SyncView> {
    // Refuses as the task routes refuse, and brings the tasks up to the current revision.
    await this.#tasks.list(caller, projectId);
    const id = projectId.toLowerCase();
    return this.#db.transaction(async (tx) => {
      const connection = await findOwnedTrackerConnection(
        tx,
        request.connectionId,
        caller.accountId,
        caller.mode,
      );
      if (connection === undefined) {
        throw notFound(
          'connection',
          request.connectionId,
          'No connection with this identifier exists.',
        );
      }
      const dispatcher = this.#dispatcher;
      if (dispatcher === undefined) throw new Error('no queue to run syncs on');
      const row = await insertSync(tx, {
        id: `sync_${newUlid()}`,
        projectId: id,
        connectionId: connection.id,
        scope: request.scope,
        dryRun: request.dryRun ?? false,
        status: 'queued',
        createdAt: new Date(this.#now()),
      });
      await dispatcher.enqueueSync(tx, row.id);
      const view = syncView(row);
      await options.withinTransaction?.(tx, view);
      return view;
    });
  }

  /** One sync of the caller's project; 404 for another's project or an unknown sync. */
  async get(caller: SyncCaller, projectId: string, syncId: string): Promise<SyncView> {
    return this.#db.transaction(async (tx) => {
      const id = await this.#project(tx, caller, projectId);
      const row = await findSync(tx, id, syncId);
      if (row === undefined)
        throw notFound('sync', syncId, 'The project has no sync with this identifier.');
      return syncView(row);
    });
  }

  /** The project's syncs, newest first, at most {@link SYNC_LIST_LIMIT}. */
  async list(caller: SyncCaller, projectId: string): Promise<SyncView[]> {
    return this.#db.transaction(async (tx) => {
      const id = await this.#project(tx, caller, projectId);
      return (await listSyncs(tx, id, SYNC_LIST_LIMIT)).map(syncView);
    });
  }

  async #project(tx: Tx, caller: SyncCaller, projectId: string): Promise<string> {
    const id = projectId.toLowerCase();
    if ((await findTaskProject(tx, id, caller)) === undefined) {
      throw notFound('project', projectId, 'No project with this identifier exists.');
    }
    return id;
  }

  /**
   * Runs one attempt of a sync's job. Throws to have it retried: while another sync of the
   * same project and connection runs, and when the attempt was aborted (shutdown). On the
   * last attempt an unexpected failure is recorded on the sync instead.
   */
  async run(job: SyncJob): Promise<void> {
    const worker = this.#worker;
    if (worker === undefined) throw new Error('this process runs no syncs');
    const attempt = `att_${newUlid()}`;
    const claimed = await this.#db.transaction((tx) =>
      claimSync(tx, job.syncId, new Date(this.#now()), attempt),
    );
    if (claimed === 'ended') return;
    if (claimed === undefined) {
      // Never left queued for ever: the last attempt ends the sync, saying why.
      if (!job.lastAttempt)
        throw new Error('another sync of this project and connection is running');
      await this.#end(job.syncId, null, 'failed', [], {
        code: 'SYNC_BUSY',
        message:
          'Another sync of this project to this connection ran for all of its retries; run it again.',
      });
      return;
    }
    try {
      await this.#run(claimed, attempt, worker, job.signal);
    } catch (error) {
      // Another attempt took the sync over: it writes from now on, this one stops quietly.
      if (error instanceof SyncSuperseded) return;
      if (job.signal.aborted || !job.lastAttempt) throw error;
      await this.#end(claimed.id, attempt, 'failed', [], {
        code: 'INTERNAL_ERROR',
        message: 'The sync failed unexpectedly; run it again.',
      });
    }
  }

  async #run(
    sync: ProjectSyncRow,
    attempt: string,
    worker: SyncWorkerOptions,
    signal: AbortSignal,
  ) {
    const project = await findProject(this.#db, sync.projectId);
    if (project === undefined) return;
    const owner = { accountId: project.accountId, mode: project.mode };
    const tasks = await this.#tasks.list({ keyId: '', ...owner }, sync.projectId);
    const documents = await listDocuments(this.#db, sync.projectId, project.currentRevision);
    let client: TrackerClient;
    try {
      ({ client } = await worker.open({ ...owner, connectionId: sync.connectionId }));
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      return this.#end(sync.id, attempt, 'failed', [], {
        code: error.code,
        message: error.message,
      });
    }
    try {
      const outcome = await runSync({
        projectId: sync.projectId,
        revision: project.currentRevision,
        scope: sync.scope as SyncScope,
        dryRun: sync.dryRun,
        tasks,
        spec: readSpec(documents),
        projectUrl: worker.projectUrl?.(sync.projectId),
        client,
        links: this.#links(sync, attempt),
        sleep: worker.sleep ?? realSleep,
        signal,
        policy: worker.policy ?? DEFAULT_RETRY_POLICY,
      });
      await this.#end(sync.id, attempt, outcome.status, outcome.items, null);
    } catch (error) {
      if (!(error instanceof SyncRecoveryError)) throw error;
      await this.#end(sync.id, attempt, 'failed', [], {
        code: 'TRACKER_UNAVAILABLE',
        message: error.message,
      });
    }
  }

  /** Ends the sync, if `attempt` still holds it (`null`: no attempt claimed it). */
  async #end(
    syncId: string,
    attempt: string | null,
    status: 'succeeded' | 'failed',
    items: SyncItem[],
    error: { code: string; message: string } | null,
  ): Promise<void> {
    await this.#db.transaction((tx) =>
      finishSync(tx, syncId, attempt, {
        status,
        items,
        error,
        finishedAt: new Date(this.#now()),
      }),
    );
  }

  /** The sync's links, every write of them refused once `attempt` no longer holds the sync. */
  #links(sync: ProjectSyncRow, attempt: string): LinkStore {
    const db = this.#db;
    const { id: syncId, connectionId, projectId } = sync;
    const held = async (tx: Tx) => {
      if (!(await holdsSync(tx, syncId, attempt))) throw new SyncSuperseded(syncId);
    };
    return {
      check: () => db.transaction(held),
      list: async () =>
        (await listSyncLinks(db, connectionId, projectId)).map(
          (row): ItemLink => ({
            itemId: row.itemId,
            externalId: row.externalId,
            key: row.externalKey,
            url: row.url,
            digest: row.digest,
            state: row.state,
            externalUpdatedAt: row.externalUpdatedAt,
          }),
        ),
      save: (link) =>
        db.transaction(async (tx) => {
          await held(tx);
          await saveSyncLink(tx, {
            connectionId,
            projectId,
            itemId: link.itemId,
            externalId: link.externalId,
            externalKey: link.key,
            url: link.url,
            digest: link.digest,
            state: link.state,
            externalUpdatedAt: link.externalUpdatedAt,
            updatedAt: new Date(this.#now()),
          });
        }),
    };
  }
}
