import type { Facts, Tool } from './facts.ts';
import { blocks, bullets, code, ic, numbered, table } from './markdown.ts';
import type { SectionWriter } from './phrases.ts';
import { decapitalize, kebab, listing, snake } from './words.ts';

function packageName(f: Facts): string {
  return `${kebab(f.name, 3)}-mcp`.replace(/-mcp-mcp$/, '-mcp');
}

function envPrefix(f: Facts): string {
  return snake(f.name, 3).toUpperCase();
}

function upstreams(f: Facts): string[] {
  return f.stack.filter((t) => /API|node-postgres|sqlite/i.test(t));
}

function envVars(f: Facts): Record<string, string> {
  const vars: Record<string, string> = {};
  for (const api of upstreams(f)) {
    const key = snake(api.split(' ')[0] ?? api, 1).toUpperCase();
    vars[`${key}_BASE_URL`] = `https://${key.toLowerCase()}.internal.${f.slug}.dev`;
  }
  vars[`${envPrefix(f)}_CREDENTIALS_FILE`] = `~/.config/${f.slug}/credentials.json`;
  vars[`${envPrefix(f)}_ALLOW_WRITES`] = 'false';
  return vars;
}

function schemaOf(f: Facts, tool: Tool): object {
  if (tool.name.startsWith('get_'))
    return {
      type: 'object',
      properties: { id: { type: 'string', description: `Id of the ${tool.entity.label}` } },
      required: ['id'],
    };
  if (tool.write)
    return {
      type: 'object',
      properties: {
        title: {
          type: 'string',
          minLength: 1,
          maxLength: 200,
          description: `Title of the ${tool.entity.label}`,
        },
        description: { type: 'string', maxLength: 5000 },
        ...(tool.entity !== f.main ? { [`${snake(f.main.label)}_id`]: { type: 'string' } } : {}),
      },
      required: ['title'],
    };
  return {
    type: 'object',
    properties: {
      query: { type: 'string', description: `Words to look for in ${tool.entity.plural}` },
      limit: { type: 'integer', minimum: 1, maximum: 50, default: 10 },
    },
    required: tool.name.startsWith('list_') ? [] : ['query'],
  };
}

export const MCP_SECTIONS: Record<string, SectionWriter> = {
  'mcp-tools/Tool catalogue': (f) =>
    blocks(
      `${f.name} exposes ${f.tools.length} tools to ${f.reading.assistant ?? 'the assistant'}. Each tool maps to one feature, ` +
        `has a plain-language description the model can understand, and declares whether it only reads or also writes.`,
      table(
        ['Tool', 'Feature', 'Kind', 'Annotations'],
        f.tools.map((tool) => [
          ic(tool.name),
          tool.feature,
          tool.write ? 'write' : 'read',
          tool.write ? 'destructiveHint: false, idempotentHint: false' : 'readOnlyHint: true',
        ]),
      ),
      'What each tool tells the model in its description:',
      bullets(
        f.tools.map(
          (tool) =>
            `${ic(tool.name)}: ${
              tool.write
                ? `${tool.feature} on behalf of the user; asks for confirmation and returns the new ${tool.entity.label} with its link.`
                : tool.name.startsWith('get_')
                  ? `${tool.feature}; returns its full content, status, history and link.`
                  : `${tool.feature}; returns at most 50 ${tool.entity.plural} with titles, links and a one-line summary each.`
            }`,
        ),
      ),
      `Tool names are stable: renaming one breaks saved prompts and client allow-lists, so a rename means adding a new tool and deprecating the old.`,
    ),

  'mcp-tools/Input schemas': (f) =>
    blocks(
      'Inputs are defined with Zod in the server and published as JSON Schema in tools/list. Arguments are validated before any upstream call.',
      ...f.tools
        .slice(0, 3)
        .map((tool) =>
          blocks(`${ic(tool.name)}:`, code('json', JSON.stringify(schemaOf(f, tool), null, 2))),
        ),
      `The remaining tools follow the same pattern. Descriptions say what a good argument looks like, for example which words find ${f.main.plural} best.`,
    ),

  'mcp-tools/Results and errors': (f) =>
    blocks(
      'Every tool returns a short text summary for the model and structured content for clients that can render it.',
      code(
        'json',
        JSON.stringify(
          {
            content: [{ type: 'text', text: `Found 3 ${f.main.plural} matching "onboarding".` }],
            structuredContent: {
              items: [
                {
                  id: '8f14e45f',
                  title: `Onboarding ${f.main.label}`,
                  url: `https://${f.slug}.dev/${f.main.path}/8f14e45f`,
                },
              ],
            },
            isError: false,
          },
          null,
          2,
        ),
      ),
      bullets([
        'Failures the model can act on (no match, invalid argument, missing permission) return isError: true with a sentence that says what to try next.',
        'Upstream time-outs after 10 seconds return a tool error that says the service is slow, never a hung call.',
        'Protocol errors are reserved for malformed requests and unknown tools.',
      ]),
    ),

  'mcp-tools/Safety': (f) =>
    blocks(
      `${f.name} acts on behalf of a person, so its tools are designed to fail safe.`,
      bullets([
        `Write tools (${listing(f.tools.filter((t) => t.write).map((t) => ic(t.name))) || 'none in the first release'}) are disabled unless ${ic(`${envPrefix(f)}_ALLOW_WRITES=true`)} is set.`,
        'Clients are asked to confirm each write; the tool description says it changes data.',
        'Text returned from upstream systems is wrapped and labelled as data, to blunt prompt injection.',
        'Credentials are scoped to the minimum each tool needs and never appear in results or logs.',
        'Every call is logged with tool name, duration and outcome, without argument values.',
      ]),
    ),

  'mcp-resources-and-prompts/Resources': (f) =>
    blocks(
      `Resources give ${f.reading.assistant ?? 'the assistant'} read-only context about ${f.main.plural} without a tool call. ` +
        'The client decides when to attach them to a conversation.',
      table(
        ['URI', 'Content', 'MIME type'],
        [
          [
            ic(`${f.slug}://${f.main.path}/recent`),
            `The 20 most recently changed ${f.main.plural}`,
            'application/json',
          ],
          ...f.entities
            .slice(1)
            .map((e) => [
              ic(`${f.slug}://${e.path}/recent`),
              `Recently changed ${e.plural}`,
              'application/json',
            ]),
          [
            ic(`${f.slug}://guide`),
            `How ${f.name} is configured and which tools are enabled`,
            'text/markdown',
          ],
        ],
      ),
      'Resource contents are capped at 100 KB; larger lists are summarised with a pointer to the matching tool. A read returns:',
      code(
        'json',
        JSON.stringify(
          {
            contents: [
              {
                uri: `${f.slug}://${f.main.path}/recent`,
                mimeType: 'application/json',
                text: JSON.stringify([
                  {
                    id: '8f14e45f',
                    title: `Quarterly ${f.main.label} review`,
                    updatedAt: '2025-03-04T09:12:00Z',
                  },
                ]),
              },
            ],
          },
          null,
          2,
        ),
      ),
    ),

  'mcp-resources-and-prompts/Resource templates': (f) =>
    blocks(
      `Templates let the client address a single item. They use RFC 6570 URI templates:`,
      code(
        'text',
        [
          `${f.slug}://${f.main.path}/{id}`,
          ...f.entities.slice(1).map((e) => `${f.slug}://${e.path}/{id}`),
        ].join('\n'),
      ),
      bullets([
        `The ${ic('id')} variable supports completion: the server suggests matching ids as the user types.`,
        `A template read returns the ${f.main.label} as markdown with its title, status and last changes.`,
        'Unknown ids return a resource-not-found error with a hint to use the search tool.',
      ]),
      `Template reads are cached for 30 seconds per session, so an assistant that reads the same ${f.main.label} several times in one ` +
        'answer does not hit the upstream API again. The cache is never shared between users.',
    ),

  'mcp-resources-and-prompts/Prompts': (f) => {
    const prompts = [
      [
        `${kebab(f.main.label)}-summary`,
        `Summarise the ${f.main.plural} changed this week`,
        'since (optional date)',
      ],
      ...f.actions
        .slice(0, 2)
        .map(
          (action) =>
            [
              kebab(action, 3),
              `Guide the assistant to ${decapitalize(action)} step by step`,
              'topic',
            ] as [string, string, string],
        ),
    ];
    return blocks(
      `Prompts are reusable starting points that users pick from the client's menu; they encode good practice for ${f.audienceShort}.`,
      table(
        ['Prompt', 'What it does', 'Arguments'],
        prompts.map(([name, what, args]) => [ic(name ?? ''), what ?? '', args ?? '']),
      ),
      `For example, ${ic(`${kebab(f.main.label)}-summary`)} expands to a single user message:`,
      code(
        'text',
        `Summarise the ${f.main.plural} that changed since Monday. Use the ${f.tools.find((t) => !t.write)?.name ?? 'search'} tool, ` +
          `group the results by status, and list anything that needs a decision first.`,
      ),
      'Prompts only assemble messages; they never call tools themselves, so the user stays in control.',
    );
  },

  'mcp-resources-and-prompts/Subscriptions': (f) =>
    blocks(
      `Clients that support it can subscribe to resources and hear about changes to ${f.main.plural} as they happen.`,
      numbered([
        'The server declares the resources capability with subscribe and listChanged.',
        `A client sends resources/subscribe for ${ic(`${f.slug}://${f.main.path}/recent`)}.`,
        'When the upstream data changes (polled every 60 seconds, or via webhook when available), the server sends notifications/resources/updated.',
        'The client re-reads the resource; the server never pushes content in the notification itself.',
      ]),
      'Subscriptions end when the session closes; nothing is stored between sessions.',
      `To protect the upstream systems, ${f.name} polls each subscribed resource at most once a minute however many clients subscribe, ` +
        'and coalesces bursts of changes into a single notification. When the server itself changes its tool, resource or prompt lists ' +
        '(for example after writes are enabled), it sends the matching list_changed notification so clients refresh their menus.',
    ),

  'mcp-transport-and-clients/Transports': (f) =>
    blocks(
      `${f.name} supports the two standard MCP transports, both built on ${ic('@modelcontextprotocol/sdk')}:`,
      bullets([
        `**stdio** for local use: the client starts ${ic(`npx -y ${packageName(f)}`)} and talks over standard input and output. Logs go to standard error only.`,
        `**Streamable HTTP** for shared use: a single ${ic('/mcp')} endpoint accepting POST (and GET for server-to-client streams), with session ids in the Mcp-Session-Id header.`,
      ]),
      'The transport is chosen at start-up with the --transport flag; the tools, resources and prompts are identical on both.',
      code(
        'bash',
        `npx -y ${packageName(f)}                               # stdio (default)\nnpx -y ${packageName(f)} --transport http --port 3333   # Streamable HTTP on /mcp`,
      ),
      'Behind a proxy, the HTTP transport must keep connections open for server-sent events and forward the Mcp-Session-Id header unchanged.',
    ),

  'mcp-transport-and-clients/Authentication': (f) =>
    blocks(
      `Authentication differs by transport; the upstream credentials of ${f.name} never pass through the client or the model.`,
      table(
        ['Transport', 'Client to server', 'Server to upstream'],
        [
          [
            'stdio',
            'None needed: the client starts the process as the user',
            `Tokens in the credentials file named by ${envPrefix(f)}_CREDENTIALS_FILE (mode 0600), one per upstream`,
          ],
          [
            'Streamable HTTP',
            'OAuth 2.1 bearer tokens as in the MCP authorization specification',
            'A service token per workspace, stored in a secret manager',
          ],
        ],
      ),
      'Tokens are never accepted as tool arguments, so they cannot leak into a conversation.',
      `On the HTTP transport, ${f.name} publishes OAuth protected-resource metadata so that clients discover the authorization server ` +
        'by themselves; an unauthenticated request receives 401 with a WWW-Authenticate header that points to it. Tokens are checked ' +
        'for audience and expiry on every request, and scopes map to tools: a token without the write scope never sees write tools.',
    ),

  'mcp-transport-and-clients/Client configuration': (f) =>
    blocks(
      `Add ${f.name} to Claude Desktop in ${ic('claude_desktop_config.json')} (Cursor uses the same shape in ${ic('.cursor/mcp.json')}):`,
      code(
        'json',
        JSON.stringify(
          {
            mcpServers: {
              [kebab(f.name, 3)]: { command: 'npx', args: ['-y', packageName(f)], env: envVars(f) },
            },
          },
          null,
          2,
        ),
      ),
      `For Claude Code, one command registers it: ${ic(`claude mcp add ${kebab(f.name, 3)} -- npx -y ${packageName(f)}`)}.`,
      `For VS Code, add it to ${ic('.vscode/mcp.json')} under servers, or point any client at the Streamable HTTP endpoint:`,
      code(
        'json',
        JSON.stringify(
          {
            servers: { [kebab(f.name, 3)]: { type: 'http', url: `https://mcp.${f.slug}.dev/mcp` } },
          },
          null,
          2,
        ),
      ),
    ),

  'mcp-transport-and-clients/Troubleshooting': (f) =>
    blocks(
      `Most problems with ${f.name} are configuration problems; the server logs a clear message to standard error for each.`,
      table(
        ['Symptom', 'Likely cause', 'Fix'],
        [
          [
            'Server does not appear in the client',
            'JSON syntax error or wrong file',
            'Validate the file and restart the client',
          ],
          [
            'Tools list is empty',
            'Start-up failed on a missing variable',
            'Run the npx command in a terminal and read the error',
          ],
          [
            'Write tools missing',
            `${envPrefix(f)}_ALLOW_WRITES is not true`,
            'Enable writes deliberately, then restart',
          ],
          [
            'Calls time out',
            'Upstream API slow or unreachable',
            'Check the base URL and network; calls stop after 10 seconds',
          ],
          [
            '401 from upstream',
            'Expired or under-scoped token',
            'Create a new token with the scopes in the README',
          ],
        ],
      ),
      `The MCP Inspector (${ic('npx @modelcontextprotocol/inspector')}) shows the raw messages when the cause is still unclear.`,
    ),
};
