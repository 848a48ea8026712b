/**
 * What a revision touches: the documents that define or cite an affected requirement, and
 * every document built on one of them in the catalogue's graph (docs/revisions.md). Also the
 * register that keeps requirement IDs and priorities when the definition's core features
 * change, and the definition with the deltas applied.
 */
import { type ProjectType, REVISION_FEE } from '@pgs/contract';
import type { ProjectDefinition, RequirementSlot } from '../models/context.ts';
import type { RequirementDelta } from '../models/deltas.ts';
import {
  CODEBASE_OVERVIEW_KIND,
  type DocumentKind,
  documentPlan,
  type PlanOptions,
} from './catalogue.ts';
import { type Detail, priceOfKinds } from './pricing.ts';
import type { Trace } from './trace/index.ts';

/** Credits every revision costs for reading its change request (docs/api.md): the contract's fee. */
export const ANALYSIS_FEE = REVISION_FEE;

/** The kind whose document defines the requirement groups. */
export const REQUIREMENTS_KIND = 'product-requirements';

/** What decides a revision's plan besides the project's type. */
export interface RevisionScope extends PlanOptions {
  /**
   * The revision sends a new codebase digest (a grounded project only): what describes the
   * code (the codebase overview, and through it the architecture and the plan) is rewritten
   * for it, whatever the change request touches.
   */
  newDigest?: boolean;
  /**
   * The revision records answers to the brief's register (docs/clarify.md#answer-later): the
   * brief is rewritten, and what builds on it may be.
   */
  answers?: boolean;
}

/** The kind whose document holds the register of assumptions, questions and decisions. */
export const BRIEF_KIND = 'project-brief';

/** The kinds a revision rewrites whatever its deltas: those a new digest makes stale. */
const digestSeeds = (scope: RevisionScope) =>
  scope.grounded && scope.newDigest ? [CODEBASE_OVERVIEW_KIND] : [];

/** `kinds` and every kind that builds on one of them, in the plan's order. */
export function withDependents(plan: readonly DocumentKind[], kinds: Iterable<string>): string[] {
  const affected = new Set(kinds);
  // The plan lists every kind after its dependencies, so one pass closes the set.
  for (const doc of plan) {
    if (doc.dependsOn.some((dep) => affected.has(dep))) affected.add(doc.kind);
  }
  return plan.filter((doc) => affected.has(doc.kind)).map((doc) => doc.kind);
}

/**
 * The kinds a revision of this type may rewrite: the requirements and what builds on them,
 * and with a new digest the codebase overview and what builds on it.
 *
 * @example
 * revisableKinds('web', { grounded: true, newDigest: true })[0]; // 'codebase-overview'
 */
export const revisableKinds = (type: ProjectType, scope: RevisionScope = {}): string[] =>
  withDependents(documentPlan(type, scope), [
    REQUIREMENTS_KIND,
    ...digestSeeds(scope),
    ...(scope.answers ? [BRIEF_KIND] : []),
  ]);

/** What a revision reserves: the analysis fee and every document it may rewrite. */
export const revisionPrice = (
  type: ProjectType,
  detail: Detail = 'standard',
  scope: RevisionScope = {},
): number => ANALYSIS_FEE + priceOfKinds(type, revisableKinds(type, scope), detail, scope);

/** What a revision charges: the analysis fee and the documents it rewrote. */
export const revisionCharge = (
  type: ProjectType,
  rewritten: Iterable<string>,
  detail: Detail = 'standard',
  plan: PlanOptions = {},
): number => ANALYSIS_FEE + priceOfKinds(type, rewritten, detail, plan);

/** The requirement group of an ID (`FR-3.2` → `FR-3`), or undefined for other IDs. */
const groupOf = (id: string) => /^(FR-\d+)(?:\.\d+)?$/.exec(id)?.[1];

/**
 * The kinds a revision rewrites: the requirements (when any delta exists), each document
 * that defines or cites an affected requirement or one of its criteria, with a new digest
 * the codebase overview, and what builds on them. No deltas, nothing to rewrite.
 */
export function affectedKinds(
  type: ProjectType,
  trace: Trace,
  documents: readonly { type: string; filename: string }[],
  deltas: readonly RequirementDelta[],
  scope: RevisionScope = {},
): string[] {
  if (deltas.length === 0) return [];
  const ids = new Set(deltas.map((delta) => delta.id));
  const kindOf = new Map(documents.map((doc) => [doc.filename, doc.type]));
  const seeds = new Set([REQUIREMENTS_KIND, ...digestSeeds(scope)]);
  const touches = (id: string) => ids.has(groupOf(id) ?? id);
  for (const node of trace.nodes) {
    if (touches(node.id)) seeds.add(kindOf.get(node.document) ?? '');
  }
  for (const edge of trace.edges) {
    if (touches(edge.to)) seeds.add(kindOf.get(edge.document) ?? '');
  }
  seeds.delete('');
  return withDependents(documentPlan(type, scope), seeds);
}

/**
 * The kinds an answers revision rewrites: the brief (its register loses the answered entries
 * and gains their decisions), each other document that cites an answered ID, and what builds
 * on those. A document that only builds on the brief is carried over: the brief's other
 * sections do not change.
 *
 * @example
 * answeredKinds('web', trace, documents, ['Q-2']); // ['project-brief', …]
 */
export function answeredKinds(
  type: ProjectType,
  trace: Trace,
  documents: readonly { type: string; filename: string }[],
  closed: readonly string[],
  scope: RevisionScope = {},
): string[] {
  const ids = new Set(closed);
  const kindOf = new Map(documents.map((doc) => [doc.filename, doc.type]));
  const seeds = new Set<string>(digestSeeds(scope));
  for (const edge of trace.edges) {
    if (ids.has(edge.to)) seeds.add(kindOf.get(edge.document) ?? '');
  }
  seeds.delete('');
  seeds.delete(BRIEF_KIND);
  const plan = documentPlan(type, scope);
  const rewritten = new Set([BRIEF_KIND, ...withDependents(plan, seeds)]);
  return plan.filter((doc) => rewritten.has(doc.kind)).map((doc) => doc.kind);
}

/**
 * The register of a definition never revised: core feature i is requirement group
 * `FR-(i+1)`, with the priority the requirements document gave it (Must when the trace
 * has none).
 */
export function initialRegister(definition: ProjectDefinition, trace: Trace): RequirementSlot[] {
  const priorities = new Map(trace.coverage.requirements.map((r) => [r.id, r.priority] as const));
  return definition.questionnaire.coreFeatures.map((_, i) => {
    const id = `FR-${i + 1}`;
    const priority = priorities.get(id);
    return {
      id,
      priority: priority === 'could' ? 'Could' : priority === 'should' ? 'Should' : 'Must',
    };
  });
}

/**
 * The definition and register with the deltas applied: an added requirement appends a core
 * feature (Should: the idea did not name it), a modified or renamed one replaces its feature's words, a removed one
 * drops it. IDs not in the register (a model wrote more groups than features) change
 * nothing here: the documents carry them.
 */
export function applyDeltas(
  definition: ProjectDefinition,
  register: readonly RequirementSlot[],
  deltas: readonly RequirementDelta[],
): { definition: ProjectDefinition; register: RequirementSlot[] } {
  const features = [...definition.questionnaire.coreFeatures];
  const slots = [...register];
  for (const delta of deltas) {
    const at = slots.findIndex((slot) => slot.id === delta.id);
    switch (delta.op) {
      case 'added':
        if (at === -1) {
          features.push(delta.title);
          slots.push({ id: delta.id, priority: 'Should' });
        }
        break;
      case 'modified':
        if (at !== -1) features[at] = delta.title;
        break;
      case 'renamed':
        if (at !== -1) features[at] = delta.to;
        break;
      case 'removed':
        if (at !== -1) {
          features.splice(at, 1);
          slots.splice(at, 1);
        }
        break;
      default: {
        const never: never = delta;
        throw new Error(`unknown delta ${JSON.stringify(never)}`);
      }
    }
  }
  return {
    definition: {
      ...definition,
      questionnaire: { ...definition.questionnaire, coreFeatures: features },
    },
    register: slots,
  };
}
