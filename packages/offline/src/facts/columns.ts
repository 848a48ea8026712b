/**
 * The attributes of an entity, read off the requirements that act on it: a reminder that goes
 * out "by SMS" has a channel and a delivery status, a ticket closed "after 30 days" a last
 * activity, a plan of "16-week" a number of weeks. The requirements' key entities, the data
 * model's tables and a mobile app's local store all list these, so they agree.
 */

import { namesPeople } from '../reading/reading-people.ts';
import { participle, plural, snake } from '../text/words.ts';
import { type Entity, type Facts, type Requirement, unitsOf } from './facts.ts';
import { keptPerInstall, withoutAccounts } from './settled.ts';

/** One attribute: its name in prose, its column, SQL type and why it is there. */
export interface Attribute {
  name: string;
  column: string;
  type: string;
  note: string;
  /** The requirement or criterion it serves. */
  serves: string;
}

/** The requirements that act on an entity: a coordination's by the first of its parts that does. */
export const requirementsOn = (f: Facts, entity: Entity) =>
  f.requirements.flatMap((r) => unitsOf(r).find((part) => part.ent === entity) ?? []);

const attribute = (name: string, type: string, note: string, serves: string): Attribute => ({
  name,
  column: snake(name, 4),
  type,
  note,
  serves,
});

/** What a qualifier adds to the thing it qualifies, if anything. */
function fromQualifier(req: Requirement, q: string): Attribute | undefined {
  const crit = req.criteria.find((c) => c.text.includes(q))?.id ?? req.id;
  if (/^by\s+(?:sms|text|e-?mail|push)/i.test(q))
    return attribute(
      'channel',
      'text',
      `Always '${q.replace(/^by\s+/i, '').toLowerCase()}', as "${req.text}" requires`,
      crit,
    );
  if (/^(?:after|within)\s+\d/i.test(q))
    return attribute(
      'last activity at',
      'timestamptz',
      `Starts the count of "${q}"`,
      req.criteria.find((c) => /has had no change for/.test(c.text))?.id ?? crit,
    );
  if (/^from the last\s/i.test(q))
    return attribute('occurred at', 'timestamptz', `Filters to "${q}"`, crit);
  if (/\bapproval\b/i.test(q))
    return attribute('approved by', 'text', 'Who approved it; empty until approved', crit);
  if (/^offline$/i.test(q))
    return attribute('sync version', 'integer', 'Raised on every change, for sync', crit);
  if (/^when\b/i.test(q)) return undefined;
  const m =
    /^(?:by|grouped by|per|in|on|with|to|from|across|against|at)\s+(?:(?:a|an|the|any)\s+)?(.+)$/i.exec(
      q,
    );
  if (!m) return undefined;
  const noun = m[1]!.replace(/'s\b/g, '').trim();
  const preposition = q.split(' ')[0]!.toLowerCase();
  if (
    (preposition === 'to' || preposition === 'with') &&
    (namesPeople(noun) || namesPeople(plural(noun)))
  )
    return attribute(
      `${participle(req.verb)} ${preposition}`,
      'text',
      `Which of the ${namesPeople(noun) ? noun : plural(noun)} it went to`,
      crit,
    );
  if (/^[A-Z]/.test(noun) && !/\s/.test(noun)) {
    return /^(?:English|Spanish|French|German|Swahili|Arabic|Hindi|Portuguese|Chinese|Japanese)$/.test(
      noun,
    )
      ? attribute('language', 'text', `'${noun}' for now: "${q}"`, crit)
      : attribute(`${noun} reference`, 'text', `The id ${noun} gives it, to link back`, crit);
  }
  if (/\band\b/.test(noun)) return attribute('source', 'text', `One of ${noun}`, crit);
  if (/\bmap\b/i.test(noun)) return attribute('location', 'text', `Where it is, for "${q}"`, crit);
  if (/^from\s/i.test(q))
    return attribute(`source ${noun.split(' ').pop()}`, 'text', `Where it came from: "${q}"`, crit);
  return attribute(noun.split(' ').slice(-2).join(' '), 'text', `Holds "${q}"`, crit);
}

/**
 * The attributes of an entity, id first, then what its requirements need, then who and when.
 *
 * @example
 * attributesOf(facts, facts.main).map((a) => a.column); // ['id', 'due_at', 'channel', …]
 */
export function attributesOf(f: Facts, entity: Entity): Attribute[] {
  const list: Attribute[] = [
    attribute('id', 'uuid', 'Primary key, made by the client so a retried create is harmless', ''),
  ];
  const add = (a: Attribute | undefined) => {
    if (a && !list.some((known) => known.column === a.column)) list.push(a);
  };
  for (const req of requirementsOn(f, entity)) {
    const numbered = /\b(\d+)-([a-z]+)\b/i.exec(req.object);
    if (numbered)
      add(
        attribute(
          `${numbered[2]} count`,
          'integer',
          `${numbered[1]} for each ${entity.label}, as "${req.object}" says`,
          req.criteria[1]?.id ?? req.id,
        ),
      );
    if (req.kind === 'send') {
      add(
        attribute(
          'due at',
          'timestamptz',
          `When the ${entity.label} should go out`,
          req.criteria[0]!.id,
        ),
      );
      add(attribute('delivery status', 'text', 'queued, sent or failed', req.criteria.at(-1)!.id));
    }
    if (req.kind === 'change')
      add(
        attribute(
          `${participle(req.verb)} at`,
          'timestamptz',
          `When it was last ${participle(req.verb)}`,
          req.criteria[0]!.id,
        ),
      );
    for (const q of req.qualifiers) add(fromQualifier(req, q));
  }
  add(attribute('title', 'text', `What people call the ${entity.label}, 1 to 200 characters`, ''));
  // Without accounts nothing records who made a row: no one is known; a phone's rows carry the
  // install key that keeps them apart, which names no one.
  if (keptPerInstall(f))
    add(attribute('install id', 'uuid', 'The install whose phone made it; names no one', ''));
  else if (!withoutAccounts(f))
    add(attribute('created by', 'uuid', 'The account that created it', ''));
  add(attribute('updated at', 'timestamptz', 'Set on every change', ''));
  return list;
}
