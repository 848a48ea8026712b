import { execFile } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { Pgs, type Revision, type RevisionDiff, type RevisionSummary } from '@pgs/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RealServer } from '../../client/test/pgs-server.ts';
import { EXIT, run } from '../src/index.ts';
import { IDEA, runCli, startCli, startRealCli, stopRealCli } from './cli-process.ts';

// pgs revise, history and diff (and watch following a revision) of the real CLI against the
// real server, with the offline engine (see cli-process.ts). Each flow makes its own project.
// No test waits on time: a revision held in progress is a 10-minute simulation that the test
// cancels, and a running CLI is waited on through what it printed or its exit.

const DENTAL = 'A booking app for a dental clinic with appointment reminders and medical records';
const CHANGE = 'Add SMS reminders two days before each appointment; drop the medical records';
const RENAME = 'Rename SMS reminders to Text message reminders';

interface InProcess {
  code: number;
  stdout: string;
  stderr: string;
}

describe('pgs revise, history and diff against the real server', { timeout: 180_000 }, () => {
  let server: RealServer;
  let tmp: string;
  let apiEnv: NodeJS.ProcessEnv;
  let sdk: Pgs;

  beforeAll(async () => {
    ({ server, tmp, apiEnv } = await startRealCli());
    sdk = new Pgs({ apiKey: server.apiKey, baseUrl: server.url });
  });

  afterAll(async () => {
    await stopRealCli(server, tmp);
  });

  /** The CLI in-process, its stdout a terminal or not, against the real server. */
  async function inProcess(
    argv: string[],
    { tty = false, env = {} }: { tty?: boolean; env?: Record<string, string> } = {},
  ): Promise<InProcess> {
    let stdout = '';
    let stderr = '';
    const code = await run(argv, {
      env: { ...apiEnv, ...env },
      stdin: Readable.from([]),
      stdout: { write: (s: string) => (stdout += s), isTTY: tty, columns: 200 },
      stderr: { write: (s: string) => (stderr += s) },
    });
    return { code, stdout, stderr };
  }

  /** A completed project of the offline engine, made through the CLI. */
  async function completedProject(idea: string, simulate = false): Promise<string> {
    const created = await runCli(
      ['generate', idea, '--no-wait', ...(simulate ? ['--simulate', 'completed'] : [])],
      apiEnv,
    );
    expect(created.code).toBe(0);
    const projectId = created.stdout.trim();
    const waited = await runCli(['wait', projectId, '--json'], apiEnv);
    expect(JSON.parse(waited.stdout)).toMatchObject({ status: 'completed' });
    return projectId;
  }

  it.concurrent('revise follows to the end; history lists the revisions; diff shows the changes', async ({
    expect,
  }) => {
    const projectId = await completedProject(DENTAL);

    // revise: the deltas as the analysis reads them, each document, then the summary.
    const revised = await runCli(['revise', projectId, CHANGE], apiEnv);
    expect(revised.stderr).toBe('');
    expect(revised.code).toBe(EXIT.OK);
    const lines = revised.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(
      new RegExp(`^Revision 2 of project ${projectId} started \\(about .+ estimated\\)$`),
    );
    expect(revised.stdout).not.toContain('\r');
    const changes = lines.indexOf('Changes:');
    expect(changes).toBeGreaterThan(0);
    const deltas = lines.slice(changes + 1).filter((l) => /^ {2}[+~-] FR-\d+ /.test(l));
    expect(deltas).toContainEqual(expect.stringMatching(/^ {2}\+ FR-\d+ .*SMS reminders/));
    expect(deltas).toContainEqual(
      expect.stringMatching(/^ {2}- FR-\d+ .*[Mm]edical records \(.+\)$/),
    );
    const rewriting = lines.find((l) => l.startsWith('Rewriting '));
    const toRewrite = /^Rewriting \d+ documents: (.+)$/.exec(rewriting ?? '')?.[1]?.split(', ');
    expect(toRewrite).toContain('PRODUCT_REQUIREMENTS.md');
    // The analysis comes before the revision's end, whenever the stream opened.
    const end = lines.findIndex((l) =>
      /^revision 2 completed: \d+ documents changed, \d+ credits consumed$/.test(l),
    );
    expect(end).toBeGreaterThan(changes);
    // Each document line is one the analysis said it would rewrite.
    for (const line of lines.filter((l) => l.startsWith('document: '))) {
      expect(toRewrite).toContain(/^document: (\S+) \(\d+ tokens\)$/.exec(line)?.[1]);
    }
    const changed: string[] = [];
    for (const line of lines.slice(
      lines.findIndex((l) => /^Changed \d+ documents:$/.test(l)) + 1,
    )) {
      if (!line.startsWith('  ')) break;
      changed.push(line.trim());
    }
    expect(changed.sort()).toEqual([...toRewrite!].sort());
    // The brief is never rewritten by a revision: it is carried over.
    expect(changed).not.toContain('PROJECT_BRIEF.md');
    expect(lines).toContain('Kept unchanged: PROJECT_BRIEF.md');
    expect(lines).toContain('  Revision    2');
    expect(lines).toContain('  Changes     +1 ~0 −1 →0');
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}Credits {5}\d+ consumed$/));
    expect(lines.at(-1)).toBe(`See the changes with: pgs diff ${projectId}`);

    // history: both revisions, newest first, piped as tab-separated lines.
    const history = await runCli(['history', projectId], apiEnv);
    expect(history.stderr).toBe('');
    expect(history.code).toBe(EXIT.OK);
    const rows = history.stdout
      .trimEnd()
      .split('\n')
      .map((l) => l.split('\t'));
    expect(rows.map((r) => r.slice(0, 3))).toEqual([
      ['2', 'completed', '+1 ~0 −1 →0'],
      ['1', 'completed', '-'],
    ]);
    expect(rows[0]![3]).toBe(String(changed.length));
    expect(rows[0]![7]).toBe(`${CHANGE.slice(0, 59)}…`);
    expect(rows[1]![7]).toBe('(created)');
    const table = await inProcess(['history', projectId], { tty: true });
    expect(table.stdout.split('\n')[0]).toMatch(
      /^REVISION +STATUS +CHANGES +DOCS +CREDITS +CREATED +COMPLETED +CHANGE REQUEST$/,
    );

    // diff: the latest revision against revision 1, only the documents it changed.
    const [text, to2, json] = await Promise.all([
      runCli(['diff', projectId], apiEnv),
      runCli(['diff', projectId, '--to', '2'], apiEnv),
      runCli(['diff', projectId, '--json'], apiEnv),
    ]);
    expect(text.stderr).toBe('');
    expect(text.code).toBe(EXIT.OK);
    const diffLines = text.stdout.split('\n');
    expect(diffLines[0]).toBe('diff --git a/PRODUCT_REQUIREMENTS.md b/PRODUCT_REQUIREMENTS.md');
    expect(diffLines).toContain('--- a/PRODUCT_REQUIREMENTS.md');
    expect(diffLines).toContain('+++ b/PRODUCT_REQUIREMENTS.md');
    expect(diffLines.filter((l) => l.startsWith('+') && !l.startsWith('+++'))).toContainEqual(
      expect.stringContaining('SMS reminders'),
    );
    expect(text.stdout).not.toContain('PROJECT_BRIEF.md');
    // Piped: no colour.
    expect(text.stdout).not.toContain('\x1b[');
    expect(to2.stdout).toBe(text.stdout);
    const data = JSON.parse(json.stdout) as RevisionDiff;
    expect(data).toMatchObject({ projectId, revision: 2, base: 1 });
    expect(data.files.map((f) => f.filename).sort()).toEqual([...changed].sort());
    expect(data.files.map((f) => f.patch).join('')).toBe(text.stdout);

    // A terminal gets colour, unless NO_COLOR says otherwise.
    const [coloured, plain] = await Promise.all([
      inProcess(['diff', projectId], { tty: true }),
      inProcess(['diff', projectId], { tty: true, env: { NO_COLOR: '1' } }),
    ]);
    expect(coloured.stdout).toContain('\x1b[32m+');
    expect(coloured.stdout).toContain('\x1b[31m-');
    expect(plain.stdout).toBe(text.stdout);

    // revise --json: one line, the final revision. Then a range across both revisions.
    const renamed = await runCli(['revise', projectId, RENAME, '--json'], apiEnv);
    expect(renamed.stderr).toBe('');
    expect(renamed.code).toBe(EXIT.OK);
    expect(renamed.stdout.trimEnd().split('\n')).toHaveLength(1);
    const three = JSON.parse(renamed.stdout) as Revision;
    expect(three).toMatchObject({ projectId, revision: 3, status: 'completed' });
    expect(three.deltas.map((d) => d.op)).toEqual(['renamed']);
    if (three.status !== 'completed') return;

    const listed = await runCli(['history', projectId, '--json'], apiEnv);
    const { data: summaries } = JSON.parse(listed.stdout) as { data: RevisionSummary[] };
    expect(summaries.map((r) => [r.revision, r.status])).toEqual([
      [3, 'completed'],
      [2, 'completed'],
      [1, 'completed'],
    ]);

    const [range, rangeJson, lastStep, latest] = await Promise.all([
      runCli(['diff', projectId, '--from', '1', '--to', '3'], apiEnv),
      runCli(['diff', projectId, '--from', '1', '--to', '3', '--json'], apiEnv),
      runCli(['diff', projectId, '--from', '2', '--to', '3'], apiEnv),
      runCli(['diff', projectId], apiEnv),
    ]);
    expect(range.stderr).toBe('');
    expect(range.code).toBe(EXIT.OK);
    const one = await sdk.projects.revisions.get(projectId, 1);
    if (one.status !== 'completed') throw new Error('revision 1 not completed');
    const across = JSON.parse(rangeJson.stdout) as RevisionDiff;
    expect(across).toMatchObject({ projectId, revision: 3, base: 1 });
    // Exactly the documents whose text differs between revisions 1 and 3.
    const before = new Map(one.project.documents.map((d) => [d.filename, d.content]));
    const differing = three.project.documents
      .filter((d) => before.get(d.filename) !== d.content)
      .map((d) => d.filename);
    expect(across.files.map((f) => f.filename)).toEqual(differing);
    for (const file of across.files) {
      expect(file.patch).toMatch(
        new RegExp(
          `^diff --git a/${file.filename} b/${file.filename}\\n--- a/${file.filename}\\n\\+\\+\\+ b/${file.filename}\\n@@ `,
        ),
      );
    }
    expect(range.stdout).toBe(across.files.map((f) => f.patch).join(''));
    expect(range.stdout).not.toContain('PROJECT_BRIEF.md');
    // Revision 2 removed the medical records and revision 3 renamed the reminders: the range
    // shows both at once, against revision 1.
    expect(range.stdout).toMatch(/^-.*[Mm]edical records/m);
    expect(range.stdout).toMatch(/^\+.*[Tt]ext message reminders/m);
    expect(range.stdout).not.toMatch(/^[+-].*SMS reminders two days/m);
    // It applies: revision 1's documents patched with it are revision 3's.
    const checkout = await mkdtemp(join(tmp, 'apply-'));
    for (const doc of one.project.documents) {
      await writeFile(join(checkout, doc.filename), doc.content);
    }
    await writeFile(join(tmp, 'range.diff'), range.stdout);
    await promisify(execFile)('git', ['apply', join(tmp, 'range.diff')], { cwd: checkout });
    for (const doc of three.project.documents) {
      expect(await readFile(join(checkout, doc.filename), 'utf8')).toBe(doc.content);
    }
    // --revision 1 reads revision 1 while revision 3 is current: its archive (revision 1's
    // documents, not the current ones), its provenance and its cost.
    const pinnedOut = await mkdtemp(join(tmp, 'revision-1-'));
    const [archived, costOne, provenanceOne, readOne] = await Promise.all([
      runCli(['download', projectId, '--revision', '1', '--json'], apiEnv, pinnedOut),
      runCli(['cost', projectId, '--revision', '1', '--json'], apiEnv),
      runCli(['provenance', projectId, '--revision', '1'], apiEnv),
      sdk.projects.provenance(projectId, { revision: 1 }),
    ]);
    expect(archived.stderr).toBe('');
    expect(archived.code).toBe(EXIT.OK);
    const pinned = JSON.parse(archived.stdout) as { revision: number; files: string[] };
    expect(pinned.revision).toBe(1);
    for (const doc of one.project.documents) {
      const path = pinned.files.find((file) => file.endsWith(`/${doc.filename}`));
      expect(path, doc.filename).toBeDefined();
      expect(await readFile(join(pinnedOut, path!), 'utf8')).toBe(doc.content);
    }
    expect(differing).toContain('PRODUCT_REQUIREMENTS.md');
    expect(costOne.code).toBe(EXIT.OK);
    expect(JSON.parse(costOne.stdout)).toMatchObject({ projectId, totals: readOne.totals });
    expect(provenanceOne.stdout.split('\n')[0]).toBe(
      `Project ${projectId}, revision 1: completed; written by the offline engine (no AI model).`,
    );

    // --from the revision it was made from is the server's own diff, as without --from.
    expect(lastStep.stdout).toBe(latest.stdout);
    expect(latest.stdout).toMatch(/^\+.*[Tt]ext message reminders/m);
  });

  it.concurrent('a revision running: revise --no-follow, a second revise conflicts, watch follows it, a failed one exits 9', async ({
    expect,
  }) => {
    const projectId = await completedProject(DENTAL, true);

    // Held in progress for as long as the test needs; cancelled below.
    const started = await runCli(
      [
        'revise',
        projectId,
        CHANGE,
        '--simulate',
        'completed',
        '--duration',
        '10m',
        '--no-follow',
        '--json',
      ],
      apiEnv,
    );
    expect(started.stderr).toBe('');
    expect(started.code).toBe(EXIT.OK);
    expect(JSON.parse(started.stdout)).toEqual({
      projectId,
      revision: 2,
      status: 'in_progress',
      estimatedCompletionMs: expect.any(Number),
    });

    const [second, history, diff] = await Promise.all([
      runCli(['revise', projectId, 'Drop the medical records'], apiEnv),
      runCli(['history', projectId], apiEnv),
      runCli(['diff', projectId, '--to', '2'], apiEnv),
    ]);
    expect(second.code).toBe(EXIT.CONFLICT);
    expect(second.stdout).toBe('');
    expect(second.stderr).toContain('error: Revision 2 of this project is still running');
    expect(second.stderr).toContain('(REVISION_IN_PROGRESS, req_');
    expect(second.stderr).toContain(`Follow it with: pgs watch ${projectId}`);
    const [running] = history.stdout.split('\n');
    expect(running).toMatch(/^2\tin_progress\t.*\t\(\d+ reserved\)\t.*\t-\t/);
    expect(diff.code).toBe(EXIT.CONFLICT);
    expect(diff.stderr).toContain('PROJECT_NOT_COMPLETED');
    expect(diff.stderr).toContain(`Follow it with: pgs watch ${projectId}`);

    // watch follows the running revision to its end: cancelled, so failed (exit 9).
    const watching = startCli(['watch', projectId], apiEnv);
    const cancelled = await sdk.projects.revisions.cancel(projectId, 2);
    expect(cancelled.error.code).toBe('generation_cancelled');
    const watched = await watching.exit;
    expect(watched.code).toBe(EXIT.GENERATION_FAILED);
    expect(watched.stderr).toMatch(
      /^error: revision 2 failed: Revision 2 was cancelled.* \(generation_cancelled\)\n$/,
    );

    // A revision that fails: exit 9, the failed revision on stdout, the error as JSON on stderr.
    const failed = await runCli(
      ['revise', projectId, CHANGE, '--simulate', 'failed', '--duration', '200', '--json'],
      apiEnv,
    );
    expect(failed.code).toBe(EXIT.GENERATION_FAILED);
    expect(JSON.parse(failed.stdout)).toMatchObject({
      projectId,
      revision: 3,
      status: 'failed',
      error: { code: 'generation_failed' },
    });
    expect(JSON.parse(failed.stderr)).toMatchObject({
      success: false,
      error: { code: 'GENERATION_FAILED', details: { projectId, revision: 3 } },
    });
    const text = await runCli(
      ['revise', projectId, CHANGE, '--simulate', 'failed', '--duration', '200'],
      apiEnv,
    );
    expect(text.code).toBe(EXIT.GENERATION_FAILED);
    expect(text.stdout).toMatch(/^Revision 4 of project /);
    expect(text.stderr).toMatch(/^error: revision 4 failed: .*refunded.* \(generation_failed\)\n$/);

    // On a terminal: documents as lines under a status line redrawn in place, then the summary.
    const tty = await inProcess(
      ['revise', projectId, CHANGE, '--simulate', 'completed', '--duration', '300'],
      { tty: true },
    );
    expect(tty.stderr).toBe('');
    expect(tty.code).toBe(EXIT.OK);
    expect(tty.stdout).toMatch(/^Revision 5 of project /);
    expect(tty.stdout).not.toMatch(/^(stage|document): /m);
    expect(tty.stdout).toContain('\r\x1b[K');
    expect(tty.stdout).toMatch(/^ {2}Revision {4}5$/m);
  });

  it.concurrent('revising a project still in progress is a conflict', async ({ expect }) => {
    const created = await runCli(
      ['generate', IDEA, '--no-wait', '--simulate', 'completed', '--duration', '10m'],
      apiEnv,
    );
    const projectId = created.stdout.trim();
    const [text, json] = await Promise.all([
      runCli(['revise', projectId, CHANGE], apiEnv),
      runCli(['revise', projectId, CHANGE, '--json'], apiEnv),
    ]);
    expect(text.code).toBe(EXIT.CONFLICT);
    expect(text.stdout).toBe('');
    expect(text.stderr).toMatch(
      /^error: The project is still being generated; only a completed project can be revised\. \(PROJECT_NOT_COMPLETED, req_\w+\)\n/,
    );
    expect(text.stderr).toContain(`Wait for it with: pgs wait ${projectId}`);
    expect(json.code).toBe(EXIT.CONFLICT);
    expect(JSON.parse(json.stderr)).toMatchObject({
      success: false,
      error: { code: 'PROJECT_NOT_COMPLETED', status: 409, details: { status: 'in_progress' } },
    });
    expect((await runCli(['cancel', projectId], apiEnv)).code).toBe(EXIT.OK);
  });

  it.concurrent('answer records answers as a revision: --answer with --wait, then --yes', async ({
    expect,
  }) => {
    const projectId = await completedProject(DENTAL);
    const first = (await sdk.projects.questions(projectId)).find((q) => q.leaveOpen !== true);
    const answered = await runCli(
      [
        'answer',
        projectId,
        '--answer',
        `${first!.id}=Twilio, on the clinic account`,
        '--wait',
        '--json',
      ],
      apiEnv,
    );
    expect(answered.code, answered.stderr).toBe(EXIT.OK);
    const revision = JSON.parse(answered.stdout) as Revision;
    expect(revision).toMatchObject({ revision: 2, status: 'completed', deltas: [] });
    expect(revision.changeRequest).toContain(`- ${first!.id} (`);
    expect(revision.documentsChanged).toContain('PROJECT_BRIEF.md');

    const left = await sdk.projects.questions(projectId);
    expect(left.map((q) => q.id)).not.toContain(first!.id);
    const all = await inProcess(['answer', projectId, '--yes']);
    expect(all.code, all.stderr).toBe(EXIT.OK);
    expect(all.stdout.trim()).toBe('3');
    expect(all.stderr).toContain('(--yes)');
    // An entry PGS has no answer for is left open, not recorded as the decision "Not decided…".
    const undecided = left.slice(0, 10).filter((q) => q.leaveOpen === true);
    expect(undecided.length).toBeGreaterThan(0);
    for (const q of left.slice(0, 10)) {
      expect(all.stderr).toContain(
        q.leaveOpen === true ? `  ${q.id} stays open` : `  ${q.id}: ${q.recommended}`,
      );
    }
    await sdk.projects.revisions.waitForCompletion(projectId, 3, { pollIntervalMs: 200 });
    const still = (await sdk.projects.questions(projectId)).map((q) => q.id);
    for (const q of undecided) expect(still).toContain(q.id);
  });

  it('usage errors exit 2 before any request', async () => {
    const cases: [string[], string][] = [
      [['revise', '00000000-0000-4000-8000-000000000000'], 'missing the change request'],
      [['revise'], 'missing the project ID'],
      [['revise', 'x', 'a change', '--wait', '--no-follow'], 'do not go together'],
      [['revise', 'x', 'a change', '--duration', '5s'], '--duration needs --simulate'],
      [['history'], 'missing the project ID'],
      [['diff', 'x', '--from', '3', '--to', '2'], '--from must be below --to'],
      [['diff', 'x', '--to', '0'], '--to must be an integer from 1'],
      [['answer'], 'takes one project ID'],
      [['answer', 'x', '--answer', 'no equals sign'], '--answer takes ID="answer"'],
      [['answer', 'x'], 'stdin is not a terminal: answer with --answer'],
    ];
    for (const [argv, message] of cases) {
      const r = await inProcess(argv);
      expect(r.code, argv.join(' ')).toBe(EXIT.USAGE);
      expect(r.stderr).toContain(message);
      expect(r.stderr).toContain(`Run 'pgs ${argv[0]} --help' for usage.`);
    }
  });

  it('the help lists the commands, and each says what it does', async () => {
    const program = await inProcess(['--help']);
    for (const name of ['revise', 'history', 'diff']) {
      expect(program.stdout).toMatch(new RegExp(`^ {2}${name} +\\S`, 'm'));
      const help = await inProcess([name, '--help']);
      expect(help.code).toBe(EXIT.OK);
      expect(help.stdout).toContain(`Usage: pgs ${name} ID`);
      expect(help.stdout).toContain('Exit codes:');
    }
    const diff = await inProcess(['diff', '--help']);
    expect(diff.stdout).toContain('every change from revision N to M as one diff');
    const revise = await inProcess(['revise', '--help']);
    expect(revise.stdout).toContain('exits 9');
  });
});
