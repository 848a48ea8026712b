/**
 * Readers of dependency manifests: what a repository declares it depends on, the language and
 * runtime versions it asks for, and how it runs its tests. A manifest that does not parse is
 * skipped (the digest may hold a template or a half-edited file), never thrown. Each family's
 * reader is in a file of its own (manifests-<family>.ts); this one picks the reader by name.
 */
import { basename, type ManifestRead, type Reader } from './manifest-read.ts';
import { goMod } from './manifests-go.ts';
import { gradle, pom } from './manifests-jvm.ts';
import { packageJson } from './manifests-node.ts';
import { composer } from './manifests-php.ts';
import { pipfile, pyproject, requirements } from './manifests-python.ts';
import { gemfile } from './manifests-ruby.ts';
import { cargo } from './manifests-rust.ts';

export type { Dependency, ManifestRead } from './manifest-read.ts';

function readerFor(path: string): Reader | undefined {
  const name = basename(path);
  if (name === 'package.json') return packageJson;
  if (name === 'pyproject.toml') return pyproject;
  if (
    /^(?:[\w-]*requirements[\w-]*|requirements\/[\w-]+)\.txt$/i.test(name) ||
    /(^|\/)requirements\/[\w.-]+\.txt$/.test(path)
  )
    return requirements;
  if (name === 'Pipfile') return pipfile;
  if (name === 'go.mod') return goMod;
  if (name === 'Cargo.toml') return cargo;
  if (name === 'pom.xml') return pom;
  if (name === 'build.gradle' || name === 'build.gradle.kts') return gradle;
  if (name === 'Gemfile') return gemfile;
  if (name === 'composer.json') return composer;
  return undefined;
}

/** Folders whose manifests belong to someone else's code. */
const VENDORED = /(^|\/)(node_modules|vendor|\.venv|venv|site-packages|dist|build|target)\//;

/**
 * Whether a path is a manifest this reader understands.
 *
 * @example
 * isManifest('services/api/go.mod'); // true
 */
export function isManifest(path: string): boolean {
  return !VENDORED.test(path) && readerFor(path) !== undefined;
}

/**
 * Reads one manifest; undefined when it is not one or does not parse.
 *
 * @example
 * readManifest('go.mod', 'module x\n\ngo 1.22\n')?.language; // { name: 'Go', version: '1.22' }
 */
export function readManifest(path: string, content: string): ManifestRead | undefined {
  const reader = isManifest(path) ? readerFor(path) : undefined;
  if (!reader) return undefined;
  try {
    return reader(path, content);
  } catch {
    return undefined;
  }
}
