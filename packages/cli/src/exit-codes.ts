import {
  APIConnectionError,
  APIError,
  APIUserAbortError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  InsufficientCreditsError,
  InternalServerError,
  NotFoundError,
  PayloadTooLargeError,
  PollTimeoutError,
  PreconditionFailedError,
  RateLimitError,
  UnprocessableEntityError,
  UnsupportedMediaTypeError,
} from '@pgs/client';
import {
  GenerationFailedError,
  LedgerDriftError,
  MissingApiKeyError,
  MissingTokenError,
  NotConformantError,
  NothingReadyError,
  RevisionNotCompletedError,
  SyncFailedError,
  UsageError,
} from './errors.ts';

/**
 * The exit codes of `pgs`, one per class of failure, so scripts can branch on them.
 *
 * @example
 * if ((await run(argv, io)) === EXIT.CONNECTION) console.error('start the server first');
 */
export const EXIT = {
  OK: 0,
  UNEXPECTED: 1,
  USAGE: 2,
  AUTHENTICATION: 3,
  NOT_FOUND: 4,
  VALIDATION: 5,
  RATE_LIMITED: 6,
  CONNECTION: 7,
  SERVER: 8,
  GENERATION_FAILED: 9,
  INSUFFICIENT_CREDITS: 10,
  WAIT_TIMEOUT: 11,
  CONFLICT: 12,
  LEDGER_DRIFT: 13,
  NOTHING_READY: 14,
  NOT_CONFORMANT: 15,
  SYNC_FAILED: 16,
  INTERRUPTED: 130,
} as const;

/** One of the values of {@link EXIT}. */
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** The exit-code table as it appears in the help text. */
export const EXIT_CODES_HELP = `Exit codes:
  0  ok
  1  unexpected error (including HTTP statuses not listed here)
  2  usage: unknown command, bad flag or bad value
  3  authentication: no API key or admin token found, or the server rejected it (401)
  4  not found (404)
  5  validation: the server rejected the request (400, 413, 415, 422)
  6  rate limited (429)
  7  connection: the server could not be reached, or timed out
  8  server error (5xx)
  9  generation failed: the project, or a revision of it, ended failed (its credits
     were refunded)
 10  insufficient credits (402)
 11  still in progress when --max-wait ran out (the project keeps generating)
 12  conflict (409): e.g. cancelling a project that is already completed or failed, or
     revising one that is not completed (or has a revision running), a task move the
     status machine refuses; or a task changed since its --if-match ETag (412)
 13  ledger drift: pgs admin audit found balances that disagree with the ledger
 14  nothing ready: pgs next found no task to claim (each waits on another, or none is left)
 15  not conformant: pgs check --strict found a requirement missing or drift in the code
 16  sync failed: pgs sync ended with items the tracker refused or kept failing
130  interrupted (Ctrl-C) while waiting (the project keeps generating)`;

/**
 * Maps a thrown error to its exit code.
 *
 * @example
 * exitCodeFor(new UsageError('unknown flag')); // 2
 */
export function exitCodeFor(error: unknown): ExitCode {
  if (error instanceof UsageError) return EXIT.USAGE;
  if (error instanceof MissingTokenError || error instanceof MissingApiKeyError) {
    return EXIT.AUTHENTICATION;
  }
  if (error instanceof GenerationFailedError) return EXIT.GENERATION_FAILED;
  if (error instanceof LedgerDriftError) return EXIT.LEDGER_DRIFT;
  if (error instanceof NothingReadyError) return EXIT.NOTHING_READY;
  if (error instanceof NotConformantError) return EXIT.NOT_CONFORMANT;
  if (error instanceof SyncFailedError) return EXIT.SYNC_FAILED;
  if (error instanceof RevisionNotCompletedError) return EXIT.CONFLICT;
  if (error instanceof PollTimeoutError) return EXIT.WAIT_TIMEOUT;
  if (error instanceof APIUserAbortError) return EXIT.INTERRUPTED;
  if (error instanceof APIConnectionError) return EXIT.CONNECTION;
  if (!(error instanceof APIError)) return EXIT.UNEXPECTED;
  if (error instanceof AuthenticationError) return EXIT.AUTHENTICATION;
  if (error instanceof NotFoundError) return EXIT.NOT_FOUND;
  if (
    error instanceof BadRequestError ||
    error instanceof PayloadTooLargeError ||
    error instanceof UnsupportedMediaTypeError ||
    error instanceof UnprocessableEntityError
  ) {
    return EXIT.VALIDATION;
  }
  if (error instanceof RateLimitError) return EXIT.RATE_LIMITED;
  if (error instanceof InsufficientCreditsError) return EXIT.INSUFFICIENT_CREDITS;
  if (error instanceof ConflictError || error instanceof PreconditionFailedError) {
    return EXIT.CONFLICT;
  }
  if (error instanceof InternalServerError) return EXIT.SERVER;
  return EXIT.UNEXPECTED;
}
