import { hash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type {
  IdempotencyKeys,
  IdempotencyScope,
  Remember,
  StoredResponse,
} from '../accounts/idempotency-keys.ts';
import type { Principal } from '../accounts/service.ts';
import { ApiError } from '../errors.ts';

/** How long a key is remembered. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** A claim older than this whose request never finished (a crash) may be taken over. */
export const STALE_CLAIM_MS = 60_000;
const MAX_KEY_LENGTH = 255;

/**
 * JSON with sorted keys: two bodies that differ only in key order are the same request.
 * One loop with its own stack, not recursion: a body nested a few thousand levels deep
 * (valid JSON) overflowed the call stack here and was answered 500 (found by the fuzz).
 */
function canonical(root: unknown): string {
  const out: string[] = [];
  // Literal text to emit, or a value to write.
  const stack: (string | { value: unknown })[] = [{ value: root }];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    if (typeof item === 'string') {
      out.push(item);
      continue;
    }
    const { value } = item;
    const parts: (string | { value: unknown })[] = [];
    if (Array.isArray(value)) {
      parts.push('[');
      for (const [i, element] of value.entries()) {
        if (i > 0) parts.push(',');
        parts.push({ value: element });
      }
      parts.push(']');
    } else if (value !== null && typeof value === 'object') {
      parts.push('{');
      for (const [i, key] of Object.keys(value).sort().entries()) {
        if (i > 0) parts.push(',');
        parts.push(`${JSON.stringify(key)}:`, { value: (value as Record<string, unknown>)[key] });
      }
      parts.push('}');
    } else {
      out.push(JSON.stringify(value) ?? 'null');
      continue;
    }
    for (let i = parts.length - 1; i >= 0; i--) stack.push(parts[i] as string | { value: unknown });
  }
  return out.join('');
}

/** What identifies a request under one key: the operation and its body, canonically. */
export function requestHash(operation: string, body: unknown): string {
  return hash('sha256', `${operation}\n${canonical(body ?? null)}`, 'hex');
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
 * a request that failed can be retried with the same key once its cause is fixed. The
 * handler should call `remember` in the transaction that makes its effect. `onReplay` turns
 * a stored answer back into the one to send (a route that keeps a secret sealed in the
 * stored body opens it there).
 *
 * @example
 * return withIdempotency(keys, request, reply, 'createProject', async () => ({ status: 202, headers, body }));
 */
export async function withIdempotency(
  keys: IdempotencyKeys,
  request: FastifyRequest,
  reply: FastifyReply,
  operation: string,
  handler: (remember: Remember) => Promise<StoredResponse>,
  onReplay?: (stored: StoredResponse) => Promise<StoredResponse>,
): Promise<FastifyReply> {
  const raw = request.headers['idempotency-key'];
  if (raw === undefined) return send(reply, await handler(async () => {}), false);
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
  const scope: IdempotencyScope = { accountId: principal.accountId, mode: principal.mode, key };
  const hash = requestHash(operation, request.body);
  const existing = await keys.claim({
    ...scope,
    operation,
    requestHash: hash,
    expiresAt: new Date(Date.now() + IDEMPOTENCY_TTL_MS),
    staleBefore: new Date(Date.now() - STALE_CLAIM_MS),
  });
  if (existing !== undefined) {
    if (existing.requestHash !== hash) {
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
    const stored: StoredResponse = {
      status: existing.responseStatus ?? 200,
      headers: (existing.responseHeaders as Record<string, string> | null) ?? {},
      body: existing.responseBody ?? '',
    };
    return send(reply, onReplay ? await onReplay(stored) : stored, true);
  }
  let remembered = false;
  const rememberIn = keys.rememberIn(scope);
  const remember: Remember = async (tx, response) => {
    await rememberIn(tx, response);
    remembered = true;
  };
  let response: StoredResponse;
  try {
    response = await handler(remember);
  } catch (error) {
    await keys.release(scope);
    throw error;
  }
  if (response.status < 200 || response.status >= 300) {
    await keys.release(scope);
  } else if (!remembered) {
    await keys.complete(scope, response);
  }
  return send(reply, response, false);
}
