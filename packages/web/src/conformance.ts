import type { ConformanceCheck } from '@pgs/client';

// The latest conformance check as the trace's matrix shows it (docs/conformance.md): per
// requirement whether the code tests it, implements it or misses it.

/** One requirement's status in the latest check. */
export type ConformanceStatus = NonNullable<
  ConformanceCheck['report']
>['requirements'][number]['status'];

/** What the Code cell of a requirement reads. */
export interface CodeCell {
  text: string;
  /** The first citing test (`path:line`), when one cites it. */
  detail: string | undefined;
  status: ConformanceStatus | undefined;
}

const LABELS: Record<ConformanceStatus, string> = {
  tested: 'Tested',
  implemented: 'Implemented, no test',
  missing: 'Missing',
};

/**
 * Each requirement's Code cell by its ID, from a check's report; empty without one.
 *
 * @example
 * codeCells(check).get('FR-1'); // { text: 'Tested', detail: 'test/pets.test.ts:3', status: 'tested' }
 */
export function codeCells(check: ConformanceCheck | undefined): Map<string, CodeCell> {
  const cells = new Map<string, CodeCell>();
  for (const requirement of check?.report?.requirements ?? []) {
    const test = requirement.tests[0];
    cells.set(requirement.id, {
      text: LABELS[requirement.status],
      detail: test === undefined ? undefined : `${test.path}:${test.line}`,
      status: requirement.status,
    });
  }
  return cells;
}

/**
 * The line above the matrix: the check's totals and its drift, or how to make one.
 *
 * @example
 * codeSummary(check); // 'Code check of petpal @ abc1234: 1 tested, 1 implemented, 1 missing; 3 in the code no requirement covers.'
 */
export function codeSummary(check: ConformanceCheck): string {
  const { repository, totals } = check;
  const at = repository.commit === null ? '' : ` @ ${repository.commit.slice(0, 12)}`;
  if (totals === null) return `Code check of ${repository.name}${at}: ${check.status}.`;
  const drift =
    totals.drift === 0
      ? 'nothing in the code outside the requirements'
      : `${totals.drift} in the code no requirement covers`;
  return `Code check of ${repository.name}${at}: ${totals.tested} tested, ${totals.implemented} implemented, ${totals.missing} missing; ${drift}.`;
}
