import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { APIError, type McpDocumentResource, mcp, type Pgs } from '@pgs/client';
import { BridgeTools, bridgeFailure, UnknownToolError } from './tools.ts';

/** The requests whose params the handlers read, with the SDK's schema of each. */
const SCHEMAS = {
  'tools/call': CallToolRequestSchema,
  'resources/list': ListResourcesRequestSchema,
  'resources/read': ReadResourceRequestSchema,
  'prompts/get': GetPromptRequestSchema,
};

/**
 * Connects the bridge to a transport, answering a request whose params do not have its
 * method's shape with InvalidParams before the SDK's dispatch (which would answer −32603),
 * as `/mcp` does.
 *
 * @example
 * await connectBridge(createBridgeServer(pgs, { baseUrl }), new StdioServerTransport());
 */
export async function connectBridge(server: Server, transport: Transport): Promise<void> {
  await server.connect(transport);
  const dispatch = transport.onmessage;
  transport.onmessage = (message, extra) => {
    const refusal = mcp.invalidParamsResponse(message, SCHEMAS);
    if (refusal === undefined) dispatch?.(message, extra);
    else void transport.send(refusal).catch(() => {});
  };
}

/** Completed projects whose documents one page of `resources/list` lists, as on the server. */
export const PROJECTS_PER_PAGE = 10;

/** A resource or prompt failure as the JSON-RPC error `/mcp` answers for it. */
function protocolFailure(error: unknown, baseUrl: string): McpError {
  if (error instanceof McpError) return error;
  if (error instanceof APIError) {
    const code = error.code ?? 'INTERNAL_ERROR';
    return new McpError(mcp.protocolErrorCode(code), error.message, {
      code,
      ...(error.details === undefined ? {} : { details: error.details }),
      ...(error.requestId === undefined ? {} : { request_id: error.requestId }),
    });
  }
  const failure = bridgeFailure(error, baseUrl).content[0];
  const message = failure?.type === 'text' ? failure.text : String(error);
  return new McpError(ErrorCode.InternalError, message, { code: 'INTERNAL_ERROR' });
}

export interface BridgeOptions {
  /** The server's address, named in errors when it cannot be reached. */
  baseUrl: string;
  /** Longest wait of generate_project with `wait: true`. */
  maxWaitMs?: number;
}

/**
 * The MCP server of `pgs mcp`: the definitions of `/mcp` (from `@pgs/client`'s `mcp`), each
 * call forwarded to the HTTP API with the SDK, for clients that speak only stdio.
 *
 * @example
 * const server = createBridgeServer(pgs, { baseUrl });
 * await server.connect(new StdioServerTransport());
 */
export function createBridgeServer(pgs: Pgs, options: BridgeOptions): Server {
  const { baseUrl } = options;
  const tools = new BridgeTools(
    pgs,
    baseUrl,
    options.maxWaitMs === undefined ? {} : { maxWaitMs: options.maxWaitMs },
  );
  const server = new Server(mcp.MCP_SERVER_INFO, {
    capabilities: { tools: {}, resources: {}, prompts: {} },
    instructions: mcp.MCP_INSTRUCTIONS,
  });
  serveTools(server, tools);
  serveResources(server, pgs, baseUrl);
  servePrompts(server);
  return server;
}

/** tools/list and tools/call: each call forwarded, its progress reported when asked for. */
function serveTools(server: Server, tools: BridgeTools): void {
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [...mcp.MCP_TOOLS] }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const token = request.params._meta?.progressToken;
    try {
      return await tools.call(request.params.name, request.params.arguments, {
        signal: extra.signal,
        report:
          token === undefined
            ? undefined
            : (progress) =>
                extra.sendNotification({
                  method: 'notifications/progress',
                  params: { progressToken: token, ...progress },
                }),
      });
    } catch (error) {
      if (error instanceof UnknownToolError) {
        throw new McpError(ErrorCode.InvalidParams, error.message);
      }
      throw error;
    }
  });
}

/** The documents of completed projects as resources: their template, a page of them, one read. */
function serveResources(server: Server, pgs: Pgs, baseUrl: string): void {
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({
    resourceTemplates: [mcp.DOCUMENT_RESOURCE_TEMPLATE],
  }));
  server.setRequestHandler(ListResourcesRequestSchema, async (request, extra) => {
    try {
      return await documentsPage(pgs, request.params?.cursor, extra.signal);
    } catch (error) {
      throw protocolFailure(error, baseUrl);
    }
  });
  server.setRequestHandler(ReadResourceRequestSchema, async (request, extra) => {
    const { uri } = request.params;
    const named = mcp.parseDocumentUri(uri);
    if (named === undefined) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `Not a PGS document: resources are ${mcp.DOCUMENT_URI_TEMPLATE}.`,
        {
          code: 'VALIDATION_ERROR',
          details: { invalid_fields: { uri: `must match ${mcp.DOCUMENT_URI_TEMPLATE}` } },
        },
      );
    }
    try {
      const text = await pgs.projects.document(named.projectId, named.filename, {
        signal: extra.signal,
      });
      return { contents: [{ uri, mimeType: 'text/markdown', text }] };
    } catch (error) {
      throw protocolFailure(error, baseUrl);
    }
  });
}

/** One page of resources/list: the documents of a page of completed projects, and its cursor. */
async function documentsPage(
  pgs: Pgs,
  cursor: string | undefined,
  signal: AbortSignal,
): Promise<{ resources: McpDocumentResource[]; nextCursor?: string }> {
  const page = await pgs.projects.list(
    { status: 'completed', limit: PROJECTS_PER_PAGE, startingAfter: cursor },
    { signal },
  );
  const resources: McpDocumentResource[] = [];
  for (const summary of page.data) {
    const status = await pgs.projects.get(summary.projectId, { signal });
    if (status.status !== 'completed') continue;
    for (const doc of status.project.documents) {
      resources.push(mcp.documentResource(status.projectId, status.project.name, doc.filename));
    }
  }
  const last = page.data.at(-1);
  return {
    resources,
    ...(page.hasMore && last !== undefined ? { nextCursor: last.projectId } : {}),
  };
}

/** The one prompt of `/mcp`, listed and rendered from its arguments. */
function servePrompts(server: Server): void {
  server.setRequestHandler(ListPromptsRequestSchema, () => ({
    prompts: [mcp.NEW_PROJECT_SPEC_PROMPT],
  }));
  server.setRequestHandler(GetPromptRequestSchema, (request) => {
    const outcome = mcp.getPrompt(request.params.name, request.params.arguments);
    if (outcome.ok) return outcome.result;
    throw new McpError(
      ErrorCode.InvalidParams,
      outcome.message,
      outcome.details && { code: 'VALIDATION_ERROR', details: outcome.details },
    );
  });
}
