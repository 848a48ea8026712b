import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { EXPRESS_POSTGRES, type RepositoryFiles } from '@pgs/contract/testing/repositories';
import { buildRepositoryDigest } from '@pgs/repository';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { json } from '../../client/test/http-server.ts';
import { EXIT, run } from '../src/index.ts';
import {
  accepted,
  completed,
  completedEvents,
  ID,
  KEY,
  server,
  tmp,
  useProjectsServer,
} from './projects-fixture.ts';

// pgs generate --repo and pgs revise --repo in-process against the small fake API of
// projects-fixture.ts, which records every request: what the CLI sends, and that
// --dry-run sends nothing. repo-server.test.ts runs them against the real server.

useProjectsServer();

const COMMIT = '5be1c0ffee5be1c0ffee5be1c0ffee5be1c0ffee';
const IDEA = 'Add team billing to the clinic app';

/** EXPRESS_POSTGRES written out as a checkout at COMMIT, in a new folder of the scratch directory. */
async function checkout(files: RepositoryFiles = EXPRESS_POSTGRES.files): Promise<string> {
  const root = await mkdtemp(join(tmp, 'repo-'));
  const all = {
    ...files,
    '.git/HEAD': 'ref: refs/heads/main\n',
    '.git/refs/heads/main': `${COMMIT}\n`,
  };
  for (const [path, text] of Object.entries(all)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), text);
  }
  return root;
}

/** The digest the CLI should build: the SDK's, counted with o200k. */
function expectedDigest(root: string, budgetTokens?: number) {
  return buildRepositoryDigest(root, {
    budgetTokens,
    countTokens: (text) => countTokens(text, { disallowedSpecial: new Set() }),
  });
}

async function pgs(
  argv: string[],
  {
    tty = false,
    cwd = tmp,
    signal,
    key = true,
  }: { tty?: boolean; cwd?: string; signal?: AbortSignal; key?: boolean } = {},
) {
  let stdout = '';
  let stderr = '';
  const code = await run(argv, {
    env: { PGS_BASE_URL: server.url, ...(key ? { PGS_API_KEY: KEY } : {}) },
    stdout: { write: (s: string) => (stdout += s), isTTY: tty, columns: 200 },
    stderr: { write: (s: string) => (stderr += s) },
    cwd,
    client: { sleep: async () => {} },
    signal,
  });
  return { code, stdout, stderr };
}

/** Every text of the repository that must never be printed: its secrets and its files' lines. */
function neverPrinted(): string[] {
  const lines = Object.values(EXPRESS_POSTGRES.files)
    .flatMap((text) => text.split('\n'))
    .map((line) => line.trim())
    .filter((line) => line.length > 24);
  return [...EXPRESS_POSTGRES.secrets, ...lines];
}

describe('pgs generate --repo', () => {
  it('--dry-run lists each file with its size, tokens and category, what was left out, the totals, and sends nothing', async () => {
    const root = await checkout();
    const expected = await expectedDigest(root);
    const r = await pgs(['generate', IDEA, '--repo', root, '--dry-run'], { tty: true });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(EXIT.OK);
    expect(server.requests).toEqual([]);

    const lines = r.stdout.trimEnd().split('\n');
    const { report } = expected;
    expect(lines[0]).toBe(
      `Would send repository vetbook-api at ${COMMIT.slice(0, 12)}: ${report.files.length} files`,
    );
    expect(lines[2]).toMatch(/^PATH\s+BYTES\s+TOKENS\s+CATEGORY\s+REDACTIONS$/);
    const rows = lines.slice(3, 3 + report.files.length).map((l) => l.split(/\s+/));
    expect(rows).toEqual(
      report.files.map((f) => [
        f.path,
        String(f.bytes),
        String(f.tokens),
        f.category,
        String(f.redactions),
      ]),
    );
    expect(rows[0]).toEqual([
      'package.json',
      expect.any(String),
      expect.any(String),
      'manifest',
      '0',
    ]);
    expect(rows.find((row) => row[0] === 'src/services/payments.ts')?.[4]).toBe('1');
    expect(lines).toContain('Left out (3):');
    expect(lines).toContainEqual(
      expect.stringMatching(/^\.env\s+a secret file \(an environment file\), never read$/),
    );
    expect(lines).toContainEqual(expect.stringMatching(/^node_modules\/\s+excluded by default/));
    expect(lines.slice(-2)).toEqual([
      `Total: ${report.files.length} files, ${report.totalBytes} bytes, ${report.tokens} of 40000 tokens, 2 secrets redacted, 3 left out.`,
      'Nothing was sent (--dry-run).',
    ]);
    for (const text of neverPrinted()) expect(r.stdout).not.toContain(text);
  });

  it('--dry-run counts with o200k and --repo-budget bounds it; what did not fit is counted in one line', async () => {
    const root = await checkout();
    const expected = await expectedDigest(root, 400);
    // o200k, not the SDK's estimate of a quarter of the characters.
    const estimate = await buildRepositoryDigest(root, { budgetTokens: 400 });
    expect(expected.report.files.map((f) => f.tokens)).not.toEqual(
      estimate.report.files.map((f) => f.tokens),
    );

    const r = await pgs(['generate', IDEA, '--repo', root, '--repo-budget', '400', '--dry-run']);
    expect(r.code).toBe(EXIT.OK);
    expect(server.requests).toEqual([]);
    // Piped: tab-separated rows without a header.
    const rows = r.stdout
      .split('\n')
      .filter((l) => l.split('\t').length === 5)
      .map((l) => l.split('\t'));
    expect(rows.map((row) => [row[0], Number(row[2])])).toEqual(
      expected.report.files.map((f) => [f.path, f.tokens]),
    );
    expect(expected.report.tokens).toBeLessThanOrEqual(400);
    const cut = expected.report.skipped.filter((s) => s.kind === 'budget').length;
    expect(cut).toBeGreaterThan(0);
    expect(r.stdout).toContain(
      `And ${cut} more files left out, over the budget of 400 tokens (--repo-budget raises it); --json lists them.`,
    );
    expect(r.stdout).toContain(`${expected.report.tokens} of 400 tokens`);
  });

  it('--dry-run --json prints the report in one line, without any content, and needs no key', async () => {
    const root = await checkout();
    const expected = await expectedDigest(root);
    const r = await pgs(['generate', IDEA, '--repo', root, '--dry-run', '--json'], { key: false });
    expect(r.code).toBe(EXIT.OK);
    expect(server.requests).toEqual([]);
    expect(r.stdout.trimEnd().split('\n')).toHaveLength(1);
    expect(JSON.parse(r.stdout)).toEqual({
      dryRun: true,
      repository: { name: 'vetbook-api', commit: COMMIT },
      ...expected.report,
    });
    expect(r.stdout).not.toContain('"content"');
    for (const text of neverPrinted()) expect(r.stdout).not.toContain(text);
  });

  it('sends the digest as context, says what it sends, then follows the project', async () => {
    const root = await checkout();
    const expected = await expectedDigest(root);
    server.reply(accepted, completedEvents, completed);
    const cwd = await mkdtemp(join(tmp, 'out-'));
    const r = await pgs(['generate', IDEA, '--repo', root], { cwd });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(EXIT.OK);
    const { report } = expected;
    expect(r.stdout.split('\n').slice(0, 2)).toEqual([
      `Repository vetbook-api at ${COMMIT.slice(0, 12)}: ${report.files.length} files, ` +
        `${report.totalBytes} bytes, ${report.tokens} tokens, 2 secrets redacted, 3 left out`,
      `Created project ${ID} (about 20 s of generation estimated)`,
    ]);
    const [post] = server.requests;
    expect(post?.url).toBe('/api/v1/projects');
    const body = JSON.parse(post?.body ?? '');
    expect(body).toEqual({ idea: IDEA, context: { repository: expected.repository } });
    expect(body.context.repository.commit).toBe(COMMIT);
    for (const secret of EXPRESS_POSTGRES.secrets) expect(post?.body).not.toContain(secret);
    for (const text of neverPrinted()) expect(r.stdout).not.toContain(text);
  });

  it('--no-wait keeps stdout to the project id: the summary goes to stderr', async () => {
    const root = await checkout();
    server.reply(accepted);
    const r = await pgs(['generate', IDEA, '--repo', root, '--no-wait']);
    expect(r.code).toBe(EXIT.OK);
    expect(r.stdout).toBe(`${ID}\n`);
    expect(r.stderr).toMatch(/^Repository vetbook-api at [0-9a-f]{12}: \d+ files, /);
    expect(
      JSON.parse(server.requests[0]?.body ?? '').context.repository.files.length,
    ).toBeGreaterThan(0);
  });

  it('refuses --dry-run or --repo-budget without --repo, a missing DIR and a repository with nothing to send', async () => {
    const cases: [string[], RegExp][] = [
      [['--dry-run'], /--dry-run needs --repo DIR/],
      [['--repo-budget', '500'], /--repo-budget needs --repo DIR/],
      [['--repo', join(tmp, 'no-such-dir'), '--dry-run'], /no such directory/],
      [['--repo', '.', '--repo-budget', 'lots'], /--repo-budget must be an integer/],
      [['--repo', '.', '--repo-budget', '0'], /--repo-budget must be an integer from 1/],
    ];
    for (const [flags, message] of cases) {
      const r = await pgs(['generate', IDEA, ...flags]);
      expect(r.code, flags.join(' ')).toBe(EXIT.USAGE);
      expect(r.stderr).toMatch(message);
    }
    // Only secret files: nothing the API would take.
    const secrets = await checkout({ '.env': 'TOKEN=abc\n', 'deploy/id_rsa': 'key\n' });
    const empty = await pgs(['generate', IDEA, '--repo', secrets]);
    expect(empty.code).toBe(EXIT.USAGE);
    expect(empty.stderr).toContain('nothing to send, every file was left out');
    expect(server.requests).toEqual([]);
  });
  it('Ctrl-C while the tree is read is an interruption (exit 130), and nothing is sent', async () => {
    const root = await checkout();
    const r = await pgs(['generate', IDEA, '--repo', root], { signal: AbortSignal.abort() });
    expect(r.code).toBe(EXIT.INTERRUPTED);
    expect(r.stderr).toMatch(/^error: interrupted\n/);
    expect(server.requests).toEqual([]);
  });
});

describe('pgs revise --repo', () => {
  const started = json(
    202,
    {
      success: true,
      data: { projectId: ID, revision: 2, status: 'in_progress', estimatedCompletionMs: 5_000 },
    },
    { location: `/api/v1/projects/${ID}/revisions/2` },
  );

  it('sends the codebase as it is now with the change request', async () => {
    const root = await checkout();
    const expected = await expectedDigest(root, 2_000);
    server.reply(started);
    const r = await pgs([
      'revise',
      ID,
      'Bill teams per seat',
      '--repo',
      root,
      '--repo-budget',
      '2000',
      '--no-follow',
    ]);
    expect(r.code).toBe(EXIT.OK);
    expect(r.stdout).toBe('2\n');
    expect(r.stderr).toMatch(/^Repository vetbook-api at [0-9a-f]{12}: /);
    const [post] = server.requests;
    expect(post?.url).toBe(`/api/v1/projects/${ID}/revisions`);
    expect(JSON.parse(post?.body ?? '')).toEqual({
      changeRequest: 'Bill teams per seat',
      context: { repository: expected.repository },
    });
  });

  it('--dry-run prints what would be sent and starts no revision', async () => {
    const root = await checkout();
    const r = await pgs(['revise', ID, 'Bill teams per seat', '--repo', root, '--dry-run']);
    expect(r.code).toBe(EXIT.OK);
    expect(r.stdout).toMatch(/^Would send repository vetbook-api at [0-9a-f]{12}: \d+ files\n/);
    expect(r.stdout).toMatch(/\nNothing was sent \(--dry-run\)\.\n$/);
    expect(server.requests).toEqual([]);
  });
});
