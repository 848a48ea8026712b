/**
 * The corpus bench's measures (issue 29), as pure functions over the engine's requirements
 * and deltas: the FR groups of a requirements document, whether an FR title is a fragment or
 * filler, and how a change request's deltas meet the ones the corpus expects.
 * bench-corpus.ts runs the engine and prints.
 */
import type { RequirementDelta } from '@pgs/contract/generation';
import type { ExpectedDelta } from '../packages/offline/test/corpus/types.ts';
import { contentWords, stem } from '../packages/server/src/runs/trace/words.ts';
import { kept, requirementUnits } from './bench-quality-metrics.ts';

/** One FR group of a requirements document: `### FR-3 Send reminders by SMS (Must)`. */
export interface FrGroup {
  id: string;
  title: string;
  priority: string | null;
  /** The stemmed words of the group (its heading, criteria and text), as `kept` reads them. */
  unit: Set<string>;
}

const HEADING = /^###\s+(FR-\d+)\s+(.*?)(?:\s+\((Must|Should|Could|Won't)\))?\s*$/;

/**
 * The FR groups of a requirements document, in order, each with its words; [] when the
 * document has no functional requirements section or its groups are not `### FR-n` headings.
 *
 * @example
 * frGroups('## Functional requirements\n\n### FR-1 Book sessions online (Must)\n')[0]?.priority; // 'Must'
 */
export function frGroups(markdown: string): FrGroup[] {
  const units = requirementUnits(markdown) ?? [];
  const start = markdown.search(/^## Functional requirements/m);
  if (start === -1) return [];
  const section = markdown.slice(start).split(/\n(?=## )/)[0] ?? '';
  const headings = section
    .split('\n')
    .map((line) => HEADING.exec(line))
    .filter((match) => match !== null);
  // requirementUnits cuts at the same `###` headings, after a unit per paragraph before the
  // first one (the section's introduction); fewer units means another layout.
  const first = units.length - headings.length;
  if (first < 0) return [];
  return headings.map((match, i) => ({
    id: match[1]!,
    title: match[2]!,
    priority: match[3] ?? null,
    unit: units[first + i]!,
  }));
}

/** The index of the first group that holds a capability, or -1. */
export function groupOf(
  capability: Parameters<typeof kept>[0],
  groups: readonly FrGroup[],
): number {
  return groups.findIndex((group) => kept(capability, [group.unit]));
}

/** Words a capability's title neither opens nor ends with. */
/**
 * The FR group a change request's clause names through one capability: the group that holds
 * all of it, or else the first that holds its verb and object (a qualifier the reader split
 * off does not make the feature another one); -1 when none does.
 *
 * @example
 * targetOf({ verb: 'remind', object: 'patients', qualifiers: ['insulin'] }, groups); // the "Remind patients" group
 */
export function targetOf(
  capability: Parameters<typeof kept>[0],
  groups: readonly FrGroup[],
): number {
  const whole = groupOf(capability, groups);
  return whole !== -1
    ? whole
    : groupOf({ verb: capability.verb, object: capability.object }, groups);
}

const FUNCTION_WORDS = new Set(
  'and or but with in for of to by from at on as than the a an'.split(' '),
);
const FILLER_VERBS = new Set(
  'allow allows help helps enable enables ensure ensures enhance enhances empower empowers streamline streamlines improve improves aim aims'.split(
    ' ',
  ),
);
const FILLER_TERMS =
  /user[- ]friendly|intuitive|seamless|experience|easy[- ]to[- ]use|effortless|hassle[- ]free|one[- ]of[- ]a[- ]kind/i;
const AUDIENCE = new Set(
  [
    'user users people person customer customers professional professionals enthusiast',
    'enthusiasts business businesses team teams member members them they you everyone industry',
    'same individual individuals freelancer freelancers organisation organisations organization',
    'organizations company companies family families friend friends',
  ]
    .join(' ')
    .split(' '),
);

/**
 * Why an FR title is not a capability, or null when it may be one. The checks are those of
 * the list: one word ("Listen", "Manage"); a fragment that opens with a conjunction or
 * preposition ("And music enthusiasts", "In the same industry", "With diabetes log …") or ends
 * on one ("Close stale tickets after"); a filler verb first ("Allow users", "Help users",
 * "Ensure", "Enable them", "Enhance the overall user experience"); a filler term
 * ("user-friendly", "intuitive", "seamless", "experience"); an audience or role with nothing
 * else ("Professionals in the same industry"); the product's own name ("Kill Bill").
 *
 * @example
 * fragmentOrFiller('Allow users'); // 'filler verb'
 * fragmentOrFiller('Send reminders by SMS'); // null
 */
export function fragmentOrFiller(title: string, name: string | null = null): string | null {
  const words = title.toLowerCase().match(/[\p{L}\p{N}'’-]+/gu) ?? [];
  if (name !== null && title.trim().toLowerCase() === name.toLowerCase())
    return "the product's name";
  if (words.length <= 1) return 'one word';
  if (FUNCTION_WORDS.has(words[0]!)) return 'starts with a conjunction or preposition';
  if (FUNCTION_WORDS.has(words[words.length - 1]!)) return 'ends with a conjunction or preposition';
  if (FILLER_VERBS.has(words[0]!)) return 'filler verb';
  if (FILLER_TERMS.test(title)) return 'filler term';
  if (words.every((word) => AUDIENCE.has(word) || FUNCTION_WORDS.has(word)))
    return 'audience or role';
  return null;
}

/** Every content word of `phrase` is among the words of `text` (as stems). */
const holds = (text: string, phrase: string) => {
  const have = contentWords(text);
  return [...contentWords(phrase)].every((word) => have.has(word));
};
/**
 * The old value is gone: `phrase` no longer appears in `text` as whole words ("60 days" is
 * gone from "90 days before expiry", though "days" is not).
 */
const lacks = (text: string, phrase: string) => {
  const normal = (value: string) => value.toLowerCase().replace(/\s+/g, ' ').trim();
  const escaped = normal(phrase).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return !new RegExp(`(?:^|[^\\p{L}\\p{N}])${escaped}(?:$|[^\\p{L}\\p{N}])`, 'u').test(
    normal(text),
  );
};

/** A delta's new words: an added or modified one's title and text, a renamed one's new title. */
const newWords = (delta: RequirementDelta) =>
  delta.op === 'renamed' ? delta.to : delta.op === 'removed' ? '' : `${delta.title} ${delta.text}`;

/**
 * Whether one delta meets one expected delta whose capability's FR is `target` (`phrase` that
 * capability's verb and object: a removal from an FR that coordinates it with others is met by
 * a MODIFIED delta of that FR no longer holding both, docs/decisions.md 2026-11-29).
 */
function meets(
  want: ExpectedDelta,
  target: string | undefined,
  delta: RequirementDelta,
  phrase?: string,
): boolean {
  if (want.op === 'added') {
    // Every word, stop words kept: "set" and "get" are verbs the requests use.
    const words = new Set(
      (
        newWords(delta)
          .toLowerCase()
          .match(/[\p{L}\p{N}]+/gu) ?? []
      ).map(stem),
    );
    return (
      delta.op === 'added' &&
      words.has(stem(want.capability!.verb)) &&
      words.has(stem(want.capability!.object))
    );
  }
  if (want.op === 'removed')
    return (
      delta.id === target &&
      (delta.op === 'removed' ||
        (delta.op === 'modified' && phrase !== undefined && !holds(delta.title, phrase)))
    );
  return (
    (delta.op === 'modified' || delta.op === 'renamed') &&
    delta.id === target &&
    holds(newWords(delta), want.now ?? '') &&
    (want.gone === undefined || lacks(newWords(delta), want.gone))
  );
}

/**
 * Which expected deltas a change request's deltas meet (`targets[i]` the FR id of expected
 * i's capability, undefined when the requirements never carried it), each delta meeting at most
 * one. A removal is the REMOVED delta of its FR (or a MODIFIED one no longer holding the
 * capability's verb and object, `phrases[i]`, when the FR coordinates it with others); a
 * modification a MODIFIED (or RENAMED) delta of its FR holding the new value and none of the
 * old; a rename a RENAMED (or MODIFIED) delta of its FR holding the new name; an addition an
 * ADDED delta holding its verb and object.
 *
 * @example
 * applied([{ op: 'removed', target: 1 }], ['FR-2'], [{ op: 'removed', id: 'FR-2', title: 'x', reason: 'y' }]); // [true]
 */
export function applied(
  expected: readonly ExpectedDelta[],
  targets: readonly (string | undefined)[],
  deltas: readonly RequirementDelta[],
  phrases: readonly (string | undefined)[] = [],
): boolean[] {
  const used = new Set<number>();
  return expected.map((want, i) => {
    const target = targets[i];
    const index = deltas.findIndex(
      (delta, j) => !used.has(j) && meets(want, target, delta, phrases[i]),
    );
    if (index === -1) return false;
    used.add(index);
    return true;
  });
}

/**
 * The FRs a change request changed or removed although it named other ones: every REMOVED,
 * MODIFIED or RENAMED delta on an FR outside `targets`.
 *
 * @example
 * touchedElsewhere(new Set(['FR-2']), [{ op: 'removed', id: 'FR-1', title: 'x', reason: 'y' }]); // ['FR-1']
 */
export function touchedElsewhere(
  targets: ReadonlySet<string>,
  deltas: readonly RequirementDelta[],
): string[] {
  return deltas
    .filter((delta) => delta.op !== 'added' && !targets.has(delta.id))
    .map((delta) => delta.id);
}
