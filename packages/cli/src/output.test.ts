import { describe, expect, it } from 'vitest';
import { colourDiff } from './output.ts';

describe('colourDiff', () => {
  it('colours additions green, removals red, headers bold and hunks cyan', () => {
    const text =
      'diff --git a/A.md b/A.md\n--- a/A.md\n+++ b/A.md\n@@ -1,2 +1,2 @@\n one\n-two\n+three\n';
    expect(colourDiff(text).split('\n')).toEqual([
      '\x1b[1mdiff --git a/A.md b/A.md\x1b[0m',
      '\x1b[1m--- a/A.md\x1b[0m',
      '\x1b[1m+++ b/A.md\x1b[0m',
      '\x1b[36m@@ -1,2 +1,2 @@\x1b[0m',
      ' one',
      '\x1b[31m-two\x1b[0m',
      '\x1b[32m+three\x1b[0m',
      '',
    ]);
  });
});
