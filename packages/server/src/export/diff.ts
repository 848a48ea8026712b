/**
 * What a revision changed, document by document: git-style unified diffs of the documents
 * of two revisions (the body of `GET …/revisions/{n}/diff`, docs/revisions.md). Pure: the
 * caller reads both revisions' documents and serves the result.
 */
import { formatPatch, type StructuredPatch, structuredPatch } from 'diff';

/** One document as a revision holds it. */
export interface Doc {
  readonly filename: string;
  readonly content: string;
}

/** One document a revision changed, as `?format=json` serves it. */
export interface DiffFile {
  filename: string;
  status: 'added' | 'modified' | 'removed';
  /** Lines added and removed, counted from the hunks. */
  additions: number;
  deletions: number;
  /** A git-style unified diff: `diff --git a/F b/F`, `--- a/F` (or `/dev/null`), `+++ b/F`, hunks. */
  patch: string;
}

/** Lines of unchanged text around each change, as git prints them. */
const CONTEXT = 3;

function filePatch(
  filename: string,
  before: string | undefined,
  after: string | undefined,
): StructuredPatch {
  const patch = structuredPatch(
    before === undefined ? '/dev/null' : `a/${filename}`,
    after === undefined ? '/dev/null' : `b/${filename}`,
    before ?? '',
    after ?? '',
    undefined,
    undefined,
    { context: CONTEXT },
  );
  // `isGit` makes formatPatch write the `diff --git` line and the new/deleted file mode,
  // so `git apply` takes the body as it is.
  return {
    ...patch,
    isGit: true,
    ...(before === undefined ? { isCreate: true } : {}),
    ...(after === undefined ? { isDelete: true } : {}),
  };
}

function count(patch: StructuredPatch, sign: '+' | '-'): number {
  let n = 0;
  for (const hunk of patch.hunks) for (const line of hunk.lines) if (line[0] === sign) n++;
  return n;
}

/**
 * Every document whose content differs between two revisions (compared byte for byte), in
 * `after`'s order, then those `after` no longer has in `before`'s order. Unchanged
 * documents are left out.
 *
 * @example
 * documentDiff([{ filename: 'A.md', content: 'one\n' }], [{ filename: 'A.md', content: 'two\n' }]);
 * // [{ filename: 'A.md', status: 'modified', additions: 1, deletions: 1, patch: 'diff --git a/A.md b/A.md\n…' }]
 */
export function documentDiff(before: readonly Doc[], after: readonly Doc[]): DiffFile[] {
  const old = new Map<string, string>();
  for (const doc of before) if (!old.has(doc.filename)) old.set(doc.filename, doc.content);
  const current = new Set(after.map((doc) => doc.filename));
  const files: DiffFile[] = [];
  const push = (filename: string, status: DiffFile['status'], patch: StructuredPatch) =>
    files.push({
      filename,
      status,
      additions: count(patch, '+'),
      deletions: count(patch, '-'),
      patch: formatPatch(patch),
    });
  const seen = new Set<string>();
  for (const doc of after) {
    if (seen.has(doc.filename)) continue;
    seen.add(doc.filename);
    const previous = old.get(doc.filename);
    if (previous === doc.content) continue;
    push(
      doc.filename,
      previous === undefined ? 'added' : 'modified',
      filePatch(doc.filename, previous, doc.content),
    );
  }
  for (const [filename, content] of old) {
    if (!current.has(filename)) push(filename, 'removed', filePatch(filename, content, undefined));
  }
  return files;
}

/**
 * The `text/x-diff` body: every file's patch, one after the other (each ends with a
 * newline); the empty string when nothing changed.
 *
 * @example
 * reply.type('text/x-diff; charset=utf-8').send(unifiedDiff(documentDiff(before, after)));
 */
export function unifiedDiff(files: readonly DiffFile[]): string {
  return files.map((file) => file.patch).join('');
}
