/**
 * HTTP routes of the brace languages: Go (chi, gin, echo, fiber, gorilla/mux, net/http), Rust
 * (axum, actix-web, Rocket), Java and Kotlin (Spring, JAX-RS), PHP (Laravel, Symfony), and
 * TypeScript's decorated controllers (NestJS).
 * Prefixes come from the closures and functions the routes sit in (`r.Route("/p", func…)`,
 * `.nest("/api", api())`) and from group variables (`v1 := r.Group("/v1")`).
 */
import { resourceRoutes } from './routes-rails.ts';
import {
  inside,
  joinPath,
  literal,
  matchingClose,
  type Scope,
  scopePrefix,
  splitTopLevel,
  statementEnd,
} from './scan.ts';
import type { Route } from './types.ts';

type File = { path: string; content: string };

/** The body of the block whose `{` ends a match, as a scope with a prefix; none when unclosed. */
function blockScope(text: string, openBrace: number, prefix: string): Scope[] {
  const close = matchingClose(text, openBrace);
  return close < 0 ? [] : [{ start: openBrace, end: close, prefix }];
}

/** Function names mounted under a prefix somewhere in the code: `r.Mount("/admin", admin())`. */
function mountedFunctions(files: readonly File[], pattern: RegExp): Map<string, string> {
  const out = new Map<string, string>();
  for (const file of files) for (const m of file.content.matchAll(pattern)) out.set(m[2]!, m[1]!);
  return out;
}

const GO_VERBS =
  'Get|Post|Put|Patch|Delete|Head|Options|GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS|Any|HandleFunc|Handle';

function readGo(file: File, mounted: Map<string, string>): Route[] {
  const text = file.content;
  const scopes: Scope[] = [];
  for (const m of text.matchAll(/\.Route\(\s*"([^"]*)"\s*,\s*func\s*\([^)]*\)\s*\{/g))
    scopes.push(...blockScope(text, m.index + m[0].length - 1, m[1]!));
  for (const m of text.matchAll(/^func\s+(?:\([^)]*\)\s*)?(\w+)\s*\([^)]*\)[^{\n]*\{/gm)) {
    const prefix = mounted.get(m[1]!);
    if (prefix !== undefined) scopes.push(...blockScope(text, m.index + m[0].length - 1, prefix));
  }
  const groups = new Map<string, string>();
  for (const m of text.matchAll(
    /\b(\w+)\s*:?=\s*(\w+)\.(?:Group|PathPrefix)\(\s*"([^"]*)"[^)]*\)(?:\.Subrouter\(\))?/g,
  ))
    groups.set(m[1]!, joinPath(groups.get(m[2]!) ?? '', m[3]!));
  const out: Route[] = [];
  const add = (index: number, receiver: string, method: string, path: string) => {
    if (!path.startsWith('/')) return;
    const prefix = [...scopePrefix(scopes, index), groups.get(receiver) ?? ''];
    out.push({ method, path: joinPath(...prefix, path), file: file.path });
  };
  for (const m of text.matchAll(
    new RegExp(`\\b(\\w+)(?:\\.With\\([^)]*\\))?\\.(${GO_VERBS})\\(\\s*"([^"]*)"`, 'g'),
  )) {
    let method = m[2]!.toUpperCase();
    let path = m[3]!;
    if (method.startsWith('HANDLE')) {
      // Go 1.22 patterns carry the method (`"GET /p/{id}"`); gorilla/mux chains `.Methods(…)`.
      const pattern = /^([A-Z]+)\s+(\/.*)$/.exec(path);
      const close = matchingClose(
        text,
        m.index + m[0].lastIndexOf('(', m[0].length - m[3]!.length - 2),
      );
      const chained = /^\s*\.Methods\(([^)]*)\)/.exec(text.slice(close + 1))?.[1];
      if (pattern) [method, path] = [pattern[1]!, pattern[2]!];
      else if (chained) {
        for (const verb of chained.match(/[A-Z]+/g) ?? []) add(m.index, m[1]!, verb, path);
        continue;
      } else method = 'ANY';
    }
    add(m.index, m[1]!, method, path);
  }
  for (const m of text.matchAll(/\b(\w+)\.(?:Method|MethodFunc)\(\s*"(\w+)"\s*,\s*"([^"]*)"/g))
    add(m.index, m[1]!, m[2]!.toUpperCase(), m[3]!);
  return out;
}

/** The `(` of the call an index sits in (`.service(web::scope(…)…)`), or -1 at the top level. */
function enclosingOpen(text: string, index: number): number {
  let depth = 0;
  for (let i = index - 1; i >= 0; i--) {
    const c = text[i];
    if (c === ')') depth++;
    else if (c === '(') {
      if (depth === 0) return i;
      depth--;
    } else if (c === ';' || c === '{') return -1;
  }
  return -1;
}

const RUST_VERB = /(?:^|[^\w])(get|post|put|patch|delete|head|options|any)\s*\(/g;

function readRust(
  file: File,
  nested: Map<string, string>,
  mountedFns: Map<string, string>,
): Route[] {
  const text = file.content;
  const scopes: Scope[] = [];
  for (const m of text.matchAll(/\bfn\s+(\w+)[^{;]*\{/g)) {
    const prefix = nested.get(m[1]!);
    if (prefix !== undefined) scopes.push(...blockScope(text, m.index + m[0].length - 1, prefix));
  }
  // `let api = Router::new().route(…);` nested as `.nest("/api", api)`.
  for (const m of text.matchAll(/\blet\s+(?:mut\s+)?(\w+)\s*(?::[^=]+)?=/g)) {
    const prefix = nested.get(m[1]!);
    if (prefix !== undefined)
      scopes.push({ start: m.index, end: statementEnd(text, m.index), prefix });
  }
  // actix-web: `web::scope("/api").service(…).route(…)` up to the call that holds it.
  for (const m of text.matchAll(/web::scope\(\s*"([^"]*)"\s*\)/g)) {
    const open = enclosingOpen(text, m.index);
    const end = open < 0 ? statementEnd(text, m.index) : matchingClose(text, open);
    scopes.push({ start: m.index, end: end < 0 ? text.length : end, prefix: m[1]! });
  }
  const out: Route[] = [];
  const add = (index: number, method: string, path: string, fn?: string) =>
    out.push({
      method,
      path: joinPath(...scopePrefix(scopes, index), (fn && mountedFns.get(fn)) ?? '', path),
      file: file.path,
    });
  for (const m of text.matchAll(
    /#\[(get|post|put|patch|delete|head|options)\(\s*"([^"]*)"[^\]]*\]\s*(?:#\[[^\]]*\]\s*)*(?:pub\s+)?(?:async\s+)?fn\s+(\w+)/g,
  ))
    add(m.index, m[1]!.toUpperCase(), m[2]!, m[3]);
  for (const m of text.matchAll(/\.route\(\s*"([^"]*)"\s*,/g)) {
    const args = inside(text, m.index + m[0].indexOf('('));
    const handlers = args.slice(args.indexOf(',') + 1);
    const verbs = new Set([...handlers.matchAll(RUST_VERB)].map((v) => v[1]!.toUpperCase()));
    for (const verb of verbs) add(m.index, verb, m[1]!);
  }
  for (const m of text.matchAll(/web::resource\(\s*"([^"]*)"\s*\)/g)) {
    const chain = text.slice(m.index, statementEnd(text, m.index));
    const verbs = new Set(
      [...chain.matchAll(/web::(get|post|put|patch|delete)\(\)/g)].map((v) => v[1]!.toUpperCase()),
    );
    for (const verb of verbs) add(m.index, verb, m[1]!);
  }
  return out;
}

function mappingPath(args: string): string {
  return (
    literal(args.replace(/^\s*[[{]/, '')) ??
    /\b(?:value|path)\s*=\s*[[{]?\s*"([^"]*)"/.exec(args)?.[1] ??
    ''
  );
}

function readJvm(file: File): Route[] {
  const text = file.content;
  const classAt = /\bclass\s+\w+/.exec(text)?.index ?? 0;
  const head = text.slice(0, classAt);
  const classMapping = /@RequestMapping\s*\(([^)]*)\)/.exec(head)?.[1];
  const prefix =
    classMapping !== undefined
      ? mappingPath(classMapping)
      : (/@Path\(\s*"([^"]*)"\s*\)/.exec(head)?.[1] ?? '');
  const out: Route[] = [];
  const body = text.slice(classAt);
  for (const m of body.matchAll(
    /@(Get|Post|Put|Patch|Delete|Request)Mapping\b(?:\s*\(([^)]*)\))?/g,
  )) {
    const args = m[2] ?? '';
    const verbs =
      m[1] === 'Request'
        ? (args.match(/RequestMethod\.(\w+)/g) ?? []).map((v) => v.slice(14))
        : [m[1]!.toUpperCase()];
    for (const verb of verbs.length > 0 ? verbs : ['ANY'])
      out.push({ method: verb, path: joinPath(prefix, mappingPath(args)), file: file.path });
  }
  for (const m of body.matchAll(/@(GET|POST|PUT|PATCH|DELETE)\b/g)) {
    // The annotations around the verb, before and after it, are the method's.
    const before = /(?:@\w+(?:\s*\([^)]*\))?\s*)*$/.exec(body.slice(0, m.index))?.[0] ?? '';
    const after = /^(?:\s*@\w+(?:\s*\([^)]*\))?)*/.exec(body.slice(m.index))?.[0] ?? '';
    const path = /@Path\(\s*"([^"]*)"\s*\)/.exec(before + after)?.[1] ?? '';
    out.push({ method: m[1]!, path: joinPath(prefix, path), file: file.path });
  }
  return out;
}

/** NestJS: `@Controller('cats')` on the class, `@Get(':id')` on its methods. */
function readNest(file: File, globalPrefix: string): Route[] {
  const text = file.content;
  const out: Route[] = [];
  for (const controller of text.matchAll(
    /@Controller\(\s*(?:['"`]([^'"`]*)['"`]|\{[^}]*path\s*:\s*['"`]([^'"`]*)['"`][^}]*\})?/g,
  )) {
    const prefix = controller[1] ?? controller[2] ?? '';
    const next = text.indexOf('@Controller(', controller.index + 1);
    const body = text.slice(controller.index, next < 0 ? text.length : next);
    for (const m of body.matchAll(
      /@(Get|Post|Put|Patch|Delete|All|Head|Options)\(\s*(?:['"`]([^'"`]*)['"`])?\s*\)/g,
    ))
      out.push({
        method: m[1] === 'All' ? 'ANY' : m[1]!.toUpperCase(),
        path: joinPath(globalPrefix, prefix, m[2] ?? ''),
        file: file.path,
      });
  }
  return out;
}

function readPhp(file: File): Route[] {
  const text = file.content;
  const base = /(^|\/)routes\/api\.php$/.test(file.path) ? '/api' : '';
  const scopes: Scope[] = [];
  for (const m of text.matchAll(
    /Route::prefix\(\s*['"]([^'"]*)['"]\s*\)[^;{]*?->group\(\s*function\s*\([^)]*\)\s*(?:use\s*\([^)]*\)\s*)?\{/g,
  ))
    scopes.push(...blockScope(text, m.index + m[0].length - 1, m[1]!));
  for (const m of text.matchAll(
    /Route::group\(\s*\[[^\]]*['"]prefix['"]\s*=>\s*['"]([^'"]*)['"][^\]]*\]\s*,\s*function\s*\([^)]*\)\s*\{/g,
  ))
    scopes.push(...blockScope(text, m.index + m[0].length - 1, m[1]!));
  const out: Route[] = [];
  const add = (index: number, method: string, path: string) =>
    out.push({
      method,
      path: joinPath(base, ...scopePrefix(scopes, index), path),
      file: file.path,
    });
  for (const m of text.matchAll(
    /Route::(get|post|put|patch|delete|options|any)\(\s*['"]([^'"]*)['"]/g,
  ))
    add(m.index, m[1]!.toUpperCase(), m[2]!);
  for (const m of text.matchAll(/Route::match\(\s*\[([^\]]*)\]\s*,\s*['"]([^'"]*)['"]/g))
    for (const verb of m[1]!.match(/\w+/g) ?? []) add(m.index, verb.toUpperCase(), m[2]!);
  for (const m of text.matchAll(/Route::(resource|apiResource)\(\s*['"]([^'"]+)['"]/g)) {
    const statement = text.slice(m.index, statementEnd(text, m.index));
    const list = (name: string) =>
      new RegExp(`->${name}\\(\\s*\\[([^\\]]*)\\]`).exec(statement)?.[1]?.match(/\w+/g) ??
      undefined;
    for (const r of resourceRoutes('laravel', m[2]!, {
      api: m[1] === 'apiResource',
      only: list('only'),
      except: list('except'),
    }))
      add(m.index, r.method, r.path);
  }
  // Symfony: `#[Route('/p', methods: ['GET'])]` on the class (a prefix) and on its methods.
  const classAt = /\bclass\s+\w+/.exec(text)?.index ?? 0;
  let prefix = '';
  for (const m of text.matchAll(/#\[Route\(|@Route\(/g)) {
    const args = inside(text, m.index + m[0].length - 1);
    const path = literal(splitTopLevel(args)[0]!.replace(/^\s*path\s*:\s*/, '')) ?? '';
    if (m.index < classAt) {
      prefix = path;
      continue;
    }
    const verbs = /methods\s*[:=]\s*[[{]([^\]}]*)[\]}]/.exec(args)?.[1]?.match(/\w+/g) ?? ['ANY'];
    for (const verb of verbs) add(m.index, verb.toUpperCase(), joinPath(prefix, path));
  }
  return out;
}

/**
 * The routes of the Go, Rust, Java, Kotlin and PHP files of a digest.
 *
 * @example
 * readBracedRoutes([{ path: 'main.go', content: 'r.Route("/d", func(r chi.Router) { r.Get("/{id}", h) })' }]);
 * // [{ method: 'GET', path: '/d/{id}', file: 'main.go' }]
 */
export function readBracedRoutes(files: readonly File[]): Route[] {
  const go = files.filter((f) => f.path.endsWith('.go'));
  const rust = files.filter((f) => f.path.endsWith('.rs'));
  const goMounted = mountedFunctions(go, /\.Mount\(\s*"([^"]*)"\s*,\s*(?:\w+\.)*(\w+)\s*\(/g);
  const nested = mountedFunctions(rust, /\.nest\(\s*"([^"]*)"\s*,\s*(?:\w+::)*(\w+)\s*\(?/g);
  const rocket = new Map<string, string>();
  for (const file of rust)
    for (const m of file.content.matchAll(/\.mount\(\s*"([^"]*)"\s*,\s*routes!\[([^\]]*)\]/g))
      for (const name of m[2]!.split(',')) rocket.set(name.trim().split('::').pop()!, m[1]!);
  const nestPrefix =
    files
      .filter((f) => /\.[cm]?ts$/.test(f.path))
      .map((f) => /\.setGlobalPrefix\(\s*['"`]([^'"`]*)['"`]/.exec(f.content)?.[1])
      .find((p) => p !== undefined) ?? '';
  return files.flatMap((file) => {
    if (/\.[cm]?ts$/.test(file.path) && file.content.includes('@Controller('))
      return readNest(file, nestPrefix);
    if (file.path.endsWith('.go')) return readGo(file, goMounted);
    if (file.path.endsWith('.rs')) return readRust(file, nested, rocket);
    if (/\.(?:java|kt)$/.test(file.path)) return readJvm(file);
    if (file.path.endsWith('.php')) return readPhp(file);
    return [];
  });
}
