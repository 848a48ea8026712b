import type { DocumentKind } from './catalogue.ts';

/** The definition call that opens every workflow, timed like a document kind. */
export const DEFINITION_KIND = 'definition';

export interface EstimateInput {
  plan: readonly DocumentKind[];
  /** Kinds already stored. */
  done: ReadonlySet<string>;
  /** Kinds being generated, with the time each started (ms). */
  running?: ReadonlyMap<string, number>;
  /** Whether the definition (name, questionnaire) is settled. */
  defined: boolean;
  /** Expected milliseconds for a kind (measured, or simulated). */
  durationOf: (kind: string) => number;
  now: number;
}

/**
 * Milliseconds until the workflow is expected to finish: the longest chain of remaining
 * work through the dependency graph (documents whose inputs are ready run concurrently),
 * a running document counting only its expected remainder. Never negative.
 *
 * @example
 * estimateRemainingMs({ plan, done: new Set(), defined: false, durationOf: () => 1000, now: Date.now() });
 */
export function estimateRemainingMs(input: EstimateInput): number {
  const { plan, done, running = new Map(), durationOf, now } = input;
  const remainingOf = (kind: string) => {
    const started = running.get(kind);
    const expected = durationOf(kind);
    return started === undefined ? expected : Math.max(0, expected - (now - started));
  };
  const start = input.defined ? 0 : durationOf(DEFINITION_KIND);
  const finish = new Map<string, number>();
  let longest = start;
  // The plan lists every kind after its dependencies, so one pass suffices.
  for (const doc of plan) {
    if (done.has(doc.kind)) {
      finish.set(doc.kind, 0);
      continue;
    }
    const ready = Math.max(start, ...doc.dependsOn.map((dep) => finish.get(dep) ?? 0));
    const end = ready + remainingOf(doc.kind);
    finish.set(doc.kind, end);
    longest = Math.max(longest, end);
  }
  return Math.max(0, Math.round(longest));
}

/**
 * How a simulated duration is spread over a plan: each kind's delay is proportional to
 * its weight, scaled so the longest chain (the definition plus the critical path) lasts
 * `durationMs`.
 */
export function spreadDuration(
  plan: readonly DocumentKind[],
  durationMs: number,
): Map<string, number> {
  const definitionWeight = 1;
  const weightOf = new Map(plan.map((doc) => [doc.kind, doc.weight]));
  const path = estimateRemainingMs({
    plan,
    done: new Set(),
    defined: false,
    durationOf: (kind) => (kind === DEFINITION_KIND ? definitionWeight : (weightOf.get(kind) ?? 1)),
    now: 0,
  });
  const scale = path === 0 ? 0 : durationMs / path;
  const delays = new Map<string, number>([[DEFINITION_KIND, Math.round(definitionWeight * scale)]]);
  for (const doc of plan) delays.set(doc.kind, Math.round(doc.weight * scale));
  return delays;
}

/**
 * Prior expectation for a kind never measured with this engine, in ms: the offline engine
 * answers in tens of milliseconds, real models take seconds.
 */
export const priorDurationMs = (weight: number, engine: string) =>
  weight * (engine === OFFLINE_ENGINE ? 60 : 2_000);

/** The engine name of the built-in offline engine (measurements are kept per engine). */
export const OFFLINE_ENGINE = 'offline';

/** The key under which a kind's measured duration is kept: one average per engine and kind. */
export const statKey = (engine: string, kind: string) => `${engine}:${kind}`;

/** Test keys only: make a project end a given way after a given time. */
export interface Simulation {
  outcome: 'completed' | 'failed';
  durationMs: number;
}

/**
 * Expected milliseconds per kind for a project: the simulated spread for a simulation,
 * else the durations measured here, else a prior by the kind's weight.
 */
export function durationsFor(
  plan: readonly DocumentKind[],
  simulate: Simulation | null | undefined,
  measured: ReadonlyMap<string, number>,
  engine: string,
): (kind: string) => number {
  if (simulate) {
    const delays = spreadDuration(plan, simulate.durationMs);
    return (kind) => delays.get(kind) ?? 0;
  }
  const weights = new Map(plan.map((doc) => [doc.kind, doc.weight]));
  return (kind) =>
    measured.get(statKey(engine, kind)) ??
    priorDurationMs(kind === DEFINITION_KIND ? 2 : (weights.get(kind) ?? 3), engine);
}
