import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../../errors.ts';
import type { Broadcast } from '../../events/broadcast.ts';
import { withoutStack } from '../plugins/errors.ts';
import { closedSignal } from '../routes/projects/common.ts';
import { errorResponses } from '../routes/schemas.ts';
import { batchRefusal, countBatch } from './batches.ts';
import { McpCancellations } from './cancellations.ts';
import { refuseMalformedParams } from './params.ts';
import { McpResources } from './resources.ts';
import { createMcpServer, type McpHandlers } from './server.ts';
import { type McpServices, McpTools } from './tools.ts';

/** Default longest wait of generate_project with `wait: true`: 15 minutes. */
export const MCP_MAX_WAIT_MS = 15 * 60_000;

export type McpEndpointOptions = Omit<McpServices, 'maxWaitMs'> & {
  /** Where cancellations are announced to every API process. */
  broadcast: Broadcast;
  /** Longest wait of generate_project with `wait: true` (default {@link MCP_MAX_WAIT_MS}). */
  maxWaitMs?: number;
};

/** The request headers the transport reads; nothing else of the request reaches it. */
const FORWARDED = ['accept', 'content-type', 'mcp-protocol-version', 'mcp-session-id'] as const;

function webRequest(request: FastifyRequest): Request {
  const headers = new Headers();
  for (const name of FORWARDED) {
    const value = request.headers[name];
    if (typeof value === 'string') headers.set(name, value);
  }
  return new Request('http://pgs.invalid/mcp', { method: 'POST', headers });
}

/**
 * The transport's refusal (a JSON-RPC error at an HTTP status) in the contract's envelope,
 * like every other error of the server; worded here rather than echoing what was sent.
 */
function refusal(status: number): ApiError {
  const fields: Record<number, [string, string, string]> = {
    406: [
      'Accept',
      'must list application/json and text/event-stream',
      'MCP over Streamable HTTP: send "Accept: application/json, text/event-stream".',
    ],
    415: ['Content-Type', 'must be application/json', 'The body must be sent as application/json.'],
  };
  const [field, rule, message] = fields[status] ?? [
    'body',
    `must be a JSON-RPC 2.0 message of MCP (protocol versions ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')})`,
    'The body is not an MCP message this server accepts (JSON-RPC 2.0; one initialize request alone).',
  ];
  return withoutStack(
    () =>
      new ApiError('VALIDATION_ERROR', message, {
        status: status === 406 || status === 415 ? status : 400,
        details: { invalid_fields: { [field]: rule } },
      }),
  );
}

/**
 * `POST /mcp`: the Model Context Protocol over Streamable HTTP, in stateless mode. Each
 * request gets its own SDK server and transport, which live as long as its answer: nothing
 * is kept between requests, so any API process can answer any of them (docs/mcp.md). It
 * sits behind the API key (401 in the envelope, `WWW-Authenticate`) and counts each JSON-RPC
 * message against the key's `mcp` limit (a batch of n counts n; batches are refused from
 * protocol 2025-06-18 on, which has none); each tool call counts, besides, against the limit
 * of the REST operation it stands for. GET and DELETE (a standalone stream, ending a session)
 * have no use without sessions: 405, as the specification allows.
 *
 * @example
 * await app.register(mcpEndpoint, { broadcast, projects, projectReads, credits, statusReader, events, reads, traces, tasks, limiters });
 */
export async function mcpEndpoint(app: FastifyInstance, options: McpEndpointOptions) {
  const { broadcast, ...rest } = options;
  const cancellations = await McpCancellations.start(broadcast);
  app.addHook('onClose', async () => {
    await cancellations.stop();
  });
  const services: McpServices = {
    ...rest,
    maxWaitMs: options.maxWaitMs ?? MCP_MAX_WAIT_MS,
  };
  const handlers: McpHandlers = {
    tools: new McpTools(services),
    resources: new McpResources(services),
    cancellations,
  };

  app.post(
    '/mcp',
    {
      config: { rateLimit: 'mcp' },
      schema: {
        headers: {
          type: 'object',
          properties: {
            accept: { type: 'string' },
            'mcp-protocol-version': { type: 'string' },
          },
        },
        response: errorResponses(400, 401, 403, 406, 413, 415, 429, 500),
      },
    },
    async (request, reply) => {
      if (Array.isArray(request.body)) {
        const version = request.headers['mcp-protocol-version'];
        const refused = batchRefusal(
          request.body,
          typeof version === 'string' ? version : undefined,
        );
        if (refused !== undefined) throw refused;
        await countBatch(options.limiters.mcp, request.principal.keyId, request.body.length, reply);
      }
      // Aborts when the client leaves or the server shuts down: a waiting tool then answers
      // with the status as it is.
      const closed = closedSignal(reply);
      const server = createMcpServer(handlers, {
        principal: request.principal,
        signal: closed,
        log: request.log,
        requestId: request.id,
      });
      // No sessionIdGenerator: stateless, no Mcp-Session-Id.
      const transport = new WebStandardStreamableHTTPServerTransport({});
      await server.connect(transport);
      refuseMalformedParams(transport);
      // Once the answer is sent, or the client left: in-flight handlers are aborted.
      reply.raw.once('close', () => void server.close());
      const response = await transport.handleRequest(webRequest(request), {
        parsedBody: request.body,
      });
      if (response.status >= 400) {
        await server.close();
        throw refusal(response.status);
      }
      reply.code(response.status);
      response.headers.forEach((value, name) => {
        // Node manages the connection itself.
        if (name !== 'connection') reply.header(name, value);
      });
      return reply.send(response.body ?? undefined);
    },
  );
}
