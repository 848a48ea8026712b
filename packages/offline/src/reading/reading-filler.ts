/**
 * What never becomes a requirement: a verb that only praises ("enhance", "streamline",
 * "ensure"), an enabler left without its verb ("Allow users"), a verb with nothing to act on
 * ("Listen", "Use"), an object that is a pronoun ("Give you back") or filler ("the overall user
 * experience"), and qualifiers that only sell ("from a user-friendly interface", "effortlessly").
 * A requirement needs a verb and an object a user acts on.
 */
import type { Tok } from './reading-tokens.ts';

/**
 * Verbs that say how good the product is, not what it does; and what its authors want or need
 * ("We want a desk booking tool"), which is the product, not a feature of it.
 */
const FILLER_VERBS = new Set(
  'aim strive enhance streamline improve ensure empower help allow enable let boost elevate revolutionise revolutionize want need wish go'.split(
    ' ',
  ),
);
/** Verbs that need an object to say anything ("Use", "Create", "Manage"). */
const TRANSITIVE_ONLY = new Set(
  'use create manage make build give get have provide support go come become stay'.split(' '),
);
/** Words of praise: a phrase holding one sells, it does not specify. */
export const FILLER_TERMS =
  /\b(?:user[- ]friendly|intuitive(?:ly)?|seamless(?:ly)?|experiences?|easy[- ]to[- ]use|effortless(?:ly)?|hassle[- ]free|with ease|one[- ]of[- ]a[- ]kind|in (?:just )?(?:a few )?(?:minutes|seconds|clicks)|best[- ]in[- ]class|cutting[- ]edge|state[- ]of[- ]the[- ]art)\b/i;
/** Objects that name no thing: "you", "them", "everything". */
const PRONOUNS = new Set(
  'you your yourself them it us me everything everyone anyone anything something someone others'.split(
    ' ',
  ),
);

/**
 * The qualifiers to keep of a capability, or undefined when the capability is filler or a
 * fragment and is not read at all.
 *
 * @example
 * kept('enhance', [experienceToks], []); // undefined
 * kept('start', [serverToks], ['from a user-friendly interface']); // []
 */
export function keptQualifiers(
  verb: string,
  object: readonly Tok[],
  qualifiers: readonly string[],
): string[] | undefined {
  const [head] = verb.split(' ');
  if (FILLER_VERBS.has(head!)) return undefined;
  const words = object
    .map((tok) => tok.lower)
    .filter((word) => !/^(?:the|a|an|all|of)$/.test(word));
  const phrase = object.map((tok) => tok.text).join(' ');
  if (words.length > 0 && words.every((word) => PRONOUNS.has(word))) return undefined;
  if (FILLER_TERMS.test(phrase)) return undefined;
  const kept = qualifiers.filter((q) => !FILLER_TERMS.test(q));
  if (object.length === 0) {
    // "keep up to date", "come back": an idiom about the team, not a feature.
    if (/^(?:keep|come|go)\b/.test(verb)) return undefined;
    // "Listen", "Use by teams": a verb without an object is a fragment, unless it is a phrasal
    // verb ("check in at the station") or says where or how ("work offline").
    if (verb.includes(' ') && kept.length > 0) return kept;
    if (TRANSITIVE_ONLY.has(head!) || kept.length === 0) return undefined;
  }
  return kept;
}
