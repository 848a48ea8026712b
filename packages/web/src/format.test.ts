import { describe, expect, it } from 'vitest';
import {
  documentTitle,
  formatTimeLeft,
  questionnaireEntries,
  remainingMs,
  statusText,
  typeLabel,
} from './format.ts';

describe('formatTimeLeft', () => {
  it.each([
    [1, 'About 1 s left'],
    [999, 'About 1 s left'],
    [1_000, 'About 1 s left'],
    [1_001, 'About 2 s left'],
    [42_100, 'About 43 s left'],
    [59_000, 'About 59 s left'],
    [59_001, 'About 1 min left'],
    [89_000, 'About 1 min left'],
    [90_000, 'About 2 min left'],
    [600_000, 'About 10 min left'],
  ])('%d ms reads %s', (ms, text) => {
    expect(formatTimeLeft(ms)).toBe(text);
  });

  it.each([0, -5, Number.NaN])('%d ms reads as almost done, never a negative time', (ms) => {
    expect(formatTimeLeft(ms)).toBe('Almost done');
  });
});

describe('remainingMs', () => {
  it('counts down from the estimate by the time passed since it was read', () => {
    expect(remainingMs(10_000, 1_000, 1_000)).toBe(10_000);
    expect(remainingMs(10_000, 1_000, 4_500)).toBe(6_500);
  });

  it('stops at zero, and a clock that went back does not add time', () => {
    expect(remainingMs(10_000, 1_000, 60_000)).toBe(0);
    expect(remainingMs(10_000, 5_000, 1_000)).toBe(10_000);
  });
});

describe('statusText', () => {
  it('names each state, telling a cancel from a failure', () => {
    expect(statusText('in_progress')).toBe('In progress');
    expect(statusText('completed')).toBe('Completed');
    expect(statusText('failed', 'generation_failed')).toBe('Failed');
    expect(statusText('failed', 'generation_cancelled')).toBe('Cancelled');
    expect(statusText('failed', 'budget_exceeded')).toBe('Over budget');
    expect(statusText('failed', null)).toBe('Failed');
  });
});

describe('typeLabel and documentTitle', () => {
  it('shows types as words, and no type yet as a dash', () => {
    expect(typeLabel('mcp')).toBe('MCP');
    expect(typeLabel('web')).toBe('Web');
    expect(typeLabel(null)).toBe('—');
    expect(typeLabel('desktop')).toBe('desktop');
  });

  it('titles known kinds as the server catalogue does, and new kinds in words', () => {
    expect(documentTitle('api-design')).toBe('API Design');
    expect(documentTitle('readme')).toBe('README');
    expect(documentTitle('offline-and-permissions')).toBe('Offline Support and Permissions');
    expect(documentTitle('release-notes-and-mcp-faq')).toBe('Release Notes and MCP Faq');
    expect(documentTitle('requirements')).toBe('Requirements');
    expect(documentTitle('codebase-overview')).toBe('Codebase Overview');
    expect(documentTitle('constructor')).toBe('Constructor');
    expect(documentTitle('')).toBe('Document');
  });
});

describe('questionnaireEntries', () => {
  it('reads the lists of pairs as sentences, not JSON', () => {
    const entries = questionnaireEntries({
      targetAudience: 'small veterinary clinics',
      monetization: 'Subscription',
      techStack: ['TypeScript'],
      ideaCoverage: [{ term: 'by SMS', feature: 'Send vaccine reminders by SMS' }],
      integrations: [{ name: 'SMS gateway', purpose: 'send the reminders' }],
      assumptions: ['Each clinic has one site'],
    });
    const byLabel = Object.fromEntries(entries.map((e) => [e.label, e.value]));
    expect(byLabel['Idea coverage']).toEqual(['"by SMS" → Send vaccine reminders by SMS']);
    expect(byLabel.Integrations).toEqual(['SMS gateway: send the reminders']);
    expect(byLabel.Assumptions).toEqual(['Each clinic has one site']);
  });

  it('lists the known members in reading order, then the others, in words', () => {
    const entries = questionnaireEntries({
      techStack: ['TypeScript', 'Preact'],
      monetization: 'Free',
      targetAudience: 'remote teams',
      budgetRange: '$10k',
      coreFeatures: ['Track habits'],
      empty: '',
      nothing: null,
    });
    expect(entries).toEqual([
      { label: 'Target audience', value: 'remote teams' },
      { label: 'Monetization', value: 'Free' },
      { label: 'Tech stack', value: ['TypeScript', 'Preact'] },
      { label: 'Core features', value: ['Track habits'] },
      { label: 'Budget range', value: '$10k' },
    ]);
  });

  it('shows an unexpected object as JSON text, never as markup', () => {
    const [entry] = questionnaireEntries({
      targetAudience: 'x',
      monetization: 'y',
      techStack: [],
      pricing: { plan: '<b>pro</b>' },
    }).slice(-1);
    expect(entry).toEqual({ label: 'Pricing', value: '{"plan":"<b>pro</b>"}' });
  });
});
