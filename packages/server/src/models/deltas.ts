/**
 * Requirement deltas: what a change request does to a project's requirements, in
 * OpenSpec's form (ADDED, MODIFIED, REMOVED, RENAMED), against the trace graph of the
 * revision it changes. Plain data: stored with the revision and served as it is.
 */

/** A requirement group as the impact step sees it: `FR-3` and its one-line title. */
export interface RequirementRef {
  id: string;
  title: string;
}

export type RequirementDelta =
  /** A new requirement group: the next free number, never one used before. */
  | { op: 'added'; id: string; title: string; text: string }
  /** An existing group's full new statement; its ID stays. */
  | { op: 'modified'; id: string; title: string; text: string }
  /** A group that goes, and why; its ID is never used again. */
  | { op: 'removed'; id: string; title: string; reason: string }
  /** A group whose name changes and whose meaning does not. */
  | { op: 'renamed'; id: string; from: string; to: string };

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
