/** The parameters, options and small types of the revisions resource. */
import type {
  DiffFormat,
  ProjectContext,
  RevisionAcceptedResponse,
  RevisionCompleted,
  RevisionDiffResponse,
  RevisionFailed,
} from '@pgs/contract';
import type { RequestOptions } from '../core.ts';

/** Body of `projects.revisions.create`. */
export interface RevisionCreateParams {
  /** What to change, in plain words (at most 4,000 characters). */
  changeRequest: string;
  /**
   * Test keys only: the offline engine revises the project, paced to take about
   * `durationMs` (0 to 600,000), and ends as `outcome`. It still reads the change request:
   * one it finds nothing in fails, whatever the outcome asked.
   */
  simulate?: { outcome: 'completed' | 'failed'; durationMs?: number | undefined } | undefined;
  /**
   * The codebase as it is now, to ground the revision in (as `context` of `projects.create`;
   * build it with `buildRepositoryDigest` of `@pgs/repository`).
   */
  context?: ProjectContext | undefined;
}

/** The body of a 202 from `createRevision`: `{ projectId, revision, status, estimatedCompletionMs }`. */
type RevisionAccepted = RevisionAcceptedResponse['data'];

/** The in-progress state of a revision just started, with what came with the 202. */
export interface RevisionCreated extends RevisionAccepted {
  /** The revision's URL (the `Location` header), absolute. */
  location: string;
  /** Seconds the server suggests before the first poll (`Retry-After`). */
  retryAfter: number | undefined;
  /** True when the server replayed its answer to an earlier request with the same idempotency key. */
  replayed: boolean;
}

/** Options of `projects.revisions.get`. */
export interface RevisionGetOptions extends RequestOptions {
  /**
   * Long-poll: let the server hold an in-progress answer up to this many seconds
   * (`Prefer: wait`, 1–60) and answer as soon as the revision ends. The attempt's time
   * limit grows by as much.
   */
  wait?: number | undefined;
}

/** Options of `projects.revisions.diff`. */
export interface RevisionDiffOptions extends RequestOptions {
  /** `diff` (default): the unified diff as text; `json`: `{ projectId, revision, base, files }`. */
  format?: DiffFormat | undefined;
  /**
   * Compare against this completed revision (below the one asked for) instead of the one it
   * was made from: every change in between, as one diff.
   */
  from?: number | undefined;
}

/** What `projects.revisions.diff(…, { format: 'json' })` resolves with. */
export type RevisionDiff = RevisionDiffResponse['data'];

/** A revision that has ended: `completed` (now current) or `failed` (refunded, nothing applied). */
export type RevisionResult = RevisionCompleted | RevisionFailed;
