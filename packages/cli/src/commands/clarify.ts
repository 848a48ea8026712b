import type { Readable } from 'node:stream';
import type { ClarifyingAnswer, ClarifyingQuestion, Pgs, ProjectCreateParams } from '@pgs/client';
import { type Command, type CommandContext, stringValue } from '../context.ts';
import { UsageError } from '../errors.ts';
import { isInteractive, type LineReader, lineReader } from '../prompt.ts';
import { API_OPTIONS, answerPairs, projectTypeValue, readOptionFile } from './common.ts';

const NAME = 'clarify';
/** The command that asks, and takes the answers given without asking. */
const GENERATE = 'generate';
/** The contract's limit on one answer (ClarifyAnswer.answer). */
const MAX_ANSWER = 1000;
// Control and direction characters the contract refuses in a one-line answer.
// biome-ignore lint/suspicious/noControlCharactersInRegex: they are what is removed.
const UNSAFE = /[\u0000-\u001F\u007F-\u009F\u061C\u200E\u200F\u2028-\u202E\u2066-\u2069]/gu;

/**
 * `pgs clarify "<idea>"`: the questions PGS would ask before writing, with their recommended
 * answers; nothing is created and no credits are used.
 *
 * @example
 * pgs clarify "A booking tool for dog groomers" --json
 */
export const clarify: Command = {
  name: NAME,
  summary: 'Show what PGS would ask about an idea before writing (free)',
  usage: 'pgs clarify "<idea>" [--type web|mobile|mcp] [--json]',
  credential: 'api-key',
  help: `Prints at most five questions about what the idea leaves open (who it is for,
sign-in, compliance, payment, platforms, volumes), most consequential first, each with
why it matters, common answers when there are a few, and the answer PGS assumes when
none is given. Nothing is stored and no credits are used (docs/clarify.md).

Answer them in the terminal with pgs generate --ask.

Arguments:
  "<idea>"               the project idea in plain words, 10 to 5,000 characters

Options:
  --type web|mobile|mcp  the kind of project, when it is already decided

With --json: one line on stdout, { "questions": [ { id, question, why, options?,
recommended } ] } as the API returns it.

Examples:
  pgs clarify "A booking tool for dog groomers with SMS reminders the day before"
  pgs clarify "An MCP server for our wiki" --type mcp --json`,
  options: { ...API_OPTIONS, type: { type: 'string' } },
  async run(ctx) {
    const idea = ctx.positionals.join(' ').trim();
    if (idea === '') throw new UsageError('missing the idea: pgs clarify "<idea>"', 'pgs clarify');
    const type = projectTypeValue(ctx.values, NAME);
    const questions = await ctx
      .client()
      .ideas.clarify({ idea, ...(type ? { type } : {}) }, { signal: ctx.io.signal });
    if (ctx.json) {
      ctx.print(JSON.stringify({ questions }));
      return;
    }
    if (questions.length === 0) {
      ctx.print('PGS has no questions about this idea: it settles what PGS would ask.');
      return;
    }
    questions.forEach((q, i) => {
      ctx.print(`${i + 1}. ${q.question}  [${q.id}]`);
      ctx.print(`   Why: ${q.why}`);
      if (q.options?.length) ctx.print(`   Options: ${q.options.join('; ')}`);
      ctx.print(`   Recommended: ${q.recommended}`);
    });
    ctx.print('');
    ctx.print('Answer them with: pgs generate --ask "<idea>"');
  },
};

/** What {@link askAnswers} needs: the idea as `projects.create` takes it, `--yes`, and the answers given. */
export interface AskParams {
  idea: string;
  type: ProjectCreateParams['type'];
  /** Accept every recommendation without asking, even on a terminal. */
  yes: boolean;
  /** Answers given with `--answer` or `--answers` ({@link givenAnswers}): not asked again. */
  given: readonly ClarifyingAnswer[];
}

/**
 * `pgs generate --ask`: fetches the questions and answers each one not given already, in the
 * terminal (Enter accepts the recommended answer, a number picks an option) or, with `--yes`,
 * with every recommendation, saying so on stderr. When stdin is not a terminal no one can
 * answer: without `--yes` only the given answers are sent, and none given is a usage error
 * (as `pgs answer` refuses), since an unasked recommendation would become the client's fact
 * and its assumption would vanish from the brief. The prompts go to stderr, so stdout stays
 * the command's own output (`--json` included).
 *
 * @example
 * const answers = await askAnswers(ctx, pgs, { idea, type, yes: false, given: [] });
 */
export async function askAnswers(
  ctx: CommandContext,
  pgs: Pgs,
  { idea, type, yes, given }: AskParams,
): Promise<ClarifyingAnswer[]> {
  const { stderr } = ctx.io;
  const input = ctx.io.stdin ?? process.stdin;
  const interactive = isInteractive(input);
  if (!yes && !interactive && given.length === 0) {
    throw new UsageError(
      'stdin is not a terminal: answer with --answer QUESTION="answer" or --answers FILE, or accept the recommendations with --yes',
      `pgs ${GENERATE}`,
    );
  }
  const all = await pgs.ideas.clarify(
    { idea, ...(type ? { type } : {}) },
    { signal: ctx.io.signal },
  );
  const { answers, open } = matchGiven(all, given);
  if (open.length === 0) {
    if (all.length === 0) stderr.write('PGS has no questions about this idea.\n');
    return answers;
  }
  if (yes) {
    stderr.write(`Accepting the recommended answer to ${count(open.length)} (--yes):\n`);
    for (const q of open) stderr.write(`  ${q.id}: ${q.recommended}\n`);
    return [...answers, ...open.map((q) => ({ question: q.id, answer: q.recommended }))];
  }
  if (!interactive) {
    stderr.write(
      `Not answered (stdin is not a terminal): ${open.map((q) => q.id).join(', ')}; ` +
        'the brief records its assumptions, to answer later with pgs answer.\n',
    );
    return answers;
  }
  stderr.write(
    `PGS has ${count(open.length)} about this idea. Enter accepts the recommended answer.\n`,
  );
  return [...answers, ...(await askEach(ctx, input, open))];
}

/**
 * The given answers, each to a question's id when it names the question by id or text (so
 * the server applies it to that question's topic), and the questions none answers.
 */
function matchGiven(
  questions: readonly ClarifyingQuestion[],
  given: readonly ClarifyingAnswer[],
): { answers: ClarifyingAnswer[]; open: ClarifyingQuestion[] } {
  const key = (text: string) => text.trim().toLowerCase();
  const answered = new Set<ClarifyingQuestion>();
  const answers = given.map(({ question, answer }) => {
    const q = questions.find((q) => q.id === question || key(q.question) === key(question));
    if (q !== undefined) answered.add(q);
    return { question: q?.id ?? question, answer };
  });
  return { answers, open: questions.filter((q) => !answered.has(q)) };
}

/** Asks each question in the terminal; the end of input answers the rest as Enter would. */
async function askEach(
  ctx: CommandContext,
  input: Readable,
  questions: readonly ClarifyingQuestion[],
): Promise<ClarifyingAnswer[]> {
  const { stderr } = ctx.io;
  const lines = lineReader(input, stderr, ctx.io.signal);
  try {
    const answers: ClarifyingAnswer[] = [];
    for (const [i, q] of questions.entries()) {
      stderr.write(`\n${i + 1}/${questions.length} ${q.question}\n    ${q.why}\n`);
      for (const [n, option] of (q.options ?? []).entries()) {
        stderr.write(`    ${n + 1}) ${option}\n`);
      }
      const answer = (await askOne(lines, q)) ?? undefined;
      // The end of input answers the rest with their recommendations, as Enter would.
      answers.push({ question: q.id, answer: answer ?? q.recommended });
      if (answer === undefined) {
        for (const rest of questions.slice(i + 1)) {
          answers.push({ question: rest.id, answer: rest.recommended });
        }
        stderr.write('\nNo more input: the recommended answers stand for the rest.\n');
        break;
      }
    }
    return answers;
  } finally {
    lines.close();
  }
}

/**
 * The answers `pgs generate` is given without asking: `--answers FILE` (a JSON array of
 * `{ question, answer }`, as the API takes them), then each `--answer QUESTION="answer"`,
 * which replaces the file's answer to the same question. QUESTION is a question's id
 * (`sign-in`) or its text.
 *
 * @example
 * const given = await givenAnswers(ctx); // --answer sign-in="Google SSO only"
 */
export async function givenAnswers(ctx: CommandContext): Promise<ClarifyingAnswer[]> {
  const byQuestion = new Map<string, string>();
  const file = stringValue(ctx.values, 'answers');
  if (file !== undefined) {
    const text = await readOptionFile(ctx, file, GENERATE);
    for (const a of answersIn(text, file)) byQuestion.set(a.question, a.answer);
  }
  const form = 'QUESTION="answer" (sign-in="…")';
  for (const [question, answer] of answerPairs(ctx.values.answer, GENERATE, form)) {
    byQuestion.set(question, answer);
  }
  return [...byQuestion].map(([question, answer]) => ({ question, answer }));
}

/** An answers file's `{ question, answer }` entries, or a usage error naming the file. */
function answersIn(text: string, file: string): ClarifyingAnswer[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const isAnswer = (a: unknown): a is ClarifyingAnswer =>
    typeof (a as ClarifyingAnswer | null)?.question === 'string' &&
    typeof (a as ClarifyingAnswer).answer === 'string';
  if (!Array.isArray(parsed) || !parsed.every(isAnswer)) {
    throw new UsageError(
      `${file} must hold a JSON array of { "question": "…", "answer": "…" }`,
      `pgs ${GENERATE}`,
    );
  }
  return parsed.map((a) => ({ question: a.question.trim(), answer: a.answer.trim() }));
}

/**
 * One question until its answer fits the contract; `undefined` at the end of input. With
 * `skip`, a line of just "-" leaves the question unanswered (`null`), and so does Enter on
 * an entry PGS has no answer to suggest for (`leaveOpen`): `pgs answer`.
 */
export async function askOne(
  lines: LineReader,
  q: ClarifyingQuestion & { leaveOpen?: boolean },
  skip = false,
): Promise<string | null | undefined> {
  const open = skip && q.leaveOpen === true;
  let note = '';
  for (;;) {
    const line = await lines.ask(`${note}    [${open ? 'leave open' : q.recommended}]\n> `);
    if (line === undefined) return undefined;
    const text = line.replace(UNSAFE, ' ').trim();
    if (text === '') return open ? null : q.recommended;
    if (skip && text === '-') return null;
    const picked = /^\d+$/.test(text) ? q.options?.[Number(text) - 1] : undefined;
    if (picked !== undefined) return picked;
    if (text.length <= MAX_ANSWER) return text;
    note = `    At most ${MAX_ANSWER} characters, please.\n`;
  }
}

const count = (n: number) => (n === 1 ? '1 question' : `${n} questions`);
