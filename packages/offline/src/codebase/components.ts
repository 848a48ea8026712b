/**
 * The parts of a codebase, by role: folders named for what they hold (`routes`, `db`,
 * `services`), Go's `cmd/<name>` and `internal/<pkg>`, and single files where a language keeps
 * a part in one module (`app/models.py`) or a file stands alone (`src/stripe.ts`, an entry
 * point). Each role phrase is grounded in the component's own files: the routes they declare,
 * the tables they define, the services and stores they import.
 */
import { capitalize, listing } from '../text/words.ts';
import type { Known } from './known-packages.ts';
import { languageOf } from './source.ts';
import type { Component, Entity, Route } from './types.ts';

type Role =
  | 'routes'
  | 'handlers'
  | 'data'
  | 'model'
  | 'migrations'
  | 'services'
  | 'middleware'
  | 'jobs'
  | 'notify'
  | 'auth'
  | 'ui'
  | 'entry'
  | 'config'
  | 'module';

/** Folder (or file stem) names and the role they give; a reader's words for the base phrase. */
const ROLES: Record<string, [Role, string]> = {
  routes: ['routes', 'HTTP routes'],
  routers: ['routes', 'HTTP routes'],
  router: ['routes', 'HTTP routes'],
  urls: ['routes', 'URL routes'],
  handlers: ['handlers', 'Request handlers'],
  handler: ['handlers', 'Request handlers'],
  controllers: ['handlers', 'Request handlers'],
  controller: ['handlers', 'Request handlers'],
  api: ['handlers', 'API handlers'],
  endpoints: ['handlers', 'API handlers'],
  views: ['handlers', 'Views'],
  resolvers: ['handlers', 'GraphQL resolvers'],
  db: ['data', 'Database access'],
  database: ['data', 'Database access'],
  store: ['data', 'Data store access'],
  stores: ['data', 'Data store access'],
  storage: ['data', 'Storage'],
  repositories: ['data', 'Repositories'],
  repository: ['data', 'Repositories'],
  repos: ['data', 'Repositories'],
  dao: ['data', 'Data access objects'],
  persistence: ['data', 'Persistence'],
  models: ['model', 'Data model'],
  model: ['model', 'Data model'],
  entities: ['model', 'Data model'],
  entity: ['model', 'Data model'],
  domain: ['model', 'Domain model'],
  schema: ['model', 'Schema'],
  schemas: ['model', 'Schemas'],
  migrations: ['migrations', 'Database migrations'],
  migrate: ['migrations', 'Database migrations'],
  alembic: ['migrations', 'Database migrations'],
  services: ['services', 'Services'],
  service: ['services', 'Services'],
  middleware: ['middleware', 'Middleware'],
  middlewares: ['middleware', 'Middleware'],
  jobs: ['jobs', 'Background jobs'],
  workers: ['jobs', 'Background workers'],
  worker: ['jobs', 'Background worker'],
  queues: ['jobs', 'Queues'],
  queue: ['jobs', 'Queue'],
  tasks: ['jobs', 'Background tasks'],
  consumers: ['jobs', 'Queue consumers'],
  notifications: ['notify', 'Notifications'],
  notify: ['notify', 'Notifications'],
  notifier: ['notify', 'Notifications'],
  mail: ['notify', 'Email'],
  mailer: ['notify', 'Email'],
  mailers: ['notify', 'Email'],
  email: ['notify', 'Email'],
  auth: ['auth', 'Authentication'],
  settings: ['config', 'Configuration'],
  config: ['config', 'Configuration'],
  components: ['ui', 'UI components'],
  pages: ['ui', 'Pages'],
  screens: ['ui', 'Screens'],
  layouts: ['ui', 'Layouts'],
};

/** Readable names of folders whose own name is terse. */
const NAMES: Record<string, string> = {
  db: 'Database access',
  api: 'API',
  dao: 'Data access objects',
  urls: 'URL routes',
  auth: 'Authentication',
};

/** Files that declare a schema rather than code that uses it. */
const SCHEMA_FILE = /\.(?:sql|prisma)$|(?:^|\/)schema\.rb$/;

const dirOf = (path: string) => (path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '');
const stemOf = (path: string) => path.slice(path.lastIndexOf('/') + 1).replace(/\.[^.]+$/, '');
const words = (name: string) =>
  name
    .replace(/[-_]+/g, ' ')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase();

/** The deepest folder of a path that is a component: a role folder, or a Go package's. */
function folderOf(
  path: string,
  goFolders: ReadonlySet<string>,
): { folder: string; role?: Role } | undefined {
  const parts = path.split('/').slice(0, -1);
  for (let end = parts.length; end >= 1; end--) {
    const folder = parts.slice(0, end).join('/');
    const name = parts[end - 1]!.toLowerCase();
    const role = ROLES[name]?.[0];
    if (role) return { folder, role };
    const parent = parts[end - 2];
    if (parent && goFolders.has(folder)) {
      if (parent === 'cmd') return { folder, role: 'entry' };
      if (parent === 'internal' || parent === 'pkg') return { folder };
    }
  }
  return undefined;
}

interface Input {
  /** The files that may belong to a component: no tests, nothing vendored. */
  files: readonly { path: string; content: string }[];
  routes: readonly Route[];
  entities: readonly Entity[];
  entryPoints: readonly string[];
  /** Known packages each file imports. */
  known: ReadonlyMap<string, readonly Known[]>;
}

/** What a component's files hold, looked up by file. */
interface Index {
  known: ReadonlyMap<string, readonly Known[]>;
  routes: ReadonlyMap<string, readonly Route[]>;
  entities: ReadonlyMap<string, readonly Entity[]>;
}

function byFile<T>(items: readonly T[], files: (item: T) => readonly string[]): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items)
    for (const file of files(item)) {
      const list = out.get(file);
      if (list) list.push(item);
      else out.set(file, [item]);
    }
  return out;
}

function roleOf(
  role: Role | undefined,
  base: string | undefined,
  files: readonly string[],
  index: Index,
): string {
  const known = files.flatMap((f) => index.known.get(f) ?? []);
  const unique = (items: string[]) => [...new Set(items)];
  const services = unique(
    known.filter((k) => k.kind === 'service').map((k) => `${k.name} ${k.purpose ?? ''}`.trim()),
  );
  const stores = unique(
    known.filter((k) => ['store', 'cache', 'orm'].includes(k.kind)).map((k) => k.name),
  );
  const libraries = unique(
    known.filter((k) => k.kind === 'library' && k.purpose).map((k) => k.purpose!),
  );
  const frameworks = unique(known.filter((k) => k.kind === 'framework').map((k) => k.name));
  const routes = files.flatMap((f) => index.routes.get(f) ?? []);
  // `/api/v1/orders/{id}` is about orders: name the path down to its first real segment.
  const tops = unique(
    routes.map((r) => {
      const segments = r.path.split('/').filter(Boolean);
      const first = segments.findIndex((s) => !/^(?:api|v\d+)$/i.test(s));
      return `/${segments.slice(0, first < 0 ? segments.length : first + 1).join('/')}`;
    }),
  );
  const tables = unique(files.flatMap((f) => index.entities.get(f) ?? []).map((e) => e.name));
  const few = (items: string[]) =>
    listing(items.length > 5 ? [...items.slice(0, 4), `${items.length - 4} more`] : items);
  const routesPhrase = routes.length > 0 ? `HTTP routes for ${few(tops)}` : '';
  switch (role) {
    case 'routes':
    case 'handlers':
      return [routesPhrase || base, services.length > 0 ? `using ${few(services)}` : '']
        .filter(Boolean)
        .join(', ');
    case 'entry':
      return [
        `Entry point${frameworks.length > 0 ? ` (${frameworks.join(', ')})` : ''}`,
        routesPhrase,
      ]
        .filter(Boolean)
        .join('; ');
    case 'data':
    case 'model':
    case 'migrations': {
      const schemaOnly = files.every((f) => SCHEMA_FILE.test(f));
      const lead = role === 'data' && schemaOnly && tables.length > 0 ? 'Database schema' : base!;
      const using = stores.length > 0 && role !== 'migrations' ? ` (${stores.join(', ')})` : '';
      if (tables.length > 0) return `${lead}: ${few(tables)}${using}`;
      return stores.length > 0 ? `${lead} (${stores.join(', ')})` : lead;
    }
    default: {
      // A folder named for no particular job (`services`, `notify`) is what its services do;
      // one named for a job keeps it (`Background jobs (Stripe payments)`).
      const generic =
        role === undefined || role === 'services' || role === 'notify' || role === 'module';
      if (services.length > 0)
        return generic ? capitalize(few(services)) : `${base} (${few(services)})`;
      if (routesPhrase) return routesPhrase;
      if (stores.length > 0) return `Data access (${stores.join(', ')})`;
      if (tables.length > 0) return `Data model: ${few(tables)}`;
      const lead = base ?? 'Module';
      return libraries.length > 0 ? `${lead}: ${few(libraries)}` : lead;
    }
  }
}

/** A Go package with no role in its name takes one from its files' names (`handler.go`). */
function roleFromStems(files: readonly string[]): Role | undefined {
  for (const file of files) {
    const stem = stemOf(file).toLowerCase().replace(/s$/, '');
    const role = ROLES[stem]?.[0] ?? ROLES[`${stem}s`]?.[0];
    if (role) return role;
  }
  return undefined;
}

const baseOf = (role: Role | undefined, name: string) =>
  ROLES[name.toLowerCase()]?.[1] ??
  (role ? Object.values(ROLES).find(([r]) => r === role)?.[1] : undefined);

/** A folder of code that is one component, with the role its name gives (if any). */
type Folder = { role?: Role; files: string[] };

/** A file that is a component of its own. */
type Single = { path: string; role?: Role };

/**
 * The components of a codebase, by path.
 *
 * @example
 * readComponents({ files, routes, entities, entryPoints: ['src/server.ts'], known })
 *   .map((c) => c.path); // ['src/db', 'src/routes', 'src/server.ts', …]
 */
export function readComponents(input: Input): Component[] {
  const index: Index = {
    known: input.known,
    routes: byFile(input.routes, (r) => [r.file]),
    entities: byFile(input.entities, (e) => [e.file, ...(e.alsoIn ?? [])]),
  };
  const { folders, singles } = groupCode(input);
  const components: Component[] = [
    ...[...folders].map(([folder, grouped]) => folderComponent(folder, grouped, index)),
    ...singles.map((single) => fileComponent(single, index)),
  ];
  components.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return toldApart(components);
}

/**
 * The code files grouped: those in a folder named for a part (or a Go package) by folder, and
 * the files that stand alone as a part (an entry point, a role's stem, a file using a
 * service, a Python package's module).
 */
function groupCode(input: Input): { folders: Map<string, Folder>; singles: Single[] } {
  const code = input.files.filter(
    (f) => languageOf(f.path) || /\.(?:sql|prisma|graphql)$/.test(f.path),
  );
  const goFolders = new Set(code.filter((f) => f.path.endsWith('.go')).map((f) => dirOf(f.path)));
  const pyPackages = new Set(
    input.files.filter((f) => f.path.endsWith('/__init__.py')).map((f) => dirOf(f.path)),
  );
  for (const entry of input.entryPoints) if (entry.endsWith('.py')) pyPackages.add(dirOf(entry));
  const entries = new Set(input.entryPoints);
  const folders = new Map<string, Folder>();
  const singles: Single[] = [];
  for (const file of code) {
    const folder = folderOf(file.path, goFolders);
    if (folder) {
      const entry = folders.get(folder.folder) ?? {
        ...(folder.role ? { role: folder.role } : {}),
        files: [],
      };
      entry.files.push(file.path);
      folders.set(folder.folder, entry);
      continue;
    }
    const stem = stemOf(file.path).toLowerCase();
    // `config/database.php` configures the database; it does not access it.
    const configured = /(?:^|\/)(?:config|settings)\//.test(file.path);
    const role = entries.has(file.path) ? 'entry' : configured ? undefined : ROLES[stem]?.[0];
    const services = (input.known.get(file.path) ?? []).some((k) => k.kind === 'service');
    const module =
      file.path.endsWith('.py') && pyPackages.has(dirOf(file.path)) && stem !== '__init__';
    if (role || services || module) singles.push({ path: file.path, ...(role ? { role } : {}) });
  }
  return { folders, singles };
}

/** A folder's component: named for the folder (or what it holds), its role from its files. */
function folderComponent(folder: string, { role, files }: Folder, index: Index): Component {
  const name = folder.split('/').pop()!;
  const own = role ?? roleFromStems(files);
  const schemaOnly = own === 'data' && files.every((f) => SCHEMA_FILE.test(f));
  const readable =
    own === 'entry'
      ? `${capitalize(words(name))} entry point`
      : schemaOnly
        ? 'Database schema'
        : (NAMES[name.toLowerCase()] ?? capitalize(words(name)));
  return {
    name: readable,
    path: folder,
    role: roleOf(own, baseOf(own, name), files, index),
    files,
  };
}

/** A file's component: named for its stem, or for its folder when the stem says nothing (`index`). */
function fileComponent({ path, role }: Single, index: Index): Component {
  const stem = stemOf(path);
  const parent = dirOf(path).split('/').pop() || stem;
  const generic = /^(?:main|index|__main__|__init__)$/i.test(stem);
  const named = generic
    ? /^(?:src|lib|)$/.test(dirOf(path).split('/').pop() ?? '')
      ? 'main'
      : parent
    : stem;
  const readable =
    role === 'entry'
      ? `${capitalize(words(named))} entry point`
      : (NAMES[stem.toLowerCase()] ?? capitalize(words(stem)));
  return {
    name: readable,
    path,
    role: roleOf(role, baseOf(role, stem), [path], index),
    files: [path],
  };
}

/** Two `Models` in two apps: each takes its folder to tell them apart. */
function toldApart(components: readonly Component[]): Component[] {
  const counts = new Map<string, number>();
  for (const c of components) counts.set(c.name, (counts.get(c.name) ?? 0) + 1);
  return components.map((c) =>
    (counts.get(c.name) ?? 0) > 1 ? { ...c, name: `${c.name} (${dirOf(c.path) || c.path})` } : c,
  );
}
