/**
 * `npm run bench -- --corpus`: the offline engine on the reading corpus of issue 29
 * (packages/offline/test/corpus/, ideas and change requests as people write them), the
 * held-out part first. In process, no server: for each idea `defineProject` (type pinned; once
 * more unpinned for the type), `writeDocument` for the product requirements, then its FR
 * groups; for each change request `readChangeRequest` against the FR groups of the idea it
 * revises. The aims are issue 29's.
 *
 * Options (environment): BENCH_CORPUS_PART (`held-out`, `dev` or both, the default);
 * BENCH_CORPUS_MISSES (any value: list what each development idea and change request missed;
 * examples and lists come only from the development part, the held-out one is never shown);
 * BENCH_CORPUS_VARIANTS (any value, `misses` to list them: many more change requests made from
 * the development ideas, bench-corpus-variants.ts).
 */
import { readFileSync } from 'node:fs';
import type { ProjectDefinition, RequirementDelta } from '@pgs/contract/generation';
import { defineProject, readChangeRequest, writeDocument } from '@pgs/offline';
import type { CorpusChange, CorpusIdea } from '../packages/offline/test/corpus/types.ts';
import { documentRequest } from '../packages/offline/test/plan.ts';
import {
  applied,
  type FrGroup,
  fragmentOrFiller,
  frGroups,
  groupOf,
  targetOf,
  touchedElsewhere,
} from './bench-corpus-metrics.ts';
import { variantBench } from './bench-corpus-variants.ts';
import { columns, percent } from './bench-quality-metrics.ts';

const PARTS = ['held-out', 'dev'] as const;
type Part = (typeof PARTS)[number];

const load = <T>(file: string): T[] =>
  JSON.parse(
    readFileSync(new URL(`../packages/offline/test/corpus/${file}`, import.meta.url), 'utf8'),
  ) as T[];

/** An idea as the engine read it: its definition, FR groups and the unpinned type. */
interface Read {
  entry: CorpusIdea;
  definition: ProjectDefinition;
  groups: FrGroup[];
  unpinnedType: string;
}

function readIdea(entry: CorpusIdea): Read {
  const definition = defineProject({ idea: entry.idea, type: entry.type });
  const markdown = writeDocument({
    idea: entry.idea,
    definition,
    document: documentRequest('product-requirements'),
    related: [],
  });
  const unpinnedType = defineProject({ idea: entry.idea }).type;
  return { entry, definition, groups: frGroups(markdown), unpinnedType };
}

/** `a of b (x %)`, with the aim and whether it is met. */
function figure(found: number, total: number, aim: string, met: boolean): string {
  const share = total === 0 ? 1 : found / total;
  return `${found} of ${total} (${percent(share)}); aim ${aim}: ${met ? 'met' : 'NOT met'}`;
}

const sameName = (a: string, b: string) =>
  a.toLowerCase().replace(/\s+/g, ' ').trim() === b.toLowerCase().replace(/\s+/g, ' ').trim();

/** The idea measures' counts over a part's reads. */
function countIdeas(reads: readonly Read[]) {
  const n = {
    caps: 0,
    capsKept: 0,
    named: 0,
    nameKept: 0,
    titles: 0,
    wishes: 0,
    wishesMust: 0,
    musts: 0,
    mustsMust: 0,
    typeRight: 0,
    strangers: 0,
  };
  const lostNames: string[] = [];
  const fragments = new Map<string, string[]>();
  const byShape = new Map<string, { caps: number; kept: number }>();
  for (const { entry, definition, groups, unpinnedType } of reads) {
    if (unpinnedType === entry.type) n.typeRight += 1;
    if (entry.name !== null) {
      n.named += 1;
      if (sameName(definition.name, entry.name)) n.nameKept += 1;
      else lostNames.push(`${entry.name} → ${definition.name}`);
    }
    const shape = byShape.get(entry.shape) ?? { caps: 0, kept: 0 };
    byShape.set(entry.shape, shape);
    for (const capability of entry.capabilities) {
      const at = groupOf(capability, groups);
      const must = at !== -1 && groups[at]!.priority === 'Must';
      if (capability.priority === 'could') {
        n.wishes += 1;
        if (must) n.wishesMust += 1;
        continue;
      }
      n.caps += 1;
      shape.caps += 1;
      if (at !== -1) n.capsKept += 1;
      if (at !== -1) shape.kept += 1;
      if (capability.priority === 'must') n.musts += 1;
      if (capability.priority === 'must' && must) n.mustsMust += 1;
    }
    for (const group of groups) {
      n.titles += 1;
      if (!entry.capabilities.some((capability) => groupOf(capability, [group]) === 0))
        n.strangers += 1;
      const why = fragmentOrFiller(group.title, entry.name);
      if (why !== null) fragments.set(why, [...(fragments.get(why) ?? []), group.title]);
    }
  }
  return { n, lostNames, fragments, byShape };
}

/** The idea measures of one part, printed; returns the reads for its change requests. */
function ideaMeasures(part: Part, ideas: readonly CorpusIdea[]): Map<string, Read> {
  const reads = ideas.map(readIdea);
  const { n, lostNames, fragments, byShape } = countIdeas(reads);
  const bad = [...fragments.values()].flat().length;
  const aimZero = (count: number) => `aim 0: ${count === 0 ? 'met' : 'NOT met'}`;
  console.log(`\n${part}: ${ideas.length} ideas`);
  console.log(
    `  capabilities kept (wishes apart): ${figure(n.capsKept, n.caps, '≥ 95 %', n.capsKept >= 0.95 * n.caps)}`,
  );
  console.log(
    `  product's own name kept: ${figure(n.nameKept, n.named, '100 %', n.nameKept === n.named)}`,
  );
  console.log(`  FR titles that are fragments or filler: ${bad} of ${n.titles}; ${aimZero(bad)}`);
  // Examples only from the development part: the held-out part is measured, never read.
  const examples = (list: readonly string[]) =>
    part === 'dev' ? ` (${[...new Set(list)].slice(0, 4).join('; ')})` : '';
  for (const [why, list] of fragments) console.log(`    ${why}: ${list.length}${examples(list)}`);
  console.log(
    `  FR groups carrying none of the idea's capabilities (stock features included): ${n.strangers} of ${n.titles}`,
  );
  console.log(
    `  "later" wishes read as Must: ${n.wishesMust} of ${n.wishes}; ${aimZero(n.wishesMust)}`,
  );
  console.log(`  "must" capabilities read as Must: ${n.mustsMust} of ${n.musts}`);
  console.log(`  type (not pinned): ${n.typeRight} of ${ideas.length}`);
  if (part === 'dev' && lostNames.length > 0)
    console.log(`  names lost, e.g.: ${lostNames.slice(0, 6).join('; ')}`);
  const rows = [...byShape].map(([shape, s]) => [
    shape,
    `${s.kept}/${s.caps}`,
    percent(s.caps === 0 ? 1 : s.kept / s.caps),
  ]);
  console.log(columns([['shape', 'kept', ''], ...rows]));
  return new Map(reads.map((read) => [read.entry.id, read]));
}

/** The change-request measures of one part, printed. */
function changeMeasures(part: Part, changes: readonly CorpusChange[], reads: Map<string, Read>) {
  let expected = 0;
  let met = 0;
  let unrelated = 0;
  let survived = 0;
  let unread = 0;
  let empty = 0;
  const misses = new Map<string, number>();
  for (const change of changes) {
    const read = reads.get(change.idea);
    if (read === undefined) throw new Error(`${change.id}: no idea ${change.idea} in ${part}`);
    const { entry, definition, groups } = read;
    const targets = change.expected.map((want) => {
      if (want.target === undefined) return undefined;
      const at = targetOf(entry.capabilities[want.target]!, groups);
      return at === -1 ? undefined : groups[at]!.id;
    });
    unread += change.expected.filter((w, i) => w.target !== undefined && !targets[i]).length;
    const numbers = groups.map((group) => Number(group.id.slice(3)));
    const deltas: RequirementDelta[] = readChangeRequest({
      idea: entry.idea,
      changeRequest: change.request,
      definition,
      requirements: groups.map(({ id, title }) => ({ id, title })),
      nextNumber: Math.max(0, ...numbers) + 1,
    });
    if (deltas.length === 0) empty += 1;
    const phrases = change.expected.map((w) =>
      w.target === undefined
        ? undefined
        : `${entry.capabilities[w.target]!.verb} ${entry.capabilities[w.target]!.object}`,
    );
    const results = applied(change.expected, targets, deltas, phrases);
    expected += results.length;
    met += results.filter(Boolean).length;
    if (results.some((ok) => !ok)) misses.set(change.shape, (misses.get(change.shape) ?? 0) + 1);
    const named = new Set(targets.filter((id) => id !== undefined));
    const touched = new Set(touchedElsewhere(named, deltas));
    const others = groups.filter((group) => !named.has(group.id));
    unrelated += others.length;
    survived += others.filter((group) => !touched.has(group.id)).length;
  }
  console.log(`  ${changes.length} change requests`);
  console.log(
    `  named changes applied: ${figure(met, expected, '≥ 95 %', met >= 0.95 * expected)}`,
  );
  console.log(
    `  unrelated features surviving: ${figure(survived, unrelated, '100 %', survived === unrelated)}`,
  );
  console.log(
    `  targets the requirements never carried: ${unread}; requests read as no change: ${empty}`,
  );
  if (misses.size > 0)
    console.log(
      `  requests with a change missed, by kind: ${[...misses].map(([k, n]) => `${k} ${n}`).join(', ')}`,
    );
}

/**
 * With BENCH_CORPUS_MISSES set, what each development idea and change request missed, to
 * write rules against; the held-out part is never listed.
 */
function listMisses(reads: Map<string, Read>, changes: readonly CorpusChange[]) {
  console.log('\n  development misses (BENCH_CORPUS_MISSES):');
  for (const { entry, definition, groups } of reads.values()) {
    const missed = entry.capabilities
      .filter((capability) => capability.priority !== 'could' && groupOf(capability, groups) === -1)
      .map((capability) => `${[capability.verb].flat()[0]} ${capability.object}`);
    const name = entry.name !== null && !sameName(definition.name, entry.name);
    if (missed.length === 0 && !name) continue;
    console.log(
      `  ${entry.id}: ${[...missed, ...(name ? [`name → ${definition.name}`] : [])].join('; ')}`,
    );
    console.log(`    FRs: ${groups.map((group) => group.title).join(' | ')}`);
  }
  for (const change of changes) {
    const { entry, definition, groups } = reads.get(change.idea)!;
    const deltas = readChangeRequest({
      idea: entry.idea,
      changeRequest: change.request,
      definition,
      requirements: groups.map(({ id, title }) => ({ id, title })),
      nextNumber: groups.length + 1,
    });
    const shown = deltas.map((d) => `${d.op} ${d.id} ${d.op === 'renamed' ? d.to : d.title}`);
    console.log(`  ${change.id}: "${change.request}" → ${shown.join(' | ') || 'no delta'}`);
  }
}

/**
 * Runs the corpus bench: each part (held-out first) read and printed.
 *
 * @example
 * await corpusBench(); // prints the figures of docs/quality.md's issue 29 section
 */
export async function corpusBench() {
  const chosen = process.env.BENCH_CORPUS_PART;
  const started = performance.now();
  console.log(
    `PGS corpus bench ${new Date().toISOString().slice(0, 10)} on Node ${process.versions.node} (the offline engine, in process)`,
  );
  for (const part of PARTS) {
    if (chosen !== undefined && chosen !== part) continue;
    const reads = ideaMeasures(part, load<CorpusIdea>(`ideas.${part}.json`));
    const changes = load<CorpusChange>(`changes.${part}.json`);
    changeMeasures(part, changes, reads);
    if (part === 'dev' && process.env.BENCH_CORPUS_MISSES) listMisses(reads, changes);
    const variants = process.env.BENCH_CORPUS_VARIANTS;
    if (part === 'dev' && variants) variantBench(reads.values(), variants === 'misses');
  }
  console.log(`\n  ${((performance.now() - started) / 1000).toFixed(1)} s`);
}
