/**
 * What packages are, per ecosystem: the knowledge that turns `pg` into PostgreSQL and
 * `github.com/go-chi/chi/v5` into chi. Only packages that say something about a system's
 * shape are here; an unknown package is left out of the stack rather than guessed at.
 */

import { type Ecosystem, type Known, TABLES } from './known-tables.ts';

export type { Ecosystem, Kind, Known } from './known-tables.ts';
/**
 * Names as the ecosystem compares them: PyPI ignores case and `-_.`, crates `-_`.
 *
 * @example
 * normalisePackage('pypi', 'Flask_SQLAlchemy'); // 'flask-sqlalchemy'
 */
export function normalisePackage(ecosystem: Ecosystem, name: string): string {
  const lower = name.trim().toLowerCase();
  if (ecosystem === 'pypi') return lower.replace(/[-_.]+/g, '-');
  if (ecosystem === 'cargo') return lower.replace(/_/g, '-');
  return lower;
}

/** Go module paths without their major version suffix: `github.com/go-chi/chi/v5` → `…/chi`. */
function candidates(ecosystem: Ecosystem, name: string): string[] {
  if (ecosystem !== 'go') return [name];
  const parts = name.split('/');
  const out: string[] = [];
  for (let end = parts.length; end >= 2; end--) {
    const prefix = parts.slice(0, end).join('/');
    out.push(prefix, prefix.replace(/\/v\d+$/, ''));
  }
  return out;
}

/**
 * What a package is, or nothing when it says nothing about the system's shape.
 *
 * @example
 * knownPackage('go', 'github.com/jackc/pgx/v5/pgxpool'); // [{ name: 'PostgreSQL', kind: 'store' }]
 */
export function knownPackage(ecosystem: Ecosystem, name: string): readonly Known[] {
  const table = TABLES[ecosystem];
  const key = normalisePackage(ecosystem, name);
  for (const candidate of candidates(ecosystem, key)) {
    const found = table[candidate];
    if (found) return found;
  }
  for (const [prefix, known] of PREFIXES[ecosystem]) if (key.startsWith(prefix)) return known;
  return [];
}

/** The table's prefix entries (`@aws-sdk/*`), listed once rather than searched for each name. */
const PREFIXES = {} as Record<Ecosystem, (readonly [string, readonly Known[]])[]>;
for (const [ecosystem, table] of Object.entries(TABLES) as [Ecosystem, Record<string, Known[]>][])
  PREFIXES[ecosystem] = Object.entries(table)
    .filter(([pattern]) => pattern.endsWith('*'))
    .map(([pattern, known]) => [pattern.slice(0, -1), known] as const);

/** Python modules whose import name is not their package's name. */
const PYTHON_MODULES: Record<string, string> = {
  slack_sdk: 'slack-sdk',
  slack: 'slackclient',
  sentry_sdk: 'sentry-sdk',
  firebase_admin: 'firebase-admin',
  MySQLdb: 'mysqlclient',
  rest_framework: 'djangorestframework',
  flask_sqlalchemy: 'flask-sqlalchemy',
  jose: 'python-jose',
  jwt: 'pyjwt',
  kafka: 'kafka-python',
  confluent_kafka: 'confluent-kafka',
};

/** Java and PHP namespaces of the SDKs a source file may import without a manifest entry. */
const NAMESPACES: [RegExp, Ecosystem, string][] = [
  [/^com\.stripe\b/, 'maven', 'com.stripe:stripe-java'],
  [/^com\.twilio\b/, 'maven', 'com.twilio.sdk:twilio'],
  [/^com\.sendgrid\b/, 'maven', 'com.sendgrid:sendgrid-java'],
  [/^software\.amazon\.awssdk\b/, 'maven', 'software.amazon.awssdk:sdk'],
  [/^com\.slack\.api\b/, 'maven', 'com.slack.api:slack-api-client'],
  [/^Stripe\\/, 'composer', 'stripe/stripe-php'],
  [/^Twilio\\/, 'composer', 'twilio/sdk'],
  [/^SendGrid\\/, 'composer', 'sendgrid/sendgrid'],
  [/^Aws\\/, 'composer', 'aws/aws-sdk-php'],
  [/^Predis\\/, 'composer', 'predis/predis'],
];

/**
 * What an import in a source file brings in, read with the ecosystem of the file's language.
 *
 * @example
 * knownImport('py', 'sendgrid.helpers.mail'); // [{ name: 'SendGrid', kind: 'service', purpose: 'email' }]
 */
export function knownImport(
  language: 'js' | 'py' | 'go' | 'rs' | 'java' | 'rb' | 'php',
  spec: string,
): readonly Known[] {
  if (language === 'js') {
    if (spec.startsWith('.') || spec.startsWith('/')) return [];
    const bare = spec.replace(/^node:/, '');
    const name = bare.startsWith('@') ? bare.split('/').slice(0, 2).join('/') : bare.split('/')[0]!;
    return knownPackage('npm', name);
  }
  if (language === 'py') {
    const top = spec.split('.')[0]!;
    return knownPackage('pypi', PYTHON_MODULES[top] ?? top);
  }
  if (language === 'go') return knownPackage('go', spec);
  if (language === 'rs') return knownPackage('cargo', spec.split('::')[0]!);
  if (language === 'rb') return knownPackage('gem', spec.split('/')[0]!);
  for (const [pattern, ecosystem, name] of NAMESPACES)
    if (pattern.test(spec)) return knownPackage(ecosystem, name);
  return [];
}
