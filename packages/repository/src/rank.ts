/**
 * What a file of a repository is, judged by its path alone, and the order in which a digest
 * takes files: what explains a system first (its manifests, then its docs, API and
 * database schemas, entry points and routes), then the rest of its source spread across its
 * folders, tests last. Path-only so that ranking needs no read: the builder reads files in
 * this order and stops once the budget is spent.
 */

/**
 * A file's category, in the order a digest takes them.
 *
 * - `manifest`: package.json, pyproject.toml, requirements*.txt, go.mod, Cargo.toml, pom.xml,
 *   build.gradle*, Gemfile, composer.json…
 * - `docs`: README, docs/, other Markdown at the root
 * - `api-schema`: OpenAPI or Swagger documents, GraphQL and Protocol Buffers schemas
 * - `database`: SQL, migrations, alembic/versions, Prisma schemas, ORM models
 * - `entry-point`: main/server/app/index files near the root, cmd/<name>/main.go
 * - `routes`: files under routes/, routers/, controllers/, handlers/, api/, or so named
 * - `config`: how it is built and run: Dockerfile, compose files, Makefile, CI workflows
 * - `source`: the rest of the code
 * - `other`: other text (data, notes, licences)
 * - `test`: tests, fixtures and test data
 */
export type FileCategory =
  | 'manifest'
  | 'docs'
  | 'api-schema'
  | 'database'
  | 'entry-point'
  | 'routes'
  | 'config'
  | 'source'
  | 'other'
  | 'test';

/** The categories, first taken first. */
export const CATEGORY_ORDER: readonly FileCategory[] = [
  'manifest',
  'docs',
  'api-schema',
  'database',
  'entry-point',
  'routes',
  'config',
  'source',
  'other',
  'test',
];

const SOURCE_EXTENSIONS = new Set(
  (
    'ts tsx mts cts js jsx mjs cjs vue svelte astro py pyi go rs java kt kts scala groovy rb php ' +
    'cs fs vb swift m mm c h cc cpp cxx hpp hh ex exs erl hrl clj cljs dart lua pl pm r jl ' +
    'hs ml elm zig nim sh bash zsh ps1'
  ).split(' '),
);

const MANIFESTS = new Set([
  'package.json',
  'deno.json',
  'deno.jsonc',
  'pyproject.toml',
  'setup.py',
  'setup.cfg',
  'pipfile',
  'go.mod',
  'cargo.toml',
  'pom.xml',
  'build.gradle',
  'build.gradle.kts',
  'settings.gradle',
  'settings.gradle.kts',
  'gemfile',
  'composer.json',
  'mix.exs',
  'pubspec.yaml',
  'package.swift',
  'build.sbt',
  'project.clj',
  'deps.edn',
  'environment.yml',
]);

const CONFIG_FILES = new Set([
  'dockerfile',
  'containerfile',
  'makefile',
  'justfile',
  'procfile',
  'tsconfig.json',
  'fly.toml',
  'vercel.json',
  'netlify.toml',
  'render.yaml',
  'app.yaml',
  'serverless.yml',
  'serverless.yaml',
  'nginx.conf',
  'alembic.ini',
]);

const ENTRY_NAMES = new Set([
  'main',
  'server',
  'app',
  'index',
  'application',
  'program',
  'manage',
  'wsgi',
  'asgi',
  'lib',
]);

const ROUTE_FOLDERS = new Set([
  'routes',
  'route',
  'routers',
  'router',
  'controllers',
  'controller',
  'handlers',
  'handler',
  'endpoints',
  'resolvers',
]);
const ROUTE_NAMES = new Set([
  'routes',
  'route',
  'router',
  'routers',
  'urls',
  'controller',
  'controllers',
  'handler',
  'handlers',
  'endpoints',
  'resolvers',
]);

const TEST_FOLDERS = new Set([
  'test',
  'tests',
  '__tests__',
  'spec',
  'specs',
  'e2e',
  'testdata',
  'test-data',
  'fixtures',
  '__fixtures__',
  '__mocks__',
  'testing',
]);
const TEST_FILE =
  /(\.|_|-)(test|spec|e2e)\.[^.]+$|^test_[^/]+\.py$|_test\.(go|py|exs)$|Tests?\.(java|kt|cs|swift|scala)$|_spec\.rb$|^conftest\.py$/;

const DOC_EXTENSIONS = new Set(['md', 'mdx', 'markdown', 'rst', 'adoc', 'txt']);

interface Parts {
  segments: string[];
  /** The folders, lowercased. */
  folders: string[];
  name: string;
  lower: string;
  /** The name without its last extension, lowercased. */
  stem: string;
  /** The last extension, lowercased, without the dot. */
  ext: string;
}

function parts(path: string): Parts {
  const segments = path.split('/');
  const name = segments.at(-1) ?? path;
  const lower = name.toLowerCase();
  const dot = lower.lastIndexOf('.');
  return {
    segments,
    folders: segments.slice(0, -1).map((s) => s.toLowerCase()),
    name,
    lower,
    stem: dot > 0 ? lower.slice(0, dot) : lower,
    ext: dot > 0 ? lower.slice(dot + 1) : '',
  };
}

/** The category and the order inside it (lower first) of one path. */
export interface Classified {
  category: FileCategory;
  /** Order inside the category before depth: e.g. the root README before other docs. */
  tier: number;
}

/**
 * The category of a path (relative, `/`-separated), by its name and folders only.
 *
 * @example
 * classify('src/routes/appointments.ts'); // { category: 'routes', tier: 0 }
 * classify('test/appointments.test.ts'); // { category: 'test', tier: 0 }
 */
export function classify(path: string): Classified {
  const p = parts(path);
  const depth = p.folders.length;
  const isSource = SOURCE_EXTENSIONS.has(p.ext);

  if (p.folders.some((f) => TEST_FOLDERS.has(f)) || TEST_FILE.test(p.name)) {
    return { category: 'test', tier: 0 };
  }
  if (
    MANIFESTS.has(p.lower) ||
    /^requirements[\w.-]*\.(txt|in)$/.test(p.lower) ||
    /\.(csproj|fsproj|gemspec|cabal|nimble)$/.test(p.lower)
  ) {
    return { category: 'manifest', tier: 0 };
  }
  if (DOC_EXTENSIONS.has(p.ext) || p.lower === 'readme') {
    if (p.stem === 'readme') return { category: 'docs', tier: depth === 0 ? 0 : 2 };
    if (p.folders[0] === 'docs' || p.folders[0] === 'doc' || p.folders[0] === 'adr') {
      return { category: 'docs', tier: 1 };
    }
    if (
      depth === 0 &&
      p.ext !== 'txt' &&
      !/^(changelog|changes|history|license|licence)/.test(p.stem)
    ) {
      return { category: 'docs', tier: 1 };
    }
    return { category: 'other', tier: 0 };
  }
  if (
    (/(^|[._-])(openapi|swagger|asyncapi)([._-]|$)/.test(p.stem) &&
      ['yaml', 'yml', 'json'].includes(p.ext)) ||
    ['graphql', 'gql', 'graphqls', 'proto', 'avsc', 'thrift', 'smithy'].includes(p.ext)
  ) {
    return { category: 'api-schema', tier: 0 };
  }
  if (
    p.ext === 'sql' ||
    p.ext === 'prisma' ||
    p.folders.some((f) => f === 'migrations' || f === 'migrate' || f === 'migration') ||
    path.toLowerCase().includes('alembic/versions/') ||
    (isSource && /^(models?|schema|entities|entity)$/.test(p.stem)) ||
    (isSource && p.folders.some((f) => f === 'models' || f === 'entities'))
  ) {
    // Schemas and models say what is stored; migrations how it got there.
    const migration = p.folders.some((f) => /^migrat|^versions$/.test(f));
    return { category: 'database', tier: migration ? 1 : 0 };
  }
  if (isSource) {
    const inRouteFolder = p.folders.some((f) => ROUTE_FOLDERS.has(f));
    // An api/ folder holds routes, and often what serves them (plugins, clients): after.
    const inApiFolder = p.folders.includes('api');
    const cmdMain = depth === 2 && p.folders[0] === 'cmd' && p.stem === 'main';
    // routes/index.ts gathers routes; it starts nothing.
    const entry =
      ENTRY_NAMES.has(p.stem) &&
      depth <= 2 &&
      !((inRouteFolder || inApiFolder) && p.stem === 'index');
    if (cmdMain || entry) return { category: 'entry-point', tier: depth };
    if (inRouteFolder || ROUTE_NAMES.has(p.stem)) return { category: 'routes', tier: 0 };
    if (inApiFolder) return { category: 'routes', tier: 1 };
  }
  if (
    CONFIG_FILES.has(p.lower) ||
    p.lower.startsWith('dockerfile') ||
    /^(docker-)?compose[\w.-]*\.ya?ml$/.test(p.lower) ||
    (p.folders[0] === '.github' && p.folders[1] === 'workflows') ||
    (depth === 0 && /\.config\.(js|cjs|mjs|ts)$/.test(p.lower))
  ) {
    return { category: 'config', tier: 0 };
  }
  if (isSource) return { category: 'source', tier: 0 };
  return { category: 'other', tier: 0 };
}

/** A path with its category, as {@link rankPaths} orders them. */
export interface Ranked {
  path: string;
  category: FileCategory;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function folderOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash === -1 ? '' : path.slice(0, slash);
}

/** The folder of each manifest: the roots of the packages of a monorepo ('' for the root). */
function packageRoots(paths: readonly string[]): string[] {
  const roots = new Set(
    paths.filter((path) => classify(path).category === 'manifest').map(folderOf),
  );
  roots.add('');
  // Longest first: the innermost package holding a path is the first that prefixes it.
  return [...roots].sort((a, b) => b.length - a.length || compare(a, b));
}

/**
 * Orders paths the way a digest takes them: by category ({@link CATEGORY_ORDER}), then by
 * tier, then across folders (the first file of every folder, shallow folders first, then
 * the second of every folder, and so on, so a budget that runs out leaves each part of the
 * code seen), then shallow before deep, then by path. In a monorepo each path is judged
 * from the package that holds it (the nearest folder with a manifest): its
 * `src/server.ts` is an entry point however deep the package lies. The order depends on
 * the paths alone, never on the order they were found in.
 *
 * @example
 * rankPaths(['src/a.ts', 'README.md', 'package.json']).map((r) => r.path);
 * // ['package.json', 'README.md', 'src/a.ts']
 */
export function rankPaths(paths: readonly string[]): Ranked[] {
  const roots = packageRoots(paths);
  const entries = paths.map((path) => {
    const root = roots.find((r) => r === '' || path.startsWith(`${r}/`)) ?? '';
    const { category, tier } = classify(root === '' ? path : path.slice(root.length + 1));
    return { path, category, tier, depth: path.split('/').length - 1, turn: 0 };
  });
  // The turn of a file inside its folder and category: 0 for the first (by path), 1 for
  // the second…
  const byFolder = new Map<string, typeof entries>();
  for (const entry of entries) {
    const key = `${entry.category}\0${entry.tier}\0${folderOf(entry.path)}`;
    const list = byFolder.get(key) ?? [];
    list.push(entry);
    byFolder.set(key, list);
  }
  for (const list of byFolder.values()) {
    list.sort((a, b) => compare(a.path, b.path));
    list.forEach((entry, turn) => {
      entry.turn = turn;
    });
  }
  const order = (category: FileCategory) => CATEGORY_ORDER.indexOf(category);
  entries.sort(
    (a, b) =>
      order(a.category) - order(b.category) ||
      a.tier - b.tier ||
      a.turn - b.turn ||
      a.depth - b.depth ||
      compare(a.path, b.path),
  );
  return entries.map(({ path, category }) => ({ path, category }));
}
