import { readFile } from 'node:fs/promises';
import { basename, isAbsolute, join, resolve } from 'node:path';

// The commit a working tree is at and the repository's name, read from files by hand: the
// builder must run where no git binary is installed, and reading three small files is all
// `git rev-parse HEAD` does for a checked-out tree.

const OBJECT_ID = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;

async function text(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch {
    return undefined;
  }
}

/**
 * The git directory of a working tree: `.git` itself, or where a `.git` file points
 * (`gitdir: …`, as in a linked worktree or a submodule), and the common directory that
 * holds the refs (`commondir` in a linked worktree).
 */
async function gitDirs(root: string): Promise<{ gitDir: string; commonDir: string } | undefined> {
  const dotGit = join(root, '.git');
  // A directory does not read as text: then `.git` is the git directory itself.
  const pointer = await text(dotGit);
  let gitDir = dotGit;
  if (pointer !== undefined) {
    const target = /^gitdir:\s*(.+?)\s*$/m.exec(pointer)?.[1];
    if (target === undefined) return undefined;
    gitDir = isAbsolute(target) ? target : resolve(root, target);
  }
  const common = (await text(join(gitDir, 'commondir')))?.trim();
  const commonDir = common ? (isAbsolute(common) ? common : resolve(gitDir, common)) : gitDir;
  return { gitDir, commonDir };
}

/** A ref's object id: its loose file in either directory, else its line in packed-refs. */
async function resolveRef(
  ref: string,
  dirs: { gitDir: string; commonDir: string },
): Promise<string | undefined> {
  // A ref name never climbs out of the git directory.
  if (!/^refs\/[\w./-]+$/.test(ref) || ref.split('/').includes('..')) return undefined;
  for (const dir of new Set([dirs.gitDir, dirs.commonDir])) {
    const loose = (await text(join(dir, ref)))?.trim();
    if (loose !== undefined && OBJECT_ID.test(loose)) return loose;
  }
  const packed = await text(join(dirs.commonDir, 'packed-refs'));
  for (const line of packed?.split('\n') ?? []) {
    if (line.startsWith('#') || line.startsWith('^')) continue;
    const [id, name] = line.trim().split(/\s+/);
    if (name === ref && id !== undefined && OBJECT_ID.test(id)) return id;
  }
  return undefined;
}

/**
 * The commit the working tree at `root` has checked out: HEAD's ref followed through the
 * loose refs and packed-refs, or a detached HEAD's id; undefined outside a git repository,
 * on an unborn branch, or when the files cannot be read.
 *
 * @example
 * await readCommit('/src/vetbook-api'); // '3f2a9c…' (40 hex digits)
 */
export async function readCommit(root: string): Promise<string | undefined> {
  const dirs = await gitDirs(root);
  if (dirs === undefined) return undefined;
  const head = (await text(join(dirs.gitDir, 'HEAD')))?.trim();
  if (head === undefined) return undefined;
  if (OBJECT_ID.test(head)) return head;
  const ref = /^ref:\s*(\S+)$/.exec(head)?.[1];
  return ref === undefined ? undefined : resolveRef(ref, dirs);
}

/** The `name` of a TOML table (`[project]`, `[tool.poetry]`, `[package]`), without a TOML parser. */
function tomlName(source: string, table: string): string | undefined {
  const lines = source.split(/\r?\n/);
  let inside = false;
  for (const line of lines) {
    const header = /^\s*\[([^\]]+)\]\s*(#.*)?$/.exec(line);
    if (header) {
      inside = header[1]?.trim() === table;
      continue;
    }
    if (!inside) continue;
    const name = /^\s*name\s*=\s*(["'])(.+?)\1/.exec(line)?.[2];
    if (name) return name;
  }
  return undefined;
}

/** The last segment of a Go module path that is not a major version (`/v2`). */
function goModuleName(source: string): string | undefined {
  const module = /^\s*module\s+"?([^\s"]+)"?/m.exec(source)?.[1];
  if (module === undefined) return undefined;
  const segments = module.split('/').filter((s) => s !== '');
  const last = segments.at(-1);
  if (last !== undefined && /^v\d+$/.test(last) && segments.length > 1) return segments.at(-2);
  return last;
}

/**
 * The name the repository's team gives it: its package.json `name`, pyproject's
 * `[project]` (or `[tool.poetry]`) name, Cargo's `[package]` name, the last segment of its
 * Go module path, else the folder's name. Reads only the manifests `readable` allows (the
 * walk's regular files: a manifest that is a symbolic link out of the root is not read).
 *
 * @example
 * await readName('/src/fleet', (path) => files.has(path)); // 'fleet-tracker' (go.mod: module github.com/acme/fleet-tracker)
 */
export async function readName(root: string, readable: (path: string) => boolean): Promise<string> {
  const manifests: [string, (source: string) => string | undefined][] = [
    [
      'package.json',
      (source) => {
        const name = (JSON.parse(source) as { name?: unknown }).name;
        return typeof name === 'string' ? name : undefined;
      },
    ],
    ['pyproject.toml', (source) => tomlName(source, 'project') ?? tomlName(source, 'tool.poetry')],
    ['Cargo.toml', (source) => tomlName(source, 'package')],
    ['go.mod', goModuleName],
  ];
  for (const [file, read] of manifests) {
    if (!readable(file)) continue;
    const source = await text(join(root, file));
    if (source === undefined) continue;
    try {
      const name = read(source)?.trim();
      if (name) return name.slice(0, 200);
    } catch {
      // A manifest that does not parse names nothing; the next one may.
    }
  }
  return basename(root).slice(0, 200) || 'repository';
}
