import type { WebhookDelivery, WebhookEndpoint, WebhookEventType } from '@pgs/client';
import type { Command } from '../context.ts';
import { stringValue, type Values } from '../context.ts';
import { UsageError } from '../errors.ts';
import { table } from '../output.ts';
import { API_OPTIONS, expectPositionals } from './common.ts';

const CREATE = 'webhooks create';
const LIST = 'webhooks list';
const DELETE = 'webhooks delete';
const DELIVERIES = 'webhooks deliveries';

// Keyed by WebhookEventType so that a new event in the contract breaks the build here until handled.
const EVENTS = {
  'project.completed': true,
  'project.failed': true,
  'project.revised': true,
  'task.updated': true,
} as const satisfies Record<WebhookEventType, true>;

function eventsValue(values: Values): WebhookEventType[] | undefined {
  const raw = stringValue(values, 'events');
  if (raw === undefined) return undefined;
  const events = raw
    .split(',')
    .map((event) => event.trim())
    .filter((event) => event !== '');
  const unknown = events.find((event) => !Object.hasOwn(EVENTS, event));
  if (events.length === 0 || unknown !== undefined) {
    throw new UsageError(
      `--events must be project.completed, project.failed or both (comma-separated), not ${JSON.stringify(raw)}`,
      `pgs ${CREATE}`,
    );
  }
  return [...new Set(events)] as WebhookEventType[];
}

function argument(positionals: string[], what: string, command: string): string {
  const value = positionals[0]?.trim();
  if (!value) throw new UsageError(`missing the ${what}`, `pgs ${command}`);
  expectPositionals(positionals, 1, command);
  return value;
}

const seconds = (iso: string) => iso.replace(/\.\d+Z$/, 'Z');

const ENDPOINT_COLUMNS: readonly [string, (e: WebhookEndpoint) => string][] = [
  ['ID', (e) => e.id],
  ['EVENTS', (e) => e.events.join(',')],
  ['CREATED', (e) => seconds(e.createdAt)],
  ['URL', (e) => e.url],
];

const DELIVERY_COLUMNS: readonly [string, (d: WebhookDelivery) => string][] = [
  ['ATTEMPTED', (d) => seconds(d.attemptedAt)],
  ['STATE', (d) => d.state],
  ['EVENT', (d) => d.eventType],
  ['ATTEMPT', (d) => String(d.attempt)],
  ['STATUS', (d) => (d.statusCode === null ? '-' : String(d.statusCode))],
  ['PROJECT', (d) => d.projectId],
  ['ERROR', (d) => d.error ?? '-'],
];

/**
 * `pgs webhooks create URL`: registers an endpoint and prints its signing secret, once.
 *
 * @example
 * pgs webhooks create https://hooks.example.com/pgs --events project.failed
 */
export const webhooksCreate: Command = {
  name: CREATE,
  summary: 'Register a webhook endpoint; prints its signing secret once',
  usage: 'pgs webhooks create URL [--events project.completed,project.failed] [--json]',
  credential: 'api-key',
  help: `Registers an https URL to receive signed project.completed and project.failed events
for the projects of the key's account in the key's mode (at most 10 endpoints per mode).
Prints the endpoint's id and its signing secret (whsec_...): the secret is shown only now,
store it. A retry after a lost answer replays the same endpoint and secret rather than
creating a second one.

Arguments:
  URL                    an https URL whose host resolves only to public addresses

Options:
  --events LIST          project.completed, project.failed or both, comma-separated;
                         default both

With --json, prints one line: {"id","url","events","createdAt","secret"}.

Example:
  pgs webhooks create https://hooks.example.com/pgs --events project.failed`,
  options: { ...API_OPTIONS, events: { type: 'string' } },
  async run(ctx) {
    const url = argument(ctx.positionals, 'URL', CREATE);
    const events = eventsValue(ctx.values);
    const created = await ctx
      .client()
      .webhookEndpoints.create(events === undefined ? { url } : { url, events }, {
        signal: ctx.io.signal,
      });
    if (ctx.json) {
      ctx.print(JSON.stringify(created));
      return;
    }
    ctx.print(
      [
        `Created webhook endpoint ${created.id}.`,
        '',
        `  URL      ${created.url}`,
        `  Events   ${created.events.join(', ')}`,
        `  Secret   ${created.secret}`,
        '',
        'This secret is shown only now: store it to verify what the endpoint receives.',
        `Delete the endpoint with: pgs webhooks delete ${created.id}`,
      ].join('\n'),
    );
  },
};

/**
 * `pgs webhooks list`: the key's endpoints, oldest first, without secrets.
 *
 * @example
 * pgs webhooks list --json
 */
export const webhooksList: Command = {
  name: LIST,
  summary: "List the key's webhook endpoints",
  usage: 'pgs webhooks list [--json]',
  credential: 'api-key',
  help: `Lists the webhook endpoints of the key's account in the key's mode, oldest first.
Secrets are never listed.

On a terminal, a table (ID, EVENTS, CREATED, URL); piped, one tab-separated line per
endpoint, no header. With --json, one line: {"data":[{"id","url","events","createdAt"}]}.`,
  options: { ...API_OPTIONS },
  async run(ctx) {
    expectPositionals(ctx.positionals, 0, LIST);
    const data = await ctx.client().webhookEndpoints.list({ signal: ctx.io.signal });
    if (ctx.json) {
      ctx.print(JSON.stringify({ data }));
      return;
    }
    const tty = ctx.io.stdout.isTTY === true;
    if (tty && data.length === 0) {
      ctx.print('No webhook endpoints. Create one with: pgs webhooks create URL');
      return;
    }
    for (const line of table(ENDPOINT_COLUMNS, data, tty)) ctx.print(line);
  },
};

/**
 * `pgs webhooks delete ID`: deletes an endpoint; its pending attempts are not made.
 *
 * @example
 * pgs webhooks delete we_01JD6WQ8V4Z9K3M2N5P7R8S0TA
 */
export const webhooksDelete: Command = {
  name: DELETE,
  summary: 'Delete a webhook endpoint',
  usage: 'pgs webhooks delete ID [--json]',
  credential: 'api-key',
  help: `Deletes a webhook endpoint with its delivery log; its pending attempts are not made.

Arguments:
  ID                     the endpoint id (we_...), as printed by pgs webhooks create or list

With --json, prints one line: {"id","deleted":true}.`,
  options: { ...API_OPTIONS },
  async run(ctx) {
    const id = argument(ctx.positionals, 'endpoint ID', DELETE);
    await ctx.client().webhookEndpoints.delete(id, { signal: ctx.io.signal });
    if (ctx.json) {
      ctx.print(JSON.stringify({ id, deleted: true }));
      return;
    }
    ctx.print(`Deleted webhook endpoint ${id}.`);
  },
};

/**
 * `pgs webhooks deliveries ID`: the endpoint's 50 most recent delivery attempts.
 *
 * @example
 * pgs webhooks deliveries we_01JD6WQ8V4Z9K3M2N5P7R8S0TA
 */
export const webhooksDeliveries: Command = {
  name: DELIVERIES,
  summary: "List a webhook endpoint's recent delivery attempts",
  usage: 'pgs webhooks deliveries ID [--json]',
  credential: 'api-key',
  help: `Lists the 50 most recent delivery attempts of a webhook endpoint, newest first.

Arguments:
  ID                     the endpoint id (we_...)

On a terminal, a table (ATTEMPTED, STATE, EVENT, ATTEMPT, STATUS, PROJECT, ERROR); piped,
one tab-separated line per attempt, no header. With --json, one line: {"data":[...]}, the
attempts as the API lists them (webhookId, eventType, projectId, attempt, statusCode,
error, durationMs, attemptedAt, nextAttemptAt, state).`,
  options: { ...API_OPTIONS },
  async run(ctx) {
    const id = argument(ctx.positionals, 'endpoint ID', DELIVERIES);
    const data = await ctx.client().webhookEndpoints.deliveries(id, { signal: ctx.io.signal });
    if (ctx.json) {
      ctx.print(JSON.stringify({ data }));
      return;
    }
    const tty = ctx.io.stdout.isTTY === true;
    if (tty && data.length === 0) {
      ctx.print('No delivery attempts yet.');
      return;
    }
    for (const line of table(DELIVERY_COLUMNS, data, tty)) ctx.print(line);
  },
};
