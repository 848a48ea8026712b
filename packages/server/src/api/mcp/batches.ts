import { MAX_BATCH_SIZE } from '@modelcontextprotocol/sdk/server/requestBody.js';
import {
  DEFAULT_NEGOTIATED_PROTOCOL_VERSION,
  isInitializeRequest,
  LATEST_PROTOCOL_VERSION,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/sdk/types.js';
import type { FastifyReply } from 'fastify';
import { ApiError } from '../../errors.ts';
import type { RateLimiter } from '../../limits/rate-limiter.ts';
import { withoutStack } from '../plugins/errors.ts';
import { rateLimitError, rateLimitHeaders } from '../plugins/rate-limit.ts';

/** The first protocol revision without JSON-RPC batches (its changelog's first change). */
export const BATCHLESS_SINCE = '2025-06-18';

/** JSON-RPC 2.0's answer to an empty batch and to a request it cannot take as one. */
const INVALID_REQUEST = { code: -32600, message: 'Invalid Request' } as const;

/**
 * The protocol revision a batch is sent under. Nothing is kept between requests (stateless
 * mode), so it is what the request itself says: an initialize request in it negotiates
 * (the client's revision if the SDK knows it, else the latest, as the SDK's server
 * answers); otherwise the `MCP-Protocol-Version` header a client sends after
 * initialisation; without either, 2025-03-26, which the specification says to assume.
 * Undefined for a header naming a revision the SDK does not know: the transport refuses it.
 */
export function batchProtocolVersion(
  messages: readonly unknown[],
  header: string | undefined,
): string | undefined {
  const initialize = messages.find(isInitializeRequest);
  if (initialize !== undefined) {
    const asked = initialize.params.protocolVersion;
    return SUPPORTED_PROTOCOL_VERSIONS.includes(asked) ? asked : LATEST_PROTOCOL_VERSION;
  }
  if (header === undefined) return DEFAULT_NEGOTIATED_PROTOCOL_VERSION;
  return SUPPORTED_PROTOCOL_VERSIONS.includes(header) ? header : undefined;
}

/** A 400 in the envelope that also carries the JSON-RPC error, for clients that look for it. */
function invalidBatch(message: string, rule: string): ApiError {
  return withoutStack(
    () =>
      new ApiError('VALIDATION_ERROR', message, {
        status: 400,
        details: { invalid_fields: { body: rule }, jsonrpc_error: INVALID_REQUEST },
      }),
  );
}

/**
 * Why a JSON-RPC batch cannot be taken, or undefined when it can: an empty one (JSON-RPC
 * 2.0's Invalid Request), one sent under a revision that has no batches (2025-06-18 and
 * later: the body must be a single message), one past the SDK transport's size. Worded
 * here; the revision named is one of the SDK's, never the client's text.
 *
 * @example
 * const refusal = batchRefusal(body, request.headers['mcp-protocol-version']);
 * if (refusal !== undefined) throw refusal;
 */
export function batchRefusal(
  messages: readonly unknown[],
  header: string | undefined,
): ApiError | undefined {
  if (messages.length === 0) {
    return invalidBatch(
      'An empty JSON-RPC batch is an invalid request: send at least one message.',
      'must not be an empty array',
    );
  }
  const version = batchProtocolVersion(messages, header);
  if (version !== undefined && version >= BATCHLESS_SINCE) {
    return invalidBatch(
      `MCP ${version} has no JSON-RPC batches (removed in ${BATCHLESS_SINCE}): send each message in a POST of its own.`,
      `must be a single JSON-RPC message under MCP ${version}`,
    );
  }
  if (messages.length > MAX_BATCH_SIZE) {
    return invalidBatch(
      `A JSON-RPC batch holds at most ${MAX_BATCH_SIZE} messages.`,
      `must hold at most ${MAX_BATCH_SIZE} messages`,
    );
  }
  return undefined;
}

/**
 * Counts the rest of a batch of `size` messages against the key's `mcp` limit: the
 * rate-limit plugin counted the request as one before its body was read, so each further
 * message costs one more. A batch that passes the limit is refused whole with the 429 a
 * single message past it gets (the counter keeps what it counted, as for that message);
 * otherwise the `X-RateLimit-*` headers report the count after the batch.
 *
 * @example
 * await countBatch(limiters.mcp, request.principal.keyId, body.length, reply);
 */
export async function countBatch(
  limiter: RateLimiter,
  keyId: string,
  size: number,
  reply: FastifyReply,
): Promise<void> {
  if (size <= 1) return;
  const decision = await limiter.consume(keyId, size - 1);
  if (!decision.allowed) {
    throw rateLimitError(
      decision,
      `A batch of ${size} messages passes the limit of ${decision.limit} MCP messages per ${decision.window} (each message counts); retry after ${decision.retryAfter} seconds.`,
    );
  }
  reply.headers(rateLimitHeaders(decision));
}
