import type { Redis } from 'ioredis';
import {
  type RateLimiterAbstract,
  RateLimiterMemory,
  RateLimiterPostgres,
  RateLimiterRedis,
  RateLimiterRes,
} from 'rate-limiter-flexible';
import type { Database } from '../storage/db.ts';

/** A limit: `points` requests per `durationSec`, counted per key in fixed windows. */
export interface RateLimitRule {
  /** Names the counter, so two rules never share one. */
  name: string;
  points: number;
  durationSec: number;
  /** The window as a client reads it in `details.window`, e.g. "1 minute". */
  window: string;
}

/** The outcome of counting one request. */
export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** UTC epoch seconds at which the current window ends. */
  resetAt: number;
  /** Seconds until the window ends, at least 1. */
  retryAfter: number;
  window: string;
}

/** Counts requests against one rule. */
export interface RateLimiter {
  readonly rule: RateLimitRule;
  /** Counts `points` uses at once (default 1): a JSON-RPC batch counts each of its messages. */
  consume(key: string, points?: number): Promise<RateLimitDecision>;
}

/** Where counters live: in this process, or shared by every API process. */
export type RateLimitStore =
  | { kind: 'memory' }
  | { kind: 'postgres'; pool: NonNullable<Database['pool']> }
  | { kind: 'redis'; client: Redis };

function decision(rule: RateLimitRule, res: RateLimiterRes, allowed: boolean): RateLimitDecision {
  const ms = Math.max(0, res.msBeforeNext);
  return {
    allowed,
    limit: rule.points,
    remaining: Math.max(0, res.remainingPoints),
    resetAt: Math.ceil((Date.now() + ms) / 1000),
    retryAfter: Math.min(rule.durationSec, Math.max(1, Math.ceil(ms / 1000))),
    window: rule.window,
  };
}

function backend(rule: RateLimitRule, store: RateLimitStore): RateLimiterAbstract {
  const base = {
    points: rule.points,
    duration: rule.durationSec,
    keyPrefix: `pgs_rl_${rule.name}`,
  };
  switch (store.kind) {
    case 'memory':
      return new RateLimiterMemory(base);
    case 'redis':
      // If Redis is unreachable, count in this process rather than refuse or wave through.
      return new RateLimiterRedis({
        ...base,
        storeClient: store.client,
        insuranceLimiter: new RateLimiterMemory(base),
      });
    case 'postgres':
      return new RateLimiterPostgres({
        ...base,
        storeClient: store.pool,
        storeType: 'pool',
        tableName: 'rate_limits',
        // Our migrations create the table: concurrent CREATE TABLE races in PostgreSQL.
        tableCreated: true,
        clearExpiredByTimeout: true,
        insuranceLimiter: new RateLimiterMemory(base),
      });
    default: {
      const never: never = store;
      throw new Error(`unknown rate limit store ${JSON.stringify(never)}`);
    }
  }
}

/**
 * A fixed-window limiter on rate-limiter-flexible. The window starts with a key's first
 * request and is not extended by requests it rejects.
 *
 * @example
 * const limiter = await createRateLimiter({ name: 'status', points: 100, durationSec: 60, window: '1 minute' }, { kind: 'memory' });
 * const { allowed, remaining } = await limiter.consume('key_01…');
 */
export async function createRateLimiter(
  rule: RateLimitRule,
  store: RateLimitStore,
): Promise<RateLimiter> {
  const limiter = backend(rule, store);
  return {
    rule,
    async consume(key, points = 1) {
      try {
        return decision(rule, await limiter.consume(key, points), true);
      } catch (rejection) {
        if (rejection instanceof RateLimiterRes) return decision(rule, rejection, false);
        throw rejection;
      }
    },
  };
}
