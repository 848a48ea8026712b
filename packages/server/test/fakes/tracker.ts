/**
 * What every fake tracker (GitHub, Linear, Jira) offers a test. Each fake is a real HTTP
 * server on loopback speaking the provider's wire protocol (REST for GitHub and Jira,
 * GraphQL for Linear: pagination, rate-limit answers, 5xx, webhook signatures), so the
 * official SDK runs unchanged against it. The state lives in memory; faults are bounded by
 * counts, never by time.
 */
import type {
  IssueState,
  TrackerCredentials,
  TrackerProvider,
  TrackerTarget,
} from '../../src/trackers/providers/provider.ts';

/** An issue as the fake holds it. */
export interface FakeIssue {
  externalId: string;
  key: string;
  url: string;
  title: string;
  body: string;
  state: IssueState;
  labels: string[];
  parent?: string;
  blockedBy: string[];
  comments: string[];
  updatedAt: string;
}

/** A webhook delivery ready to POST to PGS's inbound route. */
export interface FakeDelivery {
  headers: Record<string, string>;
  body: string;
}

export interface FakeTracker {
  readonly provider: TrackerProvider;
  /** Give this as the connection's `baseUrl`. */
  readonly baseUrl: string;
  /** Credentials the fake accepts; anything else answers as the provider does (401). */
  readonly credentials: TrackerCredentials;
  /** A target that exists on the fake. */
  readonly target: TrackerTarget;
  /** Every issue, in creation order. */
  issues(): FakeIssue[];
  /** Requests served so far, rate-limited and failed ones included. */
  calls(): number;
  /** The next `times` write requests (POST, PATCH, PUT, mutations) answer `status` (5xx). */
  failWrites(times: number, status?: 500 | 502 | 503): void;
  /** The next `times` requests answer the provider's rate-limit response with this hint. */
  rateLimit(times: number, retryAfterSeconds: number): void;
  /** Changes an issue as a person would on the tracker (its updatedAt moves on). */
  setState(externalId: string, state: IssueState, at?: Date): void;
  /**
   * The webhook delivery the tracker would send for an issue's state change, signed with
   * `secret` (or unsigned, or with a wrong signature), dated `at`.
   */
  delivery(
    externalId: string,
    options: { secret: string; at: Date; signature?: 'valid' | 'wrong' | 'missing' },
  ): FakeDelivery;
  close(): Promise<void>;
}
