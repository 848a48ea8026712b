/**
 * What the offline engine reads in a repository digest (`context.repository`), found
 * deterministically in its manifests, route files, schemas and migrations. The documents of
 * a grounded project are written from these facts: the stack that exists, its components
 * with their paths, its data stores and external services, and the files a change touches.
 */

/** A digest as the run receives it: already checked and redacted by the server. */
export type { RepositorySource } from '@pgs/contract/generation';

/** Something found, and the file that shows it. */
export interface Found {
  name: string;
  /** The path it was read from, e.g. `package.json` or `src/db/pool.ts`. */
  evidence: string;
  /** What in that file shows it, when it is not the name itself: `pg ^8.11.3`, `a postgres:// URL`. */
  detail?: string;
}

/** One technology of the stack, in the layer it serves. */
export interface StackItem extends Found {
  layer: 'Language' | 'Runtime' | 'Framework' | 'Data' | 'Cache' | 'Testing' | 'Build' | 'Library';
  /** The version the manifest asks for, when it says one (`^4.19.2`). */
  version?: string;
}

/** A part of the codebase with one role: a folder (or a file) and what it holds. */
export interface Component {
  /** A readable name: `Routes`, `Database access`, `Payments service`. */
  name: string;
  /** Its folder or file, relative to the root: `src/routes`. */
  path: string;
  /** What it does, in one phrase. */
  role: string;
  /** Its files in the digest. */
  files: readonly string[];
}

/** An HTTP route found in a route file. */
export interface Route {
  method: string;
  /** The full path, prefixes joined: `/appointments/:id`. */
  path: string;
  file: string;
}

/** A table or model found in a schema, a migration or an ORM model. */
export interface Entity {
  name: string;
  file: string;
  columns: readonly string[];
  /** Other files that define the same table or model (a migration and an ORM model). */
  alsoIn?: readonly string[];
}

/** Everything read from a digest. */
export interface CodebaseFacts {
  name: string;
  commit: string | null;
  /** The README's first paragraph, when it has one. */
  summary?: string;
  languages: readonly string[];
  stack: readonly StackItem[];
  components: readonly Component[];
  dataStores: readonly Found[];
  externalServices: readonly Found[];
  routes: readonly Route[];
  entities: readonly Entity[];
  /** Files a process starts from: `src/server.ts`, `app/main.py`, `cmd/server/main.go`. */
  entryPoints: readonly string[];
  /** Manifests read: `package.json`, `pyproject.toml`, `go.mod`… */
  manifests: readonly string[];
  /** Test files and the command that runs them, when a manifest says it. */
  tests: {
    files: readonly string[];
    command?: string;
    /** The manifest (or file) the command comes from: `package.json`, `pyproject.toml`. */
    commandEvidence?: string;
  };
  /** Conventions the repository's own files set: a linter, a formatter, strict types. */
  conventions?: readonly Found[];
  /** Every path of the digest, for naming files. */
  paths: readonly string[];
}
