/**
 * The seam between PGS and an issue tracker (docs/trackers.md). Each provider (GitHub through
 * Octokit, Linear through `@linear/sdk`, Jira through `jira.js`) implements
 * {@link TrackerAdapter} in a file of its own under `trackers/providers/`; nothing else in
 * PGS imports a tracker SDK. The sync engine, the inbound webhook and the reconcile speak
 * only these types, so a fourth tracker is one file and one fake.
 *
 * Adapters never wait on their own: a rate-limit answer or a transient failure is thrown as a
 * {@link TrackerRequestError} saying whether it is retryable and after how long, and the
 * caller's retry policy (with an injected sleep and clock) decides. That keeps one backoff
 * policy for three SDKs and keeps tests off the wall clock.
 */

export type TrackerProvider = 'github' | 'linear' | 'jira';

/** A connection's credentials as given at creation (sealed at rest, never returned). */
export type TrackerCredentials = { token: string } | { email: string; apiToken: string };

/** Where issues go: a GitHub repository, a Linear team (key or id), a Jira project key. */
export type TrackerTarget =
  | { owner: string; repo: string }
  | { team: string }
  | { projectKey: string };

/** An issue's state as PGS cares about it. */
export type IssueState = 'open' | 'closed';

/**
 * What PGS writes for one item of a project (`T-3`, or `FR-2` as a parent). The body is
 * markdown and carries the item's marker ({@link itemMarker}) so a mapping lost in a crash is
 * found again on the tracker.
 */
export interface IssueDraft {
  /** The PGS ID: `T-3` or `FR-2`. */
  itemId: string;
  /** `T-3 Build the booking form`. */
  title: string;
  /** Markdown; adapters convert it where the tracker needs another format (Jira's ADF). */
  body: string;
  /** `pgs` and the FR IDs; adapters create missing labels. */
  labels: string[];
  /** The externalId of the parent issue (an FR group), when requirements are synced. */
  parent?: string;
  /** The externalIds of issues that block this one, where the tracker has that relation. */
  blockedBy: string[];
}

/** An issue as the tracker holds it. */
export interface ExternalIssue {
  /** The tracker's stable ID used in API calls (GitHub: the issue number; Linear: the issue
   *  UUID; Jira: the issue id). */
  externalId: string;
  /** What people call it: `#12`, `ENG-12`, `PGS-12`. */
  key: string;
  /** The issue's page for people. */
  url: string;
  state: IssueState;
  /** ISO 8601: the tracker's last change of the issue (reconcile: the newest change wins). */
  updatedAt: string;
  /** The item marker found in its body, when there is one. */
  marker?: { projectId: string; itemId: string };
}

/** A change a tracker reports through its webhook, already verified. */
export interface InboundChange {
  externalId: string;
  state: IssueState;
  /** ISO 8601, the tracker's time of the change. */
  updatedAt: string;
}

export interface InboundDelivery {
  /** The tracker's delivery ID (replays of one delivery change nothing). */
  deliveryId: string;
  /** Issue state changes it carries; empty for events PGS does not act on (acknowledged). */
  changes: InboundChange[];
}

export type WebhookVerdict =
  | { ok: true; delivery: InboundDelivery }
  | { ok: false; reason: string };

export interface WebhookInput {
  /** Request headers, lower-cased names. */
  headers: Record<string, string | undefined>;
  /** The exact bytes received: signatures cover them, not a re-serialised object. */
  rawBody: Buffer;
  /** The connection's webhook secret (unsealed). */
  secret: string;
  /** The injected clock's now, to refuse stale deliveries where the tracker dates them. */
  now: Date;
}

/**
 * A failed call to a tracker, as the SDK reported it, in words a user can act on. `reason` is
 * the provider's own message (never a credential); `retryable` is true for 408, 429, 5xx,
 * rate-limit answers and network failures; `retryAfterMs` is the provider's hint.
 */
export class TrackerRequestError extends Error {
  readonly reason: string;
  readonly options: { status?: number; retryable: boolean; retryAfterMs?: number };
  constructor(
    reason: string,
    options: { status?: number; retryable: boolean; retryAfterMs?: number },
  ) {
    super(reason);
    this.name = 'TrackerRequestError';
    this.reason = reason;
    this.options = options;
  }
  get status(): number | undefined {
    return this.options.status;
  }
  get retryable(): boolean {
    return this.options.retryable;
  }
  get retryAfterMs(): number | undefined {
    return this.options.retryAfterMs;
  }
}

/** The first {@link TrackerRequestError} in `error`'s chain of causes (SDKs wrap ours). */
export function trackerErrorIn(error: unknown): TrackerRequestError | undefined {
  for (let at = error, depth = 0; at !== undefined && at !== null && depth < 8; depth++) {
    if (at instanceof TrackerRequestError) return at;
    if (typeof at !== 'object') return undefined;
    const next = (at as { cause?: unknown; raw?: unknown }).cause ?? (at as { raw?: unknown }).raw;
    if (next === at) return undefined;
    at = next;
  }
  return undefined;
}

export interface ConnectOptions {
  /** null for the public API; otherwise GitHub Enterprise Server, a Jira site, or a fake. */
  baseUrl: string | null;
  credentials: TrackerCredentials;
  target: TrackerTarget;
  /** Request timeout per call, in milliseconds. */
  timeoutMs?: number;
  /**
   * The connection's guarded fetch (trackers/guarded-fetch.ts: checked addresses, no
   * redirects followed); every call of the adapter's SDK goes through it when given.
   */
  fetch?: typeof fetch;
}

/** One connection's client: every call may throw {@link TrackerRequestError}. */
export interface TrackerClient {
  /**
   * Checks the credentials and the target (the repository exists and the token may write
   * issues; the team or project exists) and returns the target with what the tracker
   * calls it internally (ids the later calls need), to be stored with the connection.
   */
  verify(signal?: AbortSignal): Promise<Record<string, string>>;
  /** Every issue of the target whose body carries `projectId`'s marker, all pages. */
  findMarked(projectId: string, signal?: AbortSignal): Promise<ExternalIssue[]>;
  get(externalId: string, signal?: AbortSignal): Promise<ExternalIssue>;
  create(draft: IssueDraft, signal?: AbortSignal): Promise<ExternalIssue>;
  /** Rewrites title, body, labels, parent and blockers; leaves the state alone. */
  update(externalId: string, draft: IssueDraft, signal?: AbortSignal): Promise<ExternalIssue>;
  /** Closes or reopens, with a comment first when one is given. */
  setState(
    externalId: string,
    state: IssueState,
    comment: string | undefined,
    signal?: AbortSignal,
  ): Promise<ExternalIssue>;
}

export interface TrackerAdapter {
  readonly provider: TrackerProvider;
  /**
   * Checks the shape of credentials, target and base URL for this provider (a message, or
   * undefined): Jira has no public API, so its site is required.
   */
  validate(credentials: unknown, target: unknown, baseUrl?: string | null): string | undefined;
  connect(options: ConnectOptions): TrackerClient;
  /** Verifies a webhook delivery's signature and freshness, and reads its issue changes. */
  verifyWebhook(input: WebhookInput): Promise<WebhookVerdict>;
  /** What a user configures on the tracker for the inbound webhook, in one sentence. */
  webhookHelp: string;
}

/** The marker a synced issue's body carries: an HTML comment, invisible when rendered. */
export function itemMarker(projectId: string, itemId: string): string {
  return `<!-- pgs:project=${projectId} item=${itemId} -->`;
}

// Matched without the comment's delimiters: a tracker that stores rich text (Jira's ADF)
// keeps the marker as a plain-text line.
const MARKER = /pgs:project=([0-9a-f-]{36}) item=((?:T|FR)-\d+)/;

/** Reads an item marker back out of an issue body (markdown, or plain text). */
export function readMarker(body: string | null | undefined): ExternalIssue['marker'] {
  const found = body ? MARKER.exec(body) : null;
  return found ? { projectId: found[1]!, itemId: found[2]! } : undefined;
}
