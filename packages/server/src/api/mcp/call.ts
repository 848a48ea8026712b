/**
 * One MCP request as a tool sees it. In a file of its own so the tools' files (tasks,
 * syncs, conformance) name it without importing tools.ts, which imports them.
 */
import type { McpProgress } from '@pgs/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Principal } from '../../accounts/service.ts';

/** One MCP request: whose key, and what ends it. */
export interface McpCall {
  principal: Principal;
  /** Aborts when the client goes away, the request is cancelled or the server shuts down. */
  signal: AbortSignal;
  log: FastifyBaseLogger;
  /** The HTTP request's id (`req_…`), quoted in errors. */
  requestId: string;
  /** Sends a progress notification; undefined when the client asked for none. */
  report?: ((progress: McpProgress) => Promise<void>) | undefined;
}
