import type { ConformanceCheck } from '@pgs/client';
import { describe, expect, it } from 'vitest';
import { codeCells, codeSummary } from './conformance.ts';

const check = {
  id: 'chk_01JD3Q2V8Y7K6M5N4P3R2S1T0V',
  projectId: '7d0f2c8e-4a9b-4e43-9a55-0d2b8f1c6e21',
  revision: 1,
  status: 'succeeded',
  repository: { name: 'petpal', commit: 'abc1234', files: 6, citations: 2 },
  totals: {
    requirements: 2,
    tested: 1,
    implemented: 0,
    missing: 1,
    criteria: 2,
    criteriaCited: 1,
    drift: 3,
  },
  report: {
    requirements: [
      {
        id: 'FR-1',
        title: 'Pets',
        status: 'tested',
        tests: [{ path: 'test/pets.test.ts', line: 3, text: "it('FR-1.1')" }],
        tasks: [],
        evidence: [],
      },
      { id: 'FR-2', title: 'Calendar', status: 'missing', tests: [], tasks: [], evidence: [] },
    ],
  },
  error: null,
  createdAt: '2026-11-28T12:00:00.000Z',
  finishedAt: '2026-11-28T12:00:00.010Z',
} as unknown as ConformanceCheck;

describe('the Code column', () => {
  it('reads each requirement status and its first citing test', () => {
    const cells = codeCells(check);
    expect(cells.get('FR-1')).toEqual({
      text: 'Tested',
      detail: 'test/pets.test.ts:3',
      status: 'tested',
    });
    expect(cells.get('FR-2')).toEqual({ text: 'Missing', detail: undefined, status: 'missing' });
    expect(codeCells(undefined).size).toBe(0);
  });

  it('sums the check up, drift included', () => {
    expect(codeSummary(check)).toBe(
      'Code check of petpal @ abc1234: 1 tested, 0 implemented, 1 missing; 3 in the code no requirement covers.',
    );
    expect(codeSummary({ ...check, totals: null, status: 'failed' })).toBe(
      'Code check of petpal @ abc1234: failed.',
    );
  });
});
