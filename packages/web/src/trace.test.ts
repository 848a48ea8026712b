import type { TraceFinding } from '@pgs/client';
import { describe, expect, it } from 'vitest';
import {
  findingGroups,
  findingsSummary,
  gapsOf,
  priorityLabel,
  severityLabel,
  whereOf,
} from './trace.ts';

const finding = (severity: TraceFinding['severity'], extra: Partial<TraceFinding> = {}) =>
  ({ rule: 'numbering', severity, message: `a ${severity} finding`, ...extra }) as TraceFinding;

describe('gapsOf', () => {
  it('names the columns where nothing reaches the requirement, in the matrix order', () => {
    const fr = {
      id: 'FR-1',
      title: 'Track habits',
      criteria: [],
      stories: ['US-1'],
      components: [],
      tasks: ['T-1'],
    };
    expect(gapsOf(fr)).toEqual(['Criteria', 'Components']);
    expect(gapsOf({ ...fr, criteria: ['FR-1.1'], components: ['Habit store'] })).toEqual([]);
  });
});

describe('labels', () => {
  it('writes priorities as the requirements do, none as a dash', () => {
    expect(['must', 'should', 'could', 'wont'].map((p) => priorityLabel(p as 'must'))).toEqual([
      'Must',
      'Should',
      'Could',
      "Won't",
    ]);
    expect(priorityLabel(undefined)).toBe('—');
    expect(severityLabel('critical')).toBe('Critical');
  });
});

describe('findings', () => {
  const findings = [
    finding('medium'),
    finding('high'),
    finding('critical'),
    finding('high', { document: 'PRODUCT_REQUIREMENTS.md', section: 'Functional requirements' }),
  ];

  it('groups them by severity, the worst first, leaving out the empty ones', () => {
    expect(
      findingGroups(findings).map((group) => [group.label, group.findings.map((f) => f.message)]),
    ).toEqual([
      ['Critical', ['a critical finding']],
      ['High', ['a high finding', 'a high finding']],
      ['Medium', ['a medium finding']],
    ]);
  });

  it('counts them in one sentence', () => {
    expect(findingsSummary(findings)).toBe('4 findings: 1 critical, 2 high, 1 medium.');
    expect(findingsSummary([finding('low')])).toBe('1 finding: 1 low.');
    expect(findingsSummary([])).toBe('No findings: the checks found nothing to fix.');
  });

  it('says where a finding is, as far as it is known', () => {
    expect(whereOf(findings[3]!)).toBe('PRODUCT_REQUIREMENTS.md › Functional requirements');
    expect(whereOf(finding('low', { document: 'README.md' }))).toBe('README.md');
    expect(whereOf(finding('low'))).toBe('');
  });
});
