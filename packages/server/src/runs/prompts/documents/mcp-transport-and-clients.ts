import type { DocumentPrompt } from '../types.ts';

/**
 * The prompt for MCP_TRANSPORT_AND_CLIENTS.md: how clients connect to an MCP server, and what to
 * do when they cannot.
 */
export const MCP_TRANSPORT_AND_CLIENTS: DocumentPrompt<'mcp-transport-and-clients'> = {
  kind: 'mcp-transport-and-clients',
  version: 1,
  reader:
    'The engineers who ship and operate the server, and every user who installs it: they copy a ' +
    'configuration snippet into their client, expect it to work the first time, and need to know ' +
    'what to check when it does not.',
  purpose:
    'Say how clients connect to the server: the transports it offers and how each behaves, how ' +
    'connections are authenticated, the exact configuration for each major client, and the fixes ' +
    'for the failures users actually hit.',
  sections: {
    Transports:
      'Which transports the server offers and why, as the architecture decided. Stdio for a ' +
      "server that runs on the user's machine: the client starts it as a subprocess and " +
      'exchanges JSON-RPC messages on stdin and stdout, one per line; stdout carries nothing ' +
      'else, and logs go to stderr. Streamable HTTP for a remote or shared server: one endpoint ' +
      'path (such as `/mcp`) taking POST and GET, answers as JSON or as a server-sent event ' +
      'stream, the `Mcp-Session-Id` header and how long a session lives, what happens when it ' +
      'expires, and the `MCP-Protocol-Version` header. State the protocol revision the server ' +
      'targets and the SDK and version the stack implies. For HTTP give the limits in numbers ' +
      '(request size, concurrent sessions, timeouts); a local HTTP server binds to 127.0.0.1 and ' +
      'validates the `Origin` header against DNS rebinding. The older HTTP with SSE transport is ' +
      'deprecated: offer it only if a named client still needs it.',
    Authentication:
      'For stdio, credentials for upstream systems come from environment variables set in the ' +
      "client's configuration (name each variable and what it grants), never from command-line " +
      'arguments. For Streamable HTTP, OAuth 2.1 as the MCP authorization specification sets ' +
      'out: the server is a resource server that answers a request without a valid token with ' +
      '401 and a `WWW-Authenticate` header pointing to its protected resource metadata (RFC ' +
      '9728, under `/.well-known/oauth-protected-resource`); the authorization server (the ' +
      "product's own, or an identity provider from the stack, named); how clients register " +
      '(client ID metadata documents or dynamic client registration); PKCE; scopes per group of ' +
      'tools; token lifetimes in minutes; audience validation, so that only tokens issued for ' +
      'this server are accepted; and tokens for upstream APIs obtained by the server itself, ' +
      "never the client's token passed through. Then the first connection, step by step, as a " +
      'numbered list.',
    'Client configuration':
      'For each client, a ### heading with the file location or command and a snippet ready to ' +
      'copy: Claude Desktop (`claude_desktop_config.json`, under `mcpServers`, with `command`, ' +
      "`args` and `env`; a remote server is added as a custom connector in the app's settings " +
      'instead); Claude Code (`claude mcp add`, with `--transport http` for a remote server and ' +
      '`--scope` local, project, which writes `.mcp.json`, or user); Cursor (`.cursor/mcp.json` ' +
      'in the project or `~/.cursor/mcp.json`, under `mcpServers`); VS Code (`.vscode/mcp.json`, ' +
      'under `servers`, each with `type` `stdio` or `http`, and `inputs` to prompt for secrets). ' +
      'Show the stdio form, and the HTTP form too if the server is offered remotely. The launch ' +
      'command follows how the architecture distributes the server (`npx -y` with the package ' +
      'name, `uvx`, a container image, or an absolute path to a local build) and uses the ' +
      "project's real package or binary name. Secrets appear as environment variables whose " +
      'names say what they hold, with one line before the snippet saying where the user gets ' +
      'each value; never a realistic-looking key.',
    Troubleshooting:
      'A table with columns Symptom, Likely cause, Fix, covering the failures users hit: the ' +
      'server does not appear (invalid JSON in the configuration, client not restarted); it ' +
      'starts and then disconnects (something printed to stdout, a crash at startup; where each ' +
      'client keeps its logs, such as `~/Library/Logs/Claude/` on macOS); command not found or ' +
      "the wrong runtime version (desktop apps do not inherit the shell's PATH: use an absolute " +
      'path); missing or wrong environment variables; sign-in loops or a browser window that ' +
      'never returns (redirect URI, clock skew, scopes); tools missing or stale (list changes ' +
      'not announced; reconnect); timeouts on long calls. Then how to test the server by hand ' +
      'with the MCP Inspector (`npx @modelcontextprotocol/inspector` followed by the launch ' +
      'command) and what a healthy session shows.',
  },
  rules: [
    'Agree with the architecture and the tools document: the same transports, package name, tool ' +
      'names and environment variables; contradict neither.',
    'Invent no hosts: use the production domain only if an earlier document names it; otherwise ' +
      'show the local development URL (`http://localhost` with the port the architecture uses, or ' +
      '3000) and say that the hosted address replaces it.',
    'Snippets are valid JSON or shell and complete enough to paste, with the server entry named ' +
      'after the project in kebab-case.',
    'Cite FR and NFR IDs from the product requirements where a transport or authentication ' +
      'choice meets them, written in full and never as a range; introduce no IDs of your own.',
    'About 1,200 to 2,200 words.',
  ],
  maxOutputTokens: 6_000,
};
