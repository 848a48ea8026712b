/**
 * HTTP routes of JavaScript services: Express/Koa/Fastify/Hono routers, the routes declared
 * on them, and the routers mounted in one another with `use`/`register`/`route`, through the
 * imports that name them; Next.js route handlers by their file's path.
 */
import type { File, Node, Read } from './routes-mounts.ts';
import { key } from './routes-mounts.ts';
import { inside, literal, splitTopLevel } from './scan.ts';

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

type AddRoute = (receiver: string, method: string, path: string) => void;

/** One JavaScript file as its readers see it: its routers, the names it imports, where routes go. */
interface JsFile {
  file: File;
  paths: ReadonlySet<string>;
  read: Read;
  routers: ReadonlySet<string>;
  isRouter: (name: string) => boolean;
  imports: Map<string, Node>;
  add: AddRoute;
}

/**
 * Reads one JavaScript file's routers, routes and mounts into `read`.
 *
 * @example
 * readJs({ path: 'app.js', content: "app.get('/health', ok)" }, paths, read); // read.routes: GET /health
 */
export function readJs(file: File, paths: ReadonlySet<string>, read: Read): void {
  const routers = declaredRouters(file, read);
  readEncapsulatedPlugins(file, routers, read);
  const js: JsFile = {
    file,
    paths,
    read,
    routers,
    isRouter: routerTest(file.content, routers),
    imports: jsImports(file, paths),
    add: (receiver, method, path) =>
      read.routes.push({ file: file.path, receiver, method: method.toUpperCase(), path }),
  };
  noteDefaultExport(file, read);
  readMethodCalls(js);
  readRouteCalls(js);
  readUseAndRegister(js);
  readNextRoute(file, js.add);
}

/** The routers a file makes (`const api = express.Router()`), with the prefixes they give themselves. */
function declaredRouters(file: File, read: Read): Set<string> {
  const text = file.content;
  const routers = new Set<string>();
  for (const m of text.matchAll(JS_ROUTER)) {
    routers.add(m[1]!);
    const prefix = /prefix\s*:\s*['"`]([^'"`]*)['"`]/.exec(
      inside(text, m.index + m[0].length - 1),
    )?.[1];
    if (prefix) read.own.set(key({ file: file.path, receiver: m[1]! }), prefix);
  }
  return routers;
}

/** Fastify's encapsulated plugins: `app.register(async (api) => { api.get(…) }, { prefix })`. */
function readEncapsulatedPlugins(file: File, routers: Set<string>, read: Read): void {
  const text = file.content;
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
}

/**
 * Whether a name is a router: one the file makes, `fastify`, or a usual router name in a
 * server's file or among the file's parameters.
 */
function routerTest(text: string, routers: ReadonlySet<string>): (name: string) => boolean {
  const serverFile = routers.size > 0 || JS_SERVER_IMPORT.test(text);
  // Plugins receive their router as a parameter: `export default async function (app) {…}`.
  const parameters = new Set(
    [...text.matchAll(/(?:function\s*[\w$]*\s*\(|\(\s*)([\w$]+)\s*(?::[^,)]*)?[,)]/g)].map(
      (m) => m[1]!,
    ),
  );
  return (name: string) =>
    routers.has(name) ||
    name === 'fastify' ||
    (JS_NAMES.has(name) && (serverFile || parameters.has(name)));
}

/** The name a file exports as its default, which a `default` import of it mounts. */
function noteDefaultExport(file: File, read: Read): void {
  const defaultExport = /export\s+default\s+([\w$]+)\s*;?\s*$|module\.exports\s*=\s*([\w$]+)/m.exec(
    file.content,
  );
  if (defaultExport) read.own.set(`${file.path}#=default`, defaultExport[1] ?? defaultExport[2]!);
}

/** Routes declared by method on a router: `router.get('/p', …)`. */
function readMethodCalls({ file, isRouter, add }: JsFile): void {
  for (const m of file.content.matchAll(
    new RegExp(`\\b([\\w$]+)\\s*\\.\\s*(${METHODS})\\s*\\(\\s*(['"\`])(/[^'"\`]*)\\3`, 'g'),
  ))
    if (isRouter(m[1]!))
      add(m[1]!, m[2] === 'del' ? 'DELETE' : m[2] === 'all' ? 'ANY' : m[2]!, m[4]!);
}

/** Express's `router.route('/p').get(…).post(…)` and Hono's `app.route('/p', sub)`. */
function readRouteCalls(js: JsFile): void {
  const { file, isRouter, add } = js;
  const text = file.content;
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
      mountJs(js, m[1]!, path, args[1]!.trim());
      continue;
    }
    // The chain ends at the statement's end; a bounded look keeps a long file linear.
    const rest = text.slice(open, open + 2000).split(/;\s*$|\n\s*\n/m)[0] ?? '';
    for (const chained of rest.matchAll(new RegExp(`\\)\\s*\\.\\s*(${METHODS})\\s*\\(`, 'g')))
      add(m[1]!, chained[1]!, path);
  }
}

/** Routers mounted under a prefix with `use('/p', sub)`, and plugins with `register(plugin, { prefix })`. */
function readUseAndRegister(js: JsFile): void {
  const { file, isRouter } = js;
  const text = file.content;
  for (const m of text.matchAll(/\b([\w$]+)\s*\.\s*use\s*\(/g)) {
    if (!isRouter(m[1]!)) continue;
    const args = splitTopLevel(inside(text, m.index + m[0].length - 1));
    const prefix = literal(args[0] ?? '');
    if (prefix === undefined || args.length < 2) continue;
    mountJs(js, m[1]!, prefix, args[args.length - 1]!.trim());
  }
  for (const m of text.matchAll(/\b([\w$]+)\s*\.\s*register\s*\(/g)) {
    const args = splitTopLevel(inside(text, m.index + m[0].length - 1));
    // A plugin registered without a prefix still takes the prefixes it is registered under.
    const prefix = /\bprefix\s*:\s*['"`]([^'"`]*)/.exec(args[1] ?? '')?.[1] ?? '';
    if (isRouter(m[1]!)) mountJs(js, m[1]!, prefix, args[0]!.trim(), true);
  }
}

/**
 * Mounts what `target` names (a `require`, an imported name or one of the file's routers)
 * in `parent` under `prefix`. A plugin (`register(plugin, { prefix })`) is a function: every
 * router in it is mounted.
 */
function mountJs(js: JsFile, parent: string, prefix: string, target: string, plugin = false): void {
  const { file, paths, imports, routers, read } = js;
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

/** Next.js route handlers (`app/**\/route.ts`) and API routes (`pages/api/**`): the path is the file's. */
function readNextRoute(file: File, add: AddRoute): void {
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
