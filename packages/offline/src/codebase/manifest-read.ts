/**
 * What a manifest reader answers, and the pieces every reader builds it from: a dependency,
 * and tables and lists read loosely from parsed JSON or TOML.
 */
import type { Ecosystem } from './known-packages.ts';

/** One declared dependency. */
export interface Dependency {
  ecosystem: Ecosystem;
  name: string;
  /** The version as written: `^4.19.2`, `>=0.111`, `v5.0.12`. */
  version?: string;
  /** Declared for development or tests only. */
  dev: boolean;
  /** Cargo features and Python extras, which sometimes name the database (`sqlx` + `postgres`). */
  features?: readonly string[];
}

/** What one manifest says. */
export interface ManifestRead {
  path: string;
  ecosystem: Ecosystem;
  dependencies: Dependency[];
  /** The language it is written for, with the version it asks for. */
  language?: { name: string; version?: string };
  runtime?: { name: string; version?: string };
  /** The command that runs the tests, when the manifest says or implies one. */
  test?: string;
  /** Files it names as where the program starts (`main`, `bin`). */
  entries: string[];
}

/** Reads one manifest's text; undefined when it is not what its name says. May throw. */
export type Reader = (path: string, content: string) => ManifestRead | undefined;

/** The file name of a path: `requirements-dev.txt` from `api/requirements-dev.txt`. */
export const basename = (path: string) => path.slice(path.lastIndexOf('/') + 1);

/** A JSON or TOML table (not an array, not null). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A table's entries as name and version: `{ x: '1' }` and `{ x: { version: '1' } }` alike. */
export function stringRecord(value: unknown): [string, string][] {
  if (!isRecord(value)) return [];
  return Object.entries(value).map(([k, v]) => [
    k,
    typeof v === 'string' ? v : isRecord(v) && typeof v.version === 'string' ? v.version : '',
  ]);
}

/** The strings of a list; anything else is left out. */
export const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];

/** One dependency; a blank or `*` version is left out, as are empty features. */
export function dep(
  ecosystem: Ecosystem,
  name: string,
  version: string | undefined,
  dev: boolean,
  features?: readonly string[],
): Dependency {
  const out: Dependency = { ecosystem, name, dev };
  if (version?.trim() && version.trim() !== '*') out.version = version.trim();
  if (features && features.length > 0) out.features = features;
  return out;
}
