import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { VERSION } from '@pgs/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  exec,
  installProject,
  NPM_AVAILABLE,
  type Packed,
  packDependencies,
  packWorkspaces,
  programErrors,
  targetNode,
  userEnv,
} from '../../client/test/packed.ts';
import { type RealServer, sharedRealServer } from '../../client/test/pgs-server.ts';

// The CLI as a user gets it: both tarballs (`npm pack`) installed into a project outside
// the repository, `pgs` run through npx on the machine's own Node (20 here, not the pinned
// 24), against the real server. The CLI's @pgs/client comes from the client's tarball; its
// codebase digest builder (@pgs/repository) is bundled into it, so the same two tarballs
// also make a global install (`npm install -g`), which runs --repo.

const node = targetNode();
// Only a machine without npm cannot run this; CI always has it.
const skip = !NPM_AVAILABLE && process.env.CI !== 'true';
const TITLE = skip
  ? 'the packed CLI (skipped: no npm on PATH to run npm pack)'
  : 'the packed CLI, installed outside the repository';

describe.skipIf(skip)(TITLE, () => {
  let server: RealServer;
  let tmp: string;
  let packed: Packed;
  let project: string;
  /** The `--prefix` of `npm install -g`: its `bin/pgs` is what a global install puts on PATH. */
  let globalPrefix: string;
  const pgs = (args: string[], env: NodeJS.ProcessEnv = {}) =>
    exec('npx', ['pgs', ...args], { cwd: project, env: userEnv(env), timeoutMs: 60_000 });

  beforeAll(async () => {
    tmp = await mkdtemp(join(tmpdir(), 'pgs-packed-cli-'));
    project = join(tmp, 'app');
    globalPrefix = join(tmp, 'global');
    // One after the other: the builds and the server's first start both want the CPU.
    const tarballs = await packWorkspaces(['@pgs/client', '@pgs/cli'], tmp);
    packed = tarballs.find((p) => p.name === '@pgs/cli')!;
    const dependencies = await packDependencies(['@pgs/client', '@pgs/cli'], tmp);
    const all = [...tarballs.map((p) => p.tarball), ...dependencies];
    [server] = await Promise.all([
      sharedRealServer(),
      installProject(project, all),
      installGlobal(globalPrefix, all),
    ]);
  }, 240_000);

  afterAll(async () => {
    await server?.stop();
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  it('holds an executable dist/bin.js and the builder bundled, and depends on @pgs/client by version', async () => {
    expect(packed.files).toEqual([
      'LICENSE',
      'README.md',
      'dist/bin.js',
      'dist/repository.js',
      'package.json',
    ]);

    const installed = join(project, 'node_modules/@pgs/cli');
    const manifest = JSON.parse(await readFile(join(installed, 'package.json'), 'utf8'));
    expect(manifest).toMatchObject({
      name: '@pgs/cli',
      version: VERSION,
      type: 'module',
      engines: { node: '>=20' },
      bin: { pgs: './dist/bin.js' },
    });
    // The SDK, the tokenizer and what the bundled builder imports; no other PGS package.
    expect(Object.keys(manifest.dependencies).sort()).toEqual([
      '@pgs/client',
      '@secretlint/core',
      '@secretlint/secretlint-rule-preset-recommend',
      'gpt-tokenizer',
      'ignore',
    ]);
    expect(manifest.dependencies['@pgs/client']).toBe(`^${VERSION}`);
    for (const field of ['devDependencies', 'scripts', 'private']) {
      expect(manifest, field).not.toHaveProperty(field);
    }

    const bin = join(installed, 'dist/bin.js');
    expect((await readFile(bin, 'utf8')).split('\n')[0]).toBe('#!/usr/bin/env node');
    expect((await stat(bin)).mode & 0o111).not.toBe(0);
    // Not bundled into the CLI: the SDK is the client's tarball, installed beside it.
    const client = JSON.parse(
      await readFile(join(project, 'node_modules/@pgs/client/package.json'), 'utf8'),
    );
    expect(client.version).toBe(VERSION);
    expect((await readdir(join(project, 'node_modules/@pgs'))).sort()).toEqual(['cli', 'client']);
    // The builder's chunk imports Node's built-ins and the CLI's declared dependencies only.
    const builder = await readFile(join(installed, 'dist/repository.js'), 'utf8');
    const imported = [...builder.matchAll(/^import\b.*?from\s*['"]([^'"]+)['"]/gm)].map(
      (m) => m[1],
    );
    expect(imported.filter((id) => !id?.startsWith('node:')).sort()).toEqual([
      '@secretlint/core',
      '@secretlint/secretlint-rule-preset-recommend',
      'ignore',
    ]);
  });

  it(`npx pgs --help, credits and generate run on ${node.label}`, async () => {
    const help = await pgs(['--help']);
    expect(programErrors(help.stderr)).toBe('');
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(new RegExp(`^pgs ${VERSION.replaceAll('.', '\\.')}: `));

    const key = { PGS_API_KEY: server.apiKey, PGS_BASE_URL: server.url };
    const credits = await pgs(['credits', '--json'], key);
    expect(programErrors(credits.stderr)).toBe('');
    expect(credits.code).toBe(0);
    expect(JSON.parse(credits.stdout)).toMatchObject({ mode: 'test', reserved: 0 });

    const generate = await pgs(
      [
        'generate',
        'A habit tracker for remote teams',
        '--simulate',
        'completed',
        '--duration',
        '300',
        '--poll-interval',
        '200ms',
        '--out',
        'habits',
        '--json',
      ],
      key,
    );
    expect(programErrors(generate.stderr)).toBe('');
    expect(generate.code).toBe(0);
    expect(JSON.parse(generate.stdout)).toMatchObject({ status: 'completed' });
    const written = (await readdir(join(project, 'habits'))).filter((f) => f.endsWith('.md'));
    expect(written.length).toBeGreaterThanOrEqual(5);
  }, 120_000);

  it(`pgs generate --repo --dry-run, installed with npm install -g, digests a codebase on ${node.label}`, async () => {
    // The CLI's project is a codebase: a manifest, a secret file, and node_modules left out.
    await writeFile(join(project, '.env'), 'TOKEN=x\n');
    const dryRun = await exec(
      join(globalPrefix, 'bin/pgs'),
      ['generate', 'Add team billing', '--repo', '.', '--dry-run', '--json'],
      { cwd: project, env: userEnv(), timeoutMs: 60_000 },
    );
    expect(dryRun.stderr).toBe('');
    expect(dryRun.code).toBe(0);
    const report = JSON.parse(dryRun.stdout);
    expect(report.files.map((f: { path: string }) => f.path)).toContain('package.json');
    expect(report.skipped).toContainEqual({
      path: 'node_modules/',
      kind: 'excluded',
      reason: 'excluded by default (node_modules/)',
    });
    expect(report.skipped).toContainEqual(
      expect.objectContaining({ path: '.env', kind: 'secret-file' }),
    );
  }, 60_000);
});

/** `npm install -g` of the tarballs into `prefix`, offline: what a user does with them. */
async function installGlobal(prefix: string, tarballs: readonly string[]): Promise<void> {
  const run = await exec(
    'npm',
    [
      'install',
      '--global',
      '--prefix',
      prefix,
      '--no-audit',
      '--no-fund',
      '--offline',
      ...tarballs,
    ],
    { cwd: join(prefix, '..'), env: userEnv() },
  );
  if (run.code !== 0) throw new Error(`npm install -g exited ${run.code}\n${run.stderr}`);
}
