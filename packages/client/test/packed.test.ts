import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VERSION } from '../src/index.ts';
import {
  exec,
  installProject,
  NPM_AVAILABLE,
  type Packed,
  packDependencies,
  packWorkspaces,
  targetNode,
  userEnv,
} from './packed.ts';
import { type RealServer, ROOT, sharedRealServer } from './pgs-server.ts';

// The SDK as a user gets it: `npm pack`, installed into a project outside the repository,
// imported as compiled JavaScript by the machine's own Node (20 here, not the pinned 24),
// against the real server. Nothing of the repository is reachable from that project.
// The codebase digest builder, @pgs/repository, is packed too and installed with the SDK
// into a second project: the SDK's own project must hold the SDK and nothing else.

const README = join(ROOT, 'packages/client/README.md');
/** A password planted in the repository the packed builder digests: redacted, never printed. */
const PLANTED = ['pk', '7Hq2', 'Zm9x', 'Lw4v'].join('-');
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');
const node = targetNode();
// Only a machine without npm cannot run this; CI always has it.
const skip = !NPM_AVAILABLE && process.env.CI !== 'true';

/** A TypeScript user of the package: compiles only if the bundled declarations are whole. */
const CONSUMER = `import { NotFoundError, Pgs, type CreditBalance, type ProjectStatus, type ProjectType } from '@pgs/client';
import { buildRepositoryDigest, type DigestReport } from '@pgs/repository';

const pgs = new Pgs({ apiKey: 'pgs_test_x', baseUrl: 'http://127.0.0.1:3000' });
export const type: ProjectType = 'mcp';
// @ts-expect-error -- not a project type: the contract's union survived the bundling
export const wrong: ProjectType = 'desktop';
export const balance: Promise<CreditBalance> = pgs.credits.get();

export async function summary(id: string): Promise<string> {
  try {
    const status: ProjectStatus = await pgs.projects.get(id);
    switch (status.status) {
      case 'in_progress':
        return \`\${status.estimatedCompletionMs} ms left\`;
      case 'completed':
        return \`\${status.project.name}: \${status.project.documents.length} documents\`;
      case 'failed':
        return status.error.message;
    }
  } catch (error) {
    if (error instanceof NotFoundError) return \`no such project (\${error.requestId})\`;
    throw error;
  }
}

// The two packages' declarations are bundled apart; a digest of one is a context of the other.
export async function grounded(): Promise<DigestReport> {
  const { repository, report } = await buildRepositoryDigest('.', { budgetTokens: 30_000 });
  await pgs.projects.create({ idea: 'Add team billing to the app', context: { repository } });
  // @ts-expect-error -- a digest has no such option: the options survived the bundling
  await buildRepositoryDigest('.', { budget: 30_000 });
  return report;
}
`;

const STRICT_TSCONFIG = {
  compilerOptions: {
    target: 'es2022',
    lib: ['es2022', 'dom'],
    module: 'nodenext',
    moduleResolution: 'nodenext',
    types: [],
    strict: true,
    exactOptionalPropertyTypes: true,
    noUncheckedIndexedAccess: true,
    skipLibCheck: false,
    noEmit: true,
  },
  files: ['consumer.ts'],
};

const TITLE = skip
  ? 'the packed SDK (skipped: no npm on PATH to run npm pack)'
  : 'the packed SDK, installed outside the repository';

// The quick start mostly waits on the server: the other checks run meanwhile.
describe.skipIf(skip)(TITLE, { concurrent: true }, () => {
  let server: RealServer;
  let tmp: string;
  let packed: Packed;
  let builder: Packed;
  /** The SDK alone, as a browser bundle or an edge function would install it. */
  let project: string;
  /** The SDK and the digest builder, with the builder's dependencies. */
  let grounded: string;

  beforeAll(async () => {
    tmp = await mkdtemp(join(tmpdir(), 'pgs-packed-client-'));
    project = join(tmp, 'app');
    grounded = join(tmp, 'grounded');
    // One after the other: the builds and the server's first start both want the CPU.
    const tarballs = await packWorkspaces(['@pgs/client', '@pgs/repository'], tmp);
    packed = tarballs.find((p) => p.name === '@pgs/client')!;
    builder = tarballs.find((p) => p.name === '@pgs/repository')!;
    // The SDK's tarball goes in alone: were it to declare a dependency, the offline install
    // would fail or bring it, and the first test says which.
    const dependencies = await packDependencies(['@pgs/repository'], tmp);
    [server] = await Promise.all([
      sharedRealServer(),
      installProject(project, [packed.tarball]),
      installProject(grounded, [packed.tarball, builder.tarball, ...dependencies]),
    ]);
  }, 240_000);

  afterAll(async () => {
    await server?.stop();
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  it('installs with zero dependencies: the built ESM and declarations, the README, a manifest', async () => {
    expect(packed.files).toEqual([
      'LICENSE',
      'README.md',
      'dist/index.d.ts',
      'dist/index.js',
      'package.json',
    ]);

    // What `npm install ./pgs-client-0.1.0.tgz` put in the project: the SDK, nothing else.
    expect((await readdir(join(project, 'node_modules'))).sort()).toEqual([
      '.package-lock.json',
      '@pgs',
    ]);
    expect(await readdir(join(project, 'node_modules/@pgs'))).toEqual(['client']);
    const lock = JSON.parse(await readFile(join(project, 'package-lock.json'), 'utf8'));
    expect(Object.keys(lock.packages)).toEqual(['', 'node_modules/@pgs/client']);

    const installed = join(project, 'node_modules/@pgs/client');
    const manifest = JSON.parse(await readFile(join(installed, 'package.json'), 'utf8'));
    expect(manifest).toMatchObject({
      name: '@pgs/client',
      version: VERSION,
      license: 'MIT',
      type: 'module',
      sideEffects: false,
      engines: { node: '>=20' },
      exports: { '.': { types: './dist/index.d.ts', import: './dist/index.js' } },
      files: ['dist'],
    });
    expect(Object.keys(manifest.exports)).toEqual(['.']);
    for (const field of [
      'dependencies',
      'peerDependencies',
      'optionalDependencies',
      'bundleDependencies',
      'devDependencies',
      'scripts',
      'private',
    ]) {
      expect(manifest, field).not.toHaveProperty(field);
    }

    // No import of any module at run time (a node: built-in would break browsers), and
    // declarations that stand alone, the contract's types inlined.
    const statement = /^\s*(import\b|export\b.*\bfrom\s*['"])/m;
    const js = await readFile(join(installed, 'dist/index.js'), 'utf8');
    expect(js).not.toMatch(statement);
    expect(js).not.toMatch(/\bimport\s*\(|\brequire\s*\(|['"]node:/);
    const dts = await readFile(join(installed, 'dist/index.d.ts'), 'utf8');
    expect(dts).not.toMatch(statement);
    expect(dts).not.toMatch(/['"]@pgs\/contract['"]|<reference /);
  });

  it('packs @pgs/repository apart, importing only its declared dependencies', async () => {
    expect(builder.files).toEqual([
      'LICENSE',
      'README.md',
      'dist/index.d.ts',
      'dist/index.js',
      'package.json',
    ]);
    const installed = join(grounded, 'node_modules/@pgs/repository');
    const manifest = JSON.parse(await readFile(join(installed, 'package.json'), 'utf8'));
    expect(manifest).toMatchObject({
      name: '@pgs/repository',
      version: VERSION,
      type: 'module',
      engines: { node: '>=20' },
      exports: { '.': { types: './dist/index.d.ts', import: './dist/index.js' } },
    });
    for (const field of ['devDependencies', 'scripts', 'private']) {
      expect(manifest, field).not.toHaveProperty(field);
    }
    // Node's built-ins and its declared dependencies, nothing else: the contract's rules are
    // bundled into it, and the SDK is not among them (a digest is plain data).
    const js = await readFile(join(installed, 'dist/index.js'), 'utf8');
    const imported = [...js.matchAll(/^import\b.*?from\s*['"]([^'"]+)['"]/gm)].map((m) => m[1]);
    expect(imported.filter((id) => !id?.startsWith('node:')).sort()).toEqual(
      Object.keys(manifest.dependencies).sort(),
    );
    const dts = await readFile(join(installed, 'dist/index.d.ts'), 'utf8');
    expect(dts).not.toMatch(/['"]@pgs\/contract(\/[^'"]*)?['"]|<reference /);
  });

  it(`builds a repository digest with @pgs/repository on ${node.label}`, async () => {
    const repo = join(tmp, 'repo');
    await mkdir(join(repo, 'src'), { recursive: true });
    await writeFile(join(repo, 'package.json'), '{ "name": "packed-repo" }\n');
    await writeFile(join(repo, '.gitignore'), 'generated/\n');
    await mkdir(join(repo, 'generated'));
    await writeFile(join(repo, 'generated/out.js'), 'x\n');
    await writeFile(join(repo, '.env'), `TOKEN=${PLANTED}\n`);
    await writeFile(join(repo, 'src/db.ts'), `connect('postgres://app:${PLANTED}@db/app');\n`);
    await writeFile(
      join(grounded, 'digest.js'),
      `import { buildRepositoryDigest } from '@pgs/repository';\n` +
        `console.log(JSON.stringify(await buildRepositoryDigest(${JSON.stringify(repo)})));\n`,
    );
    const run = await exec(node.path, ['digest.js'], { cwd: grounded, env: userEnv() });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).not.toContain(PLANTED);
    const { repository, report } = JSON.parse(run.stdout);
    expect(repository.name).toBe('packed-repo');
    expect(repository.files.map((f: { path: string }) => f.path)).toEqual([
      'package.json',
      'src/db.ts',
      '.gitignore',
    ]);
    expect(report.redactions).toBe(1);
    expect(report.skipped.map((s: { path: string; kind: string }) => [s.path, s.kind])).toEqual([
      ['.env', 'secret-file'],
      ['generated/', 'ignored'],
    ]);
  }, 60_000);

  it(`runs the README quickstart as plain JavaScript on ${node.label}`, async () => {
    const readme = await readFile(README, 'utf8');
    const quickstart = /```ts\n(import \{[\s\S]*?)```/.exec(readme)?.[1];
    expect(quickstart).toBeDefined();
    await writeFile(join(project, 'quickstart.js'), quickstart!);

    const run = await exec(node.path, ['quickstart.js'], {
      cwd: project,
      env: userEnv({ PGS_API_KEY: server.apiKey, PGS_BASE_URL: server.url }),
      timeoutMs: 90_000,
    });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^Created project [0-9a-f-]{36}$/);
    expect(lines).toContainEqual(expect.stringMatching(/^\S.* \(web\), \d+ credits:$/));
    expect(lines.filter((l) => /^ {2}[A-Z_]+\.md$/.test(l)).length).toBeGreaterThanOrEqual(5);
  }, 120_000);

  it('refuses npm publish of the directory, whose registry manifest would be the workspace one', async () => {
    const run = await exec('npm', ['publish', '-w', '@pgs/client', '--dry-run'], {
      cwd: ROOT,
      env: userEnv(),
    });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain(`npm publish ./pgs-client-${VERSION}.tgz`);
  }, 60_000);

  it('type-checks a strict TypeScript consumer against the bundled declarations alone', async () => {
    await writeFile(join(grounded, 'consumer.ts'), CONSUMER);
    await writeFile(join(grounded, 'tsconfig.json'), JSON.stringify(STRICT_TSCONFIG, null, 2));
    const run = await exec(process.execPath, [TSC, '-p', 'tsconfig.json'], {
      cwd: grounded,
      env: userEnv(),
    });
    expect(run.stdout + run.stderr).toBe('');
    expect(run.code).toBe(0);
  }, 60_000);
});
