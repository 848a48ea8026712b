/**
 * A connection's fetch for SDKs that call the global fetch and take no fetch of their own
 * (@linear/sdk, jira.js 6). See {@link withFetch}.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

type Fetch = typeof fetch;

// The global is replaced once, on the first scoped call, by a function that reads the
// current scope and falls back to the original: code outside a scope sees no change, and
// two connections' calls running at once each keep their own fetch (AsyncLocalStorage
// follows every await of `work`).
const scope = new AsyncLocalStorage<Fetch>();
let installed = false;

/**
 * Runs `work` with `fetch` in place of the global fetch (see above).
 *
 * @example
 * await withFetch(options.fetch, () => sdk.team(id));
 */
export function withFetch<T>(fetchFn: Fetch | undefined, work: () => Promise<T>): Promise<T> {
  if (fetchFn === undefined) return work();
  if (!installed) {
    installed = true;
    const original = globalThis.fetch;
    globalThis.fetch = ((input, init) => (scope.getStore() ?? original)(input, init)) as Fetch;
  }
  return scope.run(fetchFn, work);
}
