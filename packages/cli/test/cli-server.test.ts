import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AuthenticationError, NotFoundError, Pgs, type ProjectStatus } from '@pgs/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cleanEnv,
  NODE,
  type RealServer,
  ROOT,
  startRealServer,
} from '../../client/test/pgs-server.ts';
import { EXIT, run } from '../src/index.ts';

// The real server and the real CLI, each a subprocess started the way a user would.
const CLI_BIN = join(ROOT, 'packages/cli/src/bin.ts');
const IDEA = 'A habit tracker for remote teams';

interface Exit {
  code: number | null;
  stdout: string;
  stderr: string;
}

function runCli(args: string[], env: NodeJS.ProcessEnv, cwd = ROOT): Promise<Exit> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(NODE, [CLI_BIN, ...args], { cwd, env, stdio: 'pipe' });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    child.on('error', reject);
    child.on('close', (code) => resolvePromise({ code, stdout, stderr }));
  });
}

async function markdownFiles(dir: string): Promise<string[]> {
  return (await readdir(dir)).filter((f) => f.endsWith('.md')).sort();
}

describe('the pgs CLI against the real server', () => {
  let server: RealServer;
  let tmp: string;
  let baseUrl: string;
  let cliEnv: NodeJS.ProcessEnv;
  let apiEnv: NodeJS.ProcessEnv;

  beforeAll(async () => {
    server = await startRealServer();
    baseUrl = server.url;
    tmp = await mkdtemp(join(tmpdir(), 'pgs-cli-out-'));
    // The token file is found through PGS_DATA_DIR, as for a user in another directory.
    cliEnv = { ...cleanEnv(), PGS_BASE_URL: baseUrl, PGS_DATA_DIR: server.dataDir };
    apiEnv = { ...cleanEnv(), PGS_BASE_URL: baseUrl, PGS_API_KEY: server.apiKey };
  });

  afterAll(async () => {
    await server?.stop();
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  /** A fresh test key with its own balance, through `pgs keys create`. */
  async function newKey(credits: number): Promise<string> {
    const created = await runCli(
      ['keys', 'create', '--mode', 'test', '--credits', String(credits), '--json'],
      cliEnv,
    );
    expect(created.code).toBe(0);
    return (JSON.parse(created.stdout) as { key: string }).key;
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
    const created = await runCli(
      ['generate', IDEA, '--no-wait', '--simulate', 'completed', '--duration', '4000'],
      apiEnv,
    );
    expect(created.code).toBe(0);
    const projectId = created.stdout.trim();
    expect(projectId).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.stderr).toBe(`Follow it with: pgs wait ${projectId} --out DIR\n`);

    const out = join(tmp, 'wait');
    const [text, json, waited] = await Promise.all([
      runCli(['status', projectId], apiEnv),
      runCli(['status', projectId, '--json'], apiEnv),
      runCli(['wait', projectId, '--out', out, '--poll-interval', '250'], apiEnv),
    ]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(
      new RegExp(`^Project ${projectId}: in_progress, (about \\d+ s left|finishing)\\n$`),
    );
    expect(JSON.parse(json.stdout)).toMatchObject({ projectId, status: 'in_progress' });
    expect(waited.stderr).toBe('');
    expect(waited.code).toBe(0);
    expect(waited.stdout).toMatch(/^in_progress: /m);
    expect((await markdownFiles(out)).length).toBeGreaterThanOrEqual(5);

    const [final, done, noWait] = await Promise.all([
      runCli(['wait', projectId, '--json'], apiEnv),
      runCli(['status', projectId], apiEnv),
      runCli(['generate', IDEA, '--no-wait', '--json', '--simulate', 'completed'], apiEnv),
    ]);
    expect(final.code).toBe(0);
    expect(JSON.parse(final.stdout)).toMatchObject({ projectId, status: 'completed' });
    expect(done.stdout).toContain(`Project ${projectId}: completed\n`);
    expect(done.stdout).toContain('  README.md\n');
    expect(Object.keys(JSON.parse(noWait.stdout) as object).sort()).toEqual([
      'estimatedCompletionMs',
      'projectId',
      'status',
    ]);
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

  it.concurrent('credits, and the errors that need a key', async ({ expect }) => {
    // Less than the 47 credits of a web project.
    const key = await newKey(40);
    const env = { ...apiEnv, PGS_API_KEY: key };
    const [text, json, byFlag, poor, noKey, badKey, missing, malformed] = await Promise.all([
      runCli(['credits'], env),
      runCli(['credits', '--json'], env),
      // The base URL may be the versioned base too, and the key a flag.
      runCli(['credits', '--json', '--api-key', key, '--base-url', `${baseUrl}/api/v1`], {
        ...apiEnv,
        PGS_API_KEY: 'pgs_test_ignored',
        PGS_BASE_URL: 'http://127.0.0.1:9',
      }),
      runCli(['generate', IDEA], env),
      runCli(['generate', IDEA], { ...apiEnv, PGS_API_KEY: undefined }),
      runCli(['credits'], { ...apiEnv, PGS_API_KEY: `pgs_test_${'x'.repeat(40)}` }),
      runCli(['status', randomUUID()], env),
      runCli(['wait', 'not-a-uuid'], env),
    ]);
    expect(text).toEqual({ code: 0, stdout: '40 test credits available.\n', stderr: '' });
    expect(JSON.parse(json.stdout)).toEqual({ mode: 'test', balance: 40, reserved: 0 });
    expect(JSON.parse(byFlag.stdout)).toEqual({ mode: 'test', balance: 40, reserved: 0 });

    expect(poor.code).toBe(EXIT.INSUFFICIENT_CREDITS);
    expect(poor.stderr).toMatch(/\(INSUFFICIENT_CREDITS, req_[0-9A-Z]{26}\)/);
    expect(poor.stderr).toContain('pgs credits');

    expect(noKey.code).toBe(3);
    expect(noKey.stdout).toBe('');
    expect(noKey.stderr).toContain('PGS_API_KEY');
    expect(noKey.stderr).toContain('npx pgs keys create --mode test --credits 1000');

    expect(badKey.code).toBe(EXIT.AUTHENTICATION);
    expect(badKey.stderr).toMatch(/AUTHENTICATION_FAILED/);
    expect(badKey.stderr).toContain('rejected the API key (invalid_key) from PGS_API_KEY');

    expect(missing.code).toBe(EXIT.NOT_FOUND);
    expect(malformed.code).toBe(EXIT.VALIDATION);
    expect(malformed.stderr).toContain('projectId');
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

  it.concurrent('watch prints the events to the end; download extracts the archive', async ({
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
  });

  it('refuses a --out that holds files before creating anything', async () => {
    const before = (await runCli(['credits', '--json'], apiEnv)).stdout;
    await writeFile(join(tmp, 'placeholder'), '');
    const r = await runCli(['generate', IDEA, '--out', tmp], apiEnv);
    expect(r.code).toBe(EXIT.USAGE);
    expect(r.stderr).toContain('is not empty');
    expect((await runCli(['credits', '--json'], apiEnv)).stdout).toBe(before);
  });

  it('creates a key, revokes it, and grants credits', async () => {
    const created = await runCli(
      ['keys', 'create', '--mode', 'test', '--credits', '50', '--json'],
      cliEnv,
    );
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    const lines = created.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    const out = JSON.parse(lines[0]!) as Record<string, string>;
    expect(Object.keys(out).sort()).toEqual(['accountId', 'key', 'keyId', 'mode']);
    expect(out.key).toMatch(/^pgs_test_[0-9A-Za-z]{32,}$/);
    expect(out.keyId).toMatch(/^key_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(out.accountId).toMatch(/^acct_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(out.mode).toBe('test');

    const pgs = new Pgs({ apiKey: out.key!, baseUrl, maxRetries: 0 });
    const projectId = randomUUID();
    // The key works: an unknown project is a 404, not a 401.
    await expect(pgs.projects.get(projectId)).rejects.toBeInstanceOf(NotFoundError);

    const revoked = await runCli(['keys', 'revoke', out.keyId!, '--json'], cliEnv);
    expect(revoked.stderr).toBe('');
    expect(revoked.code).toBe(0);
    expect(JSON.parse(revoked.stdout)).toMatchObject({
      keyId: out.keyId,
      accountId: out.accountId,
      mode: 'test',
    });

    const error = await pgs.projects.get(projectId).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as AuthenticationError).status).toBe(401);
    expect((error as AuthenticationError).code).toBe('AUTHENTICATION_FAILED');
    expect((error as AuthenticationError).details?.issue).toBe('revoked');

    const granted = await runCli(
      [
        'credits',
        'grant',
        '--account',
        out.accountId!,
        '--mode',
        'test',
        '--amount',
        '25',
        '--json',
      ],
      cliEnv,
    );
    expect(granted.stderr).toBe('');
    expect(granted.code).toBe(0);
    expect(JSON.parse(granted.stdout)).toEqual({
      accountId: out.accountId,
      mode: 'test',
      amount: 25,
      balance: 75,
    });
  });

  it('maps the server errors to exit codes', async () => {
    const unknownKey = await runCli(['keys', 'revoke', 'key_00000000000000000000000000'], cliEnv);
    expect(unknownKey.code).toBe(4);
    expect(unknownKey.stderr).toMatch(/^error: .+ \(RESOURCE_NOT_FOUND, req_[0-9A-Z]{26}\)/);

    const badToken = await runCli(['keys', 'create', '--mode', 'test'], {
      ...cliEnv,
      PGS_ADMIN_TOKEN: 'not-the-token',
    });
    expect(badToken.code).toBe(3);
    expect(badToken.stderr).toMatch(/AUTHENTICATION_FAILED/);
  });
});
