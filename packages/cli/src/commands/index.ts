import type { Command } from '../context.ts';
import { adminAudit } from './admin.ts';
import { answer } from './answer.ts';
import { check } from './check.ts';
import { clarify } from './clarify.ts';
import {
  connectGithub,
  connectionsList,
  connectJira,
  connectLinear,
  disconnect,
} from './connections.ts';
import { conventionsGet, conventionsSet } from './conventions.ts';
import { cost } from './cost.ts';
import { creditsGrant, creditsShow } from './credits.ts';
import { diff } from './diff.ts';
import { download } from './download.ts';
import { generate } from './generate.ts';
import { history } from './history.ts';
import { keysCreate, keysRevoke } from './keys.ts';
import { watch } from './live.ts';
import { cancel, list, remove } from './manage.ts';
import { mcpServe } from './mcp.ts';
import { status, wait } from './projects.ts';
import { provenance } from './provenance.ts';
import { revise } from './revise.ts';
import { sync } from './sync.ts';
import { done, next, task, tasks } from './tasks.ts';
import { trace } from './trace.ts';
import { webhooksCreate, webhooksDelete, webhooksDeliveries, webhooksList } from './webhooks.ts';

/** A command group, `pgs <group> <verb>`; `default` runs for `pgs <group>` alone. */
export interface Group {
  summary: string;
  verbs: ReadonlyMap<string, Command>;
  default?: Command | undefined;
}

/**
 * The project commands, `pgs <command>` (an API key), by name.
 *
 * @example
 * COMMANDS.get('generate'); // generate
 */
export const COMMANDS: ReadonlyMap<string, Command> = new Map([
  ['generate', generate],
  ['clarify', clarify],
  ['status', status],
  ['wait', wait],
  ['watch', watch],
  ['download', download],
  ['trace', trace],
  ['check', check],
  ['provenance', provenance],
  ['cost', cost],
  ['revise', revise],
  ['answer', answer],
  ['history', history],
  ['diff', diff],
  ['tasks', tasks],
  ['task', task],
  ['next', next],
  ['done', done],
  ['list', list],
  ['cancel', cancel],
  ['delete', remove],
  ['mcp', mcpServe],
  ['connections', connectionsList],
  ['sync', sync],
  ['disconnect', disconnect],
]);

/**
 * Every command group, by group and verb; a new command module is one more line here.
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
  ['admin', { summary: 'Operator checks', verbs: new Map([['audit', adminAudit]]) }],
  [
    'conventions',
    {
      summary: 'House conventions every new project follows',
      default: conventionsGet,
      verbs: new Map([
        ['get', conventionsGet],
        ['set', conventionsSet],
      ]),
    },
  ],
  [
    'credits',
    { summary: 'Credits', default: creditsShow, verbs: new Map([['grant', creditsGrant]]) },
  ],
  [
    'connect',
    {
      summary: 'Connect an issue tracker (GitHub, Linear, Jira)',
      verbs: new Map([
        ['github', connectGithub],
        ['linear', connectLinear],
        ['jira', connectJira],
      ]),
    },
  ],
  [
    'webhooks',
    {
      summary: 'Webhook endpoints',
      verbs: new Map([
        ['create', webhooksCreate],
        ['list', webhooksList],
        ['delete', webhooksDelete],
        ['deliveries', webhooksDeliveries],
      ]),
    },
  ],
]);
