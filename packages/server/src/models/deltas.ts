/**
 * Requirement deltas: what a change request does to a project's requirements, in
 * OpenSpec's form (ADDED, MODIFIED, REMOVED, RENAMED), against the trace graph of the
 * revision it changes. Plain data: stored with the revision and served as it is.
 */

import type { RequirementDelta } from '@pgs/contract/generation';

/** The contract's shapes: `RequirementRef` is `{ id: 'FR-3', title }`, a delta is discriminated on `op`. */
export type { RequirementDelta, RequirementRef } from '@pgs/contract/generation';

export type DeltaOp = RequirementDelta['op'];

/** How many deltas of each kind: what a listing shows of a revision. */
export interface DeltaSummary {
  added: number;
  modified: number;
  removed: number;
  renamed: number;
}

export function summarizeDeltas(deltas: readonly RequirementDelta[]): DeltaSummary {
  const summary: DeltaSummary = { added: 0, modified: 0, removed: 0, renamed: 0 };
  for (const delta of deltas) summary[delta.op]++;
  return summary;
}

/** The number in `FR-12`; NaN for anything else. */
export const groupNumber = (id: string): number => {
  const match = /^FR-(\d+)$/.exec(id);
  return match ? Number(match[1]) : Number.NaN;
};

/**
 * The first requirement number never used: above every current ID and every ID removed
 * by an earlier revision (an ID is never reused).
 *
 * @example
 * nextFreeNumber(['FR-1', 'FR-2'], ['FR-3']); // 4
 */
export function nextFreeNumber(current: readonly string[], retired: readonly string[]): number {
  let max = 0;
  for (const id of [...current, ...retired]) {
    const n = groupNumber(id);
    if (Number.isFinite(n) && n > max) max = n;
  }
  return max + 1;
}
