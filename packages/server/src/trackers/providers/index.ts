/**
 * The tracker adapters by provider. Each adapter file registers itself here with one line;
 * the rest of PGS finds an adapter through {@link adapterFor}, never by importing a provider.
 */
import { githubAdapter } from './github.ts';
import { jiraAdapter } from './jira.ts';
import { linearAdapter } from './linear.ts';
import type { TrackerAdapter, TrackerProvider } from './provider.ts';

const ADAPTERS: Partial<Record<TrackerProvider, TrackerAdapter>> = {
  github: githubAdapter,
  jira: jiraAdapter,
  linear: linearAdapter,
};

/** The adapter for a provider, or undefined while it is not built. */
export function adapterFor(provider: TrackerProvider): TrackerAdapter | undefined {
  return ADAPTERS[provider];
}

export type * from './provider.ts';
export { itemMarker, readMarker, TrackerRequestError } from './provider.ts';
