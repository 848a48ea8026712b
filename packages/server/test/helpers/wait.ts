/**
 * Re-runs `probe` until it returns something other than `undefined` and resolves with it;
 * fails at the deadline naming `what`. Tests wait on conditions this way, never on a fixed
 * sleep: the pause between probes only spaces them out.
 *
 * @example
 * const done = await waitFor(async () => ((await get(id)).status === 'completed' ? true : undefined), { what: 'completion' });
 */
export async function waitFor<T>(
  probe: () => Promise<T | undefined>,
  { timeoutMs = 20_000, intervalMs = 20, what = 'the condition' } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what} not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
