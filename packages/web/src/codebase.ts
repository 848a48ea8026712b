import type { Provenance } from '@pgs/client';

// What the Codebase section of a grounded project says (docs/console.md), as plain data: the
// repository, the commit, which revision sent the digest, its size, the secrets redacted
// and one row per file. Provenance never carries a file's text, so neither does this.

/** The digest a project (or the revision read) is grounded in, as provenance describes it. */
export type RepositoryProvenance = NonNullable<Provenance['context']>['repository'];

/** Characters of a commit shown; the whole of it is in the tooltip. */
export const SHORT_COMMIT_LENGTH = 12;

const numbers = new Intl.NumberFormat('en');
const UNITS = ['B', 'KB', 'MB', 'GB'] as const;

/**
 * A size in bytes for people: bytes under 1 KB, else KB, MB or GB of 1,024 (so the API's
 * 1,048,576-byte limit on a digest reads "1 MB"), with one decimal under 10 and none from
 * 10 up, as file managers write them.
 *
 * @example
 * formatBytes(512); // '512 B'
 * formatBytes(1536); // '1.5 KB'
 * formatBytes(262_144); // '256 KB'
 */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${numbers.format(bytes)} B`;
  let unit = 0;
  let value = bytes;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  let rounded = roundSize(value);
  // 1,023.96 KB rounds to 1,024 KB: that is 1 MB.
  if (rounded >= 1024 && unit < UNITS.length - 1) {
    unit++;
    rounded = roundSize(rounded / 1024);
  }
  return `${numbers.format(rounded)} ${UNITS[unit]}`;
}

const roundSize = (value: number) => (value < 10 ? Math.round(value * 10) / 10 : Math.round(value));

/**
 * `n` of a noun, the number written the English way: `1 file`, `1,000 files`.
 *
 * @example
 * countOf(1000, 'file'); // '1,000 files'
 */
export function countOf(n: number, noun: string, plural = `${noun}s`): string {
  return `${numbers.format(n)} ${n === 1 ? noun : plural}`;
}

/** One file of the digest as its row reads. */
export interface CodebaseFileRow {
  path: string;
  size: string;
  /** Secrets replaced in this file, as a figure. */
  redactions: string;
  /** Whether any were: the row marks it. */
  redacted: boolean;
}

/** The Codebase section's content. */
export interface CodebaseView {
  name: string;
  /** The commit shortened for the page and whole for its tooltip; absent when not given. */
  commit: { short: string; full: string } | undefined;
  /** Which revision sent the digest: `sent with the project` or `replaced by revision 3`. */
  sent: string;
  /** `12 files`. */
  fileCount: string;
  /** The files' text together, stored (redacted): `48 KB`. */
  size: string;
  /** `3 redacted before storage`, or `none found`. */
  secrets: string;
  /** What happened to them, in one sentence. */
  secretsNote: string;
  /** In the order the digest lists them (the builder's: what explains the system first). */
  files: CodebaseFileRow[];
}

/**
 * The Codebase section's content, or `undefined` for a project that is not grounded in a
 * codebase (`context` null): the page then shows no section.
 *
 * @example
 * codebaseView(await pgs.projects.provenance(id, { revision: 2 }))?.sent; // 'replaced by revision 2'
 */
export function codebaseView(provenance: Provenance): CodebaseView | undefined {
  const repository = provenance.context?.repository;
  if (repository === undefined) return undefined;
  const { name, commit, revision, totalBytes, redactions, files } = repository;
  return {
    name,
    commit:
      commit === null ? undefined : { short: commit.slice(0, SHORT_COMMIT_LENGTH), full: commit },
    sent: revision <= 1 ? 'sent with the project' : `replaced by revision ${revision}`,
    fileCount: countOf(files.length, 'file'),
    size: formatBytes(totalBytes),
    secrets:
      redactions === 0 ? 'none found' : `${numbers.format(redactions)} redacted before storage`,
    secretsNote: secretsNote(redactions),
    files: files.map((file) => ({
      path: file.path,
      size: formatBytes(file.bytes),
      redactions: numbers.format(file.redactions),
      redacted: file.redactions > 0,
    })),
  };
}

function secretsNote(redactions: number): string {
  const after = 'before anything was stored or sent to a model';
  if (redactions === 0) {
    return `No secret was found in these files; one would have been replaced ${after}, and never shown.`;
  }
  if (redactions === 1) {
    return `The secret found was replaced in its file ${after}, and is never shown.`;
  }
  return `The ${numbers.format(redactions)} secrets found were replaced in the files ${after}, and are never shown.`;
}
