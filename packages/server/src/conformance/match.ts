/**
 * Whether a text of the spec names a route, a table or a component of the code: by the
 * route's path (parameters in any framework's spelling), the table's name (any case, `_` or
 * not, singular or plural), the component's path or its folder's own name. Deterministic and
 * conservative: a word common to every codebase (`src`, `routes`, `lib`) names nothing.
 */
import pluralize from 'pluralize';

/** Folder names that say nothing of what a component does. */
const GENERIC = new Set([
  'src',
  'lib',
  'app',
  'apps',
  'api',
  'pkg',
  'cmd',
  'internal',
  'server',
  'client',
  'web',
  'core',
  'common',
  'shared',
  'utils',
  'util',
  'helpers',
  'routes',
  'controllers',
  'handlers',
  'models',
  'services',
  'components',
  'db',
  'database',
  'migrations',
  'config',
  'scripts',
  'test',
  'tests',
  'public',
  'static',
  'views',
  'pages',
  'types',
  'main',
  'index',
]);

/**
 * A route path in one spelling: lowercase, each parameter (`:id`, `{id}`, `<int:id>`, `[id]`,
 * `*`) as `{}`, no trailing slash.
 *
 * @example
 * routeKey('/Pets/:petId/'); // '/pets/{}'
 */
export function routeKey(path: string): string {
  const segments = path
    .toLowerCase()
    .split('/')
    .filter((s) => s !== '')
    .map((s) => (/^(:\w+\??|\{[^}]*\}|<[^>]*>|\[[^\]]*\]|\*\w*)$/.test(s) ? '{}' : s));
  return `/${segments.join('/')}`;
}

/** A name as words are compared: lowercase, without `_`, `-` or spaces. */
const wordKey = (word: string) => word.toLowerCase().replace(/[_\-\s]/g, '');

/**
 * The singular of a plural (`appointments`, `classes`, `movies`), by pluralize's rules; a word
 * of three letters or fewer (`sms`, `api`) is left as it is.
 */
const singular = (word: string) => (word.length > 3 ? pluralize.singular(word) : word);

/**
 * The names a text mentions, indexed once for many lookups: its route paths and its words
 * (identifiers as written, and snake or camel case joined), each also in the singular.
 *
 * @example
 * const index = new TextIndex('`GET /pets/{id}` reads the `pet_owners` table');
 * index.namesRoute('/pets/:petId'); // true
 */
export class TextIndex {
  readonly #routes = new Set<string>();
  readonly #words = new Set<string>();
  readonly #lower: string;

  constructor(text: string) {
    this.#lower = text.toLowerCase();
    for (const match of text.matchAll(/\/[\w.{}:<>[\]*-]+(?:\/[\w.{}:<>[\]*-]*)*/g)) {
      this.#routes.add(routeKey(match[0]));
    }
    for (const match of text.matchAll(/[A-Za-z][A-Za-z0-9_-]*/g)) {
      const key = wordKey(match[0]);
      this.#words.add(key);
      this.#words.add(singular(key));
    }
  }

  /** Whether the text names this route path, or a path ending with it (a mounted prefix). */
  namesRoute(path: string): boolean {
    const key = routeKey(path);
    if (key === '/') return false;
    if (this.#routes.has(key)) return true;
    for (const named of this.#routes) if (named.endsWith(key)) return true;
    return false;
  }

  /** Whether the text names this table or model, in any case, `_` or not, singular or plural. */
  namesTable(name: string): boolean {
    const key = wordKey(name);
    return this.#words.has(key) || this.#words.has(singular(key));
  }

  /** Whether the text names this component by its path, or by its folder's own name. */
  namesComponent(name: string, path: string): boolean {
    if (path !== '' && this.#lower.includes(path.toLowerCase())) return true;
    const own = path.split('/').pop() ?? '';
    const folder = wordKey(own.replace(/\.\w+$/, ''));
    if (folder.length >= 4 && !GENERIC.has(folder) && this.namesTable(folder)) return true;
    const named = wordKey(name);
    return named.length >= 4 && !GENERIC.has(named) && this.#words.has(named);
  }
}
