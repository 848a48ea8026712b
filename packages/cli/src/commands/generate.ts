import type {
  ClarifyingAnswer,
  Pgs,
  ProjectContext,
  ProjectCreated,
  ProjectType,
} from '@pgs/client';
import type { Command, CommandContext, Values } from '../context.ts';
import { stringValue } from '../context.ts';
import { checkOutDir } from '../documents.ts';
import { UsageError } from '../errors.ts';
import { formatDuration } from '../progress.ts';
import { askAnswers, givenAnswers } from './clarify.ts';
import {
  API_OPTIONS,
  type Detail,
  detailValue,
  durationValue,
  projectTypeValue,
  type RequirementStyle,
  simulateValue,
  styleValue,
} from './common.ts';
import { EVENTS_PROGRESS_HELP, followToResult } from './live.ts';
import {
  buildDigest,
  contextOf,
  digestSummary,
  printDryRun,
  REPO_OPTIONS,
  REPO_OPTIONS_HELP,
  type RepoRequest,
  repoValues,
} from './repo.ts';
import { deliver, reportFailure, WAIT_OPTIONS_HELP, waitWithProgress } from './results.ts';

const NAME = 'generate';

/**
 * `pgs generate "<idea>"`: creates a project, shows its progress and writes its documents.
 *
 * @example
 * pgs generate "A habit tracker for remote teams" --out ./habits
 */
export const generate: Command = {
  name: NAME,
  summary: 'Generate a project from an idea and write its documents',
  usage:
    'pgs generate "<idea>" [--ask [--yes]] [--answer QUESTION="answer"]... [--answers FILE] [--type web|mobile|mcp] [--detail brief|standard|deep] [--style ears|gherkin] [--language TAG] [--no-conventions] [--name NAME] [--repo DIR [--repo-budget TOKENS] [--dry-run]] [--out DIR] [--no-wait] [--json]',
  credential: 'api-key',
  help: `Creates a project from the idea (its price in credits is reserved at once), follows
it live until it ends, then writes every document into DIR and prints each path
and a summary (name, type, documents, credits consumed).

Arguments:
  "<idea>"               the project idea in plain words, 10 to 5,000 characters

Options:
  --ask                  first ask what the idea leaves open (pgs clarify), one question
                         at a time on the terminal: Enter accepts the recommended
                         answer, a number picks a listed option, any other line is the
                         answer. The answers are facts of every document
                         (docs/clarify.md). When stdin is not a terminal, --answer,
                         --answers or --yes is required (else exit 2); without --yes
                         only the answers given are sent, and the questions left stay
                         assumptions of the brief (pgs answer ID)
  --yes                  with --ask: accept every recommended answer without asking;
                         stderr lists them
  --answer QUESTION="answer"
                         answer one question without asking (repeatable, for scripts);
                         QUESTION is its id (pgs clarify) or its text:
                         --answer sign-in="Google Workspace SSO only"
  --answers FILE         the answers as the API takes them, a JSON array of
                         { "question": "…", "answer": "…" }; an --answer to the same
                         question wins. With --ask, a given answer is not asked again
  --type web|mobile|mcp  the kind of project; inferred from the idea when absent
  --detail brief|standard|deep
                         how much the documents say, and so the price: brief (about
                         half the length: the essentials, IDs and criteria kept; each
                         document's credits halved, rounded up), standard (the default)
                         or deep (edge cases, failure modes, rationale; x1.5, rounded up)
  --style ears|gherkin   how acceptance criteria are written: ears (WHEN … THE SYSTEM
                         SHALL …) or gherkin (Given/When/Then scenarios keeping their
                         FR-n.m IDs); default: the account's conventions, else ears
  --language TAG         the documents' language, a BCP 47 tag (de, pt-BR); models write
                         in it, the offline engine in English (provenance says so);
                         default: the account's conventions, else English
  --no-conventions       ignore the account's house conventions (pgs conventions get)
  --name NAME            the project's name; generated when absent
${REPO_OPTIONS_HELP}
  --out DIR              where to write the documents; default ./<project-name>/ (or
                         ./<project-name>-2/ ... when that holds files). A given DIR
                         must be missing or empty, unless --force
  --force                write into a non-empty DIR, overwriting files of the same names
  --no-wait              print the project id and exit; follow it with pgs wait ID --out DIR
${WAIT_OPTIONS_HELP}
  --simulate completed|failed
                         test keys only: end as given after --duration, without a model
  --duration DURATION    with --simulate: how long the project stays in progress (e.g. 1500)

${EVENTS_PROGRESS_HELP}

With --json: no progress; one line on stdout, the final status as the API returns it
(with --no-wait, the created in-progress status). The documents are written all the same.

With --repo, the documents describe the system that exists (its stack, components and
files) and plan the idea as a change to it. A line before the project starts says what
is sent (files, bytes, tokens, secrets redacted, files left out); --dry-run lists it.

A project that ends failed prints the reason and exits 9 (its credits were refunded).

Examples:
  pgs generate "A habit tracker for remote teams" --out ./habits
  pgs generate "A shared shopping list for flatmates" --detail brief
  pgs generate "A booking tool for dog groomers" --style gherkin
  pgs generate --ask "A booking tool for dog groomers with SMS reminders"
  pgs generate "A booking tool for dog groomers" --answer payment="19 dollars a month"
  pgs generate "Add team billing" --repo . --dry-run
  pgs generate "Add team billing" --repo . --repo-budget 30000 --out ./billing
  ID=$(pgs generate "An MCP server for our wiki" --type mcp --no-wait)
  pgs wait "$ID" --out ./wiki-mcp`,
  options: {
    ...API_OPTIONS,
    ask: { type: 'boolean' },
    yes: { type: 'boolean' },
    answer: { type: 'string', multiple: true },
    answers: { type: 'string' },
    type: { type: 'string' },
    detail: { type: 'string' },
    style: { type: 'string' },
    language: { type: 'string' },
    'no-conventions': { type: 'boolean' },
    name: { type: 'string' },
    out: { type: 'string' },
    force: { type: 'boolean' },
    'no-wait': { type: 'boolean' },
    'poll-interval': { type: 'string' },
    'max-wait': { type: 'string' },
    simulate: { type: 'string' },
    duration: { type: 'string' },
    ...REPO_OPTIONS,
  },
  async run(ctx) {
    const flags = generateFlags(ctx.values, ctx.positionals);
    const given = await givenAnswers(ctx);
    const repo = repoValues(ctx.values, NAME);
    if (repo?.dryRun) {
      printDryRun(ctx, await buildDigest(ctx, repo, NAME));
      return;
    }
    // Before the price is reserved: a DIR that holds files would fail only at the end.
    if (flags.out !== undefined) {
      await checkOutDir(ctx.io.cwd ?? process.cwd(), flags.out, flags.force, NAME);
      ctx.errorContext.outDir = flags.out;
    }
    // Before the digest, so the questions come at once; after the DIR check, so no one
    // answers for a run that would fail.
    const answers = await answersOf(ctx, flags, given);
    const context = repo === undefined ? undefined : await repoContext(ctx, repo, flags.noWait);
    const pgs = ctx.client();
    const { idea, type, detail, requirementStyle, language, conventions, name, simulate } = flags;
    const created = await pgs.projects.create(
      {
        idea,
        type,
        detail,
        requirementStyle,
        language,
        conventions,
        name,
        simulate,
        context,
        answers,
      },
      { signal: ctx.io.signal },
    );
    if (flags.noWait) printCreated(ctx, created);
    else await followAndDeliver(ctx, pgs, created, flags);
  },
};

/** What `pgs generate` was asked, read and checked before anything is sent. */
interface GenerateFlags {
  idea: string;
  type: ProjectType | undefined;
  detail: Detail | undefined;
  requirementStyle: RequirementStyle | undefined;
  language: string | undefined;
  conventions: false | undefined;
  name: string | undefined;
  out: string | undefined;
  force: boolean;
  noWait: boolean;
  simulate: ReturnType<typeof simulateValue>;
  pollIntervalMs: number | undefined;
  maxWaitMs: number | undefined;
  ask: boolean;
  yes: boolean;
}

/** Reads the idea and the options, in the order their usage errors are reported. */
function generateFlags(values: Values, positionals: readonly string[]): GenerateFlags {
  const idea = positionals.join(' ').trim();
  if (idea === '') throw new UsageError('missing the idea: pgs generate "<idea>"', 'pgs generate');
  const type = projectTypeValue(values, NAME);
  const detail = detailValue(values, NAME);
  const requirementStyle = styleValue(values, NAME);
  const language = stringValue(values, 'language');
  if (language !== undefined && !/^[A-Za-z0-9-]{2,35}$/.test(language)) {
    throw new UsageError('--language must be a BCP 47 tag such as de or pt-BR', `pgs ${NAME}`);
  }
  const conventions = values['no-conventions'] === true ? (false as const) : undefined;
  const name = nonEmpty(values, 'name');
  const out = nonEmpty(values, 'out');
  const force = values.force === true;
  const noWait = values['no-wait'] === true;
  const durationMs = durationValue(values, 'duration', NAME, { max: 600_000 });
  const simulate = simulateValue(values, durationMs, NAME);
  const pollIntervalMs = durationValue(values, 'poll-interval', NAME);
  const maxWaitMs = durationValue(values, 'max-wait', NAME);
  if (noWait && (out !== undefined || force)) {
    throw new UsageError(
      '--no-wait writes nothing: give --out to pgs wait ID instead',
      `pgs ${NAME}`,
    );
  }
  const ask = values.ask === true;
  const yes = values.yes === true;
  if (yes && !ask) throw new UsageError('--yes goes with --ask', `pgs ${NAME}`);
  const chosen = { idea, type, detail, requirementStyle, language, conventions, name };
  return { ...chosen, out, force, noWait, simulate, pollIntervalMs, maxWaitMs, ask, yes };
}

/** A text option that, when given, must hold more than white space. */
function nonEmpty(values: Values, option: 'name' | 'out'): string | undefined {
  const value = stringValue(values, option);
  if (value !== undefined && value.trim() === '') {
    throw new UsageError(`--${option} must not be empty`, `pgs ${NAME}`);
  }
  return value;
}

/** The answers sent with the project: those given, then, with --ask, those asked for. */
async function answersOf(
  ctx: CommandContext,
  flags: GenerateFlags,
  given: ClarifyingAnswer[],
): Promise<ClarifyingAnswer[] | undefined> {
  if (!flags.ask) return given.length > 0 ? given : undefined;
  const { idea, type, yes } = flags;
  return askAnswers(ctx, ctx.client(), { idea, type, yes, given });
}

/** The codebase digest sent with a grounded project, after a line saying what it holds. */
async function repoContext(
  ctx: CommandContext,
  repo: RepoRequest,
  noWait: boolean,
): Promise<ProjectContext> {
  const built = await buildDigest(ctx, repo, NAME);
  const context = contextOf(built, repo, NAME);
  // On stderr with --no-wait, whose stdout is the project id alone.
  if (!ctx.json) (noWait ? ctx.io.stderr : ctx.io.stdout).write(`${digestSummary(built)}\n`);
  return context;
}

/** With --no-wait: the project id (or, with --json, the created status), and how to follow it. */
function printCreated(ctx: CommandContext, created: ProjectCreated): void {
  const { projectId, status, estimatedCompletionMs } = created;
  if (ctx.json) {
    ctx.print(JSON.stringify({ projectId, status, estimatedCompletionMs }));
  } else {
    ctx.print(projectId);
    ctx.io.stderr.write(`Follow it with: pgs wait ${projectId} --out DIR\n`);
  }
}

/** Follows the project to its end, reports a failure, and writes a completed one's documents. */
async function followAndDeliver(
  ctx: CommandContext,
  pgs: Pgs,
  created: ProjectCreated,
  { pollIntervalMs, maxWaitMs, out, force }: GenerateFlags,
): Promise<void> {
  if (!ctx.json) {
    ctx.print(
      `Created project ${created.projectId} ` +
        `(about ${formatDuration(created.estimatedCompletionMs)} of generation estimated)`,
    );
  }
  // The event stream shows each document as it lands and ends with the project;
  // an explicit --poll-interval keeps the polling wait.
  const result =
    pollIntervalMs === undefined
      ? await followToResult(ctx, pgs, created.projectId, maxWaitMs)
      : await waitWithProgress(ctx, pgs, created.projectId, { pollIntervalMs, maxWaitMs }, created);
  reportFailure(ctx, result);
  if (result.status === 'completed') await deliver(ctx, result, { out, useDefault: true, force });
}
