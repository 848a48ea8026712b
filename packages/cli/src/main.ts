import { parseArgs } from 'node:util';
import { PgsAdmin, VERSION } from '@pgs/client';
import { ADMIN_OPTIONS_HELP } from './commands/common.ts';
import { GROUPS, type Group } from './commands/index.ts';
import { resolveAdminToken, resolveBaseUrl } from './config.ts';
import { type Command, type CommandContext, type Io, stringValue } from './context.ts';
import { UsageError } from './errors.ts';
import { EXIT, EXIT_CODES_HELP, type ExitCode, exitCodeFor } from './exit-codes.ts';
import { type ErrorContext, reportError } from './output.ts';

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

  const group = GROUPS.get(first);
  if (!group) throw new UsageError(`unknown command ${JSON.stringify(first)}`);
  if (second === '-h' || second === '--help') {
    io.stdout.write(`${groupHelp(first, group)}\n`);
    return EXIT.OK;
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
  const ctx: CommandContext = {
    values,
    positionals: parsed.positionals,
    io,
    json,
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
  const rows: [string, string][] = [];
  for (const group of GROUPS.values()) {
    for (const command of group.verbs.values()) rows.push([command.name, command.summary]);
  }
  const width = Math.max(...rows.map(([name]) => name.length)) + 3;
  return `pgs ${VERSION}: the command line of PGS, the Project Generation Service

Usage: pgs <command> [options]

Commands:
${rows.map(([name, summary]) => `  ${name.padEnd(width)}${summary}`).join('\n')}

Run 'pgs <command> --help' for a command's options.

${ADMIN_OPTIONS_HELP}
  -v, --version          print the version

${EXIT_CODES_HELP}`;
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

${ADMIN_OPTIONS_HELP}

${EXIT_CODES_HELP}`;
}
