import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  CancelledNotificationSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { MCP_INSTRUCTIONS, MCP_SERVER_INFO, MCP_TOOLS } from '@pgs/contract';
import type { McpCancellations } from './cancellations.ts';
import { mcpPrompts } from './prompts.ts';
import type { McpResources } from './resources.ts';
import type { McpCall, McpTools } from './tools.ts';

/** The tools and resources one process serves, built once and shared by every request. */
export interface McpHandlers {
  tools: McpTools;
  resources: McpResources;
  cancellations: McpCancellations;
}

/**
 * An MCP server for one HTTP request (stateless mode: docs/mcp.md): the SDK's low-level
 * `Server`, whose handlers list the shared definitions and call the process's tools and
 * resources as `call.principal`. The low-level server takes the definitions' JSON Schemas as
 * they are (the high-level `McpServer` wants zod schemas, and answers bad arguments in its
 * own words instead of the API's `invalid_fields`).
 *
 * @example
 * const server = createMcpServer(handlers, { principal, signal, log, requestId });
 * await server.connect(transport);
 */
export function createMcpServer(handlers: McpHandlers, call: McpCall): Server {
  const server = new Server(MCP_SERVER_INFO, {
    capabilities: { tools: {}, resources: {}, prompts: {} },
    instructions: MCP_INSTRUCTIONS,
  });
  const within = (signal: AbortSignal): McpCall => ({
    ...call,
    signal: AbortSignal.any([call.signal, signal]),
  });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [...MCP_TOOLS] }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const token = request.params._meta?.progressToken;
    // A cancellation may come later in a request of its own, to any process.
    const tracked = handlers.cancellations.track(call.principal.keyId, extra.requestId);
    try {
      return await handlers.tools.call(request.params.name, request.params.arguments, {
        ...within(AbortSignal.any([extra.signal, tracked.signal])),
        report:
          token === undefined
            ? undefined
            : (progress) =>
                extra.sendNotification({
                  method: 'notifications/progress',
                  params: { progressToken: token, ...progress },
                }),
      });
    } finally {
      tracked.done();
    }
  });
  server.setNotificationHandler(CancelledNotificationSchema, async (notification) => {
    const { requestId } = notification.params;
    if (requestId !== undefined) {
      await handlers.cancellations.cancel(call.principal.keyId, requestId);
    }
  });
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () =>
    handlers.resources.templates(),
  );
  server.setRequestHandler(ListResourcesRequestSchema, (request, extra) =>
    handlers.resources.list(request.params?.cursor, within(extra.signal)),
  );
  server.setRequestHandler(ReadResourceRequestSchema, (request, extra) =>
    handlers.resources.read(request.params.uri, within(extra.signal)),
  );
  server.setRequestHandler(ListPromptsRequestSchema, () => mcpPrompts.list());
  server.setRequestHandler(GetPromptRequestSchema, (request) =>
    mcpPrompts.get(request.params.name, request.params.arguments),
  );
  return server;
}
