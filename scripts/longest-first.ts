import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { seconds } = JSON.parse(
  readFileSync(path.join(root, 'scripts/test-durations.json'), 'utf8'),
) as { seconds: Record<string, number> };

/**
 * Longest first, when vitest knows no durations of its own (a fresh clone, as in CI). Vitest
 * then orders files by size, and the slowest files here are small ones (the console's
 * scenarios, the crash suites' cases live in other files), so they started last and ran on
 * alone while the other worker sat idle: about a minute of CI. With its own results
 * (a developer's second run) vitest's order stands. Refresh scripts/test-durations.json from
 * a CI log when the slow files change; a file missing from it runs after those listed.
 *
 * @example
 * // vitest.config.ts
 * test: { sequence: { sequencer: LongestFirst } }
 */
export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const known = files.every((spec) => this.ctx.cache.getTestSpecificationResult(spec));
    if (known) return super.sort(files);
    const ordered = await super.sort(files);
    const duration = (spec: TestSpecification) =>
      seconds[path.relative(root, spec.moduleId).split(path.sep).join('/')] ?? 0;
    // A stable sort: files with no listed duration keep vitest's order among themselves.
    return ordered.sort((a, b) => duration(b) - duration(a));
  }
}
