import type { RepositoryCitation } from '@pgs/contract';

/**
 * Citations of spec IDs in test files, for a conformance check (docs/conformance.md): a test
 * named `FR-3.2 sends the reminder`, a `describe('T-4 …')`, a `// covers FR-3` comment. Found
 * in every test file of the tree, also those the token budget leaves out of the digest's
 * files (tests rank last), by reading lines, never by running anything.
 */

/** The API's limits of `citations` (the contract's schema says the same). */
export const CITATION_LIMITS = {
  /** Citations in one digest; past it the rest are left out, in path order. */
  maxCitations: 2_000,
  /** Characters of a cited line that are sent. */
  maxTextLength: 200,
  /** Citations from one file, so one generated test file cannot take them all. */
  maxPerFile: 200,
} as const;

/** A spec ID as a test cites it: `FR-3`, `FR-3.2`, `NFR-1`, `T-4` (not `SFR-3`, not `T-4a`). */
const ID = /(?<![\w-])(FR-\d{1,4}(?:\.\d{1,4})?|NFR-\d{1,4}|T-\d{1,4})(?![\w-]|\.\d)/g;

/** A line that declares a test or a suite, in the usual frameworks of each language. */
const DECLARES =
  /\b(describe|context|suite|it|test|specify|scenario|feature|bench)(\.\w+)*\s*\(|\bt\.Run\s*\(|\bdef\s+test|\bfunc\s+Test|@(DisplayName|Test|Tag|pytest\.mark)\b|^\s*(Scenario|Feature|Rule|Example)s?:/i;

/** Where a comment starts on a line (the ID must come after it). */
const COMMENT = /(\/\/|\/\*|^\s*\*|#|--|"""|''')/;

/**
 * The citations in one test file's text: each ID on a line that declares a test or a suite,
 * or in a comment, once per line, with the line trimmed and cut at
 * {@link CITATION_LIMITS.maxTextLength} characters.
 *
 * @example
 * findCitations('test/reminders.test.ts', "it('FR-3.2 sends the reminder', () => {");
 * // [{ id: 'FR-3.2', path: 'test/reminders.test.ts', line: 1, text: "it('FR-3.2 sends the reminder', () => {" }]
 */
export function findCitations(path: string, text: string): RepositoryCitation[] {
  const found: RepositoryCitation[] = [];
  const lines = text.split(/\r?\n/);
  for (const [index, line] of lines.entries()) {
    if (found.length >= CITATION_LIMITS.maxPerFile) break;
    if (!line.includes('-')) continue;
    const comment = COMMENT.exec(line);
    const declares = DECLARES.test(line);
    if (comment === null && !declares) continue;
    const ids = new Set<string>();
    for (const match of line.matchAll(ID)) {
      // In a comment, or anywhere on a line that declares a test (its name, its tags).
      if (declares || (comment !== null && match.index >= comment.index)) ids.add(match[1]!);
    }
    const trimmed = line.trim().slice(0, CITATION_LIMITS.maxTextLength);
    for (const id of ids) {
      found.push({ id, path, line: index + 1, text: trimmed });
      if (found.length >= CITATION_LIMITS.maxPerFile) break;
    }
  }
  return found;
}

/**
 * The citations of every test file in `paths` (in path order), until
 * {@link CITATION_LIMITS.maxCitations}: `read` gives a file's text (undefined when it is
 * binary or unreadable), and each cited line is sent with its secrets redacted by `redact`,
 * the digest's own rules.
 *
 * @example
 * const citations = await collectCitations(testPaths, readText, redactLines);
 */
export async function collectCitations(
  paths: readonly string[],
  read: (path: string) => Promise<string | undefined>,
  redact: (path: string, text: string) => Promise<string>,
  signal?: AbortSignal,
): Promise<RepositoryCitation[]> {
  const all: RepositoryCitation[] = [];
  for (const path of [...paths].sort()) {
    signal?.throwIfAborted();
    if (all.length >= CITATION_LIMITS.maxCitations) break;
    const text = await read(path);
    if (text === undefined) continue;
    const found = findCitations(path, text);
    if (found.length === 0) continue;
    // One scan per file: the cited lines joined, split back when redaction kept the lines.
    const lines = [...new Set(found.map((c) => c.text))];
    const redacted = (await redact(path, lines.join('\n'))).split('\n');
    const byText = new Map<string, string>();
    for (const [i, line] of lines.entries()) {
      byText.set(line, redacted.length === lines.length ? redacted[i]! : await redact(path, line));
    }
    for (const citation of found) {
      if (all.length >= CITATION_LIMITS.maxCitations) break;
      const text = byText.get(citation.text)!.slice(0, CITATION_LIMITS.maxTextLength);
      all.push({ ...citation, text });
    }
  }
  return all;
}
