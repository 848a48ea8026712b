/**
 * The offline reading's tests applied to anyone's definition of an idea (issue 29, item 4):
 * the product keeps the name the idea gives it, and no core feature is filler or a fragment
 * ("Enhance the user experience", "Allow users", "Manage"). The server's definition check
 * adds these to its findings, so a model's answer is corrected once as for a lost term.
 */
import { readIdeaNlp } from './reading.ts';
import { FILLER_TERMS } from './reading-filler.ts';

/** Verbs that praise or enable rather than do: a feature opening with one says nothing. */
const FILLER_VERB =
  /^(?:allow|allows|help|helps|enable|enables|ensure|ensures|enhance|enhances|empower|empowers|streamline|streamlines|improve|improves|aim|aims)\b/i;

/**
 * The name an idea gives its product, as the offline reading takes it ("Clinicly — …",
 * "Clinicly is a …", "… called Clinicly"), or undefined.
 *
 * @example
 * ideaName('Clinicly is a patient portal that books sessions online.'); // 'Clinicly'
 */
export function ideaName(idea: string): string | undefined {
  return readIdeaNlp(idea).name;
}

/** Why a core feature is no capability, or undefined when it may be one. */
export function fillerFeature(feature: string): string | undefined {
  const words = feature.trim().split(/\s+/).filter(Boolean);
  if (words.length <= 1) return 'one word names no capability';
  if (FILLER_VERB.test(feature)) return 'it opens with a verb that praises or enables';
  if (FILLER_TERMS.test(feature)) return 'it praises rather than says what the product does';
  return undefined;
}

/**
 * What is wrong with a definition as the offline reading sees it, in words a model can act
 * on; empty when nothing is. `pinnedName` is a name the client set (never faulted).
 *
 * @example
 * definitionChecks('Clinicly is a patient portal …', { name: 'ClinicHub', coreFeatures: [] });
 * // ['the idea names the product "Clinicly": use that name, as written']
 */
export function definitionChecks(
  idea: string,
  answer: { name?: unknown; coreFeatures?: unknown },
  pinnedName?: string,
): string[] {
  const findings: string[] = [];
  const name = ideaName(idea);
  const answered = typeof answer.name === 'string' ? answer.name.trim() : '';
  if (
    pinnedName === undefined &&
    name !== undefined &&
    answered.toLowerCase() !== name.toLowerCase()
  )
    findings.push(`the idea names the product "${name}": use that name, as written`);
  const features = Array.isArray(answer.coreFeatures) ? answer.coreFeatures : [];
  for (const [i, feature] of features.entries()) {
    if (typeof feature !== 'string') continue;
    const why = fillerFeature(feature);
    if (why)
      findings.push(
        `/questionnaire/coreFeatures/${i} "${feature}" is not a capability (${why}): name one thing the product does, a verb and what it acts on, or leave it out`,
      );
  }
  return findings;
}
