/**
 * Rails `config/routes.rb` basics (resources, namespaces, scopes, verb routes, root) and the
 * resource expansion Rails and Laravel share: one declaration, the seven conventional routes.
 */
import { singular } from '../text/words.ts';
import { joinPath } from './scan.ts';
import type { Route } from './types.ts';

type Action = [action: string, method: string, member: boolean, suffix: string];

const ACTIONS: Record<'rails' | 'laravel', Action[]> = {
  rails: [
    ['index', 'GET', false, ''],
    ['new', 'GET', false, '/new'],
    ['create', 'POST', false, ''],
    ['show', 'GET', true, ''],
    ['edit', 'GET', true, '/edit'],
    ['update', 'PATCH', true, ''],
    ['update', 'PUT', true, ''],
    ['destroy', 'DELETE', true, ''],
  ],
  laravel: [
    ['index', 'GET', false, ''],
    ['create', 'GET', false, '/create'],
    ['store', 'POST', false, ''],
    ['show', 'GET', true, ''],
    ['edit', 'GET', true, '/edit'],
    ['update', 'PUT', true, ''],
    ['update', 'PATCH', true, ''],
    ['destroy', 'DELETE', true, ''],
  ],
};

const param = (style: 'rails' | 'laravel', name: string, nested: boolean) =>
  style === 'rails' ? (nested ? `:${singular(name)}_id` : ':id') : `{${singular(name)}}`;

/**
 * The routes a resource declaration stands for, relative to where it is declared.
 *
 * @example
 * resourceRoutes('rails', 'photos', { only: ['index', 'show'] });
 * // [{ method: 'GET', path: '/photos' }, { method: 'GET', path: '/photos/:id' }]
 */
export function resourceRoutes(
  style: 'rails' | 'laravel',
  name: string,
  options: {
    only?: readonly string[] | undefined;
    except?: readonly string[] | undefined;
    api?: boolean;
    singular?: boolean;
  } = {},
): { method: string; path: string }[] {
  // Laravel nests with dots: `photos.comments` → /photos/{photo}/comments/{comment}.
  const parts = name.split('.');
  const last = parts.pop()!;
  const base = joinPath(...parts.map((p) => `${p}/${param(style, p, false)}`), last);
  return (
    ACTIONS[style]
      .filter(([action]) => !options.only || options.only.includes(action))
      .filter(([action]) => !options.except?.includes(action))
      // An API resource has no forms: Laravel's `create` and `edit` pages, Rails' `new` and `edit`.
      .filter(([, , , suffix]) => !options.api || !['/new', '/create', '/edit'].includes(suffix))
      .filter(([action]) => !options.singular || action !== 'index')
      .map(([, method, member, suffix]) => ({
        method,
        path: joinPath(base, member && !options.singular ? param(style, last, false) : '', suffix),
      }))
  );
}

const symbols = (text: string | undefined) => text?.match(/\w+/g) ?? undefined;

/**
 * The routes a Rails `config/routes.rb` declares.
 *
 * @example
 * readRailsRoutes({ path: 'config/routes.rb', content: "namespace :admin do\n  get 'stats', to: 'stats#show'\nend" });
 * // [{ method: 'GET', path: '/admin/stats', file: 'config/routes.rb' }]
 */
export function readRailsRoutes(file: { path: string; content: string }): Route[] {
  const out: Route[] = [];
  // Each open block's full prefix: a namespace's, a resource's members, or unchanged.
  const stack: string[] = [''];
  const here = () => stack[stack.length - 1]!;
  const add = (method: string, path: string) =>
    out.push({ method, path: joinPath(here(), path), file: file.path });
  let resource: { collection: string; member: string } | undefined;
  for (const raw of file.content.split('\n')) {
    const line = raw.replace(/#.*$/, '').trim();
    const opens = /\bdo(?:\s*\|[^|]*\|)?$/.test(line);
    let pushed: string | undefined;
    const res = /^(resources|resource)\s+:(\w+)(.*)$/.exec(line);
    const verb = /^(get|post|put|patch|delete|match)\s+(?:['"]([^'"]*)['"]|:(\w+))(.*)$/.exec(line);
    if (res) {
      const one = res[1] === 'resource';
      const only = symbols(/only:\s*(\[[^\]]*\]|:\w+)/.exec(res[3]!)?.[1]);
      const except = symbols(/except:\s*(\[[^\]]*\]|:\w+)/.exec(res[3]!)?.[1]);
      for (const r of resourceRoutes('rails', res[2]!, { only, except, singular: one }))
        add(r.method, r.path);
      const collection = joinPath(here(), res[2]!);
      resource = { collection, member: one ? collection : joinPath(collection, ':id') };
      pushed = one ? collection : joinPath(collection, param('rails', res[2]!, true));
    } else if (/^namespace\s+:(\w+)/.test(line))
      pushed = joinPath(here(), /^namespace\s+:(\w+)/.exec(line)![1]!);
    else if (/^scope\b/.test(line))
      pushed = joinPath(here(), /^scope\s+(?:path:\s*)?['"]([^'"]*)['"]/.exec(line)?.[1] ?? '');
    else if (/^member\s+do/.test(line) && resource) pushed = resource.member;
    else if (/^collection\s+do/.test(line) && resource) pushed = resource.collection;
    else if (/^root\b/.test(line)) add('GET', '/');
    else if (verb) {
      const path = verb[2] ?? verb[3]!;
      const via = symbols(/via:\s*(\[[^\]]*\]|:\w+)/.exec(verb[4]!)?.[1]);
      const methods = verb[1] === 'match' ? (via ?? ['ANY']) : [verb[1]!];
      for (const method of methods) add(method.toUpperCase(), path);
    }
    if (opens) stack.push(pushed ?? here());
    else if (line === 'end' && stack.length > 1) stack.pop();
  }
  return out;
}
