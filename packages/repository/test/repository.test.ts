import * as fs from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative, sep } from 'node:path';
import { Pgs } from '@pgs/client';
import { utf8Bytes } from '@pgs/contract/repository';
import {
  EXPRESS_POSTGRES,
  GO_CHI,
  PYTHON_FASTAPI,
  type RepositoryFiles,
  TEST_REPOSITORIES,
  type TestRepository,
} from '@pgs/contract/testing/repositories';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { json, startServer, type TestServer } from '../../client/test/http-server.ts';
import {
  type BuiltDigest,
  buildRepositoryDigest,
  CATEGORY_ORDER,
  MAX_MISSES_IN_A_ROW,
  REPOSITORY_LIMITS,
} from '../src/index.ts';

// buildRepositoryDigest on the contract's test repositories written to disk, with what real
// working trees add: a .git folder, nested .gitignore files, symbolic links out of the root,
// big and binary files. Every read of the builder goes through a recorder, so "ignored
// files are never read" is checked on the reads themselves.

const reads = vi.hoisted(() => [] as string[]);
vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs/promises')>();
  return {
    ...real,
    readFile: (async (path: Parameters<typeof real.readFile>[0], ...rest: unknown[]) => {
      reads.push(String(path));
      return (real.readFile as (...args: unknown[]) => unknown)(path, ...rest);
    }) as typeof real.readFile,
  };
});

let tmp: string;
beforeAll(async () => {
  tmp = await fs.mkdtemp(join(tmpdir(), 'pgs-digest-'));
});
afterAll(async () => {
  await fs.rm(tmp, { recursive: true, force: true });
});
beforeEach(() => {
  reads.length = 0;
});

let made = 0;
/** Writes `files` into a new folder under the scratch directory; `order` reverses the writes. */
async function writeTree(files: RepositoryFiles, order: 'forward' | 'reverse' = 'forward') {
  const root = join(tmp, `repo-${++made}`);
  const entries = Object.entries(files);
  if (order === 'reverse') entries.reverse();
  for (const [path, text] of entries) {
    await fs.mkdir(dirname(join(root, path)), { recursive: true });
    await fs.writeFile(join(root, path), text);
  }
  return root;
}

/** The paths (relative, `/`-separated) the builder read under `root`. */
function readsUnder(root: string): string[] {
  return reads
    .filter((path) => path.startsWith(root + sep))
    .map((path) => relative(root, path).split(sep).join('/'));
}

const within = (path: string, folder: string) => path === folder || path.startsWith(folder);

/** Every `[redacted:` marker in the digest's files. */
function redactionMarks(built: BuiltDigest): number {
  return built.repository.files.reduce(
    (n, f) => n + (f.content.match(/\[redacted:[\w-]+\]/g)?.length ?? 0),
    0,
  );
}

/** The files holding a secret in source, and how many each one has. */
const REDACTED: Record<string, Record<string, number>> = {
  [EXPRESS_POSTGRES.name]: { 'src/middleware/auth.ts': 1, 'src/services/payments.ts': 1 },
  [PYTHON_FASTAPI.name]: { 'app/mail.py': 1 },
  [GO_CHI.name]: { 'internal/notify/slack.go': 1 },
};

describe.each(TEST_REPOSITORIES.map((r) => [r.name, r] as [string, TestRepository]))(
  'buildRepositoryDigest of %s',
  (_name, repo) => {
    it('leaves out ignored and secret files without reading them, with a reason each', async () => {
      const root = await writeTree(repo.files);
      const built = await buildRepositoryDigest(root);
      const sent = built.repository.files.map((f) => f.path);
      const read = readsUnder(root);
      const skipped = new Map(built.report.skipped.map((s) => [s.path, s]));

      for (const path of [...repo.ignored, ...repo.secretFiles]) {
        expect(sent).not.toContain(path);
        expect(read).not.toContain(path);
      }
      // An ignored file is reported itself, or under the folder that was left out whole.
      for (const path of repo.ignored) {
        const reason = [...skipped.values()].find((s) => within(path, s.path));
        expect(reason?.kind, path).toMatch(/^(ignored|excluded)$/);
      }
      for (const path of repo.secretFiles) {
        expect(skipped.get(path)).toMatchObject({
          kind: 'secret-file',
          reason: expect.stringMatching(/^a secret file \(.+\), never read$/),
        });
      }
      // Everything else of the repository is sent (the budget is far from spent).
      const left = Object.keys(repo.files).filter(
        (p) => !repo.ignored.includes(p) && !repo.secretFiles.includes(p),
      );
      expect([...sent].sort()).toEqual(left.sort());
      expect(built.repository.name).toBe(repo.name);
    });

    it('sends no planted secret, and counts what it redacted', async () => {
      const root = await writeTree(repo.files);
      const built = await buildRepositoryDigest(root);
      const everything = JSON.stringify(built);
      for (const secret of repo.secrets) expect(everything).not.toContain(secret);

      const expected = REDACTED[repo.name]!;
      const counted = Object.fromEntries(
        built.report.files.filter((f) => f.redactions > 0).map((f) => [f.path, f.redactions]),
      );
      expect(counted).toEqual(expected);
      const total = Object.values(expected).reduce((a, b) => a + b, 0);
      expect(built.report.redactions).toBe(total);
      expect(redactionMarks(built)).toBe(total);
      // The report's sizes are those of the redacted text that is sent.
      for (const [i, file] of built.repository.files.entries()) {
        expect(built.report.files[i]).toMatchObject({
          path: file.path,
          bytes: utf8Bytes(file.content),
          tokens: Math.ceil(file.content.length / 4),
        });
      }
      expect(built.report.totalBytes).toBe(
        built.repository.files.reduce((n, f) => n + utf8Bytes(f.content), 0),
      );
    });

    it('takes the manifest and the README first and the tests last', async () => {
      const root = await writeTree(repo.files);
      const { report } = await buildRepositoryDigest(root);
      const categories = report.files.map((f) => f.category);
      expect(categories[0]).toBe('manifest');
      expect(report.files[1]).toMatchObject({ path: 'README.md', category: 'docs' });
      expect(categories.at(-1)).toBe('test');
      const ranks = categories.map((c) => CATEGORY_ORDER.indexOf(c));
      expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
    });
  },
);

describe('buildRepositoryDigest of a working tree', () => {
  const COMMIT = 'a3f9c1d2e4b5a6978812c3d4e5f60718293a4b5c';
  const OTHER = '0123456789abcdef0123456789abcdef01234567';
  const OUTSIDE_SECRET = 'outside-the-root-3c9f7e21';
  const BIG = `export const data = '${'x'.repeat(REPOSITORY_LIMITS.maxFileBytes)}';\n`;

  /** EXPRESS_POSTGRES as a checkout: .git, nested .gitignore files, links, big and binary files. */
  async function checkout(): Promise<{ root: string; outside: string }> {
    const root = await writeTree({
      ...EXPRESS_POSTGRES.files,
      '.git/HEAD': 'ref: refs/heads/main\n',
      '.git/refs/heads/main': `${COMMIT}\n`,
      '.git/config': `[remote "origin"]\n\turl = https://ci:${OUTSIDE_SECRET}@git.example.com/vetbook.git\n`,
      '.git/info/exclude': 'scratch/\n',
      'scratch/notes.md': 'my local notes\n',
      // A nested .gitignore ignores under its folder, and re-includes what the root ignores.
      '.gitignore': `${EXPRESS_POSTGRES.files['.gitignore']}*.log\n`,
      'src/.gitignore': 'generated/\n!keep.log\n',
      'src/generated/client.ts': 'export const generated = true;\n',
      'src/keep.log': 'kept: a deeper !pattern wins\n',
      'server.log': 'ignored by the root\n',
      'src/generated.ts': 'not in generated/: kept\n',
      'docs/architecture.md': '# Architecture\n\nOne Express process and PostgreSQL.\n',
      'src/big.ts': BIG,
      'package-lock.json': '{ "lockfileVersion": 3 }\n',
      'public/app.min.js': 'var a=1;\n',
    });
    await fs.writeFile(
      join(root, 'public/logo.png'),
      Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 13]),
    );
    await fs.writeFile(join(root, 'src/latin1.txt'), Uint8Array.from([0x63, 0x61, 0x66, 0xe9]));
    await fs.writeFile(join(root, 'src/controls.txt'), '\u0001\u0002\u0003\u0004 not text');
    const outside = await writeTree({ 'secret.ts': `export const token = '${OUTSIDE_SECRET}';\n` });
    await fs.symlink(join(outside, 'secret.ts'), join(root, 'src/linked.ts'));
    await fs.symlink(outside, join(root, 'linked-folder'));
    await fs.symlink(join(root, 'README.md'), join(root, 'README-link.md'));
    await fs.symlink(join(root, 'missing.ts'), join(root, 'src/dangling.ts'));
    return { root, outside };
  }

  it('honours nested .gitignore files and .git/info/exclude, never reads .git beyond HEAD and refs', async () => {
    const { root } = await checkout();
    const built = await buildRepositoryDigest(root);
    const sent = built.repository.files.map((f) => f.path);
    const skipped = Object.fromEntries(built.report.skipped.map((s) => [s.path, s.reason]));

    expect(skipped).toMatchObject({
      'src/generated/': 'ignored by src/.gitignore',
      'server.log': 'ignored by .gitignore',
      'scratch/': 'ignored by .git/info/exclude',
      'package-lock.json': 'excluded by default (package-lock.json)',
      'public/app.min.js': 'excluded by default (*.min.js)',
      'node_modules/': 'excluded by default (node_modules/)',
    });
    expect(sent).toEqual(expect.arrayContaining(['src/keep.log', 'src/generated.ts']));
    expect(sent.filter((p) => p.startsWith('.git/') || p === '.git')).toEqual([]);
    expect(Object.keys(skipped).filter((p) => p.startsWith('.git'))).toEqual([]);

    // Of .git, only what says the commit and the exclusions: never its config or objects.
    const read = readsUnder(root);
    const git = [
      '.git',
      '.git/HEAD',
      '.git/commondir',
      '.git/info/exclude',
      '.git/refs/heads/main',
    ];
    const inGit = read.filter((p) => p === '.git' || p.startsWith('.git/'));
    expect(inGit).toEqual(
      expect.arrayContaining(['.git/HEAD', '.git/refs/heads/main', '.git/info/exclude']),
    );
    for (const path of inGit) expect(git).toContain(path);
    for (const path of ['src/generated/client.ts', 'server.log', 'scratch/notes.md']) {
      expect(read).not.toContain(path);
    }
    expect(JSON.stringify(built)).not.toContain(OUTSIDE_SECRET);
  });

  it('leaves out what the exclude option names, as gitignore patterns', async () => {
    const { root } = await checkout();
    const { report, repository } = await buildRepositoryDigest(root, {
      exclude: ['docs/', '*.sql'],
    });
    expect(report.skipped).toContainEqual({
      path: 'docs/',
      kind: 'excluded',
      reason: 'excluded (docs/)',
    });
    expect(report.skipped).toContainEqual({
      path: 'migrations/001_init.sql',
      kind: 'excluded',
      reason: 'excluded (*.sql)',
    });
    const paths = repository.files.map((f) => f.path);
    expect(paths).not.toContain('docs/architecture.md');
    expect(readsUnder(root)).not.toContain('migrations/001_init.sql');
  });

  it('follows no symbolic link, and says which ones point out of the root', async () => {
    const { root, outside } = await checkout();
    const built = await buildRepositoryDigest(root);
    const skipped = Object.fromEntries(built.report.skipped.map((s) => [s.path, s]));
    expect(skipped['src/linked.ts']).toEqual({
      path: 'src/linked.ts',
      kind: 'symlink',
      reason: 'a symbolic link out of the repository, not followed',
    });
    expect(skipped['linked-folder']).toMatchObject({
      kind: 'symlink',
      reason: 'a symbolic link out of the repository, not followed',
    });
    expect(skipped['README-link.md']).toMatchObject({
      kind: 'symlink',
      reason: expect.stringContaining('not followed (what it points to is read at its own path)'),
    });
    expect(skipped['src/dangling.ts']).toMatchObject({
      kind: 'symlink',
      reason: 'a broken symbolic link',
    });
    expect(reads.filter((path) => path.startsWith(outside))).toEqual([]);
    expect(JSON.stringify(built)).not.toContain(OUTSIDE_SECRET);
    expect(built.repository.files.map((f) => f.path)).toContain('README.md');
  });

  it('skips binary and oversized files with their reasons', async () => {
    const { root } = await checkout();
    const { report, repository } = await buildRepositoryDigest(root);
    const skipped = Object.fromEntries(report.skipped.map((s) => [s.path, s]));
    expect(skipped['public/logo.png']).toMatchObject({
      kind: 'binary',
      reason: 'binary (it holds NUL bytes)',
    });
    expect(skipped['src/latin1.txt']).toMatchObject({
      kind: 'binary',
      reason: 'binary (not UTF-8 text)',
    });
    expect(skipped['src/controls.txt']).toMatchObject({
      kind: 'binary',
      reason: 'binary (control characters)',
    });
    // Judged on its size on disk: never read.
    expect(skipped['src/big.ts']).toMatchObject({
      kind: 'too-large',
      reason: `${utf8Bytes(BIG)} bytes, over ${REPOSITORY_LIMITS.maxFileBytes} bytes for one file`,
    });
    expect(readsUnder(root)).not.toContain('src/big.ts');
    const paths = repository.files.map((f) => f.path);
    for (const path of ['public/logo.png', 'src/latin1.txt', 'src/controls.txt', 'src/big.ts']) {
      expect(paths).not.toContain(path);
    }
  });

  it('sends one of two paths that differ only by case, which the API would refuse together', async () => {
    const root = await writeTree({
      'src/App.ts': 'export const app = 1;\n',
      'src/app.ts': 'export const app = 2;\n',
      'README.md': '# Twins\n',
    });
    const { report, repository } = await buildRepositoryDigest(root);
    const paths = repository.files.map((f) => f.path);
    expect(paths).toContain('src/App.ts');
    expect(paths).not.toContain('src/app.ts');
    expect(report.skipped).toContainEqual({
      path: 'src/app.ts',
      kind: 'same-path',
      reason: 'the same path as src/App.ts where case is not told apart',
    });
  });

  it('reads the commit: a loose ref, packed-refs, a detached HEAD, a linked worktree', async () => {
    const { root } = await checkout();
    expect((await buildRepositoryDigest(root)).repository.commit).toBe(COMMIT);

    // The same branch once `git pack-refs` moved it into packed-refs.
    await fs.rm(join(root, '.git/refs/heads/main'));
    await fs.writeFile(
      join(root, '.git/packed-refs'),
      `# pack-refs with: peeled fully-peeled sorted\n${OTHER} refs/heads/feature\n${COMMIT} refs/heads/main\n^${OTHER}\n`,
    );
    expect((await buildRepositoryDigest(root)).repository.commit).toBe(COMMIT);

    await fs.writeFile(join(root, '.git/HEAD'), `${OTHER}\n`);
    expect((await buildRepositoryDigest(root)).repository.commit).toBe(OTHER);

    // A linked worktree: `.git` is a file naming its git directory, whose refs are shared.
    const worktree = await writeTree({
      'package.json': '{ "name": "vetbook-api" }\n',
      '.git': `gitdir: ${join(root, '.git/worktrees/feature')}\n`,
    });
    await fs.mkdir(join(root, '.git/worktrees/feature'), { recursive: true });
    await fs.writeFile(join(root, '.git/worktrees/feature/HEAD'), 'ref: refs/heads/feature\n');
    await fs.writeFile(join(root, '.git/worktrees/feature/commondir'), '../..\n');
    const linked = await buildRepositoryDigest(worktree);
    expect(linked.repository.commit).toBe(OTHER);
    expect(linked.repository.files.map((f) => f.path)).toEqual(['package.json']);

    // No git, or an unborn branch: no commit, and no `commit` key for the API to refuse.
    const plain = await writeTree({ 'README.md': '# Plain\n' });
    const unborn = await writeTree({
      'README.md': '# New\n',
      '.git/HEAD': 'ref: refs/heads/main\n',
    });
    for (const dir of [plain, unborn]) {
      const { repository } = await buildRepositoryDigest(dir);
      expect(repository).not.toHaveProperty('commit');
    }
  });

  it('names the repository by the option, its manifests, else its folder', async () => {
    const { root } = await checkout();
    expect((await buildRepositoryDigest(root, { name: 'VetBook' })).repository.name).toBe(
      'VetBook',
    );
    const poetry = await writeTree({
      'pyproject.toml': '[tool.black]\nline-length = 100\n\n[tool.poetry]\nname = "ledger"\n',
    });
    expect((await buildRepositoryDigest(poetry)).repository.name).toBe('ledger');
    const goV2 = await writeTree({ 'go.mod': 'module github.com/acme/fleet/v2\n\ngo 1.22\n' });
    expect((await buildRepositoryDigest(goV2)).repository.name).toBe('fleet');
    const bare = await writeTree({ 'main.c': 'int main(void) { return 0; }\n' });
    expect((await buildRepositoryDigest(bare)).repository.name).toBe(basename(bare));
  });

  it('fills a small token budget in rank order, leaving out only what no longer fits', async () => {
    const root = await writeTree(EXPRESS_POSTGRES.files);
    const countTokens = (text: string) => text.split(/\s+/).filter(Boolean).length;
    const full = await buildRepositoryDigest(root, { countTokens });
    const budgetTokens = 150;
    const small = await buildRepositoryDigest(root, { budgetTokens, countTokens });

    expect(small.report.budgetTokens).toBe(budgetTokens);
    expect(small.report.tokens).toBeLessThanOrEqual(budgetTokens);
    expect(small.report.tokens).toBe(small.report.files.reduce((n, f) => n + f.tokens, 0));
    for (const file of small.repository.files) {
      const reported = small.report.files.find((f) => f.path === file.path);
      expect(reported?.tokens).toBe(countTokens(file.content));
    }
    // In the full digest's order, the manifest first.
    const kept = small.repository.files.map((f) => f.path);
    expect(kept).toEqual(full.repository.files.map((f) => f.path).filter((p) => kept.includes(p)));
    expect(kept[0]).toBe('package.json');
    // Nothing left out for the budget would still fit in what is left of it.
    const cut = full.report.files.filter((f) => !kept.includes(f.path));
    expect(cut.length).toBeGreaterThan(0);
    for (const file of cut) {
      expect(small.report.tokens + file.tokens, file.path).toBeGreaterThan(budgetTokens);
      expect(small.report.skipped).toContainEqual({
        path: file.path,
        kind: 'budget',
        reason: `over the budget of ${budgetTokens} tokens`,
      });
    }
  });

  it('gives each category its share first: long docs do not crowd out the code', async () => {
    const docs: Record<string, string> = {};
    for (const name of ['api', 'design', 'operations', 'security']) {
      docs[`docs/${name}.md`] = `# ${name}\n\n${'A paragraph about the system. '.repeat(120)}\n`;
    }
    const root = await writeTree({ ...EXPRESS_POSTGRES.files, ...docs });
    const { report } = await buildRepositoryDigest(root, { budgetTokens: 3_000 });
    const categories = new Set(report.files.map((f) => f.category));
    for (const category of ['manifest', 'docs', 'database', 'entry-point', 'routes', 'source']) {
      expect(categories, category).toContain(category);
    }
    // Taken in rank order, the four documents alone would have spent the budget before the
    // code; with the shares every file of the code goes, and the documents get what is left.
    const sent = report.files.map((f) => f.path);
    for (const path of [
      'src/server.ts',
      'src/routes/appointments.ts',
      'src/services/payments.ts',
    ]) {
      expect(sent).toContain(path);
    }
    expect(sent.filter((p) => p.startsWith('docs/')).length).toBeGreaterThan(0);
    expect(report.skipped.filter((s) => s.path.startsWith('docs/'))).toContainEqual({
      path: 'docs/security.md',
      kind: 'budget',
      reason: 'over the budget of 3000 tokens',
    });
    expect(report.files.map((f) => f.path).slice(0, 3)).toEqual([
      'package.json',
      'README.md',
      'docs/api.md',
    ]);
  });

  it('stops reading once files in a row no longer fit the budget', async () => {
    const files: Record<string, string> = { 'package.json': '{ "name": "many" }\n' };
    for (let i = 0; i < MAX_MISSES_IN_A_ROW + 20; i++) {
      files[`src/mod${String(i).padStart(3, '0')}/index.ts`] =
        `export const n${i} = ${'1 + '.repeat(200)}1;\n`;
    }
    const root = await writeTree(files);
    const { report } = await buildRepositoryDigest(root, { budgetTokens: 50 });
    expect(report.files.map((f) => f.path)).toEqual(['package.json']);
    const budget = report.skipped.filter((s) => s.kind === 'budget');
    expect(budget).toHaveLength(MAX_MISSES_IN_A_ROW + 20);
    expect(budget.filter((s) => s.reason === 'not read: the budget was spent')).toHaveLength(20);
    expect(readsUnder(root).filter((p) => p.startsWith('src/'))).toHaveLength(MAX_MISSES_IN_A_ROW);
  });

  it('keeps to maxFiles, maxTotalBytes and maxFileBytes, never above the API limits', async () => {
    const root = await writeTree(EXPRESS_POSTGRES.files);
    const byFiles = await buildRepositoryDigest(root, { maxFiles: 3 });
    expect(byFiles.repository.files.map((f) => f.path)).toEqual([
      'package.json',
      'README.md',
      'migrations/001_init.sql',
    ]);
    expect(byFiles.report.skipped.filter((s) => s.kind === 'file-limit')).toHaveLength(9);

    const byBytes = await buildRepositoryDigest(root, { maxTotalBytes: 1_000 });
    expect(byBytes.report.totalBytes).toBeLessThanOrEqual(1_000);
    expect(byBytes.report.skipped.some((s) => s.kind === 'size-limit')).toBe(true);

    const byFile = await buildRepositoryDigest(root, { maxFileBytes: 300 });
    for (const file of byFile.report.files) expect(file.bytes).toBeLessThanOrEqual(300);
    expect(byFile.report.skipped).toContainEqual({
      path: 'src/routes/appointments.ts',
      kind: 'too-large',
      reason: '792 bytes, over 300 bytes for one file',
    });

    // A larger limit than the API's is the API's: 1,000 files, 1 MiB, 256 KiB.
    const many: Record<string, string> = {};
    for (let i = 0; i < REPOSITORY_LIMITS.maxFiles + 5; i++)
      many[`f/${String(i).padStart(4, '0')}.md`] = 'x\n';
    const big = await buildRepositoryDigest(await writeTree(many), {
      maxFiles: 5_000,
      budgetTokens: 1_000_000,
    });
    expect(big.repository.files).toHaveLength(REPOSITORY_LIMITS.maxFiles);
    await expect(buildRepositoryDigest(root, { budgetTokens: 0 })).rejects.toThrow(RangeError);
  });

  it('gives the same digest whatever order the files were written in', async () => {
    const { root } = await checkout();
    const again = await buildRepositoryDigest(root);
    const first = await buildRepositoryDigest(root);
    expect(JSON.stringify(again)).toBe(JSON.stringify(first));

    const forward = await buildRepositoryDigest(await writeTree(GO_CHI.files, 'forward'));
    const reverse = await buildRepositoryDigest(await writeTree(GO_CHI.files, 'reverse'));
    expect(JSON.stringify(reverse)).toBe(JSON.stringify(forward));
  });

  it('refuses a root that is not a directory', async () => {
    await expect(buildRepositoryDigest(join(tmp, 'nowhere'))).rejects.toThrow(/no such directory/);
    const root = await writeTree({ 'a.md': 'a\n' });
    await expect(buildRepositoryDigest(join(root, 'a.md'))).rejects.toThrow(/not a directory/);
  });
});

describe('context through the SDK', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => server.close());

  it('projects.create and projects.revisions.create send the digest as `context`', async () => {
    const { repository } = await buildRepositoryDigest(await writeTree(PYTHON_FASTAPI.files));
    const pgs = new Pgs({
      apiKey: 'pgs_test_abcdefghijklmnopqrstuvwxyz0123456789',
      baseUrl: server.url,
    });
    const id = '7d0f2c8e-4a9b-4e43-9a55-0d2b8f1c6e21';
    server.reply(
      json(202, {
        success: true,
        data: { projectId: id, status: 'in_progress', estimatedCompletionMs: 1 },
      }),
      json(202, {
        success: true,
        data: { projectId: id, revision: 2, status: 'in_progress', estimatedCompletionMs: 1 },
      }),
    );
    await pgs.projects.create({ idea: 'Add per-farm delivery routes', context: { repository } });
    await pgs.projects.revisions.create(id, {
      changeRequest: 'Bill per delivery',
      context: { repository },
    });
    const [create, revise] = server.requests.map((r) => JSON.parse(r.body));
    expect(create).toEqual({ idea: 'Add per-farm delivery routes', context: { repository } });
    expect(revise).toEqual({ changeRequest: 'Bill per delivery', context: { repository } });
    expect(server.requests.map((r) => r.url)).toEqual([
      '/api/v1/projects',
      `/api/v1/projects/${id}/revisions`,
    ]);
  });
});
