/**
 * HTTP routes of JavaScript and Python services, with the prefixes they are mounted under:
 * Express/Koa/Fastify/Hono routers mounted with `use`/`register`/`route`, FastAPI and Flask
 * routers included with `include_router`/`register_blueprint`, Django `urls.py` with `include`.
 * A route is read where it is declared; its full path is the chain of mounts that leads to it.
 */
import { readBracedRoutes } from './routes-braced.ts';
import { readRailsRoutes } from './routes-rails.ts';
import { inside, joinPath, literal, splitTopLevel } from './scan.ts';
import { isTestPath } from './source.ts';
import type { Route } from './types.ts';

type File = { path: string; content: string };

/** A router: a variable of a file (`*` stands for every router of the file). */
interface Node {
  file: string;
  receiver: string;
}

interface Local extends Node {
  method: string;
  path: string;
}

interface Mount {
  parent: Node;
  child: Node;
  prefix: string;
}

/** What the readers of one language found, before prefixes are joined. */
interface Read {
  routes: Local[];
  mounts: Mount[];
  /** Prefixes routers give themselves: `APIRouter(prefix="/x")`, `new Router({ prefix })`. */
  own: Map<string, string>;
}

const key = (node: Node) => `${node.file}#${node.receiver}`;
const dir = (path: string) => (path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '');

function resolveRelative(
  from: string,
  spec: string,
  paths: ReadonlySet<string>,
): string | undefined {
  if (!spec.startsWith('.')) return undefined;
  const parts = dir(from).split('/').filter(Boolean);
  for (const part of spec.split('/')) {
    if (part === '..') parts.pop();
    else if (part !== '.') parts.push(part);
  }
  const base = parts.join('/');
  const bare = base.replace(/\.(?:[cm]?js|jsx)$/, '');
  const exts = ['', '.ts', '.tsx', '.js', '.mjs', '.cjs', '.jsx', '/index.ts', '/index.js'];
  for (const candidate of [base, ...exts.map((ext) => bare + ext)])
    if (paths.has(candidate)) return candidate;
  return undefined;
}

/** The names a JavaScript file imports from files of the digest: local name → file and export. */
function jsImports(file: File, paths: ReadonlySet<string>): Map<string, Node> {
  const out = new Map<string, Node>();
  const add = (spec: string, names: string) => {
    const target = resolveRelative(file.path, spec, paths);
    if (!target) return;
    const named = /\{([^}]*)\}/.exec(names)?.[1];
    for (const part of named?.split(',') ?? []) {
      const [exported, local] = part
        .trim()
        .replace(/^type\s+/, '')
        .split(/\s+as\s+|\s*:\s*/);
      if (exported)
        out.set((local ?? exported).trim(), { file: target, receiver: exported.trim() });
    }
    const plain = /^\s*(?:\*\s+as\s+)?([A-Za-z_$][\w$]*)/.exec(names.replace(/\{[^}]*\}/, ''))?.[1];
    if (plain) out.set(plain, { file: target, receiver: 'default' });
  };
  for (const m of file.content.matchAll(/^\s*import\s+([^'";]+?)\s+from\s+['"]([^'"]+)['"]/gm))
    add(m[2]!, m[1]!);
  for (const m of file.content.matchAll(
    /(?:const|let|var)\s+([\w$]+|\{[^}]*\})\s*=\s*require\(\s*['"]([^'"]+)['"]\s*\)/g,
  ))
    add(m[2]!, m[1]!);
  return out;
}

const JS_ROUTER =
  /(?:const|let|var)\s+([\w$]+)\s*(?::\s*[\w.<>, ]+)?=\s*(?:await\s+)?(?:express\.Router|Router|express|fastify|Fastify|new\s+(?:Koa)?Router|new\s+Hono|new\s+Koa|Koa|createRouter)\s*\(/g;
const JS_NAMES = new Set(['app', 'router', 'server', 'fastify', 'instance', 'routes']);
const JS_SERVER_IMPORT =
  /['"](?:express|fastify|koa|@koa\/router|koa-router|hono|restify|@hapi\/hapi)['"]/;
const METHODS = 'get|post|put|patch|delete|del|options|head|all';

function readJs(file: File, paths: ReadonlySet<string>, read: Read): void {
  const text = file.content;
  const routers = new Set<string>();
  for (const m of text.matchAll(JS_ROUTER)) {
    routers.add(m[1]!);
    const prefix = /prefix\s*:\s*['"`]([^'"`]*)['"`]/.exec(
      inside(text, m.index + m[0].length - 1),
    )?.[1];
    if (prefix) read.own.set(key({ file: file.path, receiver: m[1]! }), prefix);
  }
  // Fastify's encapsulated plugins: `app.register(async (api) => { api.get(…) }, { prefix })`.
  for (const m of text.matchAll(
    /\b([\w$]+)\s*\.\s*register\s*\(\s*(?:async\s+)?(?:function\s*[\w$]*\s*\(\s*([\w$]+)|\(\s*([\w$]+)[^)]*\)\s*=>|([\w$]+)\s*=>)/g,
  )) {
    const param = (m[2] ?? m[3] ?? m[4])!;
    const args = splitTopLevel(inside(text, m.index + m[0].indexOf('(')));
    const prefix = /\bprefix\s*:\s*['"`]([^'"`]*)/.exec(args[1] ?? '')?.[1] ?? '';
    routers.add(param);
    read.mounts.push({
      parent: { file: file.path, receiver: m[1]! },
      child: { file: file.path, receiver: param },
      prefix,
    });
  }
  const serverFile = routers.size > 0 || JS_SERVER_IMPORT.test(text);
  // Plugins receive their router as a parameter: `export default async function (app) {…}`.
  const parameters = new Set(
    [...text.matchAll(/(?:function\s*[\w$]*\s*\(|\(\s*)([\w$]+)\s*(?::[^,)]*)?[,)]/g)].map(
      (m) => m[1]!,
    ),
  );
  const isRouter = (name: string) =>
    routers.has(name) ||
    name === 'fastify' ||
    (JS_NAMES.has(name) && (serverFile || parameters.has(name)));
  const imports = jsImports(file, paths);
  const defaultExport = /export\s+default\s+([\w$]+)\s*;?\s*$|module\.exports\s*=\s*([\w$]+)/m.exec(
    text,
  );
  if (defaultExport) read.own.set(`${file.path}#=default`, defaultExport[1] ?? defaultExport[2]!);
  const add = (receiver: string, method: string, path: string) =>
    read.routes.push({ file: file.path, receiver, method: method.toUpperCase(), path });

  for (const m of text.matchAll(
    new RegExp(`\\b([\\w$]+)\\s*\\.\\s*(${METHODS})\\s*\\(\\s*(['"\`])(/[^'"\`]*)\\3`, 'g'),
  ))
    if (isRouter(m[1]!))
      add(m[1]!, m[2] === 'del' ? 'DELETE' : m[2] === 'all' ? 'ANY' : m[2]!, m[4]!);

  // Express's `router.route('/p').get(…).post(…)` and Hono's `app.route('/p', sub)`.
  for (const m of text.matchAll(/\b([\w$]+)\s*\.\s*route\s*\(/g)) {
    if (!isRouter(m[1]!)) continue;
    const open = m.index + m[0].length - 1;
    const args = splitTopLevel(inside(text, open));
    const path = literal(args[0] ?? '');
    if (path === undefined) {
      // Fastify's `fastify.route({ method, url })`.
      const options = args[0] ?? '';
      const url = /\burl\s*:\s*['"`]([^'"`]+)/.exec(options)?.[1];
      const methods = /\bmethod\s*:\s*(\[[^\]]*\]|['"]\w+['"])/.exec(options)?.[1];
      if (url && methods) for (const verb of methods.match(/\w+/g) ?? []) add(m[1]!, verb, url);
      continue;
    }
    if (args.length >= 2) {
      mountJs(m[1]!, path, args[1]!.trim());
      continue;
    }
    // The chain ends at the statement's end; a bounded look keeps a long file linear.
    const rest = text.slice(open, open + 2000).split(/;\s*$|\n\s*\n/m)[0] ?? '';
    for (const chained of rest.matchAll(new RegExp(`\\)\\s*\\.\\s*(${METHODS})\\s*\\(`, 'g')))
      add(m[1]!, chained[1]!, path);
  }

  /** A plugin (`register(plugin, { prefix })`) is a function: every router in it is mounted. */
  function mountJs(parent: string, prefix: string, target: string, plugin = false): void {
    const name = /^([\w$]+)(?:\.([\w$]+))?$/.exec(target);
    const required = /^require\(\s*['"]([^'"]+)['"]\s*\)$/.exec(target)?.[1];
    let child: Node | undefined;
    if (required) {
      const f = resolveRelative(file.path, required, paths);
      if (f) child = { file: f, receiver: 'default' };
    } else if (name) {
      const imported = imports.get(name[1]!);
      if (imported) child = name[2] ? { file: imported.file, receiver: name[2] } : imported;
      else if (routers.has(name[1]!)) child = { file: file.path, receiver: name[1]! };
    }
    if (child && plugin && child.file !== file.path) child = { file: child.file, receiver: '*' };
    if (child) read.mounts.push({ parent: { file: file.path, receiver: parent }, child, prefix });
  }

  for (const m of text.matchAll(/\b([\w$]+)\s*\.\s*use\s*\(/g)) {
    if (!isRouter(m[1]!)) continue;
    const args = splitTopLevel(inside(text, m.index + m[0].length - 1));
    const prefix = literal(args[0] ?? '');
    if (prefix === undefined || args.length < 2) continue;
    mountJs(m[1]!, prefix, args[args.length - 1]!.trim());
  }
  for (const m of text.matchAll(/\b([\w$]+)\s*\.\s*register\s*\(/g)) {
    const args = splitTopLevel(inside(text, m.index + m[0].length - 1));
    // A plugin registered without a prefix still takes the prefixes it is registered under.
    const prefix = /\bprefix\s*:\s*['"`]([^'"`]*)/.exec(args[1] ?? '')?.[1] ?? '';
    if (isRouter(m[1]!)) mountJs(m[1]!, prefix, args[0]!.trim(), true);
  }
  readNextRoute(file, add);
}

/** Next.js route handlers (`app/**\/route.ts`) and API routes (`pages/api/**`): the path is the file's. */
function readNextRoute(
  file: File,
  add: (receiver: string, method: string, path: string) => void,
): void {
  const app = /(?:^|\/)app\/(.*?)\/?route\.[cm]?[jt]sx?$/.exec(file.path);
  if (app) {
    const path = `/${app[1]!}`
      .split('/')
      .filter((s) => !/^\(.*\)$/.test(s))
      .join('/');
    for (const m of file.content.matchAll(
      /export\s+(?:async\s+)?(?:function|const)\s+(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)\b/g,
    ))
      add('next', m[1]!, path || '/');
  }
  const api = /(?:^|\/)pages\/(api\/.*?)(?:\/index)?\.[cm]?[jt]sx?$/.exec(file.path);
  if (api) add('next', 'ANY', `/${api[1]!}`);
}

/** Python: dotted module → file, for `from app.routers import farms`. */
function pythonModules(paths: Iterable<string>): Map<string, string> {
  const out = new Map<string, string>();
  for (const path of paths) {
    if (!path.endsWith('.py')) continue;
    const dotted = path.replace(/\/__init__\.py$|\.py$/, '').replace(/\//g, '.');
    out.set(dotted, path);
    if (dotted.startsWith('src.')) out.set(dotted.slice(4), path);
  }
  return out;
}

function pyImports(file: File, modules: Map<string, string>): Map<string, Node> {
  const out = new Map<string, Node>();
  const pkg = file.path.replace(/\/[^/]*$/, '').replace(/\//g, '.');
  const absolute = (module: string) => {
    const dots = /^\.*/.exec(module)![0].length;
    if (dots === 0) return module;
    const base = pkg.split('.').slice(0, Math.max(0, pkg.split('.').length - (dots - 1)));
    return [...base, module.slice(dots)].filter(Boolean).join('.');
  };
  for (const m of file.content.matchAll(/^\s*from\s+([\w.]+)\s+import\s+\(?([^)\n]+)/gm)) {
    const module = absolute(m[1]!).replace(/^src\./, '');
    for (const part of m[2]!.split(',')) {
      const [name, alias] = part.trim().split(/\s+as\s+/);
      if (!name) continue;
      const asModule = modules.get(`${module}.${name}`);
      const inModule = modules.get(module);
      if (asModule) out.set(alias ?? name, { file: asModule, receiver: '*' });
      else if (inModule) out.set(alias ?? name, { file: inModule, receiver: name });
    }
  }
  for (const m of file.content.matchAll(/^\s*import\s+([\w.]+)(?:\s+as\s+(\w+))?\s*$/gm)) {
    const target = modules.get(m[1]!);
    if (target) out.set(m[2] ?? m[1]!, { file: target, receiver: '*' });
  }
  return out;
}

const PY_ROUTER =
  /^\s*(\w+)\s*(?::\s*[\w.]+\s*)?=\s*(?:[\w.]+\.)?(APIRouter|FastAPI|Blueprint|Flask|Starlette|Quart|Sanic)\s*\(/gm;

function readPython(file: File, modules: Map<string, string>, read: Read): void {
  const text = file.content;
  const locals = new Set<string>();
  for (const m of text.matchAll(PY_ROUTER)) {
    locals.add(m[1]!);
    const args = inside(text, m.index + m[0].length - 1, { hash: true });
    const prefix = /\b(?:url_)?prefix\s*=\s*[rf]?['"]([^'"]*)['"]/.exec(args)?.[1];
    if (prefix) read.own.set(key({ file: file.path, receiver: m[1]! }), prefix);
  }
  for (const m of text.matchAll(
    /^\s*@(\w+)\.(get|post|put|patch|delete|head|options|route|api_route)\s*\(/gm,
  )) {
    const args = inside(text, m.index + m[0].length - 1, { hash: true });
    const first = splitTopLevel(args, ',', { hash: true })[0] ?? '';
    const path = literal(first.replace(/^\s*(?:path|rule)\s*=\s*/, ''));
    if (path === undefined) continue;
    const listed = /\bmethods\s*=\s*[[(]([^\])]*)[\])]/.exec(args)?.[1];
    const methods = /route$/.test(m[2]!) ? (listed?.match(/\w+/g) ?? ['GET']) : [m[2]!];
    for (const method of methods)
      read.routes.push({ file: file.path, receiver: m[1]!, method: method.toUpperCase(), path });
  }
  const imports = pyImports(file, modules);
  for (const m of text.matchAll(/\b(\w+)\.(include_router|register_blueprint)\s*\(/g)) {
    const args = splitTopLevel(inside(text, m.index + m[0].length - 1, { hash: true }));
    const target = /^\s*(\w+)(?:\.(\w+))?\s*$/.exec(args[0] ?? '');
    if (!target) continue;
    const prefix =
      /\b(?:url_)?prefix\s*=\s*[rf]?['"]([^'"]*)['"]/.exec(args.slice(1).join(','))?.[1] ?? '';
    const imported = imports.get(target[1]!);
    const child: Node | undefined = imported
      ? target[2]
        ? { file: imported.file, receiver: target[2] }
        : imported
      : locals.has(target[1]!)
        ? { file: file.path, receiver: target[1]! }
        : undefined;
    if (child) read.mounts.push({ parent: { file: file.path, receiver: m[1]! }, child, prefix });
  }
  if (/(^|\/)urls\.py$/.test(file.path)) readDjango(file, modules, read);
}

function readDjango(file: File, modules: Map<string, string>, read: Read): void {
  const text = file.content;
  for (const m of text.matchAll(/\b(?:path|re_path|url)\s*\(/g)) {
    const args = splitTopLevel(inside(text, m.index + m[0].length - 1, { hash: true }));
    const raw = literal(args[0] ?? '');
    if (raw === undefined || args.length < 2) continue;
    const path = raw.replace(/^\^|\$$/g, '');
    const included = /^\s*include\(\s*['"]([\w.]+)['"]/.exec(args[1]!)?.[1];
    const target = included ? modules.get(included) : undefined;
    if (target)
      read.mounts.push({
        parent: { file: file.path, receiver: 'urlpatterns' },
        child: { file: target, receiver: 'urlpatterns' },
        prefix: path,
      });
    else if (!included)
      read.routes.push({ file: file.path, receiver: 'urlpatterns', method: 'ANY', path });
  }
}

/** The prefixes a router is reached under: its mounts' chains, then its own prefix. */
function prefixesOf(node: Node, read: Read, depth = 0): string[] {
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

/**
 * Every HTTP route the digest declares, with its full path, once per method and path.
 *
 * @example
 * readRoutes([{ path: 'main.go', content: 'r.Get("/vehicles/", list)' }]); // [{ method: 'GET', path: '/vehicles', file: 'main.go' }]
 */
export function readRoutes(files: readonly File[]): Route[] {
  const sources = files.filter(
    (f) => !isTestPath(f.path) && !/(^|\/)(?:node_modules|vendor|dist)\//.test(f.path),
  );
  const paths = new Set(files.map((f) => f.path));
  const modules = pythonModules(paths);
  const read: Read = { routes: [], mounts: [], own: new Map() };
  const out: Route[] = [];
  for (const file of sources) {
    if (/\.[cm]?[jt]sx?$/.test(file.path)) readJs(file, paths, read);
    else if (file.path.endsWith('.py')) readPython(file, modules, read);
    else if (/(^|\/)config\/routes\.rb$/.test(file.path)) out.push(...readRailsRoutes(file));
  }
  out.push(...readBracedRoutes(sources));
  for (const route of read.routes)
    for (const prefix of prefixesOf(route, read))
      out.push({ method: route.method, path: joinPath(prefix, route.path), file: route.file });
  const seen = new Set<string>();
  return out.filter((route) => {
    const id = `${route.method} ${route.path}`;
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}
