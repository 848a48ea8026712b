import type { PartProvenance, Provenance } from '@pgs/client';
import { describe, expect, it } from 'vitest';
import {
  authorship,
  documentPart,
  partsOf,
  qualityLine,
  severityCounts,
  worstFirst,
  writingLine,
  writtenBy,
} from './provenance.ts';

const NO_TOTALS = {
  inputTokens: 0,
  cachedInputTokens: 0,
  cacheWriteTokens: 0,
  outputTokens: 0,
  costUsd: null,
};

const part = (kind: string, engine = 'offline', extra: Partial<PartProvenance> = {}) => ({
  kind,
  engine,
  promptVersion: `${kind}@2+system@2`,
  inputTokens: 10,
  cachedInputTokens: 0,
  cacheWriteTokens: 0,
  outputTokens: 5,
  tokensUsed: 15,
  costUsd: null,
  attempts: 1,
  repairs: 0,
  durationMs: 100,
  initialFindings: [],
  findings: [],
  trimmedContext: [],
  createdAt: '2026-11-25T03:35:27.000Z',
  ...extra,
});

const of = (definition: PartProvenance | null, ...documents: PartProvenance[]): Provenance => ({
  projectId: '7d0f2c8e-4a9b-4e43-9a55-0d2b8f1c6e21',
  status: 'completed',
  detail: 'standard',
  conventionsVersion: null,
  language: null,
  writtenInEnglish: [],
  requirementStyle: 'ears',
  context: null,
  totals: NO_TOTALS,
  definition,
  documents,
});

describe('authorship', () => {
  it('is offline when every part is, the definition included', () => {
    expect(authorship(of(part('definition'), part('readme')))).toEqual({ kind: 'offline' });
  });

  it('names the engines in order of first use, the offline one among them after a fallback', () => {
    const mixed = of(
      part('definition', 'anthropic:claude-sonnet-4-5'),
      part('project-brief', 'anthropic:claude-sonnet-4-5'),
      part('readme', 'offline'),
    );
    expect(authorship(mixed)).toEqual({
      kind: 'models',
      engines: ['anthropic:claude-sonnet-4-5', 'offline'],
    });
    expect(authorship(of(null, part('readme', 'openai:gpt-4.1-mini')))).toEqual({
      kind: 'models',
      engines: ['openai:gpt-4.1-mini'],
    });
  });

  it('is unknown when nothing is recorded', () => {
    expect(authorship(of(null))).toEqual({ kind: 'unknown' });
    expect(partsOf(of(null))).toEqual([]);
  });
});

describe('writtenBy', () => {
  it('lists the engines in words', () => {
    expect(writtenBy(['anthropic:claude-sonnet-4-5'])).toBe(
      'written by anthropic:claude-sonnet-4-5',
    );
    expect(writtenBy(['anthropic:claude-sonnet-4-5', 'openai:gpt-4.1-mini', 'offline'])).toBe(
      'written by anthropic:claude-sonnet-4-5, openai:gpt-4.1-mini and the offline engine',
    );
  });
});

describe('the quality line', () => {
  const findings = [
    { rule: 'fr-without-task', severity: 'medium' as const, message: 'FR-2 has no task.' },
    { rule: 'placeholder', severity: 'high' as const, message: 'A "TBD" is left.' },
    { rule: 'code-block', severity: 'medium' as const, message: 'An unclosed fence.' },
  ];

  it('counts by severity in words, the worst first', () => {
    expect(severityCounts(findings)).toBe('1 high, 2 medium');
    expect(qualityLine(findings)).toBe('Quality: 3 findings left by the checks (1 high, 2 medium)');
    expect(qualityLine(findings.slice(0, 1))).toBe(
      'Quality: 1 finding left by the checks (1 medium)',
    );
    expect(worstFirst(findings).map((f) => f.rule)).toEqual([
      'placeholder',
      'fr-without-task',
      'code-block',
    ]);
  });

  it('says nothing when the gate found nothing', () => {
    expect(qualityLine([])).toBeUndefined();
    expect(severityCounts([])).toBe('');
  });

  it("finds a document's part by its type", () => {
    const p = of(part('definition'), part('readme', 'offline', { findings }));
    expect(documentPart(p, 'readme')?.findings).toHaveLength(3);
    expect(documentPart(p, 'definition')).toBeUndefined();
    expect(documentPart(p, 'api-design')).toBeUndefined();
  });
});

describe('the writing line', () => {
  const two = of(part('definition'), part('readme'));

  it('says English, EARS and no conventions by default', () => {
    expect(writingLine(two)).toBe(
      'Written in English · Requirement style: EARS · No house conventions',
    );
  });

  it('says plainly when the offline engine wrote English in place of the language asked', () => {
    const asked = { language: 'fr', requirementStyle: 'gherkin' as const, conventionsVersion: 3 };
    expect(writingLine({ ...two, ...asked, writtenInEnglish: ['definition', 'readme'] })).toBe(
      'Written in English by the offline engine (asked: French (fr)) · Requirement style: Gherkin · Conventions v3',
    );
    expect(writingLine({ ...two, ...asked, writtenInEnglish: ['readme'] })).toMatch(
      /^Written in French \(fr\), but the offline engine wrote in English: README · /,
    );
    expect(writingLine({ ...two, ...asked, writtenInEnglish: [] })).toMatch(
      /^Written in French \(fr\) · /,
    );
  });
});
