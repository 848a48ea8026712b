/**
 * How clients reach an MCP server: transports, authentication, client configuration and
 * troubleshooting.
 */
import { toolsOf } from '../facts/delivery-model.ts';
import type { Facts } from '../facts/facts.ts';
import { theService } from '../facts/facts.ts';
import { settledOf } from '../facts/settled.ts';
import { blocks, bold, bullets, code, ic, listingOf, p, t, table } from '../text/nodes.ts';
import { kebab, listing, snake } from '../text/words.ts';
import type { KindWriter } from './kind.ts';

const packageName = (f: Facts) => `${kebab(f.name, 3)}-mcp`.replace(/-mcp-mcp$/, '-mcp');

/**
 * The command that starts the published package, as words (`npx -y pkg`, `uvx pkg`): the runtime's
 * fetch-and-run when the stack decision knows it, otherwise the package's own binary.
 */
const starts = (f: Facts): string[] => [...(settledOf(f).stack.tools?.fetch ?? []), packageName(f)];

/** A client's `command` and `args` for the package. */
const launch = (f: Facts) => ({ command: starts(f)[0]!, args: starts(f).slice(1) });

/** The environment variable holding a service's credentials. */
const envOf = (name: string) =>
  `${snake(name, 2).toUpperCase()}_${/postgres|sqlite|mysql/i.test(name) ? 'URL' : 'TOKEN'}`;

/**
 * The writers of Transport and Client Configuration (MCP_TRANSPORT_AND_CLIENTS.md): one per
 * section of the catalogue's `mcp-transport-and-clients`, so a section missing or renamed there
 * fails the build.
 */
export const MCP_TRANSPORT_AND_CLIENTS = {
  purpose: 'This document explains how clients connect to it and how to configure them',
  sections: {
    Transports: (f) =>
      blocks(
        p`${f.name} speaks MCP over two transports; its ${toolsOf(f).length} tools are the same on both.`,
        bullets([
          t`${bold('stdio')}: ${f.assistant} starts ${ic(starts(f).join(' '))} on the user's machine. This is the default (${f.assumptions.find((a) => /stdio/.test(a.choice))?.id ?? 'the assumptions'}); logs go to standard error only.`,
          t`${bold('Streamable HTTP')}: one ${ic('/mcp')} endpoint, for a team that shares one ${f.name}; each session has its own ${ic('Mcp-Session-Id')}.`,
        ]),
        code(
          'bash',
          `${starts(f).join(' ')}                    # stdio\n${starts(f).join(' ')} --http --port 3333  # Streamable HTTP on /mcp`,
        ),
      ),

    Authentication: (f) =>
      blocks(
        p`${f.name} holds the credentials for ${listing(f.integrations.map((i) => theService(i.name))) || 'its sources'}; ${f.assistant} never sees them.`,
        f.integrations.length > 0 &&
          table(
            ['Service', 'Variable', 'Rights'],
            f.integrations.map((i) => [
              i.name,
              ic(envOf(i.name)),
              f.readOnly ? 'Read only' : t`What it takes to ${i.purpose}, no more`,
            ]),
          ),
        p`Over Streamable HTTP, a client presents an OAuth bearer token that ${f.name} checks on every request.`,
      ),

    'Client configuration': (f) =>
      blocks(
        p`The configuration for ${f.assistant} (Claude Desktop's ${ic('claude_desktop_config.json')}; Cursor's ${ic('.cursor/mcp.json')} has the same shape):`,
        code(
          'json',
          JSON.stringify(
            {
              mcpServers: {
                [kebab(f.name, 3)]: {
                  ...launch(f),
                  env: Object.fromEntries(
                    f.integrations.map((i) => [envOf(i.name), `<${envOf(i.name).toLowerCase()}>`]),
                  ),
                },
              },
            },
            null,
            2,
          ),
        ),
        p`Claude Code adds it with ${ic(`claude mcp add ${kebab(f.name, 3)} -- ${starts(f).join(' ')}`)}. VS Code reads ${ic('.vscode/mcp.json')}:`,
        code(
          'json',
          JSON.stringify(
            {
              servers: {
                [kebab(f.name, 3)]: { type: 'stdio', ...launch(f) },
              },
            },
            null,
            2,
          ),
        ),
        p`A team that shares one ${f.name} over Streamable HTTP points each client at its ${ic('/mcp')} URL instead, with the bearer token of the Authentication section.`,
      ),

    Troubleshooting: (f) =>
      blocks(
        p`When ${f.name} does not behave, in the order to check:`,
        table(
          ['Symptom', 'Likely cause', 'Fix'],
          [
            [
              t`${f.name} is missing from ${f.assistant}`,
              'A syntax error in the configuration file',
              'Validate the file and restart the client',
            ],
            ...f.integrations.map((i) => {
              const tools = toolsOf(f).filter((tool) => tool.req.service?.name === i.name);
              return [
                t`Every ${tools.length > 0 ? listingOf(tools.map((tool) => ic(tool.name))) : 'tool'} call fails`,
                t`${ic(envOf(i.name))} is missing, expired or lacks rights`,
                t`Renew it, then run ${ic(starts(f).join(' '))} in a terminal to read the error`,
              ];
            }),
            ...toolsOf(f)
              .filter((tool) => tool.approval)
              .map((tool) => [
                t`${ic(tool.name)} never runs`,
                'No approval was given',
                'Approve the request, or ask who may approve',
              ]),
          ],
        ),
        p`The MCP Inspector${settledOf(f).stack.tools ? t` (${ic(settledOf(f).stack.tools!.inspector)})` : ''} shows each message ${f.name} exchanges.`,
      ),
  },
} satisfies KindWriter<'mcp-transport-and-clients'>;
