/**
 * Whether a phrase names people or a group of people ("elderly parents", "small clinics")
 * rather than a thing ("video calls", "Kubernetes"): the reading uses it to tell an audience
 * from an object, and the documents to name the role a story is written for.
 */

/** Plural nouns for people and groups of people that no suffix rule catches. */
const PEOPLE = new Set(
  `people folks teams team staff crew crews families family friends parents children kids couples users
  customers clients members students nurses doctors patients owners adults seniors elderly athletes chefs
  cooks fans moms dads mums households communities groups clubs organisations organizations businesses
  companies startups agencies shops stores schools clinics hospitals charities nonprofits colleagues
  neighbours neighbors roommates flatmates residents tenants guests hosts beginners experts professionals
  creatives pros artists nomads retirees veterans caregivers carers homeowners landlords learners
  graduates candidates advocates delegates associates coaches`
    .split(/\s+/)
    .filter(Boolean),
);

/** Plural nouns whose suffix looks like a person's ("-ers", "-ents") but that name things. */
const THINGS = new Set(
  `events payments documents components containers servers orders folders papers letters computers
  browsers markers printers filters clusters numbers parameters chapters posters stickers calls meetings
  vegetables records headers layers trackers reminders timers counters sensors monitors
  elements moments comments assignments appointments departments environments investments apartments
  statements segments shipments settlements plants variants grants`
    .split(/\s+/)
    .filter(Boolean),
);

/** Groups of people: a story's role is a member of one ("a member of an IT team"). */
const GROUPS = new Set(
  `teams team staff crew crews families family households communities groups clubs organisations
  organizations businesses companies startups agencies shops stores schools clinics hospitals charities
  nonprofits studios practices firms offices departments labs libraries desks`
    .split(/\s+/)
    .filter(Boolean),
);

const lastWord = (phrase: string) => (phrase.trim().split(/\s+/).pop() ?? '').toLowerCase();

/**
 * Whether a phrase names people ("elderly parents", "small clinics") rather than a thing
 * ("video calls", "Kubernetes"), judged by its last word.
 *
 * @example
 * namesPeople('remote teams'); // true
 */
export function namesPeople(phrase: string): boolean {
  const last = lastWord(phrase);
  if (PEOPLE.has(last)) return true;
  if (THINGS.has(last)) return false;
  return /(ers|ors|ists|ians|ants|ents|eers|ees|esses|ives|men)$/.test(last);
}

/**
 * Whether a phrase names a group (a team, a clinic, a studio) rather than people one by one.
 *
 * @example
 * namesGroup('small veterinary clinics'); // true
 */
export function namesGroup(phrase: string): boolean {
  return GROUPS.has(lastWord(phrase));
}
