import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { type ClarifyingQuestion, Pgs } from '@pgs/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RealServer, sharedRealServer } from '../../client/test/pgs-server.ts';
import { EXIT, run } from '../src/index.ts';

// pgs clarify and pgs generate --ask in-process against the real server (issue 32, item 6),
// with stdin driven by the test: a PassThrough marked as a terminal stands for a person.

const IDEA = 'A booking tool for dog groomers with SMS reminders the day before';

/** A stdin: `tty` says whether it passes for a terminal. */
function stdinOf(tty: boolean): PassThrough {
  const input = new PassThrough();
  if (tty) Object.assign(input, { isTTY: true });
  return input;
}

describe('pgs clarify and pgs generate --ask against the real server', () => {
  let server: RealServer;
  let tmp: string;
  let questions: ClarifyingQuestion[];

  /** Runs the CLI; `onStderr` sees stderr as it grows (to answer a prompt once it shows). */
  async function pgs(
    argv: string[],
    {
      stdin,
      signal,
      onStderr,
    }: { stdin?: PassThrough; signal?: AbortSignal; onStderr?: (all: string) => void } = {},
  ) {
    let stdout = '';
    let stderr = '';
    const code = await run(argv, {
      env: { PGS_BASE_URL: server.url, PGS_API_KEY: server.apiKey },
      stdout: { write: (s: string) => (stdout += s) },
      stderr: {
        write: (s: string) => {
          stderr += s;
          onStderr?.(stderr);
        },
      },
      stdin: stdin ?? stdinOf(false),
      cwd: await mkdtemp(join(tmp, 'cwd-')),
      signal,
    });
    return { code, stdout, stderr };
  }

  /** What `--json` printed: the final status, and so the definition the answers reached. */
  const questionnaireOf = (stdout: string) =>
    JSON.parse(stdout).project.questionnaire as { constraints: string[]; monetization?: string };

  beforeAll(async () => {
    tmp = await mkdtemp(join(tmpdir(), 'pgs-cli-clarify-'));
    server = await sharedRealServer();
    questions = await new Pgs({ apiKey: server.apiKey, baseUrl: server.url }).ideas.clarify({
      idea: IDEA,
    });
  });
  afterAll(async () => {
    await server?.stop();
    await rm(tmp, { recursive: true, force: true });
  });

  it('pgs clarify prints each question with why, options and the recommended answer; --json the API data', async () => {
    expect(questions.map((q) => q.id)).toContain('sign-in');
    const text = await pgs(['clarify', ...IDEA.split(' ')]);
    expect(text.code).toBe(EXIT.OK);
    expect(text.stderr).toBe('');
    questions.forEach((q, i) => {
      expect(text.stdout).toContain(`${i + 1}. ${q.question}  [${q.id}]\n   Why: ${q.why}\n`);
      expect(text.stdout).toContain(`   Recommended: ${q.recommended}\n`);
      if (q.options) expect(text.stdout).toContain(`   Options: ${q.options.join('; ')}\n`);
    });
    const json = await pgs(['clarify', IDEA, '--json']);
    expect(json.code).toBe(EXIT.OK);
    expect(JSON.parse(json.stdout)).toEqual({ questions });
    expect(json.stdout.trim().split('\n')).toHaveLength(1);
  });

  it('generate --ask on a terminal: Enter accepts, a number picks an option, a line is the answer', async () => {
    const signIn = questions.findIndex((q) => q.id === 'sign-in');
    const payment = questions.find((q) => q.id === 'payment');
    expect(payment?.options?.length).toBeGreaterThan(1);
    // Every answer written at once, before it is asked for: none may be lost.
    const lines = questions.map((q, i) =>
      // Too long an answer is asked again, not sent to be refused.
      i === signIn
        ? `${'x'.repeat(1001)}\n  Google Workspace single sign-on only  `
        : q.id === 'payment'
          ? '2'
          : '',
    );
    const stdin = stdinOf(true);
    stdin.end(`${lines.join('\n')}\n`);
    const r = await pgs(['generate', '--ask', IDEA, '--json'], { stdin });
    expect(r.code).toBe(EXIT.OK);
    expect(r.stderr).toContain('Enter accepts the recommended answer');
    for (const [i, q] of questions.entries()) {
      expect(r.stderr).toContain(`${i + 1}/${questions.length} ${q.question}\n`);
      expect(r.stderr).toContain(`    [${q.recommended}]\n> `);
    }
    expect(r.stderr).toContain(`    2) ${payment?.options?.[1]}\n`);
    expect(r.stderr).toContain('    At most 1000 characters, please.\n');
    const q = questionnaireOf(r.stdout);
    expect(q.constraints).toContain('Sign-in: Google Workspace single sign-on only');
    expect(q.monetization).toBe(payment?.options?.[1]);
  });

  it('generate --ask with stdin not a terminal refuses, unless answers are given: only those are sent', async () => {
    const refused = await pgs(['generate', '--ask', IDEA, '--json']);
    expect(refused.code).toBe(EXIT.USAGE);
    expect(refused.stderr).toContain('stdin is not a terminal: answer with --answer');

    const payment = questions.find((q) => q.id === 'payment');
    const file = join(tmp, 'answers.json');
    // The file names a question by its text; --answer wins over the file's sign-in.
    await writeFile(
      file,
      JSON.stringify([
        { question: payment?.question, answer: '19 dollars a month per groomer' },
        { question: 'sign-in', answer: 'Email and password' },
      ]),
    );
    const args = ['--answers', file, '--answer', 'sign-in= Google Workspace SSO only'];
    const r = await pgs(['generate', '--ask', IDEA, ...args, '--json']);
    expect(r.code).toBe(EXIT.OK);
    expect(r.stderr).toContain('Not answered (stdin is not a terminal): ');
    expect(r.stderr).not.toContain('> ');
    const q = questionnaireOf(r.stdout);
    expect(q.constraints).toContain('Sign-in: Google Workspace SSO only');
    expect(q.monetization).toBe('19 dollars a month per groomer');
    // An unasked recommendation is not a fact.
    const left = questions.find((q) => q.id !== 'payment' && q.id !== 'sign-in');
    if (left) expect(q.constraints.join('\n')).not.toContain(left.recommended);

    const bad = await pgs(['generate', IDEA, '--answer', 'no equals sign']);
    expect(bad.code).toBe(EXIT.USAGE);
    expect(bad.stderr).toContain('--answer takes QUESTION="answer"');
  });

  it('--yes does not ask even on a terminal; the end of input keeps the recommendations', async () => {
    const yes = await pgs(['generate', '--ask', '--yes', IDEA, '--no-wait', '--json'], {
      stdin: stdinOf(true),
    });
    expect(yes.code).toBe(EXIT.OK);
    expect(yes.stderr).toContain('questions (--yes):');
    expect(JSON.parse(yes.stdout).status).toBe('in_progress');

    const stdin = stdinOf(true);
    stdin.end('Small dog-grooming salons in Ireland\n');
    const ended = await pgs(['generate', '--ask', IDEA, '--no-wait', '--json'], { stdin });
    expect(ended.code).toBe(EXIT.OK);
    if (questions.length > 1) expect(ended.stderr).toContain('the recommended answers stand');
  });

  it('refuses --yes without --ask, and Ctrl-C at a question exits 130 before anything is created', async () => {
    const usage = await pgs(['generate', '--yes', IDEA]);
    expect(usage.code).toBe(EXIT.USAGE);
    expect(usage.stderr).toContain('--yes goes with --ask');

    const sdk = new Pgs({ apiKey: server.apiKey, baseUrl: server.url });
    const before = (await sdk.projects.list({ limit: 100 })).data.length;
    const interrupt = new AbortController();
    const r = await pgs(['generate', '--ask', IDEA, '--json'], {
      stdin: stdinOf(true),
      signal: interrupt.signal,
      // Ctrl-C once the first question waits for its answer.
      onStderr: (all) => {
        if (all.endsWith('> ')) interrupt.abort();
      },
    });
    expect(r.code).toBe(EXIT.INTERRUPTED);
    expect(r.stderr).toContain(`1/${questions.length} `);
    expect((await sdk.projects.list({ limit: 100 })).data).toHaveLength(before);
  });
});
