/**
 * What a single source file says: its language, whether it is a test, what it imports, and
 * the data stores and services its text shows without a manifest (a `postgres://` URL, a
 * compose service's image, a Prisma datasource).
 */
import { type Known, knownImport } from './known-packages.ts';

export type SourceLanguage = 'js' | 'py' | 'go' | 'rs' | 'java' | 'rb' | 'php';

const EXTENSIONS: Record<string, [name: string, source: SourceLanguage | undefined]> = {
  ts: ['TypeScript', 'js'],
  tsx: ['TypeScript', 'js'],
  mts: ['TypeScript', 'js'],
  cts: ['TypeScript', 'js'],
  js: ['JavaScript', 'js'],
  jsx: ['JavaScript', 'js'],
  mjs: ['JavaScript', 'js'],
  cjs: ['JavaScript', 'js'],
  vue: ['Vue', 'js'],
  svelte: ['Svelte', 'js'],
  py: ['Python', 'py'],
  go: ['Go', 'go'],
  rs: ['Rust', 'rs'],
  java: ['Java', 'java'],
  kt: ['Kotlin', 'java'],
  rb: ['Ruby', 'rb'],
  php: ['PHP', 'php'],
  cs: ['C#', undefined],
  swift: ['Swift', undefined],
  dart: ['Dart', undefined],
  ex: ['Elixir', undefined],
  exs: ['Elixir', undefined],
  scala: ['Scala', undefined],
};

const extension = (path: string) => /\.([A-Za-z0-9]+)$/.exec(path)?.[1]?.toLowerCase() ?? '';

/** Files that configure tools rather than make up the program (`vite.config.js`). */
const TOOL_CONFIG =
  /(^|\/)(?:[^/]+\.config\.[cm]?[jt]s|\.eslintrc\.c?js|gulpfile\.js|Gruntfile\.js)$/;

/**
 * The programming language of a file, as a reader names it; undefined for data and docs.
 *
 * @example
 * languageOf('src/server.ts'); // 'TypeScript'
 */
export function languageOf(path: string): string | undefined {
  if (TOOL_CONFIG.test(path)) return undefined;
  const ext = extension(path);
  if (ext === 'vue' || ext === 'svelte') return undefined;
  return EXTENSIONS[ext]?.[0];
}

/**
 * The family of import syntax a file uses, when this reader understands it.
 *
 * @example
 * sourceLanguage('app/Main.kt'); // 'java'
 */
export function sourceLanguage(path: string): SourceLanguage | undefined {
  return EXTENSIONS[extension(path)]?.[1];
}

const TEST_PATH =
  /(^|\/)(?:tests?|__tests__|spec|specs|e2e|testdata|fixtures)\/|\.(?:test|spec)\.[cm]?[jt]sx?$|_test\.(?:go|py|exs)$|(^|\/)test_[^/]*\.py$|(^|\/)conftest\.py$|_spec\.rb$|Tests?\.(?:java|kt|php|cs)$/;

/**
 * Whether a path is a test (or test data), by the conventions of the common ecosystems.
 *
 * @example
 * isTestPath('internal/vehicles/handler_test.go'); // true
 */
export function isTestPath(path: string): boolean {
  return TEST_PATH.test(path);
}

const IMPORTS: Record<SourceLanguage, RegExp[]> = {
  js: [
    /^\s*import\s+(?:type\s+)?(?:[^'"`;]*?\sfrom\s*)?['"]([^'"]+)['"]/gm,
    /\brequire\(\s*['"]([^'"]+)['"]\s*\)/g,
    /^\s*export\s+[^'"`;]*?\sfrom\s*['"]([^'"]+)['"]/gm,
  ],
  py: [/^\s*from\s+([\w.]+)\s+import\b/gm, /^\s*import\s+([\w.]+(?:\s*,\s*[\w.]+)*)/gm],
  go: [
    /^\s*import\s+(?:\w+\s+)?"([^"]+)"/gm,
    /^\s*(?:[\w.]+\s+)?"([\w.-]+\.[\w.-]+\/[^"]+)"\s*$/gm,
  ],
  rs: [/^\s*(?:pub\s+)?use\s+(\w+)::/gm, /^\s*extern\s+crate\s+(\w+)/gm],
  java: [/^\s*import\s+(?:static\s+)?([\w.]+)/gm],
  rb: [/^\s*require\s+['"]([^'"]+)['"]/gm],
  php: [/^\s*use\s+([\w\\]+)/gm],
};

/**
 * The modules a source file imports, as written (`stripe`, `app.db`, `github.com/slack-go/slack`).
 *
 * @example
 * importsOf('a.py', 'import os, redis\nfrom sendgrid import X'); // ['sendgrid', 'os', 'redis']
 */
export function importsOf(path: string, content: string): string[] {
  const language = sourceLanguage(path);
  if (!language) return [];
  const out = new Set<string>();
  for (const pattern of IMPORTS[language])
    for (const match of content.matchAll(pattern))
      for (const spec of match[1]!.split(',')) out.add(spec.trim());
  out.delete('');
  return [...out];
}

/**
 * The known packages a source file imports (a service, a store, a framework).
 *
 * @example
 * knownInFile('src/pay.ts', "import Stripe from 'stripe';")[0]?.name; // 'Stripe'
 */
export function knownInFile(path: string, content: string): Known[] {
  const language = sourceLanguage(path);
  if (!language) return [];
  const seen = new Set<string>();
  const out: Known[] = [];
  for (const spec of importsOf(path, content))
    for (const known of knownImport(language, spec))
      if (!seen.has(`${known.kind}:${known.name}`)) {
        seen.add(`${known.kind}:${known.name}`);
        out.push(known);
      }
  return out;
}

/** Evidence in text, with the store or service it shows and how to describe the evidence. */
const TEXT_EVIDENCE: [RegExp, Known, string][] = [
  [/\bpostgres(?:ql)?(?:\+\w+)?:\/\//i, { name: 'PostgreSQL', kind: 'store' }, 'a postgres:// URL'],
  [/\bmysql(?:\+\w+)?:\/\//i, { name: 'MySQL', kind: 'store' }, 'a mysql:// URL'],
  [/\bmongodb(?:\+srv)?:\/\//i, { name: 'MongoDB', kind: 'store' }, 'a mongodb:// URL'],
  [/\brediss?:\/\//i, { name: 'Redis', kind: 'cache' }, 'a redis:// URL'],
  [/\bamqps?:\/\//i, { name: 'RabbitMQ', kind: 'store' }, 'an amqp:// URL'],
  [/\bsqlite:\/\//i, { name: 'SQLite', kind: 'store' }, 'a sqlite:// URL'],
  [
    /^\s*image:\s*['"]?(?:[\w.-]+\/)?postgres(?:ql)?\b/m,
    { name: 'PostgreSQL', kind: 'store' },
    'a postgres container image',
  ],
  [
    /^\s*image:\s*['"]?(?:[\w.-]+\/)?(?:mysql|mariadb)\b/m,
    { name: 'MySQL', kind: 'store' },
    'a MySQL container image',
  ],
  [
    /^\s*image:\s*['"]?(?:[\w.-]+\/)?mongo\b/m,
    { name: 'MongoDB', kind: 'store' },
    'a mongo container image',
  ],
  [
    /^\s*image:\s*['"]?(?:[\w.-]+\/)?redis\b/m,
    { name: 'Redis', kind: 'cache' },
    'a redis container image',
  ],
  [
    /^\s*image:\s*['"]?(?:[\w.-]+\/)?(?:elasticsearch|elastic\/elasticsearch)\b/m,
    { name: 'Elasticsearch', kind: 'store' },
    'an elasticsearch container image',
  ],
  [
    /^\s*image:\s*['"]?(?:[\w.-]+\/)?rabbitmq\b/m,
    { name: 'RabbitMQ', kind: 'store' },
    'a rabbitmq container image',
  ],
  [/\bprovider\s*=\s*"postgresql"/, { name: 'PostgreSQL', kind: 'store' }, 'the Prisma datasource'],
  [/\bprovider\s*=\s*"mysql"/, { name: 'MySQL', kind: 'store' }, 'the Prisma datasource'],
  [/\bprovider\s*=\s*"sqlite"/, { name: 'SQLite', kind: 'store' }, 'the Prisma datasource'],
  [/\bprovider\s*=\s*"mongodb"/, { name: 'MongoDB', kind: 'store' }, 'the Prisma datasource'],
  [
    /django\.db\.backends\.postgresql/,
    { name: 'PostgreSQL', kind: 'store' },
    'the Django database engine',
  ],
  [/django\.db\.backends\.mysql/, { name: 'MySQL', kind: 'store' }, 'the Django database engine'],
  [
    /django\.db\.backends\.sqlite3/,
    { name: 'SQLite', kind: 'store' },
    'the Django database engine',
  ],
  [
    /\bDB_CONNECTION['"]?\s*[=,]\s*['"]?pgsql\b/,
    { name: 'PostgreSQL', kind: 'store' },
    'the DB_CONNECTION setting',
  ],
  [
    /\bDB_CONNECTION['"]?\s*[=,]\s*['"]?mysql\b/,
    { name: 'MySQL', kind: 'store' },
    'the DB_CONNECTION setting',
  ],
  [
    /\bDB_CONNECTION['"]?\s*[=,]\s*['"]?sqlite\b/,
    { name: 'SQLite', kind: 'store' },
    'the DB_CONNECTION setting',
  ],
  [/^\s*adapter:\s*postgresql\b/m, { name: 'PostgreSQL', kind: 'store' }, 'the database adapter'],
  [/^\s*adapter:\s*mysql2\b/m, { name: 'MySQL', kind: 'store' }, 'the database adapter'],
  [/^\s*adapter:\s*sqlite3\b/m, { name: 'SQLite', kind: 'store' }, 'the database adapter'],
  [
    /\bapi\.stripe\.com\b/,
    { name: 'Stripe', kind: 'service', purpose: 'payments' },
    'calls api.stripe.com',
  ],
  [
    /\bhooks\.slack\.com\b|\bslack\.com\/api\b/,
    { name: 'Slack', kind: 'service', purpose: 'messages' },
    'calls the Slack API',
  ],
  [
    /\bapi\.twilio\.com\b/,
    { name: 'Twilio', kind: 'service', purpose: 'SMS' },
    'calls api.twilio.com',
  ],
  [
    /\bapi\.sendgrid\.com\b/,
    { name: 'SendGrid', kind: 'service', purpose: 'email' },
    'calls api.sendgrid.com',
  ],
  [
    /\bapi\.openai\.com\b/,
    { name: 'OpenAI', kind: 'service', purpose: 'AI models' },
    'calls api.openai.com',
  ],
  [
    /\bapi\.anthropic\.com\b/,
    { name: 'Anthropic', kind: 'service', purpose: 'AI models' },
    'calls api.anthropic.com',
  ],
];

/** What every pattern above needs, tested once so that most files are passed over at once. */
const MAY_SHOW = /:\/\/|image:|provider|django\.db|DB_CONNECTION|adapter:|api\.|slack\.com/;

/** Text files worth scanning for that evidence: code, configuration, compose files, env templates. */
const SCANNED =
  /\.(?:[cm]?[jt]sx?|py|go|rs|java|kt|rb|php|ya?ml|toml|json|ini|cfg|conf|prisma|properties|env\.example|env\.sample|env\.template)$|(^|\/)\.env\.(?:example|sample|template)$|(^|\/)(?:Dockerfile|Procfile)$/;

/**
 * The stores and services a file's text shows by itself, each with how it shows it.
 *
 * @example
 * evidenceInText('app/db.py', 'redis.from_url("redis://localhost")'); // [{ known: Redis…, detail: 'a redis:// URL' }]
 */
export function evidenceInText(path: string, content: string): { known: Known; detail: string }[] {
  if (!SCANNED.test(path) || /(^|\/)(?:package|composer)(?:-lock)?\.json$/.test(path)) return [];
  if (!MAY_SHOW.test(content)) return [];
  return TEXT_EVIDENCE.filter(([pattern]) => pattern.test(content)).map(([, known, detail]) => ({
    known,
    detail,
  }));
}
