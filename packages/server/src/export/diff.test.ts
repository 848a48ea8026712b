import { applyPatch, parsePatch } from 'diff';
import { describe, expect, it } from 'vitest';
import { type Doc, documentDiff, unifiedDiff } from './diff.ts';

const lines = (n: number, word = 'line') =>
  Array.from({ length: n }, (_, i) => `${word} ${i + 1}`).join('\n');

/** The text a file's patch makes of the old text (the empty string for an added file). */
function applied(patch: string, old: string): string {
  const result = applyPatch(old, patch);
  if (result === false) throw new Error('the patch does not apply');
  return result;
}

describe('documentDiff', () => {
  const before: Doc[] = [
    { filename: 'BRIEF.md', content: `# Brief\n\n${lines(20)}\n` },
    { filename: 'REQUIREMENTS.md', content: '# Requirements\n\nFR-1 Export\n' },
    { filename: 'PLAN.md', content: '# Plan\n' },
  ];
  const briefAfter = `# Brief\n\n${lines(20).replace('line 10', 'line ten')}\n`;
  const after: Doc[] = [
    { filename: 'BRIEF.md', content: briefAfter },
    { filename: 'PLAN.md', content: '# Plan\n' },
    { filename: 'STORIES.md', content: '# Stories\n\nUS-1\nUS-2\n' },
  ];
  const files = documentDiff(before, after);

  it("lists changed documents only, in after's order, then the removed ones", () => {
    expect(files.map((f) => [f.filename, f.status])).toEqual([
      ['BRIEF.md', 'modified'],
      ['STORIES.md', 'added'],
      ['REQUIREMENTS.md', 'removed'],
    ]);
  });

  it('counts additions and deletions from the hunks', () => {
    expect(files.map((f) => [f.additions, f.deletions])).toEqual([
      [1, 1],
      [4, 0],
      [0, 3],
    ]);
  });

  it('writes git-style headers, /dev/null for added and removed, 3 lines of context', () => {
    const [modified, added, removed] = files;
    expect(modified!.patch.split('\n').slice(0, 4)).toEqual([
      'diff --git a/BRIEF.md b/BRIEF.md',
      '--- a/BRIEF.md',
      '+++ b/BRIEF.md',
      '@@ -9,7 +9,7 @@',
    ]);
    expect(modified!.patch).toContain(' line 9\n-line 10\n+line ten\n line 11\n');
    expect(modified!.patch).not.toContain(' line 6\n');
    expect(added!.patch).toMatch(
      /^diff --git a\/STORIES\.md b\/STORIES\.md\nnew file mode 100644\n--- \/dev\/null\n\+\+\+ b\/STORIES\.md\n@@ -0,0 \+1,4 @@\n/,
    );
    expect(removed!.patch).toMatch(
      /^diff --git a\/REQUIREMENTS\.md b\/REQUIREMENTS\.md\ndeleted file mode 100644\n--- a\/REQUIREMENTS\.md\n\+\+\+ \/dev\/null\n@@ -1,3 \+0,0 @@\n/,
    );
  });

  it('each patch applies back to give the new text exactly', () => {
    const old = new Map(before.map((d) => [d.filename, d.content]));
    const current = new Map(after.map((d) => [d.filename, d.content]));
    for (const file of files) {
      expect(applied(file.patch, old.get(file.filename) ?? '')).toBe(
        current.get(file.filename) ?? '',
      );
    }
  });

  it('leaves out identical documents; nothing changed is no files and an empty body', () => {
    expect(documentDiff(before, before)).toEqual([]);
    expect(unifiedDiff(documentDiff(before, before))).toBe('');
    expect(documentDiff([], [])).toEqual([]);
  });

  it('sees a change of the trailing newline alone, and applies it back', () => {
    for (const [old, now] of [
      ['a\nb\n', 'a\nb'],
      ['a\nb', 'a\nb\n'],
      ['a\nb', 'a\nc'],
    ] as const) {
      const [file] = documentDiff(
        [{ filename: 'X.md', content: old }],
        [{ filename: 'X.md', content: now }],
      );
      expect(file?.status).toBe('modified');
      expect(file!.patch).toContain('\\ No newline at end of file');
      expect(applied(file!.patch, old)).toBe(now);
    }
  });

  it('an added empty document is a header without hunks', () => {
    const [file] = documentDiff([], [{ filename: 'EMPTY.md', content: '' }]);
    expect(file).toEqual({
      filename: 'EMPTY.md',
      status: 'added',
      additions: 0,
      deletions: 0,
      patch: 'diff --git a/EMPTY.md b/EMPTY.md\nnew file mode 100644\n',
    });
  });
});

describe('unifiedDiff', () => {
  it('concatenates the patches into one body that parses back to each file', () => {
    const files = documentDiff(
      [
        { filename: 'A.md', content: 'one\n' },
        { filename: 'B.md', content: 'two\n' },
      ],
      [
        { filename: 'A.md', content: 'uno\n' },
        { filename: 'C.md', content: 'tres\n' },
      ],
    );
    const body = unifiedDiff(files);
    expect(body).toBe(files.map((f) => f.patch).join(''));
    expect(body.endsWith('\n')).toBe(true);
    expect(parsePatch(body).map((p) => [p.oldFileName, p.newFileName])).toEqual([
      ['a/A.md', 'b/A.md'],
      ['/dev/null', 'b/C.md'],
      ['a/B.md', '/dev/null'],
    ]);
  });
});
