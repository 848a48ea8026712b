import type { Dirent } from 'node:fs';
import { lstat, readdir, readFile, realpath } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { pathProblem, samePathKey, secretFileKind } from '@pgs/contract/repository';
import ignore, { type Ignore } from 'ignore';

// The walk of a working tree: which files a digest may read, and why each other one is
// left out. It decides on names, types and sizes only; no file is read here except the
// .gitignore files, so an ignored, excluded or secret file is never opened.

/** Why a file is not in a digest. */
export type SkipKind =
  /** A `.gitignore` (or `.git/info/exclude`) of the repository leaves it out. */
  | 'ignored'
  /** A default exclusion (dependencies, build output, lockfiles, minified files) or the `exclude` option. */
  | 'excluded'
  /** It holds secrets by its nature (`.env*`, keys, certificates, credential stores): never read. */
  | 'secret-file'
  /** A symbolic link: never followed, out of the root or not. */
  | 'symlink'
  /** Not a regular file: a FIFO, a socket, a device. */
  | 'special'
  /** Its path breaks the contract's rules (length, control characters, backslashes). */
  | 'bad-path'
  /** Over the size of one file (`maxFileBytes`). */
  | 'too-large'
  /** Not UTF-8 text. */
  | 'binary'
  /** Could not be read. */
  | 'unreadable'
  /** Left out when the token budget was spent. */
  | 'budget'
  /** Left out when the total size (`maxTotalBytes`) was reached. */
  | 'size-limit'
  /** Left out when the file count (`maxFiles`) was reached. */
  | 'file-limit'
  /**
   * The same path as one already taken, to a case-insensitive or normalising file system
   * (`src/App.ts` beside `src/app.ts`): the API refuses a digest holding both.
   */
  | 'same-path';

/** A file (or a folder, its path ending in `/`) left out of a digest, and why. */
export interface SkippedFile {
  path: string;
  kind: SkipKind;
  /** The reason in words, e.g. `a secret file (an environment file), never read`. */
  reason: string;
}

/** A file the walk found readable: a regular file inside the root, not ignored or excluded. */
export interface Candidate {
  path: string;
  /** Its absolute path. */
  file: string;
  /** Its size on disk, in bytes. */
  size: number;
}

/**
 * Left out of every digest, as gitignore patterns: dependencies, virtual environments,
 * build output, caches and coverage, lockfiles (long, and they say nothing the manifests
 * do not), minified bundles and source maps. Folders match at any depth.
 */
export const DEFAULT_EXCLUDES: readonly string[] = [
  'node_modules/',
  'bower_components/',
  'jspm_packages/',
  'vendor/',
  'dist/',
  'build/',
  'target/',
  '.venv/',
  'venv/',
  '__pycache__/',
  '.tox/',
  '.pytest_cache/',
  '.mypy_cache/',
  '.ruff_cache/',
  'coverage/',
  '.nyc_output/',
  '.next/',
  '.nuxt/',
  '.svelte-kit/',
  '.turbo/',
  '.parcel-cache/',
  '.cache/',
  '.gradle/',
  '.terraform/',
  '.idea/',
  '.hg/',
  '.svn/',
  'package-lock.json',
  'npm-shrinkwrap.json',
  'yarn.lock',
  'pnpm-lock.yaml',
  'bun.lock',
  'bun.lockb',
  'poetry.lock',
  'Pipfile.lock',
  'uv.lock',
  'pdm.lock',
  'Cargo.lock',
  'go.sum',
  'Gemfile.lock',
  'composer.lock',
  'mix.lock',
  'pubspec.lock',
  'Podfile.lock',
  'packages.lock.json',
  'flake.lock',
  'gradle.lockfile',
  '*.min.js',
  '*.min.mjs',
  '*.min.css',
  '*.map',
  '*.pyc',
];

/** The rules of one ignore file, and the folder they apply under ('' for the root). */
interface Rules {
  base: string;
  source: string;
  rules: Ignore;
}

/** What the walk found. */
export interface Walked {
  candidates: Candidate[];
  skipped: SkippedFile[];
  /** Regular files at the root (not links), which the name may be read from. */
  rootFiles: Set<string>;
}

/** Options of {@link walkRepository}. */
export interface WalkOptions {
  maxFileBytes: number;
  exclude: readonly string[];
  signal?: AbortSignal | undefined;
}

const byName = (a: Dirent, b: Dirent) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

async function rulesOf(file: string, base: string, source: string): Promise<Rules | undefined> {
  try {
    // An ignore file that is a symbolic link would be read through it: only regular files.
    if (!(await lstat(file)).isFile()) return undefined;
    return { base, source, rules: ignore().add(await readFile(file, 'utf8')) };
  } catch {
    return undefined;
  }
}

/**
 * Git's verdict for a path: the deepest ignore file with a rule for it decides (a deeper
 * `!pattern` re-includes what a shallower one ignores); `stack` is ordered root first.
 */
function gitignoredBy(stack: readonly Rules[], path: string): string | undefined {
  for (let i = stack.length - 1; i >= 0; i--) {
    const { base, rules, source } = stack[i]!;
    if (base !== '' && !path.startsWith(`${base}/`)) continue;
    const result = rules.test(base === '' ? path : path.slice(base.length + 1));
    if (result.ignored) return source;
    if (result.unignored) return undefined;
  }
  return undefined;
}

/**
 * The reason of a file over the size of one file, in words.
 *
 * @example
 * tooLarge(400_000, 262_144); // '400000 bytes, over 262144 bytes for one file'
 */
export function tooLarge(size: number, max: number): string {
  return `${size} bytes, over ${max} bytes for one file`;
}

/**
 * Walks the working tree under `root` (an absolute, real path) with node:fs: never into
 * `.git` (a folder or a file, at any depth), never through a symbolic link, honouring
 * every `.gitignore` (the root's, nested ones, and `.git/info/exclude`) and the default
 * and given exclusions. Folders that are left out are reported once, as `folder/`, and
 * not entered. Entries are visited in code-point order, so the result never depends on
 * the order the file system lists them in.
 *
 * @example
 * const { candidates, skipped } = await walkRepository(root, { maxFileBytes: 262_144, exclude: [] });
 */
export async function walkRepository(root: string, options: WalkOptions): Promise<Walked> {
  const defaults = ignore().add([...DEFAULT_EXCLUDES]);
  const extra = ignore().add([...options.exclude]);
  const candidates: Candidate[] = [];
  const skipped: SkippedFile[] = [];
  const rootFiles = new Set<string>();
  /** The first path taken for each {@link samePathKey}: later twins are left out. */
  const taken = new Map<string, string>();
  const skip = (path: string, kind: SkipKind, reason: string) =>
    skipped.push({ path, kind, reason });

  // Below the root's .gitignore, as git ranks it.
  const infoExclude = await rulesOf(join(root, '.git', 'info', 'exclude'), '', '.git/info/exclude');

  async function visit(dir: string, rel: string, inherited: readonly Rules[]): Promise<void> {
    options.signal?.throwIfAborted();
    let entries: Dirent[];
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (error) {
      // The root itself: nothing to digest, and the caller should hear why.
      if (rel === '') throw error;
      skip(
        `${rel}/`,
        'unreadable',
        `could not be listed (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
      );
      return;
    }
    entries.sort(byName);
    const own = entries.some((e) => e.name === '.gitignore' && e.isFile())
      ? await rulesOf(join(dir, '.gitignore'), rel, rel === '' ? '.gitignore' : `${rel}/.gitignore`)
      : undefined;
    const stack = [...inherited, ...(own ? [own] : [])];

    for (const entry of entries) {
      const { name } = entry;
      if (name === '.git') continue;
      const path = rel === '' ? name : `${rel}/${name}`;
      const abs = join(dir, name);
      const isDir = entry.isDirectory();
      const shown = isDir ? `${path}/` : path;

      // Judged by name before anything else, so a secret file shows as one even when a
      // .gitignore also leaves it out: the user sees that it stayed on the machine.
      const secret = secretFileKind(isDir ? shown : path);
      if (secret !== undefined) {
        skip(shown, 'secret-file', `a secret file (${secret}), never read`);
        continue;
      }
      const byDefault = defaults.test(shown);
      if (byDefault.ignored) {
        skip(
          shown,
          'excluded',
          `excluded by default (${byDefault.rule?.pattern ?? 'built or installed'})`,
        );
        continue;
      }
      const byOption = extra.test(shown);
      if (byOption.ignored) {
        skip(shown, 'excluded', `excluded (${byOption.rule?.pattern ?? 'exclude option'})`);
        continue;
      }
      const ignoredBy = gitignoredBy(stack, shown);
      if (ignoredBy !== undefined) {
        skip(shown, 'ignored', `ignored by ${ignoredBy}`);
        continue;
      }
      if (entry.isSymbolicLink()) {
        skip(path, 'symlink', await linkReason(root, abs));
        continue;
      }
      if (!isDir && !entry.isFile()) {
        skip(path, 'special', 'not a regular file');
        continue;
      }
      const problem = pathProblem(path);
      if (problem !== undefined) {
        skip(shown, 'bad-path', `a path the API refuses: it ${problem}`);
        continue;
      }
      if (isDir) {
        await visit(abs, path, stack);
        continue;
      }
      let size: number;
      try {
        size = (await lstat(abs)).size;
      } catch (error) {
        skip(
          path,
          'unreadable',
          `could not be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
        );
        continue;
      }
      if (rel === '') rootFiles.add(path);
      if (size > options.maxFileBytes) {
        skip(path, 'too-large', tooLarge(size, options.maxFileBytes));
        continue;
      }
      const key = samePathKey(path);
      const twin = taken.get(key);
      if (twin !== undefined) {
        skip(path, 'same-path', `the same path as ${twin} where case is not told apart`);
        continue;
      }
      taken.set(key, path);
      candidates.push({ path, file: abs, size });
    }
  }

  await visit(root, '', infoExclude ? [infoExclude] : []);
  return { candidates, skipped, rootFiles };
}

/** Why a symbolic link is left out: where it points, in words, without following it. */
async function linkReason(root: string, link: string): Promise<string> {
  let target: string;
  try {
    target = await realpath(link);
  } catch {
    return 'a broken symbolic link';
  }
  const inside = target === root || target.startsWith(root.endsWith(sep) ? root : root + sep);
  return inside
    ? 'a symbolic link, not followed (what it points to is read at its own path)'
    : 'a symbolic link out of the repository, not followed';
}
