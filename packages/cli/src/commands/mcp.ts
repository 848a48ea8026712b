import type { Readable, Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { resolveBaseUrl } from '../config.ts';
import { type Command, stringValue, type Writer } from '../context.ts';
import { connectBridge, createBridgeServer } from '../mcp/server.ts';
import { API_OPTIONS } from './common.ts';

/** stdout as the stdio transport needs it: a stream it can wait on when it is full. */
function writable(out: Writer): Writable {
  const stream = out as Partial<Writable>;
  if (typeof stream.once !== 'function') {
    throw new Error('pgs mcp writes the protocol to a stream (process.stdout)');
  }
  return stream as Writable;
}

/**
 * `pgs mcp`: PGS as a stdio MCP server, for agents that start their servers as commands.
 * Each tool call is forwarded to the HTTP API with the SDK; it runs until the client closes
 * its stdin (or Ctrl-C).
 *
 * @example
 * PGS_API_KEY=pgs_test_… pgs mcp
 */
export const mcpServe: Command = {
  name: 'mcp',
  summary: 'Serve PGS to a coding agent over MCP on stdio (tools, documents, a prompt)',
  usage: 'pgs mcp [--base-url URL]',
  credential: 'api-key',
  help: `Speaks the Model Context Protocol on stdin and stdout, for MCP clients that start
their servers as a command (Claude Desktop, Claude Code, Cursor, VS Code). Each call is
forwarded to the HTTP API of the server with the API key, so it costs, counts and is
isolated exactly as the API; clients that speak HTTP can use the server's /mcp directly.

Tools: generate_project (wait: true reports progress until the project ends),
get_project, list_projects, read_document, get_credits, get_trace, and for working
through a completed project's plan list_tasks, next_task and update_task. Resources: each
document as pgs://projects/{projectId}/documents/{filename}. Prompt: new_project_spec.

Nothing but the protocol is written to stdout; one line on stderr says where it forwards.
It ends when the client closes stdin. Set PGS_API_KEY (and PGS_BASE_URL) in the client's
configuration of the server rather than as flags.

Examples:
  claude mcp add pgs --env PGS_API_KEY=pgs_test_... -- npx pgs mcp
  PGS_BASE_URL=https://pgs.example.com PGS_API_KEY=pgs_live_... pgs mcp`,
  options: { ...API_OPTIONS },
  async run(ctx) {
    // Resolved first: no key stops here (exit 3) rather than at the client's first call.
    const pgs = ctx.client();
    const baseUrl = resolveBaseUrl(stringValue(ctx.values, 'base-url'), ctx.io.env);
    const stdin: Readable = ctx.io.stdin ?? process.stdin;
    const server = createBridgeServer(pgs, { baseUrl });
    const closed = new Promise<void>((resolve) => {
      server.onclose = resolve;
    });
    await connectBridge(server, new StdioServerTransport(stdin, writable(ctx.io.stdout)));
    const end = () => void server.close();
    stdin.once('end', end);
    stdin.once('close', end);
    ctx.io.signal?.addEventListener('abort', end, { once: true });
    ctx.io.stderr.write(`pgs mcp: serving PGS at ${baseUrl} over stdio\n`);
    await closed;
  },
};
