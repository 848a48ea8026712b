/**
 * A change request against a coordination made one requirement ("Track expenses and invoices",
 * features.ts): removing one of its objects modifies it (its title loses the object, its
 * criteria that object's), removing every object removes it. The offline reading (impact.ts)
 * and the check of a model's answer (impact-check.ts) decide it here, alike.
 */
import { capitalize, decapitalize, listing } from '../text/words.ts';
import { coordinated, featureCapabilities, featureOf } from './features.ts';
import { headOf, sameStem, stemsOf, targetOf } from './impact-terms.ts';
import { type Capability, readIdeaNlp } from './reading.ts';

/** The capabilities a title coordinates ("Track expenses and invoices": two); [] for one. */
export function membersOfTitle(title: string): Capability[] {
  const phrase = decapitalize(title);
  const [group] = featureCapabilities(readIdeaNlp(`A tool to ${phrase}`));
  if (!group?.members || !phrase.startsWith(group.verb.split(' ')[0]!)) return [];
  return group.members;
}

const shares = (stems: readonly string[], text: string) => {
  const own = stemsOf(text, true);
  return stems.some((stem) => own.some((other) => sameStem(stem, other)));
};

/**
 * The members a removal's phrase names: those whose object holds its head ("the invoices"),
 * narrowed to those whose verb it says too ("stop exporting reports"); else the one member the
 * reader matches it to.
 */
function namedBy(phrase: string, members: readonly Capability[]): Capability[] {
  const head = headOf(phrase, true);
  const byObject = members.filter((m) => head.length > 0 && shares(head, m.object));
  if (byObject.length > 0) {
    const stems = stemsOf(phrase, true);
    const byVerb = byObject.filter((m) => shares(stems, m.verb));
    return byVerb.length > 0 && byVerb.length < byObject.length ? byVerb : byObject;
  }
  const refs = members.map((m, i) => ({ id: String(i), title: capitalize(featureOf(m, 'web')) }));
  const one = targetOf(phrase, refs);
  return one ? [members[Number(one.id)]!] : [];
}

/**
 * The title a coordination keeps once the phrases are removed from it ("Track expenses" of
 * "Track expenses and invoices" without "the invoices"); undefined when the title coordinates
 * nothing, or the phrases name none of its members or all of them (the whole goes).
 *
 * @example
 * narrowedTitle('Track expenses and invoices', ['the invoices']); // 'Track expenses'
 */
export function narrowedTitle(title: string, phrases: readonly string[]): string | undefined {
  const members = membersOfTitle(title);
  if (members.length < 2) return undefined;
  const gone = new Set(phrases.flatMap((phrase) => namedBy(phrase, members)));
  const kept = members.filter((m) => !gone.has(m));
  if (gone.size === 0 || kept.length === 0) return undefined;
  const text =
    kept.length === 1
      ? kept[0]!.text
      : (coordinated(kept)?.text ?? listing(kept.map((m) => m.text)));
  return capitalize(featureOf({ ...kept[0]!, text }, 'web'));
}
