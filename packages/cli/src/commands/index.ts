import type { Command } from '../context.ts';
import { creditsGrant } from './credits.ts';
import { keysCreate, keysRevoke } from './keys.ts';

/** A command group, `pgs <group> <verb>`. */
export interface Group {
  summary: string;
  verbs: ReadonlyMap<string, Command>;
}

/**
 * Every command, by group and verb; a new command module is one more line here.
 *
 * @example
 * GROUPS.get('keys')?.verbs.get('create'); // keysCreate
 */
export const GROUPS: ReadonlyMap<string, Group> = new Map([
  [
    'keys',
    {
      summary: 'API keys',
      verbs: new Map([
        ['create', keysCreate],
        ['revoke', keysRevoke],
      ]),
    },
  ],
  ['credits', { summary: 'Credits', verbs: new Map([['grant', creditsGrant]]) }],
]);
