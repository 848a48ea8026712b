import { readFileSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

// `npm pack` and `npm publish` ship package.json as it is on disk, and npm, unlike pnpm
// and yarn, ignores the entry points listed in `publishConfig`. The committed manifest
// of a workspace package points at its TypeScript source (tests, the CLI and the
// examples run it without a build); `prepack` runs `apply` to ship the built entry
// points instead, and `postpack` runs `restore`. Shared by @pgs/client and @pgs/cli.
//
// `npm publish` from the directory would pack with this manifest but send the registry
// the one it re-reads after `postpack` (the workspace's, pointing at src/): its
// `prepublishOnly` runs `refuse-publish`. Publish the tarball instead (`npm pack`, then
// `npm publish ./pgs-client-0.1.0.tgz`): npm takes its manifest from inside it.
//
//   node scripts/publish-manifest.ts apply     # in the package directory
//   node scripts/publish-manifest.ts restore
//   node scripts/publish-manifest.ts refuse-publish

/** What `apply` writes into the manifest from `publishConfig`; the rest are npm settings. */
const MANIFEST_FIELDS = ['bin', 'exports', 'main', 'module', 'types', 'typings', 'browser'];
/** Meaningless in a tarball: what only the workspace uses. */
const DROPPED_FIELDS = ['devDependencies', 'scripts'];

type Manifest = Record<string, unknown> & { publishConfig?: Record<string, unknown> };

/** The entry points of `publishConfig` replace the workspace's; dev-only fields go. */
function publishedManifest(workspace: Manifest): Manifest {
  const { publishConfig = {}, ...rest } = workspace;
  const manifest: Manifest = { ...rest };
  const npmSettings: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(publishConfig)) {
    if (MANIFEST_FIELDS.includes(key)) manifest[key] = value;
    else npmSettings[key] = value;
  }
  for (const key of DROPPED_FIELDS) delete manifest[key];
  if (Object.keys(npmSettings).length > 0) manifest.publishConfig = npmSettings;
  return manifest;
}

const dir = process.cwd();
const file = join(dir, 'package.json');
// Under node_modules so that git never sees it, even when a pack is interrupted.
const backupDir = join(dir, 'node_modules/.cache/publish-manifest');
const backup = join(backupDir, 'package.json');

async function apply(): Promise<void> {
  const text = await readFile(file, 'utf8');
  await mkdir(backupDir, { recursive: true });
  try {
    await writeFile(backup, text, { flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    throw new Error(
      `${backup} exists: another pack is running, or one was interrupted. ` +
        'If none is running, restore the manifest with `node scripts/publish-manifest.ts restore` ' +
        '(from @pgs/cli: `node ../client/scripts/publish-manifest.ts restore`).',
    );
  }
  const published = publishedManifest(JSON.parse(text) as Manifest);
  await writeFile(file, `${JSON.stringify(published, null, 2)}\n`);
}

async function restore(): Promise<void> {
  try {
    await rename(backup, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    return; // Nothing applied: nothing to restore.
  }
  await rm(backupDir, { recursive: true, force: true });
}

function refusePublish(): void {
  const { name, version } = JSON.parse(readFileSync(file, 'utf8')) as Manifest;
  const tarball = `${String(name).replace(/^@/, '').replace('/', '-')}-${String(version)}.tgz`;
  process.stderr.write(
    `Publish the packed tarball, not the directory: npm pack -w ${String(name)}, ` +
      `then npm publish ./${tarball} (the registry would get the workspace manifest).\n`,
  );
  process.exitCode = 1;
}

const command = process.argv[2];
if (command === 'apply') await apply();
else if (command === 'restore') await restore();
else if (command === 'refuse-publish') refusePublish();
else {
  process.stderr.write('usage: node publish-manifest.ts apply|restore|refuse-publish\n');
  process.exitCode = 2;
}
