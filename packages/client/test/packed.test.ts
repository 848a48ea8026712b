import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VERSION } from '../src/index.ts';
import {
  exec,
  installProject,
  NPM_AVAILABLE,
  type Packed,
  packWorkspaces,
  targetNode,
  userEnv,
} from './packed.ts';
import { type RealServer, ROOT, startRealServer } from './pgs-server.ts';

// The SDK as a user gets it: `npm pack`, installed into a project outside the repository,
// imported as compiled JavaScript by the machine's own Node (20 here, not the pinned 24),
// against the real server. Nothing of the repository is reachable from that project.

const README = join(ROOT, 'packages/client/README.md');
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');
const node = targetNode();
// Only a machine without npm cannot run this; CI always has it.
const skip = !NPM_AVAILABLE && process.env.CI !== 'true';

/** A TypeScript user of the package: compiles only if the bundled declarations are whole. */
const CONSUMER = `import { NotFoundError, Pgs, type CreditBalance, type ProjectStatus, type ProjectType } from '@pgs/client';

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
  let project: string;

  beforeAll(async () => {
    tmp = await mkdtemp(join(tmpdir(), 'pgs-packed-client-'));
    project = join(tmp, 'app');
    // One after the other: the build and the server's first start both want the CPU.
    [packed] = (await packWorkspaces(['@pgs/client'], tmp)) as [Packed];
    [server] = await Promise.all([startRealServer(), installProject(project, [packed.tarball])]);
  }, 240_000);

  afterAll(async () => {
    await server?.stop();
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  it('holds the built ESM and declarations, the README and a manifest without dependencies', async () => {
    expect(packed.files).toEqual([
      'LICENSE',
      'README.md',
      'dist/index.d.ts',
      'dist/index.js',
      'package.json',
    ]);

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
    await writeFile(join(project, 'consumer.ts'), CONSUMER);
    await writeFile(join(project, 'tsconfig.json'), JSON.stringify(STRICT_TSCONFIG, null, 2));
    const run = await exec(process.execPath, [TSC, '-p', 'tsconfig.json'], {
      cwd: project,
      env: userEnv(),
    });
    expect(run.stdout + run.stderr).toBe('');
    expect(run.code).toBe(0);
  }, 60_000);
});
