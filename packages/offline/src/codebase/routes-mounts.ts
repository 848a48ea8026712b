/**
 * The routers of JavaScript and Python services and how they are mounted in one another: what
 * the readers of routes.ts and routes-js.ts record, and the prefixes a route is reached under.
 */
import { joinPath } from './scan.ts';

export type File = { path: string; content: string };

/** A router: a variable of a file (`*` stands for every router of the file). */
export interface Node {
  file: string;
  receiver: string;
}

/** A route as declared on a router, before the prefixes it is mounted under. */
export interface Local extends Node {
  method: string;
  path: string;
}

/** A router mounted in another under a prefix. */
export interface Mount {
  parent: Node;
  child: Node;
  prefix: string;
}

/** What the readers of one language found, before prefixes are joined. */
export interface Read {
  routes: Local[];
  mounts: Mount[];
  /** Prefixes routers give themselves: `APIRouter(prefix="/x")`, `new Router({ prefix })`. */
  own: Map<string, string>;
}

/**
 * A router's key in {@link Read.own}.
 *
 * @example
 * key({ file: 'app.js', receiver: 'api' }); // 'app.js#api'
 */
export const key = (node: Node) => `${node.file}#${node.receiver}`;

/**
 * The prefixes a router is reached under: its mounts' chains, then its own prefix.
 *
 * @example
 * prefixesOf({ file: 'app.js', receiver: 'api' }, read); // ['/v1']
 */
export function prefixesOf(node: Node, read: Read, depth = 0): string[] {
  const own = read.own.get(key(node)) ?? '';
  if (depth > 8) return [own];
  const defaultName = read.own.get(`${node.file}#=default`);
  const mounts = read.mounts.filter(
    (m) =>
      m.child.file === node.file &&
      (m.child.receiver === node.receiver ||
        m.child.receiver === '*' ||
        (m.child.receiver === 'default' &&
          (defaultName === undefined || defaultName === node.receiver))),
  );
  if (mounts.length === 0) return [own];
  return mounts
    .flatMap((m) => prefixesOf(m.parent, read, depth + 1).map((p) => joinPath(p, m.prefix, own)))
    .slice(0, 4);
}
