/**
 * The compliance regimes the offline engine knows by name (GDPR, HIPAA, SOC 2, PCI DSS): what
 * each asks of a design, as far as the standard's own text says, and the non-functional
 * requirement that checks it. A regime the engine does not know is stated as the team's
 * requirement, nothing invented; the house conventions and the answers name them alike.
 */

import type { ProjectDefinition } from '@pgs/contract/generation';

/** A regime the engine knows: how it is named in text, its name, and its design and NFR texts. */
interface KnownRegime {
  pattern: RegExp;
  name: string;
  design: (product: string) => string;
  nfr: (product: string) => string;
}

export const KNOWN_REGIMES: readonly KnownRegime[] = [
  {
    pattern: /\bgdpr\b/i,
    name: 'GDPR',
    design: (name) =>
      `${name} stores personal data of people in the EU under the GDPR: each kind of personal data has its lawful basis recorded, an account's data can be exported and erased on request, data is processed in the EU or under an adequacy decision or standard contractual clauses, and a breach is reported within 72 hours.`,
    nfr: (name) =>
      `Each kind of personal data ${name} keeps has its lawful basis recorded, and an account's data is exported or erased within 30 days of a request, checked in the release checklist.`,
  },
  {
    pattern: /\bhipaa\b/i,
    name: 'HIPAA',
    design: (name) =>
      `${name} handles protected health information under HIPAA: it is encrypted in transit and at rest, every read and change of it is written to an audit log, access follows the minimum necessary, and every service that stores or processes it signs a business associate agreement.`,
    nfr: (name) =>
      `Every read and change of protected health information in ${name} is written to an audit log kept for six years, and the information is encrypted in transit and at rest, checked by an audit-log test on every build.`,
  },
  {
    pattern: /\bsoc ?2\b/i,
    name: 'SOC 2',
    design: (name) =>
      `${name} is run to the SOC 2 trust services criteria: access is granted by role and reviewed, every change to production goes through review and CI, security events are logged and alerted on, and backups are restored in a test at least once a quarter.`,
    nfr: (name) =>
      `Access to ${name}'s production systems is granted by role and reviewed every quarter, and a backup is restored in a test at least once a quarter, checked in the quarterly review.`,
  },
  {
    pattern: /\bpci(?:[ -]?dss)?\b/i,
    name: 'PCI DSS',
    design: (name) =>
      `${name} keeps card data out of its own systems under PCI DSS: cards are entered in the payment provider's hosted fields and only its tokens are stored, so the scope stays at the provider's self-assessment questionnaire A.`,
    nfr: (name) =>
      `No card number reaches ${name}'s servers or logs, checked by a test that scans requests and log lines for card numbers on every build.`,
  },
];

/** The regime a standard's name is, when the engine knows it. */
export const knownRegime = (standard: string) =>
  KNOWN_REGIMES.find((regime) => regime.pattern.test(standard));

/**
 * What a regime asks of the design: its known text, or that the team states it.
 *
 * @example
 * regimeDesign('ISO 27001', 'GroomBook', 'the house conventions'); // 'GroomBook must meet ISO 27001, as the house conventions require: …'
 */
export function regimeDesign(standard: string, product: string, source: string): string {
  return (
    knownRegime(standard)?.design(product) ??
    `${product} must meet ${standard}, as ${source} require: the controls it needs are listed with the team's compliance owner before the first release, and each becomes a task of the plan.`
  );
}

/**
 * The non-functional requirement a regime adds, measured as every NFR is.
 *
 * @example
 * regimeNfr('HIPAA', 'ClinicBook'); // 'Every read and change of protected health information in ClinicBook …'
 */
export function regimeNfr(standard: string, product: string): string {
  return (
    knownRegime(standard)?.nfr(product) ??
    `${product} meets ${standard}, as the team requires: each control it needs is listed with the team's compliance owner and checked before each release.`
  );
}

/** The mark of a compliance constraint the idea states rather than an answer (answers.ts). */
export const REQUIRED_BY_IDEA = ' (required by the idea)';

/** Ways an idea states a regime as a requirement of its own product, around the regime's name. */
const REQUIRING: readonly ((regime: string) => string)[] = [
  // "HIPAA compliance", "GDPR-compliant", "SOC 2 certified"
  (regime) => `${regime}[- ]?(?:compliant|compliance|certified|certification|ready)\\b`,
  // "complies with GDPR", "must meet PCI DSS", "conforms to SOC 2"
  (regime) =>
    `\\b(?:compl(?:y|ies|iant|iance) with|meets?|conforms? to|adheres? to)\\s+(?:the\\s+)?${regime}`,
  // "Required: HIPAA compliance and an audit log", "Requirements: SOC 2 Type II"
  (regime) => `\\brequire(?:d|s|ments?)?\\s*:[^.!?\\n]*${regime}`,
];

/**
 * The regimes the engine knows that an idea states as its product's own requirement ("HIPAA
 * compliance", "Required: SOC 2 Type II", "complies with GDPR"), each by its name; a regime
 * the idea names as its domain ("collect evidence for SOC 2 controls") or rules out ("no
 * HIPAA compliance") is none.
 *
 * @example
 * regimesRequiredIn('A patient portal. Required: HIPAA compliance.'); // ['HIPAA']
 */
export function regimesRequiredIn(idea: string): string[] {
  return KNOWN_REGIMES.filter((known) => {
    const regime = `(?<!\\b(?:no|not|without|non)[- ])${known.pattern.source}`;
    return REQUIRING.some((around) => new RegExp(around(regime), 'i').test(idea));
  }).map((known) => known.name);
}

/**
 * The definition with each regime its idea requires as a compliance constraint
 * (`Compliance: HIPAA (required by the idea)`), as the house conventions and the answers
 * state theirs, so the brief,
 * the requirements (a `(Compliance)` NFR) and the architecture (a `### HIPAA` section) meet
 * it; one the constraints already name is not added twice.
 *
 * @example
 * withStatedRegimes(definition, 'A patient portal. Required: HIPAA compliance.')
 *   .questionnaire.constraints.at(-1); // 'Compliance: HIPAA (required by the idea)'
 */
export function withStatedRegimes(definition: ProjectDefinition, idea: string): ProjectDefinition {
  const q = definition.questionnaire;
  const named = (regime: string) =>
    q.constraints.some((c) => knownRegime(c)?.name === regime && /^compliance: /i.test(c));
  const added = regimesRequiredIn(idea).filter((regime) => !named(regime));
  if (added.length === 0) return definition;
  const constraints = [
    ...q.constraints,
    ...added.map((regime) => `Compliance: ${regime}${REQUIRED_BY_IDEA}`),
  ];
  return { ...definition, questionnaire: { ...q, constraints } };
}
