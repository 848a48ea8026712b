import {
  type GateFinding,
  type PartProvenance,
  type Provenance,
  TRACE_SEVERITIES,
  type TraceSeverity,
} from '@pgs/client';
import { documentTitle } from './format.ts';

// What a completed project's page says about how it was generated, as plain data: who wrote
// it (the offline engine or which models) and what the quality gate still finds per part.

/** The engine name of PGS's built-in engine: rules and templates, no AI model. */
export const OFFLINE_ENGINE = 'offline';

/** The definition (once written), then the documents in the order they were stored. */
export function partsOf(
  provenance: Pick<Provenance, 'definition' | 'documents'>,
): PartProvenance[] {
  return [...(provenance.definition ? [provenance.definition] : []), ...provenance.documents];
}

/** Who wrote a project: nothing recorded, only the offline engine, or these engines. */
export type Authorship =
  | { kind: 'unknown' }
  | { kind: 'offline' }
  | { kind: 'models'; engines: string[] };

/**
 * Who wrote the project's parts: `offline` when every part is the offline engine's,
 * else the engines in order of first use (the offline one among them when a chain fell
 * back to it); `unknown` when nothing is recorded (a project generated before provenance).
 *
 * @example
 * authorship(await pgs.projects.provenance(id)); // { kind: 'models', engines: ['anthropic:claude-sonnet-4-5'] }
 */
export function authorship(provenance: Provenance): Authorship {
  const engines = [...new Set(partsOf(provenance).map((part) => part.engine))];
  if (engines.length === 0) return { kind: 'unknown' };
  if (engines.every((engine) => engine === OFFLINE_ENGINE)) return { kind: 'offline' };
  return { kind: 'models', engines };
}

/**
 * The engines in words, for the meta line: `written by anthropic:claude-sonnet-4-5 and the
 * offline engine`.
 *
 * @example
 * writtenBy(['anthropic:claude-sonnet-4-5', 'openai:gpt-4.1-mini']); // 'written by anthropic:claude-sonnet-4-5 and openai:gpt-4.1-mini'
 */
export function writtenBy(engines: readonly string[]): string {
  const names = engines.map((engine) =>
    engine === OFFLINE_ENGINE ? 'the offline engine' : engine,
  );
  const last = names.at(-1) ?? '';
  const list = names.length <= 1 ? last : `${names.slice(0, -1).join(', ')} and ${last}`;
  return `written by ${list}`;
}

/**
 * Findings counted by severity, the worst first, leaving out the severities with none:
 * `1 high, 2 medium`; empty for none.
 *
 * @example
 * severityCounts(part.findings); // '1 high, 2 medium'
 */
export function severityCounts(findings: readonly GateFinding[]): string {
  return TRACE_SEVERITIES.map((severity: TraceSeverity) => ({
    severity,
    n: findings.filter((finding) => finding.severity === severity).length,
  }))
    .filter(({ n }) => n > 0)
    .map(({ n, severity }) => `${n} ${severity}`)
    .join(', ');
}

/**
 * What the quality gate still finds in a part, in one line, or `undefined` when it found
 * nothing: `Quality: 2 findings left by the checks (1 high, 1 medium)`.
 *
 * @example
 * qualityLine(part.findings); // 'Quality: 1 finding left by the checks (1 medium)'
 */
export function qualityLine(findings: readonly GateFinding[]): string | undefined {
  if (findings.length === 0) return undefined;
  const noun = findings.length === 1 ? 'finding' : 'findings';
  return `Quality: ${findings.length} ${noun} left by the checks (${severityCounts(findings)})`;
}

/**
 * A part's remaining findings, the worst first.
 *
 * @example
 * worstFirst(part.findings)[0]?.severity; // 'high'
 */
export function worstFirst(findings: readonly GateFinding[]): GateFinding[] {
  const rank = (finding: GateFinding) => TRACE_SEVERITIES.indexOf(finding.severity);
  return [...findings].sort((a, b) => rank(a) - rank(b));
}

/**
 * The provenance of one document, found by its `type` (a part's `kind`).
 *
 * @example
 * documentPart(provenance, 'readme')?.findings;
 */
export function documentPart(provenance: Provenance, type: string): PartProvenance | undefined {
  return provenance.documents.find((part) => part.kind === type);
}

/**
 * A language tag in words for a person: `French (fr)`; the tag alone when the browser has no
 * name for it.
 *
 * @example
 * languageName('pt-BR'); // 'Brazilian Portuguese (pt-BR)'
 */
export function languageName(tag: string): string {
  try {
    const name = new Intl.DisplayNames(['en'], { type: 'language' }).of(tag);
    return name && name !== tag ? `${name} (${tag})` : tag;
  } catch {
    return tag;
  }
}

const STYLE_NAMES: Record<Provenance['requirementStyle'], string> = {
  ears: 'EARS',
  gherkin: 'Gherkin',
};

/**
 * How the project was asked to be written, in one line: its language, and plainly when the
 * offline engine wrote English in place of the language asked (docs/conventions.md); its
 * requirement style; the house conventions' version it follows.
 *
 * @example
 * writingLine(provenance);
 * // 'Written in English by the offline engine (asked: French (fr)) · Requirement style: Gherkin · Conventions v3'
 */
export function writingLine(
  provenance: Pick<
    Provenance,
    | 'language'
    | 'writtenInEnglish'
    | 'requirementStyle'
    | 'conventionsVersion'
    | 'definition'
    | 'documents'
  >,
): string {
  const { language, writtenInEnglish, conventionsVersion } = provenance;
  const asked = language === null ? '' : languageName(language);
  const english = new Set(writtenInEnglish);
  const every = partsOf(provenance).every((part) => english.has(part.kind));
  const words =
    english.size === 0
      ? `Written in ${asked || 'English'}`
      : every
        ? `Written in English by the offline engine (asked: ${asked})`
        : `Written in ${asked}, but the offline engine wrote in English: ${[...english]
            .map((kind) => (kind === 'definition' ? 'the definition' : documentTitle(kind)))
            .join(', ')}`;
  const conventions =
    conventionsVersion === null ? 'No house conventions' : `Conventions v${conventionsVersion}`;
  return [
    words,
    `Requirement style: ${STYLE_NAMES[provenance.requirementStyle]}`,
    conventions,
  ].join(' · ');
}
