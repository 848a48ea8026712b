import { createHash } from 'node:crypto';
import { readCodebase } from './read.ts';
import type { CodebaseFacts, RepositorySource } from './types.ts';

/**
 * Digests read lately, by content. Every call of a run carries the same digest and each
 * reads its prompt afresh, so the cache is keyed by what the digest holds, not by object.
 */
const readDigests = new Map<string, CodebaseFacts>();

/** How many digests are kept: a handful of projects run at once. */
const KEPT = 8;

/**
 * {@link readCodebase}, once per digest content.
 *
 * @example
 * readCodebaseOnce(source) === readCodebaseOnce({ ...source }); // true
 */
export function readCodebaseOnce(source: RepositorySource): CodebaseFacts {
  const hash = createHash('sha256')
    .update(source.name)
    .update(`\0${source.commit ?? ''}`);
  for (const file of source.files) hash.update(`\0${file.path}\0`).update(file.content);
  const key = hash.digest('base64');
  let facts = readDigests.get(key);
  if (!facts) {
    facts = readCodebase(source);
    if (readDigests.size >= KEPT) readDigests.delete(readDigests.keys().next().value!);
    readDigests.set(key, facts);
  }
  return facts;
}
