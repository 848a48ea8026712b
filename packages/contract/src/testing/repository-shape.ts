/**
 * The shape of a test repository (repositories.ts) and the helper its secrets are written
 * with.
 */

/** A repository as files on disk: path → text. */
export type RepositoryFiles = Readonly<Record<string, string>>;

/** A test repository and what reading it must find. */
export interface TestRepository {
  name: string;
  files: RepositoryFiles;
  /** Values that must never be stored, served, logged or sent to a model. */
  secrets: readonly string[];
  /** Paths holding secrets by their nature: skipped by the builder, refused by the server. */
  secretFiles: readonly string[];
  /** Paths a `.gitignore` of the repository excludes (the builder must not read them). */
  ignored: readonly string[];
  expected: {
    /** Technologies named in the stack, as a reader would name them. */
    stack: readonly string[];
    /** Paths of the components found (folders or files). */
    componentPaths: readonly string[];
    dataStores: readonly string[];
    externalServices: readonly string[];
    /** Routes as `METHOD /path`. */
    routes: readonly string[];
    /** Tables or models found in schemas and migrations. */
    entities: readonly string[];
  };
}

/** Joins a secret's parts: no scanner reading this repository flags a secret in pieces. */
export const join = (...parts: string[]) => parts.join('');
