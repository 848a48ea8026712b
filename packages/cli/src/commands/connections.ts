import type { Readable } from 'node:stream';
import type { Connection, ConnectionCreated, CreateConnectionRequest } from '@pgs/client';
import type { Command, CommandContext } from '../context.ts';
import { stringValue } from '../context.ts';
import { UsageError } from '../errors.ts';
import { table } from '../output.ts';
import { API_OPTIONS, expectPositionals } from './common.ts';

const LIST = 'connections';
const DISCONNECT = 'disconnect';

/** Where the token is read from: never a flag's value, which shells keep in their history. */
const TOKEN_OPTIONS = {
  'token-env': { type: 'string' },
  'token-stdin': { type: 'boolean' },
  name: { type: 'string' },
} as const;

const TOKEN_HELP = (fallback: string) => `Token:
  --token-env NAME       read the token from the environment variable NAME
                         (default ${fallback})
  --token-stdin          read the token from stdin (e.g. from a password manager)
  Never pass a token as a flag's value: shells keep history, and flags show in ps.`;

/** Reads all of stdin as text. */
async function readAll(stdin: Readable): Promise<string> {
  let text = '';
  for await (const chunk of stdin) text += String(chunk);
  return text;
}

/** The token, from stdin or the named (or default) environment variable. */
async function token(ctx: CommandContext, fallback: string, command: string): Promise<string> {
  if (ctx.values['token-stdin'] === true) {
    const read = (await readAll(ctx.io.stdin ?? process.stdin)).trim();
    if (read === '') throw new UsageError('stdin held no token', `pgs ${command}`);
    return read;
  }
  const name = stringValue(ctx.values, 'token-env') ?? fallback;
  const value = ctx.io.env[name]?.trim();
  if (!value) {
    throw new UsageError(
      `the environment variable ${name} holds no token: export it, or use --token-env NAME or --token-stdin`,
      `pgs ${command}`,
    );
  }
  return value;
}

function required(ctx: CommandContext, option: string, command: string): string {
  const value = stringValue(ctx.values, option)?.trim();
  if (!value) throw new UsageError(`missing --${option}`, `pgs ${command}`);
  return value;
}

/** Sends the connection and prints it with its webhook, whose secret is shown only now. */
async function connect(ctx: CommandContext, request: CreateConnectionRequest): Promise<void> {
  const name = stringValue(ctx.values, 'name');
  const baseUrl = request.baseUrl ?? stringValue(ctx.values, 'api-url');
  const made: ConnectionCreated = await ctx
    .client()
    .connections.create(
      { ...request, ...(name ? { name } : {}), ...(baseUrl ? { baseUrl } : {}) },
      { signal: ctx.io.signal },
    );
  if (ctx.json) {
    ctx.print(JSON.stringify(made));
    return;
  }
  const { connection, webhook } = made;
  ctx.print(
    [
      `Connected ${connection.provider} ${connection.name} as ${connection.id}.`,
      '',
      'Configure the webhook on the tracker, so closed issues close their tasks:',
      `  URL      ${webhook.url}`,
      `  Secret   ${webhook.secret}`,
      `  How      ${webhook.help}`,
      '',
      `The secret is shown only now. Remove the connection with: pgs disconnect ${connection.id}`,
    ].join('\n'),
  );
}

/**
 * `pgs connect github --repo owner/repo`: connects a GitHub repository.
 *
 * @example
 * GITHUB_TOKEN=… pgs connect github --repo acme/booking
 */
export const connectGithub: Command = {
  name: 'connect github',
  summary: 'Connect a GitHub repository (issues)',
  usage: 'pgs connect github --repo OWNER/REPO [--token-env NAME | --token-stdin] [--json]',
  credential: 'api-key',
  help: `Connects a GitHub repository to the key's account and mode, once GitHub accepted the
token (Issues: read and write) and the repository. Prints the webhook URL and secret to
configure on the repository (shown only now).

Options:
  --repo OWNER/REPO      the repository
  --name NAME            a name for people (default OWNER/REPO)
  --api-url URL          GitHub Enterprise Server's API, e.g. https://github.example.com/api/v3

${TOKEN_HELP('GITHUB_TOKEN')}`,
  options: {
    ...API_OPTIONS,
    ...TOKEN_OPTIONS,
    repo: { type: 'string' },
    'api-url': { type: 'string' },
  },
  async run(ctx) {
    expectPositionals(ctx.positionals, 0, 'connect github');
    const repo = required(ctx, 'repo', 'connect github');
    const [owner, name, ...rest] = repo.split('/');
    if (!owner || !name || rest.length > 0) {
      throw new UsageError(
        `--repo is OWNER/REPO, not ${JSON.stringify(repo)}`,
        'pgs connect github',
      );
    }
    const secret = await token(ctx, 'GITHUB_TOKEN', 'connect github');
    await connect(ctx, {
      provider: 'github',
      credentials: { token: secret },
      target: { owner, repo: name },
    });
  },
};

/**
 * `pgs connect linear --team ENG`: connects a Linear team.
 *
 * @example
 * LINEAR_API_KEY=… pgs connect linear --team ENG
 */
export const connectLinear: Command = {
  name: 'connect linear',
  summary: 'Connect a Linear team',
  usage: 'pgs connect linear --team KEY [--token-env NAME | --token-stdin] [--json]',
  credential: 'api-key',
  help: `Connects a Linear team to the key's account and mode, once Linear accepted the API key
and the team. Prints the webhook URL and secret to configure in Linear (shown only now).

Options:
  --team KEY             the team's key (ENG) or id
  --name NAME            a name for people (default the team)

${TOKEN_HELP('LINEAR_API_KEY')}`,
  options: { ...API_OPTIONS, ...TOKEN_OPTIONS, team: { type: 'string' } },
  async run(ctx) {
    expectPositionals(ctx.positionals, 0, 'connect linear');
    const team = required(ctx, 'team', 'connect linear');
    const secret = await token(ctx, 'LINEAR_API_KEY', 'connect linear');
    await connect(ctx, { provider: 'linear', credentials: { token: secret }, target: { team } });
  },
};

/**
 * `pgs connect jira --site URL --project KEY --email ADDRESS`: connects a Jira project.
 *
 * @example
 * JIRA_API_TOKEN=… pgs connect jira --site https://acme.atlassian.net --project PGS --email me@acme.com
 */
export const connectJira: Command = {
  name: 'connect jira',
  summary: 'Connect a Jira project',
  usage:
    'pgs connect jira --site URL --project KEY --email ADDRESS [--token-env NAME | --token-stdin] [--json]',
  credential: 'api-key',
  help: `Connects a Jira project to the key's account and mode, once Jira accepted the email and
API token and the project. Prints the webhook URL and secret to configure in Jira (shown
only now).

Options:
  --site URL             the Jira site, e.g. https://acme.atlassian.net
  --project KEY          the project key (PGS)
  --email ADDRESS        the Atlassian account the API token belongs to
  --name NAME            a name for people (default the project key)

${TOKEN_HELP('JIRA_API_TOKEN')}`,
  options: {
    ...API_OPTIONS,
    ...TOKEN_OPTIONS,
    site: { type: 'string' },
    project: { type: 'string' },
    email: { type: 'string' },
  },
  async run(ctx) {
    expectPositionals(ctx.positionals, 0, 'connect jira');
    const site = required(ctx, 'site', 'connect jira');
    const projectKey = required(ctx, 'project', 'connect jira');
    const email = required(ctx, 'email', 'connect jira');
    const apiToken = await token(ctx, 'JIRA_API_TOKEN', 'connect jira');
    await connect(ctx, {
      provider: 'jira',
      baseUrl: site,
      credentials: { email, apiToken },
      target: { projectKey },
    });
  },
};

const seconds = (iso: string | null) => (iso === null ? '-' : iso.replace(/\.\d+Z$/, 'Z'));

const COLUMNS: readonly [string, (c: Connection) => string][] = [
  ['ID', (c) => c.id],
  ['PROVIDER', (c) => c.provider],
  ['NAME', (c) => c.name],
  ['RECONCILED', (c) => seconds(c.reconciledAt)],
  ['CREATED', (c) => seconds(c.createdAt)],
];

/**
 * `pgs connections`: the key's tracker connections, never with credentials.
 *
 * @example
 * pgs connections --json
 */
export const connectionsList: Command = {
  name: LIST,
  summary: "List the key's tracker connections",
  usage: 'pgs connections [--json]',
  credential: 'api-key',
  help: `Lists the tracker connections of the key's account in the key's mode, oldest first.
Credentials and webhook secrets are never listed.

On a terminal, a table (ID, PROVIDER, NAME, RECONCILED, CREATED); piped, one tab-separated
line per connection, no header. With --json, one line: {"data":[...]}.`,
  options: { ...API_OPTIONS },
  async run(ctx) {
    expectPositionals(ctx.positionals, 0, LIST);
    const data = await ctx.client().connections.list({ signal: ctx.io.signal });
    if (ctx.json) {
      ctx.print(JSON.stringify({ data }));
      return;
    }
    const tty = ctx.io.stdout.isTTY === true;
    if (tty && data.length === 0) {
      ctx.print('No connections. Make one with: pgs connect github --repo OWNER/REPO');
      return;
    }
    for (const line of table(COLUMNS, data, tty)) ctx.print(line);
  },
};

/**
 * `pgs disconnect ID`: deletes a connection and its links; the issues stay on the tracker.
 *
 * @example
 * pgs disconnect tc_01JD6WQ8V4Z9K3M2N5P7R8S0TA
 */
export const disconnect: Command = {
  name: DISCONNECT,
  summary: 'Delete a tracker connection',
  usage: 'pgs disconnect ID [--json]',
  credential: 'api-key',
  help: `Deletes a tracker connection with its links of tasks to issues; the issues stay on the
tracker. Remove the webhook on the tracker too.

Arguments:
  ID                     the connection id (tc_...), as printed by pgs connect or pgs connections

With --json, prints one line: {"id","deleted":true}.`,
  options: { ...API_OPTIONS },
  async run(ctx) {
    const id = ctx.positionals[0]?.trim();
    if (!id) throw new UsageError('missing the connection ID', `pgs ${DISCONNECT}`);
    expectPositionals(ctx.positionals, 1, DISCONNECT);
    await ctx.client().connections.delete(id, { signal: ctx.io.signal });
    if (ctx.json) {
      ctx.print(JSON.stringify({ id, deleted: true }));
      return;
    }
    ctx.print(`Deleted connection ${id}.`);
  },
};
