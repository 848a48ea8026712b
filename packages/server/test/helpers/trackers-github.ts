/**
 * What the GitHub adapter's test files share: drafts with a project's marker, GitHub's
 * timestamps, and the TrackerRequestError a call rejects with.
 */
import { expect } from 'vitest';
import {
  type IssueDraft,
  itemMarker,
  TrackerRequestError,
} from '../../src/trackers/providers/provider.ts';

/** The project whose marker drafts carry unless told otherwise. */
export const PROJECT = '0b9f3c1e-5d7a-4c2b-9e8f-1a2b3c4d5e6f';

/** A draft for `itemId` with the project's marker, labels pgs and FR-1, no relations. */
export function draft(
  itemId: string,
  extra: Partial<IssueDraft> = {},
  project = PROJECT,
): IssueDraft {
  return {
    itemId,
    title: `${itemId} Build it`,
    body: `What to do.\n\n${itemMarker(project, itemId)}`,
    labels: ['pgs', 'FR-1'],
    blockedBy: [],
    ...extra,
  };
}

/** GitHub's timestamps: to the second, in UTC. */
export const stamp = (at: Date) => at.toISOString().replace(/\.\d{3}Z$/, 'Z');

/** The TrackerRequestError a promise rejects with (the test fails on anything else). */
export async function failure(promise: Promise<unknown>): Promise<TrackerRequestError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TrackerRequestError);
  return error as TrackerRequestError;
}
