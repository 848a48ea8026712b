/**
 * A function of one key, computed once per key among the last few asked. The offline engine
 * is called once per document and each call reads the idea again (reading-once.ts); the
 * server's gate reads every document of a project again each time it checks one (the
 * trace's parse). Both remember what they read last instead.
 */

/**
 * `compute`, remembered for the `kept` keys used last; a key used again moves to the back, the
 * one used longest ago goes first. What `compute` returns is shared by every caller, so it must
 * not be changed (freeze it).
 *
 * @example
 * const square = lastUsed(8, (n: number) => n * n);
 * square(3) === square(3); // true, computed once
 */
export function lastUsed<K, V>(kept: number, compute: (key: K) => V): (key: K) => V {
  const values = new Map<K, V>();
  return (key) => {
    const known = values.get(key);
    if (known !== undefined || values.has(key)) {
      values.delete(key);
      values.set(key, known as V);
      return known as V;
    }
    const value = compute(key);
    if (values.size >= kept) values.delete(values.keys().next().value as K);
    values.set(key, value);
    return value;
  };
}

/**
 * A value and everything it holds, frozen: changing a shared value throws (modules run in
 * strict mode) instead of changing what the next caller reads.
 *
 * @example
 * Object.isFrozen(frozenDeep({ list: [1] }).list); // true
 */
export function frozenDeep<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const member of Object.values(value)) frozenDeep(member);
  }
  return value;
}
