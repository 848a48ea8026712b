import { parseArgs } from 'node:util';
import { Pgs, PgsAdmin, VERSION } from '@pgs/client';
import { ADMIN_OPTIONS_HELP, API_OPTIONS_HELP } from './commands/common.ts';
import { COMMANDS, GROUPS, type Group } from './commands/index.ts';
import { resolveAdminToken, resolveApiKey, resolveBaseUrl } from './config.ts';
import {
  type Command,
  type CommandContext,
  type ErrorContext,
  type Io,
  stringValue,
} from './context.ts';
import { UsageError } from './errors.ts';
import { EXIT, EXIT_CODES_HELP, type ExitCode, exitCodeFor } from './exit-codes.ts';
import { reportError } from './output.ts';

/**
 * Runs `pgs` with the given arguments (without `node` and the script) and
 * resolves with the exit code; never throws and never calls `process.exit`.
 *
 * @example
 * const code = await run(['keys', 'create', '--mode', 'test', '--json'], { env: process.env, stdout: process.stdout, stderr: process.stderr });
 */
export async function run(argv: readonly string[], io: Io): Promise<ExitCode> {
  // Known before parsing, so even a usage error honours --json.
  const json = argv.includes('--json');
  const context: ErrorContext = {};
  try {
    return await dispatch(argv, io, json, context);
  } catch (error) {
    reportError(error, io.stderr, { json, context });
    return exitCodeFor(error);
  }
}

async function dispatch(
  argv: readonly string[],
  io: Io,
  json: boolean,
  context: ErrorContext,
): Promise<ExitCode> {
  const [first, second] = argv;
  if (first === undefined) {
    io.stderr.write(`${programHelp()}\n`);
    return EXIT.USAGE;
  }
  if (first === '-h' || first === '--help' || first === 'help') {
    io.stdout.write(`${programHelp()}\n`);
    return EXIT.OK;
  }
  if (first === '-v' || first === '--version') {
    io.stdout.write(`pgs ${VERSION}\n`);
    return EXIT.OK;
  }
  if (first.startsWith('-')) throw new UsageError(`unknown option ${JSON.stringify(first)}`);

  const top = COMMANDS.get(first);
  if (top) return runCommand(top, argv.slice(1), io, json, context);
  const group = GROUPS.get(first);
  if (!group) throw new UsageError(`unknown command ${JSON.stringify(first)}`);
  if (second === '-h' || second === '--help') {
    io.stdout.write(
      `${group.default ? defaultHelp(first, group, group.default) : groupHelp(first, group)}\n`,
    );
    return EXIT.OK;
  }
  if (group.default && (second === undefined || second.startsWith('-'))) {
    return runCommand(group.default, argv.slice(1), io, json, context);
  }
  if (second === undefined || second.startsWith('-')) {
    throw new UsageError(
      `missing subcommand: pgs ${first} ${[...group.verbs.keys()].join('|')}`,
      `pgs ${first}`,
    );
  }
  const command = group.verbs.get(second);
  if (!command) {
    throw new UsageError(
      `unknown command ${JSON.stringify(`${first} ${second}`)}; ${first} has ${[
        ...group.verbs.keys(),
      ].join(', ')}`,
      `pgs ${first}`,
    );
  }
  return runCommand(command, argv.slice(2), io, json, context);
}

async function runCommand(
  command: Command,
  args: readonly string[],
  io: Io,
  json: boolean,
  context: ErrorContext,
): Promise<ExitCode> {
  // Help wins over anything else on the line, even an unknown flag next to it.
  const end = args.indexOf('--');
  const flags = end === -1 ? args : args.slice(0, end);
  if (flags.includes('--help') || flags.includes('-h')) {
    io.stdout.write(`${commandHelp(command)}\n`);
    return EXIT.OK;
  }
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: [...args],
      options: command.options,
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    // Keep parseArgs' first sentence ("Unknown option '--foo'"); its advice about '--' is noise here.
    const raw = error instanceof Error ? error.message : String(error);
    const message = raw.replace(/\. To specify a positional argument[\s\S]*$/, '');
    throw new UsageError(message, `pgs ${command.name}`);
  }

  const values = parsed.values;
  let admin: PgsAdmin | undefined;
  let client: Pgs | undefined;
  const ctx: CommandContext = {
    values,
    positionals: parsed.positionals,
    io,
    json,
    errorContext: context,
    client() {
      if (client) return client;
      const baseUrl = resolveBaseUrl(stringValue(values, 'base-url'), io.env);
      const { key, source } = resolveApiKey(stringValue(values, 'api-key'), io.env);
      context.apiKeySource = source;
      client = new Pgs({
        ...io.client,
        apiKey: key,
        baseUrl,
        ...(io.fetch ? { fetch: io.fetch } : {}),
      });
      return client;
    },
    async admin() {
      if (admin) return admin;
      const baseUrl = resolveBaseUrl(stringValue(values, 'base-url'), io.env);
      const { token, source } = await resolveAdminToken(
        stringValue(values, 'admin-token'),
        io.env,
        io.cwd ?? process.cwd(),
      );
      context.tokenSource = source;
      admin = new PgsAdmin({
        ...io.client,
        adminToken: token,
        baseUrl,
        ...(io.fetch ? { fetch: io.fetch } : {}),
      });
      return admin;
    },
    print(line) {
      io.stdout.write(`${line}\n`);
    },
  };
  await command.run(ctx);
  return EXIT.OK;
}

/**
 * The program's help: commands, common options, configuration and exit codes.
 *
 * @example
 * console.log(programHelp());
 */
export function programHelp(): string {
  const all: Command[] = [...COMMANDS.values()];
  for (const group of GROUPS.values()) {
    if (group.default) all.push(group.default);
    all.push(...group.verbs.values());
  }
  const width = Math.max(...all.map((c) => c.name.length)) + 3;
  const rows = (credential: Command['credential']) =>
    all
      .filter((c) => c.credential === credential)
      .map((c) => `  ${c.name.padEnd(width)}${c.summary}`)
      .join('\n');
  return `pgs ${VERSION}: the command line of PGS, the Project Generation Service

Usage: pgs <command> [options]

Projects (an API key: --api-key or $PGS_API_KEY):
${rows('api-key')}

Operators (the admin token: --admin-token, $PGS_ADMIN_TOKEN or the token file):
${rows('admin')}

Run 'pgs <command> --help' for a command's options.

Options:
  --base-url URL         the server; default $PGS_BASE_URL, else http://127.0.0.1:$PORT
                         (PORT default 3000); the server root or a base ending in /v1
  --api-key KEY          project commands: the API key; default $PGS_API_KEY
  --admin-token TOKEN    operator commands: default $PGS_ADMIN_TOKEN, else the file
                         admin-token in $PGS_DATA_DIR (default ./.pgs)
  --json                 print one JSON line on stdout; errors as JSON on stderr
  -h, --help             show help
  -v, --version          print the version

No API key yet? Use the "Test API key" npm start printed on its first start, or create
one while the server runs: npx pgs keys create --mode test --credits 1000

${EXIT_CODES_HELP}`;
}

function defaultHelp(name: string, group: Group, command: Command): string {
  const others = [...group.verbs.values()].map((c) => `  ${c.usage}`).join('\n');
  return `${commandHelp(command)}

Also under pgs ${name}:
${others}
Run 'pgs ${name} <command> --help' for their options.`;
}

function groupHelp(name: string, group: Group): string {
  const commands = [...group.verbs.values()];
  const width = Math.max(...commands.map((c) => c.name.length)) + 3;
  return `pgs ${name}: ${group.summary}

Usage:
${commands.map((c) => `  ${c.usage}`).join('\n')}

Commands:
${commands.map((c) => `  ${c.name.padEnd(width)}${c.summary}`).join('\n')}

Run 'pgs ${name} <command> --help' for a command's options.`;
}

function commandHelp(command: Command): string {
  return `pgs ${command.name}: ${command.summary}

Usage: ${command.usage}

${command.help}

${command.credential === 'admin' ? ADMIN_OPTIONS_HELP : API_OPTIONS_HELP}

${EXIT_CODES_HELP}`;
}
