import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { seconds } = JSON.parse(
  readFileSync(path.join(root, 'scripts/test-durations.json'), 'utf8'),
) as { seconds: Record<string, number> };

/** Files that took at least this long in CI start servers, browsers or child processes. */
const HEAVY_SECONDS = 15;

/**
 * Spreads the heavy files evenly through a fresh clone's run (CI's), with light files
 * between them. Each heavy file starts servers, Chromium or child processes of its own, and
 * two at once on two cores contend: running the slowest first made `.ci/run` 1,111 s against
 * 927 s. With durations of its own (a developer's second run) vitest's order stands.
 *
 * @example
 * // vitest.config.ts
 * test: { sequence: { sequencer: SpreadHeavy } }
 */
export class SpreadHeavy extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const ordered = await super.sort(files);
    if (files.every((spec) => this.ctx.cache.getTestSpecificationResult(spec))) return ordered;
    const duration = (spec: TestSpecification) =>
      seconds[path.relative(root, spec.moduleId).split(path.sep).join('/')] ?? 0;
    const heavy = ordered.filter((s) => duration(s) >= HEAVY_SECONDS);
    heavy.sort((a, b) => duration(b) - duration(a));
    const light = ordered.filter((s) => duration(s) < HEAVY_SECONDS);
    const gap = light.length / Math.max(1, heavy.length);
    const spread: TestSpecification[] = [];
    let next = 0;
    heavy.forEach((spec, i) => {
      const until = Math.round(i * gap);
      while (next < until) spread.push(light[next++]!);
      spread.push(spec);
    });
    while (next < light.length) spread.push(light[next++]!);
    return spread;
  }
}
