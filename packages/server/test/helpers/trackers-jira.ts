/**
 * What the Jira adapter's test files share: fake Jira Cloud sites on the file's clock (closed
 * after its tests), jira.js clients that throw on an answer Jira's schemas do not describe,
 * drafts with a project's marker, and the TrackerRequestError a call rejects with.
 */
import { afterAll, expect } from 'vitest';
import { connectJira } from '../../src/trackers/providers/jira/client.ts';
import {
  type IssueDraft,
  itemMarker,
  TrackerRequestError,
} from '../../src/trackers/providers/provider.ts';
import { type FakeJira, startFakeJira } from '../fakes/jira.ts';

/**
 * Starts fake sites dated by `now`, each closed after the file's tests; `clientFor` connects
 * to one (with `overrides` of its settings).
 *
 * @example
 * const { fakeJira, clientFor } = jiraSites(() => now);
 * const client = clientFor(await fakeJira({ pageSize: 2 }));
 */
export function jiraSites(now: () => Date) {
  const fakes: FakeJira[] = [];
  afterAll(async () => {
    await Promise.all(fakes.map((each) => each.close()));
  });
  return {
    async fakeJira(options: Parameters<typeof startFakeJira>[0] = {}) {
      const fake = await startFakeJira({ now, ...options });
      fakes.push(fake);
      return fake;
    },
    clientFor(fake: FakeJira, overrides: Partial<Parameters<typeof connectJira>[0]> = {}) {
      return connectJira(
        { baseUrl: fake.baseUrl, credentials: fake.credentials, target: fake.target, ...overrides },
        { onSchemaMismatch: 'throw' },
      );
    },
  };
}

/** A draft for `itemId` with `projectId`'s marker, a checklist of two criteria, no relations. */
export function draft(
  projectId: string,
  itemId: string,
  extra: Partial<IssueDraft> = {},
): IssueDraft {
  return {
    itemId,
    title: `${itemId} Build the booking form`,
    body: `## ${itemId}\n\nThe form.\n\n- [ ] FR-1.1 a slot is chosen\n- [x] FR-1.2 a name is given\n\n${itemMarker(projectId, itemId)}\n`,
    labels: ['pgs', 'FR-1'],
    blockedBy: [],
    ...extra,
  };
}

/** The TrackerRequestError a promise rejects with (the test fails on anything else). */
export async function refusal(promise: Promise<unknown>): Promise<TrackerRequestError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(TrackerRequestError);
  return error as TrackerRequestError;
}
