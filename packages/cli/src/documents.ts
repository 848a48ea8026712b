import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { type ProjectDocument, projectSlug } from '@pgs/client';
import { UsageError } from './errors.ts';

/**
 * A directory name from a project name: the contract's archive slug (lower-case ASCII
 * letters and digits joined by dashes, at most 50 characters, `project` when nothing is
 * left), so a project's directory and its archive have the same name.
 *
 * @example
 * slugify('HabitTrack for Teams!'); // 'habittrack-for-teams'
 */
export const slugify = projectSlug;

/**
 * A file name that stays inside the output directory whatever the server sends: the
 * last path segment, characters outside `A-Za-z0-9._-` replaced, no leading dot.
 *
 * @example
 * safeFilename('../../etc/passwd'); // 'passwd'
 */
export function safeFilename(filename: string): string {
  const last = filename.split(/[\\/]/).pop() ?? '';
  const name = last
    .replace(/[^A-Za-z0-9._-]/g, '_')
    .replace(/^\.+/, '')
    .slice(0, 120);
  return name || 'document.md';
}

/** Whether `dir` (relative to `cwd`) is missing or empty; a usage error when it is a file. */
async function isFree(cwd: string, dir: string, flag: string): Promise<boolean> {
  try {
    return (await readdir(resolve(cwd, dir))).length === 0;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'ENOENT') return true;
    if (code === 'ENOTDIR') throw new UsageError(`${flag} ${dir} is a file, not a directory`);
    throw error;
  }
}

/**
 * Refuses a given `--out` that already holds files (before any credit is spent),
 * unless `force`.
 *
 * @example
 * await checkOutDir(process.cwd(), './out', false, 'generate');
 */
export async function checkOutDir(
  cwd: string,
  dir: string,
  force: boolean,
  command: string,
): Promise<void> {
  if (force || (await isFree(cwd, dir, '--out'))) return;
  throw new UsageError(
    `--out ${dir} is not empty; choose another directory, or add --force to overwrite ` +
      'files of the same names',
    `pgs ${command}`,
  );
}

/**
 * The default output directory: `<slug>`, else `<slug>-2`, `<slug>-3`, ... whichever is
 * missing or empty, so an earlier project's files are never overwritten.
 *
 * @example
 * await defaultOutDir(process.cwd(), 'HabitTrack'); // 'habittrack'
 */
export async function defaultOutDir(cwd: string, projectName: string): Promise<string> {
  const base = slugify(projectName);
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? base : `${base}-${n}`;
    if (await isFree(cwd, candidate, 'the directory')) return candidate;
  }
}

/**
 * Writes every document into `dir` (created if needed) and returns the paths written,
 * as `dir` joined with each file name. Existing files are kept (an error) unless `force`.
 *
 * @example
 * const paths = await writeDocuments(process.cwd(), 'habittrack', result.project.documents);
 */
export async function writeDocuments(
  cwd: string,
  dir: string,
  documents: readonly ProjectDocument[],
  { force = false }: { force?: boolean } = {},
): Promise<string[]> {
  await mkdir(resolve(cwd, dir), { recursive: true });
  const used = new Set<string>();
  const paths: string[] = [];
  for (const document of documents) {
    let name = safeFilename(document.filename);
    for (let n = 2; used.has(name.toLowerCase()); n++) {
      name = safeFilename(document.filename).replace(/(\.[^.]*)?$/, `-${n}$1`);
    }
    used.add(name.toLowerCase());
    const path = join(dir, name);
    try {
      await writeFile(resolve(cwd, path), document.content, { flag: force ? 'w' : 'wx' });
    } catch (error) {
      if ((error as { code?: unknown }).code === 'EEXIST') {
        throw new Error(`${path} already exists; it was not overwritten (add --force to do so)`);
      }
      throw error;
    }
    paths.push(path);
  }
  return paths;
}
