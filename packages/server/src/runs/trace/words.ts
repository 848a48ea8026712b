/**
 * Crude word matching between a core feature ("Vaccination reminders by SMS") and an FR
 * title ("Reminders"): content words, lowercased and stemmed, compared as sets. Crude on
 * purpose: the documents are written from the features, so the words carry over; a real
 * stemmer or a model would cost more than a missed match, which a person reads anyway. The
 * plural is pluralize's, as the offline engine inflects (packages/offline/src/text/words.ts).
 */
import pluralize from 'pluralize';

const STOP = new Set(
  (
    'a an and are as at be by can do does for from has have he her his i in into is it its me my no ' +
    'not of on or our she so than that the their them then there these they this those to too us we ' +
    'what when where which who will with within without you your each every any all some more most ' +
    'other own same only just also via per across about after before over under up out new one ' +
    // Words every requirement shares, which would match any feature to any FR.
    'user users system shall must should could able allow allows feature features app application ' +
    'support supports provide provides let lets get gets make makes use uses'
  ).split(' '),
);

/** `reminders`, `reminding`, `reminded` → `remind`; `schedule`, `scheduling` → `schedul`. */
export function stem(word: string): string {
  let w = word.toLowerCase().replace(/['’]s$/, '');
  // The plural by pluralize's rules (`movies` → `movie`, not `movy`); `sms` stays.
  if (w.length > 3) w = pluralize.singular(w);
  if (w.length > 5 && w.endsWith('ing')) w = w.slice(0, -3);
  else if (w.length > 4 && w.endsWith('ed')) w = w.slice(0, -2);
  if (w.length > 4 && w.endsWith('er')) w = w.slice(0, -2);
  if (w.length > 3 && w.endsWith('e')) w = w.slice(0, -1);
  // planned → plann → plan, bill → bil: one rule for both keeps the pairs equal.
  if (/([b-df-hj-np-tv-z])\1$/.test(w)) w = w.slice(0, -1);
  return w;
}

/**
 * The stemmed content words of a phrase.
 *
 * @example
 * contentWords('Send vaccination reminders by SMS'); // Set { 'send', 'vaccination', 'remind', 'sms' }
 */
export function contentWords(text: string): Set<string> {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return new Set(words.filter((word) => word.length > 1 && !STOP.has(word)).map(stem));
}

/**
 * Pairs each feature with a distinct FR sharing at least one content word, as many pairs as
 * possible (a maximum bipartite matching, so a feature that fits only one FR gets it even
 * when an earlier feature fits that FR too). Returns the features left without an FR.
 *
 * @example
 * unmatched(['Reminders', 'Billing'], [{ id: 'FR-1', title: 'Send reminders' }]); // ['Billing']
 */
export function unmatched(
  features: readonly string[],
  requirements: ReadonlyArray<{ id: string; title: string }>,
): string[] {
  const words = requirements.map((requirement) => contentWords(requirement.title));
  const fits = features.map((feature) => {
    const mine = contentWords(feature);
    return words.flatMap((theirs, index) => ([...mine].some((w) => theirs.has(w)) ? [index] : []));
  });
  const holder = new Array<number | undefined>(requirements.length).fill(undefined);
  const assign = (feature: number, seen: Set<number>): boolean => {
    for (const candidate of fits[feature] ?? []) {
      if (seen.has(candidate)) continue;
      seen.add(candidate);
      const current = holder[candidate];
      if (current === undefined || assign(current, seen)) {
        holder[candidate] = feature;
        return true;
      }
    }
    return false;
  };
  return features.filter((_, index) => !assign(index, new Set()));
}
