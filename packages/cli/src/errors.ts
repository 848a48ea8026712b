import type { ProjectFailed } from '@pgs/client';

/**
 * A mistake in the command line: unknown command, bad flag or bad value (exit 2).
 *
 * @example
 * throw new UsageError('--mode must be test or live', 'pgs keys create --help');
 */
export class UsageError extends Error {
  override name = 'UsageError';
  /** The command whose `--help` to point at, e.g. `pgs keys create`. */
  readonly command: string;

  constructor(message: string, command = 'pgs') {
    super(message);
    this.command = command;
  }
}

/**
 * No admin token was found; the message says every place that was looked at (exit 3).
 *
 * @example
 * throw new MissingTokenError('no admin token: ...');
 */
export class MissingTokenError extends Error {
  override name = 'MissingTokenError';
}

/**
 * No API key was given; the message says where to get one (exit 3).
 *
 * @example
 * throw new MissingApiKeyError('no API key: pass --api-key or set PGS_API_KEY');
 */
export class MissingApiKeyError extends Error {
  override name = 'MissingApiKeyError';
}

/**
 * The ledger audit found accounts whose balance or reservations disagree with the ledger
 * (exit 13). The report itself was printed on stdout.
 *
 * @example
 * if (!audit.ok) throw new LedgerDriftError(audit.drift.length);
 */
export class LedgerDriftError extends Error {
  override name = 'LedgerDriftError';
  /** Account × mode pairs that drift. */
  readonly drifting: number;

  constructor(drifting: number) {
    super(
      `the ledger audit found drift in ${drifting} account ${drifting === 1 ? 'mode' : 'modes'}`,
    );
    this.drifting = drifting;
  }
}

/**
 * The project, or a revision of it, ended `failed` (exit 9). Not an error of the request:
 * the API answered 200 with the failed status, which the command printed or reports here.
 *
 * @example
 * if (result.status === 'failed') throw new GenerationFailedError(result);
 */
export class GenerationFailedError extends Error {
  override name = 'GenerationFailedError';
  readonly projectId: string;
  /** The revision that failed; undefined when the project's creation did. */
  readonly revision: number | undefined;
  /** `error.code` of the failed status, e.g. `generation_failed`. */
  readonly code: string;

  /** `status`: a failed project or revision as the API reads it (or as its final event says). */
  constructor(
    status: Pick<ProjectFailed, 'projectId' | 'error'> & { revision?: number | undefined },
  ) {
    const { revision } = status;
    super(
      `${revision === undefined ? 'generation' : `revision ${revision}`} failed: ${status.error.message}`,
    );
    this.projectId = status.projectId;
    this.revision = revision;
    this.code = status.error.code;
  }
}

/**
 * A revision that `pgs diff` needs the documents of has none: it is in progress or failed
 * (exit 12, as the server's `PROJECT_NOT_COMPLETED` for a revision's diff).
 *
 * @example
 * throw new RevisionNotCompletedError(projectId, 3, 'failed');
 */
export class RevisionNotCompletedError extends Error {
  override name = 'RevisionNotCompletedError';
  readonly projectId: string;
  readonly revision: number;
  readonly status: string;

  constructor(projectId: string, revision: number, status: string) {
    super(
      `revision ${revision} is ${status === 'in_progress' ? 'still in progress' : status}: ` +
        'only a completed revision has documents to compare',
    );
    this.projectId = projectId;
    this.revision = revision;
    this.status = status;
  }
}

/**
 * `pgs next` found no task ready to claim (exit 14): every `todo` task waits on another
 * one, or none is left. Not a failure of the request (the API answered 204); a script
 * looping over `pgs next` stops, or waits for someone else's task, on this code.
 *
 * @example
 * if (claimed === null) throw new NothingReadyError(projectId);
 */
export class NothingReadyError extends Error {
  override name = 'NothingReadyError';
  readonly projectId: string;

  constructor(projectId: string) {
    super('no task is ready: every todo task waits on another one, or none is left');
    this.projectId = projectId;
  }
}

/**
 * `pgs check --strict` found a requirement missing or drift in the code (exit 15): the check
 * itself succeeded; the code and the spec disagree.
 *
 * @example
 * if (totals.missing + totals.drift > 0) throw new NotConformantError(projectId, totals.missing, totals.drift);
 */
export class NotConformantError extends Error {
  override name = 'NotConformantError';
  readonly projectId: string;

  constructor(projectId: string, missing: number, drift: number) {
    super(
      `the code does not conform to the spec: ${missing} requirement${missing === 1 ? '' : 's'} missing, ${drift} item${drift === 1 ? '' : 's'} of drift`,
    );
    this.projectId = projectId;
  }
}

/**
 * `pgs sync` ended with items that failed (exit 16): the sync ran, the tracker refused or
 * kept failing some writes; each failed row says why.
 *
 * @example
 * if (sync.status === 'failed') throw new SyncFailedError(projectId, 2);
 */
export class SyncFailedError extends Error {
  override name = 'SyncFailedError';
  readonly projectId: string;

  constructor(projectId: string, failed: number) {
    super(
      failed === 0
        ? 'the sync failed: the tracker could not be searched, nothing was written'
        : `the sync failed: ${failed} item${failed === 1 ? '' : 's'} could not be written to the tracker`,
    );
    this.projectId = projectId;
  }
}
