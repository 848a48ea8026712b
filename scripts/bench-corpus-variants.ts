/**
 * Change requests made from the corpus's development ideas (issue 29), many more than the
 * corpus writes by hand: for every development idea, in every shape, each of its capabilities
 * dropped, removed, "no longer" needed, renamed, and a value of it replaced, in several ways of
 * saying each, then two clauses at once. They are read against the FR groups the engine wrote
 * for that idea, and measured as the corpus's own requests are (bench-corpus-metrics.ts): the
 * named change applied, every other FR left alone. The phrases are the idea's own words
 * (the capability's verb, its object as written, what follows it), so a request names a
 * feature as its author would, however the engine titled it.
 *
 * Development part only: held-out ideas are never read here. `BENCH_CORPUS_VARIANTS=1` with
 * `npm run bench -- --corpus` runs it after the parts (BENCH_CORPUS_MISSES lists its misses).
 */
import type { ProjectDefinition, RequirementDelta } from '@pgs/contract/generation';
import { readChangeRequest } from '@pgs/offline';
import type {
  CorpusCapability,
  CorpusIdea,
  ExpectedDelta,
} from '../packages/offline/test/corpus/types.ts';
import { applied, type FrGroup, targetOf, touchedElsewhere } from './bench-corpus-metrics.ts';
import { percent } from './bench-quality-metrics.ts';

/** A development idea as the engine read it. */
export interface DevRead {
  entry: CorpusIdea;
  definition: ProjectDefinition;
  groups: FrGroup[];
}

/** A capability as the idea writes it: the verb as written, the object phrase, what follows. */
interface Written {
  verb: string;
  object: string;
  rest: string;
}

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Where the idea writes a capability: its verb, up to six words, its object's key word. */
function written(idea: string, capability: CorpusCapability): Written | undefined {
  const verb = [capability.verb].flat()[0]!;
  const stem = verb.replace(/e$/, '');
  const pattern = new RegExp(
    `\\b(${escaped(stem)}\\w*)\\s+((?:[\\w'’-]+\\s+){0,5}?${escaped(capability.object)})\\b([^,.;:!?\\n]*)`,
    'i',
  );
  const match = pattern.exec(idea);
  if (!match) return undefined;
  // What follows, up to the next coordinated verb ("… and tracks expenses").
  const rest = match[3]!.split(/\s+and\s+/)[0]!.trimEnd();
  const object = match[2]!.replace(/^(?:the|a|an|your|their|its)\s+/i, '');
  return { verb, object, rest };
}

/** A value of the capability a request may replace: the last word of its qualifier. */
function replacedValue(rest: string): string | undefined {
  const last =
    /\b(?:by|with|to|from|for|on|via|in)\s+(?:the\s+|a\s+|an\s+)?([A-Za-z][\w-]+)\s*$/.exec(
      rest.trim(),
    );
  return last?.[1];
}

const NEW_NAMES = ['ledgers', 'cards', 'boards', 'journals', 'sheets'];
const NEW_VALUES = ['volunteers', 'WhatsApp', 'tablets', 'postcode', 'Slack'];

interface Variant {
  shape: string;
  request: string;
  expected: ExpectedDelta[];
}

/** Values no one replaces: the product itself, or where it is used ("in the app", "on site"). */
const NOT_VALUES =
  /^(?:app|application|site|website|web|browser|phone|device|server|platform|tool|system)$/i;

/** The requests made from one capability of an idea (index `i`) whose FR is titled `title`. */
function variantsOf(w: Written, i: number, k: number, title: string): Variant[] {
  const removed: ExpectedDelta[] = [{ op: 'removed', target: i }];
  const out: Variant[] = [
    { shape: 'drop', request: `Drop the ${w.object}.`, expected: removed },
    {
      shape: 'remove',
      request: `Please remove the ${w.object} from the first release.`,
      expected: removed,
    },
    { shape: 'get rid of', request: `Get rid of the ${w.object}.`, expected: removed },
    {
      shape: "don't need",
      request: `We don't need the ${w.object} anymore.`,
      expected: removed,
    },
    {
      shape: 'no longer',
      request: `We no longer need to ${w.verb} ${w.object}${w.rest}.`,
      expected: removed,
    },
    {
      shape: 'no longer (short)',
      request: `We no longer need to ${w.verb} ${w.object}.`,
      expected: removed,
    },
  ];
  const name = NEW_NAMES[k % NEW_NAMES.length]!;
  const renamed: ExpectedDelta[] = [{ op: 'renamed', target: i, now: name }];
  out.push(
    { shape: 'rename', request: `Rename the ${w.object} to ${name}.`, expected: renamed },
    {
      shape: 'rename (call)',
      request: `The ${w.object} should be called ${name}.`,
      expected: renamed,
    },
  );
  const value = replacedValue(w.rest);
  // A value is replaced where the FR's title carries it, as the corpus's own requests do.
  const carried = value !== undefined && new RegExp(`\\b${escaped(value)}\\b`, 'i').test(title);
  if (value !== undefined && carried && !NOT_VALUES.test(value) && !/^\d/.test(value)) {
    const now = NEW_VALUES[k % NEW_VALUES.length]!;
    if (now.toLowerCase() !== value.toLowerCase()) {
      const modified: ExpectedDelta[] = [{ op: 'modified', target: i, now, gone: value }];
      out.push(
        { shape: 'replace Y with X', request: `Replace ${value} with ${now}.`, expected: modified },
        {
          shape: 'X instead of Y',
          request: `Use ${now} instead of ${value} for the ${w.object}.`,
          expected: modified,
        },
      );
    }
  }
  return out;
}

/** Two clauses: one capability dropped, another renamed (a request of several clauses). */
function pairsOf(ws: readonly (Written | undefined)[]): Variant[] {
  const out: Variant[] = [];
  for (const [i, a] of ws.entries()) {
    const j = (i + 1) % ws.length;
    const b = ws[j];
    if (!a || !b || i === j) continue;
    out.push({
      shape: 'several clauses',
      request: `Add a way to export the archive as CSV, drop the ${a.object}, and rename the ${b.object} to ledgers.`,
      expected: [
        { op: 'added', capability: { verb: 'export', object: 'archive' } },
        { op: 'removed', target: i },
        { op: 'renamed', target: j, now: 'ledgers' },
      ],
    });
  }
  return out;
}

/**
 * Reads the variants of every development idea and prints how many named changes were applied
 * and how many unrelated FRs survived, by shape; with `misses`, each request that missed.
 *
 * @example
 * variantBench(devReads, false);
 */
export function variantBench(reads: Iterable<DevRead>, misses: boolean) {
  const byShape = new Map<
    string,
    { expected: number; met: number; others: number; kept: number }
  >();
  const missed: string[] = [];
  let skipped = 0;
  for (const { entry, definition, groups } of reads) {
    const capabilities = entry.capabilities.filter((c) => c.priority !== 'could');
    const ws = capabilities.map((c) => {
      const w = written(entry.idea, c);
      // A capability the engine never read cannot be changed: the idea measures count it.
      return w && targetOf(c, groups) !== -1 ? w : undefined;
    });
    skipped += ws.filter((w) => w === undefined).length;
    const variants = [
      ...ws.flatMap((w, i) => {
        const title = groups[targetOf(capabilities[i]!, groups)]?.title ?? '';
        return w ? variantsOf(w, i, i + entry.id.length, title) : [];
      }),
      ...pairsOf(ws),
    ];
    for (const variant of variants) {
      const targets = variant.expected.map((want) => {
        if (want.target === undefined) return undefined;
        return groups[targetOf(capabilities[want.target]!, groups)]?.id;
      });
      const numbers = groups.map((group) => Number(group.id.slice(3)));
      const deltas: RequirementDelta[] = readChangeRequest({
        idea: entry.idea,
        changeRequest: variant.request,
        definition,
        requirements: groups.map(({ id, title }) => ({ id, title })),
        nextNumber: Math.max(0, ...numbers) + 1,
      });
      const phrases = variant.expected.map((w) =>
        w.target === undefined
          ? undefined
          : `${capabilities[w.target]!.verb} ${capabilities[w.target]!.object}`,
      );
      const results = applied(variant.expected, targets, deltas, phrases);
      const named = new Set(targets.filter((id) => id !== undefined));
      const touched = new Set(touchedElsewhere(named, deltas));
      const others = groups.filter((group) => !named.has(group.id));
      const s = byShape.get(variant.shape) ?? { expected: 0, met: 0, others: 0, kept: 0 };
      byShape.set(variant.shape, s);
      s.expected += results.length;
      s.met += results.filter(Boolean).length;
      s.others += others.length;
      s.kept += others.filter((group) => !touched.has(group.id)).length;
      if (misses && (results.some((ok) => !ok) || touched.size > 0)) {
        const shown = deltas.map((d) => `${d.op} ${d.id} ${d.op === 'renamed' ? d.to : d.title}`);
        missed.push(
          `  ${entry.id} [${variant.shape}] "${variant.request}" → ${shown.join(' | ') || 'no delta'}\n    FRs: ${groups.map((g) => `${g.id} ${g.title}`).join(' | ')}`,
        );
      }
    }
  }
  let expected = 0;
  let met = 0;
  let others = 0;
  let kept = 0;
  console.log('\n  development variants (BENCH_CORPUS_VARIANTS):');
  for (const [shape, s] of byShape) {
    expected += s.expected;
    met += s.met;
    others += s.others;
    kept += s.kept;
    console.log(
      `    ${shape}: applied ${s.met}/${s.expected} (${percent(s.met / Math.max(1, s.expected))}), unrelated kept ${s.kept}/${s.others} (${percent(s.kept / Math.max(1, s.others))})`,
    );
  }
  console.log(
    `    all: applied ${met}/${expected} (${percent(met / Math.max(1, expected))}), unrelated kept ${kept}/${others} (${percent(kept / Math.max(1, others))}); capabilities not written or not read: ${skipped}`,
  );
  for (const line of missed) console.log(line);
}
