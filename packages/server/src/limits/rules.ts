import {
  createRateLimiter,
  type RateLimiter,
  type RateLimitRule,
  type RateLimitStore,
} from './rate-limiter.ts';

/**
 * The documented limits (docs/api.md, "Rate limits"). `status` is the seed's: 100 requests per
 * minute per API key on getProjectStatus, shared by the reads polled beside it
 * (getProjectProvenance, listRevisions, getRevision, opening an event stream).
 */
export const RATE_LIMIT_RULES = {
  status: { name: 'status', points: 100, durationSec: 60, window: '1 minute' },
  /** POST /projects, per API key. */
  create: { name: 'create', points: 30, durationSec: 60, window: '1 minute' },
  /** POST /ideas/clarify, per API key: free and stored nowhere, so bounded here. */
  clarify: { name: 'clarify', points: 30, durationSec: 60, window: '1 minute' },
  /** GET /credits, per API key. */
  credits: { name: 'credits', points: 60, durationSec: 60, window: '1 minute' },
  /** GET /projects/{id}/documents/{filename} and /archive together, per API key. */
  downloads: { name: 'downloads', points: 60, durationSec: 60, window: '1 minute' },
  /** GET /projects (the listing), per API key. */
  list: { name: 'list', points: 60, durationSec: 60, window: '1 minute' },
  /** POST /projects/{id}/cancel and DELETE /projects/{id} together, per API key. */
  manage: { name: 'manage', points: 30, durationSec: 60, window: '1 minute' },
  /**
   * Every request to /mcp (each JSON-RPC message), per API key; a tool call counts besides
   * against the limit of the operation it stands for (docs/mcp.md).
   */
  mcp: { name: 'mcp', points: 300, durationSec: 60, window: '1 minute' },
  /**
   * Every task operation together (list, read, update, claim, renew, context), per API key:
   * an agent's loop is a claim, a few renewals and an update per task.
   */
  tasks: { name: 'tasks', points: 300, durationSec: 60, window: '1 minute' },
  /** Every /webhook-endpoints operation together, per API key. */
  webhooks: { name: 'webhooks', points: 30, durationSec: 60, window: '1 minute' },
  /** Every /conventions operation together (house conventions), per API key. */
  conventions: { name: 'conventions', points: 30, durationSec: 60, window: '1 minute' },
  /** Every /connections operation together (tracker connections), per API key. */
  connections: { name: 'connections', points: 30, durationSec: 60, window: '1 minute' },
  /** Failed authentications per client address (they never count against a key). */
  authFailures: { name: 'auth_failures', points: 30, durationSec: 60, window: '1 minute' },
} as const satisfies Record<string, RateLimitRule>;

export type Limiters = { readonly [K in keyof typeof RATE_LIMIT_RULES]: RateLimiter };

/** One limiter per rule, all on the same store. */
export async function createLimiters(
  store: RateLimitStore,
  rules: { readonly [K in keyof typeof RATE_LIMIT_RULES]: RateLimitRule } = RATE_LIMIT_RULES,
): Promise<Limiters> {
  const names = Object.keys(rules) as (keyof typeof RATE_LIMIT_RULES)[];
  const limiters = await Promise.all(names.map((name) => createRateLimiter(rules[name], store)));
  return Object.fromEntries(names.map((name, i) => [name, limiters[i]!])) as unknown as Limiters;
}
