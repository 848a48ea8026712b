import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolRequestSchema,
  GetPromptRequestSchema,
  ListResourcesRequestSchema,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { invalidParamsResponse } from '@pgs/contract';

/** The requests whose params the handlers read, with the SDK's schema of each. */
const SCHEMAS = {
  'tools/call': CallToolRequestSchema,
  'resources/list': ListResourcesRequestSchema,
  'resources/read': ReadResourceRequestSchema,
  'prompts/get': GetPromptRequestSchema,
};

/**
 * Answers a request whose params do not have its method's shape with InvalidParams before
 * the SDK's dispatch sees it (which would answer −32603, an internal error). Call after
 * `server.connect(transport)`.
 *
 * @example
 * await server.connect(transport);
 * refuseMalformedParams(transport);
 */
export function refuseMalformedParams(transport: Transport): void {
  const dispatch = transport.onmessage;
  transport.onmessage = (message, extra) => {
    const refusal = invalidParamsResponse(message, SCHEMAS);
    if (refusal === undefined) dispatch?.(message, extra);
    else void transport.send(refusal).catch(() => {});
  };
}
