import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Principal } from '../accounts/service.ts';
import { ApiError } from '../errors.ts';
import type { Db } from '../storage/db.ts';
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  releaseIdempotencyKey,
} from '../storage/sql/idempotency.ts';

/** How long a key is remembered. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** A claim older than this whose request never finished (a crash) may be taken over. */
export const STALE_CLAIM_MS = 60_000;
const MAX_KEY_LENGTH = 255;

/** A response to send and, for 2xx, to remember. */
export interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** JSON with sorted keys: two bodies that differ only in key order are the same request. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

function send(reply: FastifyReply, response: StoredResponse, replayed: boolean): FastifyReply {
  reply.headers(response.headers);
  if (replayed) reply.header('idempotent-replayed', 'true');
  return reply.code(response.status).type('application/json; charset=utf-8').send(response.body);
}

/**
 * Runs a POST handler under the request's `Idempotency-Key` (scoped to the key's account
 * and mode, kept 24 h): the same key and body replay the first 2xx response; the same key
 * with another body → 422 IDEMPOTENCY_KEY_REUSED; a duplicate while the first is still
 * running → 409 IDEMPOTENCY_CONFLICT with `Retry-After: 1`. Errors are not remembered, so
 * a request that failed can be retried with the same key once its cause is fixed.
 *
 * @example
 * return withIdempotency(db, request, reply, 'createProject', async () => ({ status: 202, headers, body }));
 */
export async function withIdempotency(
  db: Db,
  request: FastifyRequest,
  reply: FastifyReply,
  operation: string,
  handler: () => Promise<StoredResponse>,
): Promise<FastifyReply> {
  const raw = request.headers['idempotency-key'];
  if (raw === undefined) return send(reply, await handler(), false);
  const key = Array.isArray(raw) ? raw.join(',') : raw;
  if (key.length === 0 || key.length > MAX_KEY_LENGTH || !/^[\x21-\x7e]+$/.test(key)) {
    throw new ApiError('VALIDATION_ERROR', 'The Idempotency-Key header is not valid.', {
      details: {
        invalid_fields: {
          'Idempotency-Key': `must be 1 to ${MAX_KEY_LENGTH} visible ASCII characters`,
        },
      },
    });
  }
  const principal: Principal = request.principal;
  const scope = { accountId: principal.accountId, mode: principal.mode, key };
  const requestHash = createHash('sha256')
    .update(`${operation}\n${canonical(request.body ?? null)}`)
    .digest('hex');
  const existing = await claimIdempotencyKey(db, {
    ...scope,
    operation,
    requestHash,
    expiresAt: new Date(Date.now() + IDEMPOTENCY_TTL_MS),
    staleBefore: new Date(Date.now() - STALE_CLAIM_MS),
  });
  if (existing !== undefined) {
    if (existing.requestHash !== requestHash) {
      throw new ApiError(
        'IDEMPOTENCY_KEY_REUSED',
        'This Idempotency-Key was already used with a different request. Use a new key for a new request.',
        { details: { idempotency_key: key } },
      );
    }
    if (existing.state === 'processing') {
      throw new ApiError(
        'IDEMPOTENCY_CONFLICT',
        'A request with this Idempotency-Key is still being processed. Retry shortly.',
        { details: { idempotency_key: key, retry_after: 1 }, headers: { 'retry-after': 1 } },
      );
    }
    return send(
      reply,
      {
        status: existing.responseStatus ?? 200,
        headers: (existing.responseHeaders as Record<string, string> | null) ?? {},
        body: existing.responseBody ?? '',
      },
      true,
    );
  }
  let response: StoredResponse;
  try {
    response = await handler();
  } catch (error) {
    await releaseIdempotencyKey(db, scope);
    throw error;
  }
  if (response.status >= 200 && response.status < 300) {
    await completeIdempotencyKey(db, scope, response);
  } else {
    await releaseIdempotencyKey(db, scope);
  }
  return send(reply, response, false);
}
