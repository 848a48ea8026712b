/**
 * HTTP routes of JavaScript and Python services, with the prefixes they are mounted under:
 * Express/Koa/Fastify/Hono routers mounted with `use`/`register`/`route`, FastAPI and Flask
 * routers included with `include_router`/`register_blueprint`, Django `urls.py` with `include`.
 * A route is read where it is declared; its full path is the chain of mounts that leads to it
 * (routes-mounts.ts). The JavaScript reader is routes-js.ts.
 */
import { readBracedRoutes } from './routes-braced.ts';
import { readJs } from './routes-js.ts';
import { type File, key, type Node, prefixesOf, type Read } from './routes-mounts.ts';
import { readRailsRoutes } from './routes-rails.ts';
import { inside, joinPath, literal, splitTopLevel } from './scan.ts';
import { isTestPath } from './source.ts';
import type { Route } from './types.ts';

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
