import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { protocolErrorCode } from '@pgs/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { ApiError } from '../../errors.ts';
import { toApiError } from '../plugins/errors.ts';

/**
 * The catalogue's error for anything a tool or resource read threw: the API's own errors
 * as they are, a domain rule's refusal (a short balance, a revision refused) with its code,
 * message and details exactly as REST answers it, and anything else as the error handler
 * maps it (INTERNAL_ERROR, logged; 503 while the database is unreachable).
 */
export function catalogued(error: unknown, log: FastifyBaseLogger): ApiError {
  // No body is read here: the limit only words the 413 that cannot happen.
  const apiError = toApiError(error, 0);
  if (apiError.status >= 500) {
    const level = apiError.status === 500 ? 'error' : 'warn';
    log[level]({ err: error }, 'mcp call failed');
  }
  return apiError;
}

/**
 * A resource or prompt failure as an MCP (JSON-RPC) error, the answer the specification
 * gives for them; `data` carries the catalogue's code and details.
 *
 * @example
 * catch (error) { throw protocolFailure(error, log, request.id); }
 */
export function protocolFailure(
  error: unknown,
  log: FastifyBaseLogger,
  requestId: string,
): McpError {
  if (error instanceof McpError) return error;
  const apiError = catalogued(error, log);
  return new McpError(protocolErrorCode(apiError.code), apiError.message, {
    code: apiError.code,
    ...(apiError.details === undefined ? {} : { details: apiError.details }),
    request_id: requestId,
  });
}
