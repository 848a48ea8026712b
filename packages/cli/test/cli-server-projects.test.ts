import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  PgsAdmin,
  type ProjectStatus,
  type ProjectSummary,
  type Provenance,
  type Trace,
} from '@pgs/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RealServer } from '../../client/test/pgs-server.ts';
import { EXIT, run } from '../src/index.ts';
import { IDEA, markdownFiles, runCli, startCli, startRealCli, stopRealCli } from './cli-process.ts';

// The project commands (generate, status, wait, watch, download) of the real CLI against
// the real server, each a subprocess (see cli-process.ts).
// Every test spawns CLI processes against a server process: on a loaded machine that takes
// many seconds, so the time limit is generous; no assertion depends on how long anything took.
describe('the pgs CLI against the real server', { timeout: 120_000 }, () => {
  let server: RealServer;
  let tmp: string;
  let apiEnv: NodeJS.ProcessEnv;

  beforeAll(async () => {
    ({ server, tmp, apiEnv } = await startRealCli());
  });

  afterAll(async () => {
    await stopRealCli(server, tmp);
  });

  /** The CLI in-process against the real server, its stdout a terminal unless said. */
  async function inProcess(argv: string[], { tty = true } = {}) {
    let stdout = '';
    let stderr = '';
    const code = await run(argv, {
      env: apiEnv,
      stdout: { write: (s: string) => (stdout += s), isTTY: tty, columns: 200 },
      stderr: { write: (s: string) => (stderr += s) },
    });
    return { code, stdout, stderr };
  }

  it.concurrent('generate follows the event stream, shows each document as a line, and writes them', async ({
    expect,
  }) => {
    const out = join(tmp, 'generate');
    const r = await runCli(
      ['generate', IDEA, '--out', out, '--simulate', 'completed', '--duration', '1500'],
      apiEnv,
    );
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^Created project [0-9a-f-]{36} \(about .+ estimated\)$/);
    // stdout is a pipe: plain lines, no bar redrawn with \r.
    expect(r.stdout).not.toContain('\r');
    // The event stream: each document as it lands, then the end, with no polling pace.
    expect(lines.filter((l) => l.startsWith('in_progress: '))).toEqual([]);
    expect(lines).toContainEqual(
      expect.stringMatching(/^completed: \d+ documents, \d+ credits consumed$/),
    );

    const files = await markdownFiles(out);
    expect(files.length).toBeGreaterThanOrEqual(5);
    expect(files).toContain('README.md');
    for (const file of files) {
      expect(lines).toContain(`  ${join(out, file)}`);
      expect((await readFile(join(out, file), 'utf8')).length).toBeGreaterThan(0);
    }
    // Documents stored before the stream opened are in its first status, not lines of their own.
    for (const line of lines.filter((l) => l.startsWith('document: '))) {
      expect(files).toContain(/^document: (\S+) \(\d+ tokens\)$/.exec(line)?.[1]);
    }
    expect(lines).toContain(`Wrote ${files.length} documents to ${out}:`);
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}Project {5}\S/));
    expect(lines).toContain('  Type        web');
    expect(lines).toContain(`  Documents   ${files.length}`);
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}Credits {5}\d+ consumed$/));
  });

  it.concurrent('generate --json prints one line with the final status and writes the files', async ({
    expect,
  }) => {
    const out = join(tmp, 'json');
    const r = await runCli(
      [
        'generate',
        IDEA,
        '--type',
        'mobile',
        '--name',
        'Habit Pocket',
        '--json',
        '--out',
        out,
        '--poll-interval',
        '300',
        '--simulate',
        'completed',
        '--duration',
        '600',
      ],
      apiEnv,
    );
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    const status = JSON.parse(lines[0]!) as ProjectStatus;
    expect(status.status).toBe('completed');
    if (status.status !== 'completed') return;
    expect(status.project).toMatchObject({ name: 'Habit Pocket', type: 'mobile' });
    expect(await markdownFiles(out)).toEqual(
      status.project.documents.map((d) => d.filename).sort(),
    );
  });

  it.concurrent('generate --no-wait, then status, wait --out and wait --json', async ({
    expect,
  }) => {
    // Held in progress for as long as the test needs (a 10-minute simulation, cancelled at
    // the end), never "still running after N ms": a loaded machine cannot make it finish early.
    const [created, quick] = await Promise.all([
      runCli(
        ['generate', IDEA, '--no-wait', '--simulate', 'completed', '--duration', '10m'],
        apiEnv,
      ),
      runCli(['generate', IDEA, '--no-wait', '--simulate', 'completed'], apiEnv),
    ]);
    expect(created.code).toBe(0);
    const projectId = created.stdout.trim();
    expect(projectId).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.stderr).toBe(`Follow it with: pgs wait ${projectId} --out DIR\n`);
    expect(quick.code).toBe(0);
    const quickId = quick.stdout.trim();

    const waiting = startCli(['wait', projectId, '--poll-interval', '250'], apiEnv);
    const out = join(tmp, 'wait');
    const [text, json, written] = await Promise.all([
      runCli(['status', projectId], apiEnv),
      runCli(['status', projectId, '--json'], apiEnv),
      // wait --out on a project that completes, however long that takes.
      runCli(['wait', quickId, '--out', out, '--poll-interval', '250'], apiEnv),
      waiting.printed(/^in_progress: /m),
    ]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(
      new RegExp(`^Project ${projectId}: in_progress, (about \\d+ s left|finishing)\\n$`),
    );
    expect(JSON.parse(json.stdout)).toMatchObject({ projectId, status: 'in_progress' });
    expect(written.stderr).toBe('');
    expect(written.code).toBe(0);
    expect((await markdownFiles(out)).length).toBeGreaterThanOrEqual(5);

    const [final, done, noWait, cancelled] = await Promise.all([
      runCli(['wait', quickId, '--json'], apiEnv),
      runCli(['status', quickId], apiEnv),
      runCli(['generate', IDEA, '--no-wait', '--json', '--simulate', 'completed'], apiEnv),
      runCli(['cancel', projectId], apiEnv),
    ]);
    expect(final.code).toBe(0);
    expect(JSON.parse(final.stdout)).toMatchObject({ projectId: quickId, status: 'completed' });
    expect(done.stdout).toContain(`Project ${quickId}: completed\n`);
    expect(done.stdout).toContain('  README.md\n');
    expect(Object.keys(JSON.parse(noWait.stdout) as object).sort()).toEqual([
      'estimatedCompletionMs',
      'projectId',
      'status',
    ]);
    // Cancelling ends the wait on the held project: failed (generation_cancelled), exit 9.
    expect(cancelled.code).toBe(0);
    const waited = await waiting.exit;
    expect(waited.code).toBe(EXIT.GENERATION_FAILED);
    expect(waited.stdout).toMatch(/^in_progress: /m);
  });

  it.concurrent('a failed generation exits 9 with the reason', async ({ expect }) => {
    const args = [
      'generate',
      IDEA,
      '--simulate',
      'failed',
      '--duration',
      '200',
      '--poll-interval',
      '300',
    ];
    const [text, json] = await Promise.all([
      runCli(args, apiEnv),
      runCli([...args, '--json'], apiEnv),
    ]);
    expect(text.code).toBe(EXIT.GENERATION_FAILED);
    expect(text.stderr).toMatch(/^error: generation failed: .*refunded.* \(generation_failed\)\n$/);
    expect(text.stdout).toMatch(/^Created project /);

    expect(json.code).toBe(9);
    const status = JSON.parse(json.stdout) as ProjectStatus;
    expect(status).toMatchObject({ status: 'failed', error: { code: 'generation_failed' } });
    expect(JSON.parse(json.stderr)).toMatchObject({
      success: false,
      error: { code: 'GENERATION_FAILED', details: { projectId: status.projectId } },
    });
  });

  it.concurrent('a terminal gets a progress bar redrawn in place', async ({ expect }) => {
    const out = join(tmp, 'tty');
    let stdout = '';
    let stderr = '';
    const code = await run(
      [
        'generate',
        IDEA,
        '--out',
        out,
        '--poll-interval',
        '400',
        '--simulate',
        'completed',
        '--duration',
        '1500',
      ],
      {
        env: apiEnv,
        stdout: { write: (s: string) => (stdout += s), isTTY: true, columns: 100 },
        stderr: { write: (s: string) => (stderr += s) },
      },
    );
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).not.toMatch(/^in_progress:/m);
    const frames = stdout.split('\r').filter((f) => f.includes('█') || f.includes('░'));
    expect(frames.length).toBeGreaterThanOrEqual(3);
    for (const frame of frames) {
      expect(frame.split('\n')[0]!.length).toBeLessThan(100 + 3);
    }
    const clear = '\x1b[K';
    expect(stdout).toContain(`\r${'░'.repeat(24)}   0%  about 2 s left${clear}`);
    expect(stdout).toContain('next check in 1 s');
    expect(stdout).toContain(`\r${'█'.repeat(24)} 100%  done${clear}\n`);
    expect(stdout).toContain(`Wrote `);
  });

  it.concurrent('watch prints the events to the end; download extracts the archive; trace shows the matrix; provenance the engine', async ({
    expect,
  }) => {
    const created = await runCli(
      ['generate', IDEA, '--no-wait', '--simulate', 'completed', '--duration', '1500'],
      apiEnv,
    );
    expect(created.code).toBe(0);
    const projectId = created.stdout.trim();
    const [text, json] = await Promise.all([
      runCli(['watch', projectId], apiEnv),
      runCli(['watch', projectId, '--json'], apiEnv),
    ]);
    expect(text.stderr).toBe('');
    expect(text.code).toBe(0);
    const lines = text.stdout.trimEnd().split('\n');
    expect(lines.at(-1)).toMatch(/^completed: \d+ documents, \d+ credits consumed$/);
    const events = json.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string });
    expect(events[0]?.type).toBe('status');
    expect(events.at(-1)?.type).toBe('project.completed');

    const cwd = await mkdtemp(join(tmp, 'download-'));
    const plain = await runCli(['download', projectId], apiEnv, cwd);
    expect(plain.stderr).toBe('');
    expect(plain.code).toBe(0);
    const [slug] = await readdir(cwd);
    expect((await readdir(join(cwd, slug!))).sort()).toContain('project.json');
    expect(await readFile(join(cwd, slug!, 'README.md'), 'utf8')).toMatch(/^# /);
    const kiro = await runCli(
      ['download', projectId, '--layout', 'kiro', '--out', 'repo', '--json'],
      apiEnv,
      cwd,
    );
    expect(kiro.code).toBe(0);
    const { files } = JSON.parse(kiro.stdout) as { files: string[] };
    expect(files).toContain(join('repo', '.kiro', 'steering', 'product.md'));
    const again = await runCli(
      ['download', projectId, '--layout', 'kiro', '--out', 'repo'],
      apiEnv,
      cwd,
    );
    expect(again.code).toBe(EXIT.UNEXPECTED);
    expect(again.stderr).toContain('already exists; nothing was written');

    // The trace: the matrix holds one row per requirement the JSON lists.
    const [matrix, traced] = await Promise.all([
      runCli(['trace', projectId], apiEnv),
      runCli(['trace', projectId, '--json'], apiEnv),
    ]);
    expect(matrix.stderr).toBe('');
    expect(matrix.code).toBe(0);
    const data = JSON.parse(traced.stdout) as Trace;
    const ids = data.coverage.requirements.map((fr) => fr.id);
    expect(ids.length).toBeGreaterThan(0);
    const rows = matrix.stdout.split('\n').filter((l) => /^FR-\d+ /.test(l));
    expect(rows.map((l) => l.split(' ')[0])).toEqual(ids);
    expect(matrix.stdout).toContain(`Coverage: ${ids.length} requirement`);
    expect(matrix.stdout).toMatch(/^Findings: /m);

    // The provenance: one row per part the JSON lists, all the offline engine's, and the note
    // that says how to configure a model.
    const [table, provenance] = await Promise.all([
      runCli(['provenance', projectId], apiEnv),
      runCli(['provenance', projectId, '--json'], apiEnv),
    ]);
    expect(table.stderr).toBe('');
    expect(table.code).toBe(0);
    const read = JSON.parse(provenance.stdout) as Provenance;
    const kinds = [read.definition!, ...read.documents].map((part) => part.kind);
    expect(kinds.length).toBeGreaterThan(1);
    const partRows = table.stdout.split('\n').filter((l) => /^[a-z-]+ +offline +/.test(l));
    expect(partRows.map((l) => l.split(' ')[0])).toEqual(kinds);
    expect(table.stdout).toMatch(/^PART +ENGINE +PROMPT +TOKENS +CACHED +COST +ATTEMPTS +/m);
    expect(table.stdout).toContain('written by the offline engine (no AI model)');
    expect(table.stdout).toMatch(/set PGS_MODELS on the/);
  });

  it.concurrent('cost: a project of the offline engine cost $0, part by part; --json gives the provenance totals; list shows it', async ({
    expect,
  }) => {
    const created = await runCli(
      ['generate', IDEA, '--no-wait', '--simulate', 'completed'],
      apiEnv,
    );
    expect(created.code).toBe(0);
    const projectId = created.stdout.trim();
    expect((await runCli(['wait', projectId], apiEnv)).code).toBe(0);

    const [piped, json, provenance, listed] = await Promise.all([
      runCli(['cost', projectId], apiEnv),
      runCli(['cost', projectId, '--json'], apiEnv),
      runCli(['provenance', projectId, '--json'], apiEnv),
      runCli(['list', '--json'], apiEnv),
    ]);
    expect(piped.stderr).toBe('');
    expect(piped.code).toBe(0);
    const read = JSON.parse(provenance.stdout) as Provenance;
    const parts = [read.definition!, ...read.documents];
    expect(parts.length).toBeGreaterThan(1);
    expect(read.totals.costUsd).toBe(0);

    // Piped: one tab-separated line per part, then the total line, every cost $0.
    const rows = piped.stdout
      .trimEnd()
      .split('\n')
      .map((line) => line.split('\t'));
    expect(rows.map((row) => row[0])).toEqual([...parts.map((part) => part.kind), 'total']);
    for (const row of rows.slice(0, -1)) expect(row[1]).toBe('offline');
    expect(rows.map((row) => row[6])).toEqual(rows.map(() => '$0'));
    const { inputTokens, cachedInputTokens, cacheWriteTokens, outputTokens } = read.totals;
    expect(rows.at(-1)).toEqual([
      'total',
      '',
      String(inputTokens),
      String(cachedInputTokens),
      String(cacheWriteTokens),
      String(outputTokens),
      '$0',
    ]);

    // --json: the provenance's totals and parts, as served.
    expect(json.code).toBe(0);
    const cost = JSON.parse(json.stdout) as { totals: Provenance['totals']; parts: unknown[] };
    expect(cost.totals).toEqual(read.totals);
    expect(cost.parts).toEqual(parts);

    // A terminal: the total first, the table, the cache share and why it is free.
    const tty = await inProcess(['cost', projectId]);
    expect(tty.code).toBe(0);
    const lines = tty.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe(`Project ${projectId}: completed; cost $0.`);
    expect(lines[2]).toMatch(/^PART +ENGINE +INPUT +CACHED +CACHE WRITE +OUTPUT +COST$/);
    expect(lines).toContainEqual(expect.stringMatching(/^total +\d+ +0 +0 +\d+ +\$0$/));
    expect(lines).toContain(`Cache served 0 % of input tokens (0 of ${inputTokens}).`);
    expect(lines.at(-1)).toBe(
      "$0: the offline engine, PGS's built-in engine with no AI model, is free.",
    );

    // The listing's cost (every run so far) is $0 too, in its COST column.
    const summary = (JSON.parse(listed.stdout) as { data: ProjectSummary[] }).data.find(
      (p) => p.projectId === projectId,
    );
    expect(summary?.costUsd).toBe(0);
    const table = await inProcess(['list', '--limit', '100'], { tty: false });
    const row = table.stdout.split('\n').find((line) => line.startsWith(projectId));
    expect(row?.split('\t')[4]).toBe('$0');
  });

  it('refuses a --out that holds files before creating anything', async () => {
    // A key of its own: projects the concurrent tests left running settle on the file's key
    // at any moment, so only an untouched key's balance shows that nothing was reserved.
    const admin = new PgsAdmin({ adminToken: await server.adminToken(), baseUrl: server.url });
    const own = await admin.keys.create({ mode: 'test', credits: 100 });
    const env = { ...apiEnv, PGS_API_KEY: own.key };
    const before = (await runCli(['credits', '--json'], env)).stdout;
    await writeFile(join(tmp, 'placeholder'), '');
    const r = await runCli(['generate', IDEA, '--out', tmp], env);
    expect(r.code).toBe(EXIT.USAGE);
    expect(r.stderr).toContain('is not empty');
    expect((await runCli(['credits', '--json'], env)).stdout).toBe(before);
    expect(JSON.parse(before)).toMatchObject({ balance: 100, reserved: 0 });
    expect(JSON.parse((await runCli(['list', '--json'], env)).stdout)).toMatchObject({ data: [] });
  });
});
