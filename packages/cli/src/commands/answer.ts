import type { Pgs, ProjectQuestion } from '@pgs/client';
import type { Command, CommandContext } from '../context.ts';
import { UsageError } from '../errors.ts';
import { formatDuration } from '../progress.ts';
import { isInteractive, lineReader } from '../prompt.ts';
import { askOne } from './clarify.ts';
import { API_OPTIONS, answerPairs, durationValue } from './common.ts';
import { pollRevision, printStarted, report } from './revise.ts';

const NAME = 'answer';
/** The most answers one revision records (the API's limit). */
const MAX_ANSWERS = 10;

/**
 * The answers to ask for: each open entry in the terminal (Enter accepts the recommended
 * answer, a number picks an option, "-" leaves it open), or every recommendation with
 * `--yes`, saying so on stderr. An entry PGS knows no answer to (`leaveOpen`) stays open on
 * Enter and with `--yes`. At most the API's limit.
 */
async function askAll(
  ctx: CommandContext,
  questions: readonly ProjectQuestion[],
  yes: boolean,
): Promise<Record<string, string>> {
  const { stderr } = ctx.io;
  const asked = questions.slice(0, MAX_ANSWERS);
  if (questions.length > asked.length) {
    stderr.write(
      `${questions.length} entries are open; these ${asked.length} now, the rest with the next pgs answer.\n`,
    );
  }
  const input = ctx.io.stdin ?? process.stdin;
  if (yes) {
    const accepted = asked.filter((q) => q.leaveOpen !== true);
    stderr.write(`Accepting the recommended answer to ${accepted.length} (--yes):\n`);
    for (const q of accepted) stderr.write(`  ${q.id}: ${q.recommended}\n`);
    for (const q of asked) {
      if (q.leaveOpen === true)
        stderr.write(`  ${q.id} stays open: PGS has no answer to suggest\n`);
    }
    return Object.fromEntries(accepted.map((q) => [q.id, q.recommended]));
  }
  stderr.write('Enter accepts the recommended answer; "-" leaves the entry open.\n');
  const lines = lineReader(input, stderr, ctx.io.signal);
  const answers: Record<string, string> = {};
  try {
    for (const [i, q] of asked.entries()) {
      const kind = q.kind === 'assumption' ? 'assumption' : 'question';
      stderr.write(`\n${i + 1}/${asked.length} ${q.id} (${kind}) ${q.question}\n    ${q.why}\n`);
      for (const [n, option] of (q.options ?? []).entries()) {
        stderr.write(`    ${n + 1}) ${option}\n`);
      }
      const answer = await askOne(lines, q, true);
      if (answer === undefined) {
        stderr.write('\nNo more input: the rest stay open.\n');
        break;
      }
      if (answer !== null) answers[q.id] = answer;
    }
    return answers;
  } finally {
    lines.close();
  }
}

/** The answers this run sends: given with --answer, else asked. */
async function answersFor(
  ctx: CommandContext,
  pgs: Pgs,
  projectId: string,
): Promise<Record<string, string>> {
  const given = Object.fromEntries(answerPairs(ctx.values.answer, NAME, 'ID="answer" (Q-1="…")'));
  if (Object.keys(given).length > 0) return given;
  if (ctx.values.yes !== true && !isInteractive(ctx.io.stdin ?? process.stdin)) {
    // Accepting recommendations unasked would record them as decisions for ever.
    throw new UsageError(
      'stdin is not a terminal: answer with --answer ID="answer", or accept the recommendations with --yes',
      `pgs ${NAME}`,
    );
  }
  const questions = await pgs.projects.questions(projectId, { signal: ctx.io.signal });
  if (questions.length === 0) return {};
  return askAll(ctx, questions, ctx.values.yes === true);
}

/**
 * `pgs answer ID`: answers a completed project's open questions and assumptions, as a
 * revision that records them as decisions.
 *
 * @example
 * pgs answer 7d0f2c8e-4a9b-4e43-9a55-0d2b8f1c6e21 --answer Q-1="Google Workspace SSO only" --wait
 */
export const answer: Command = {
  name: NAME,
  summary: "Answer a project's open questions and assumptions (a revision)",
  usage: 'pgs answer ID [--answer ID="answer"]... [--yes] [--wait [--max-wait DURATION]] [--json]',
  credential: 'api-key',
  help: `Lists a completed project's open questions (Q-n) and the assumptions (A-n) one may
overrule, asks each in the terminal with PGS's recommended answer as the default, then
starts the revision that records the answers: each answered entry is closed and becomes a
decision D-n in the brief's register, and the documents that rested on it are rewritten
(docs/clarify.md). Credits as for a revision (pgs revise). Prints the revision's number.

Enter accepts the answer in brackets, a number picks a listed option, "-" leaves the
entry open, any other line is the answer. The prompts go to stderr. At most 10 entries are
answered at a time. With --yes, every recommendation is accepted without asking and stderr
lists them. An entry PGS has no answer to suggest for stays open on Enter and with --yes.
When stdin is not a terminal, --answer or --yes is required (else exit 2).

Arguments:
  ID                     the project id

Options:
  --answer ID="answer"   answer one entry without asking (repeatable, for scripts):
                         --answer Q-1="Google Workspace SSO only" --answer A-3="40 groomers"
  --yes                  accept every recommended answer without asking
  --wait                 follow the revision to its end (a bar on a terminal, lines
                         otherwise) and print what it changed
  --max-wait DURATION    with --wait: give up after this long (exit 11); default 30m

With --json: one line on stdout, the started revision (projectId, revision, status,
estimatedCompletionMs), or with --wait the final revision as the API returns it.

An ID that is not open (unknown, or already answered), or a blank answer, is refused
(exit 5, the server's message names it); a project not completed, or already revising,
exits 12.

Examples:
  pgs answer "$ID"
  pgs answer "$ID" --answer Q-1="Google Workspace SSO only" --wait
  pgs answer "$ID" --yes --json`,
  options: {
    ...API_OPTIONS,
    answer: { type: 'string', multiple: true },
    yes: { type: 'boolean' },
    wait: { type: 'boolean' },
    'max-wait': { type: 'string' },
  },
  async run(ctx) {
    const projectId = ctx.positionals[0]?.trim();
    if (!projectId || ctx.positionals.length > 1) {
      throw new UsageError('pgs answer takes one project ID: pgs answer ID', `pgs ${NAME}`);
    }
    const maxWaitMs = durationValue(ctx.values, 'max-wait', NAME);
    const pgs = ctx.client();
    const answers = await answersFor(ctx, pgs, projectId);
    if (Object.keys(answers).length === 0) {
      if (ctx.json) ctx.print(JSON.stringify({ projectId, revision: null }));
      else ctx.print('Nothing to answer: no open question or assumption was answered.');
      return;
    }
    const created = await pgs.projects.answer(projectId, answers, { signal: ctx.io.signal });
    ctx.errorContext.projectId = created.projectId;
    ctx.errorContext.revision = created.revision;
    if (ctx.values.wait !== true) {
      printStarted(
        ctx,
        created,
        `Revision ${created.revision} records the answers; follow it with: pgs watch ${created.projectId}`,
      );
      return;
    }
    if (!ctx.json) {
      ctx.print(
        `Revision ${created.revision} of project ${created.projectId} records the answers ` +
          `(about ${formatDuration(created.estimatedCompletionMs)} estimated)`,
      );
    }
    report(ctx, await pollRevision(ctx, pgs, created, maxWaitMs));
  },
};
