/**
 * The offline engine's codebase reader, for the rooms that read a digest without generating
 * (a conformance check, docs/conformance.md): the engine is reached only through models/.
 */

import type { RepositorySource } from '@pgs/contract/generation';
import { type CodebaseFacts, readRepository } from '@pgs/offline';

export type { CodebaseFacts } from '@pgs/offline';

/**
 * What a digest shows, read deterministically: its routes, tables and models, components,
 * stack and paths, each with the file it was read from.
 *
 * @example
 * codebaseFacts({ name: 'api', commit: null, files }).routes; // [{ method: 'GET', path: '/pets', file: 'src/routes.ts' }]
 */
export function codebaseFacts(source: RepositorySource): CodebaseFacts {
  return readRepository(source);
}
