import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
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
import { type RealServer, startRealServer } from '../../client/test/pgs-server.ts';

// The CLI as a user gets it: both tarballs (`npm pack`) installed into a project outside
// the repository, `pgs` run through npx on the machine's own Node (20 here, not the pinned
// 24), against the real server. The CLI's @pgs/client comes from the client's tarball.

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
  const pgs = (args: string[], env: NodeJS.ProcessEnv = {}) =>
    exec('npx', ['pgs', ...args], { cwd: project, env: userEnv(env), timeoutMs: 60_000 });

  beforeAll(async () => {
    tmp = await mkdtemp(join(tmpdir(), 'pgs-packed-cli-'));
    project = join(tmp, 'app');
    // One after the other: the builds and the server's first start both want the CPU.
    const tarballs = await packWorkspaces(['@pgs/client', '@pgs/cli'], tmp);
    packed = tarballs.find((p) => p.name === '@pgs/cli')!;
    const dependencies = await packDependencies(['@pgs/client', '@pgs/cli'], tmp);
    [server] = await Promise.all([
      startRealServer(),
      installProject(project, [...tarballs.map((p) => p.tarball), ...dependencies]),
    ]);
  }, 240_000);

  afterAll(async () => {
    await server?.stop();
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  it('holds an executable dist/bin.js and depends on @pgs/client by version', async () => {
    expect(packed.files).toEqual(['LICENSE', 'README.md', 'dist/bin.js', 'package.json']);

    const installed = join(project, 'node_modules/@pgs/cli');
    const manifest = JSON.parse(await readFile(join(installed, 'package.json'), 'utf8'));
    expect(manifest).toMatchObject({
      name: '@pgs/cli',
      version: VERSION,
      type: 'module',
      engines: { node: '>=20' },
      bin: { pgs: './dist/bin.js' },
      dependencies: { '@pgs/client': `^${VERSION}`, 'gpt-tokenizer': expect.any(String) },
    });
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

  it(`npx pgs generate --repo --dry-run digests a codebase on ${node.label}`, async () => {
    // The CLI's own install is a codebase: a manifest, a README, and node_modules left out.
    const dryRun = await pgs([
      'generate',
      'Add team billing',
      '--repo',
      '.',
      '--dry-run',
      '--json',
    ]);
    expect(programErrors(dryRun.stderr)).toBe('');
    expect(dryRun.code).toBe(0);
    const report = JSON.parse(dryRun.stdout);
    expect(report.files.map((f: { path: string }) => f.path)).toContain('package.json');
    expect(report.skipped).toContainEqual({
      path: 'node_modules/',
      kind: 'excluded',
      reason: 'excluded by default (node_modules/)',
    });
  }, 60_000);
});
