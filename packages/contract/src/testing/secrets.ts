/**
 * Planted secrets for the tests of redaction (issue 27): one fake value of each provider
 * format and assignment syntax the redaction must find, in a line shaped like the file it
 * would sit in; the file names that must be refused as secret files; and code that only
 * names a secret, which must stay readable. Test-only data: every value is assembled at run
 * time (from parts, or from a seeded generator) so that no scanner reading this repository
 * (GitHub push protection included) flags it, and none of them is real.
 */

import type { TestRepository } from './repositories.ts';

/** A secret planted in a file, and the format it has. */
export interface PlantedSecret {
  /** The format, as tests name it (`google-api-key`, `yaml-password`…). */
  format: string;
  /** The rule whose marker replaces it (`[redacted:<rule>]`). */
  rule: string;
  /** The value that must not survive redaction. */
  secret: string;
  path: string;
  content: string;
}

const HEX = '0123456789abcdef';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const ALNUM = `0123456789${LOWER}${LOWER.toUpperCase()}`;
const BASE64URL = `${ALNUM}-_`;

/**
 * `length` characters of `alphabet`, the same for the same seed: fake token bodies without
 * a literal token in the source.
 *
 * @example
 * fakeChars('0123456789abcdef', 32, 7); // 32 hex characters, always the same ones
 */
export function fakeChars(alphabet: string, length: number, seed: number): string {
  let state = seed >>> 0 || 1;
  let out = '';
  for (let i = 0; i < length; i++) {
    state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0;
    out += alphabet[(state >>> 16) % alphabet.length];
  }
  return out;
}

const join = (...parts: string[]) => parts.join('');
const f = fakeChars;

/** The Google API key of issue 27's reproduction, in the route file it was found in. */
export const REPRO_GOOGLE_KEY = join('AIza', 'FMTahov29GNUbipw3AHOVcjqx4BIPWdkry5');

const planted = (format: string, secret: string, path: string, line: string): PlantedSecret => ({
  format,
  rule: ASSIGNMENTS.has(format)
    ? 'assigned-secret'
    : format.replace(/-legacy$/, '').replace(/^authorization-.*/, 'authorization-header'),
  secret,
  path,
  content: line.replace('$SECRET', secret),
});

/** The formats found by where they stand (`password: …`), not by a shape of their own. */
const ASSIGNMENTS = new Set([
  'yaml-password',
  'ini-password',
  'env-pass',
  'properties-password',
  'xml-password',
  'xml-property',
  'sql-comment-password',
  'json-password',
  'cli-password-flag',
]);

const JWT = join(
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9',
  '.',
  'eyJzdWIiOiJ1c2VyXzQyIiwicm9sZSI6ImFkbWluIn0',
  '.',
  f(BASE64URL, 43, 11),
);

/**
 * One planted secret of each format issue 27 found unredacted, and of the other provider
 * formats `tokens.ts` knows.
 */
export const PLANTED_SECRETS: readonly PlantedSecret[] = [
  planted(
    'google-api-key',
    REPRO_GOOGLE_KEY,
    'src/routes/maps.ts',
    "router.get('/maps/$SECRET', a);\n",
  ),
  planted(
    'stripe-webhook-secret',
    join('whsec', '_', f(ALNUM, 32, 2)),
    'src/webhooks.ts',
    "stripe.webhooks.constructEvent(body, signature, '$SECRET');\n",
  ),
  planted(
    'google-oauth-client-secret',
    join('GOC', 'SPX-', f(BASE64URL, 28, 3)),
    'config/oauth.json',
    '{ "web": { "client_id": "123.apps.example", "cs": "$SECRET" } }\n',
  ),
  planted('jwt', JWT, 'test/fixtures/session.http', 'GET /me\nCookie: session=$SECRET\n'),
  planted(
    'huggingface',
    join('hf', '_', f(ALNUM, 34, 5)),
    'scripts/download.py',
    'login(hf_auth="$SECRET")\n',
  ),
  planted(
    'pypi',
    join('pypi-', 'AgEIcHlwaS5vcmc', f(BASE64URL, 120, 6)),
    '.github/workflows/release.yml',
    '      run: twine upload -u __token__ -p $SECRET dist/*\n',
  ),
  planted(
    'digitalocean',
    join('dop', '_v1_', f(HEX, 64, 7)),
    'deploy/doctl.sh',
    'doctl auth init -t $SECRET\n',
  ),
  planted(
    'mailgun-legacy',
    join('key', '-', f(LOWER, 8, 8), '3', f(HEX, 23, 8)),
    'src/mail.rb',
    'Mailgun::Client.new(ENV.fetch("X", "$SECRET"))\n',
  ),
  planted(
    'mailgun',
    join(f(HEX, 32, 9), '-', f(HEX, 8, 10), '-', f(HEX, 8, 11)),
    'src/mail.js',
    'mailgun.client({ username: "api", k: "$SECRET" });\n',
  ),
  planted(
    'azure-key',
    join(f(ALNUM, 86, 12), '=='),
    'appsettings.json',
    '{ "Storage": "DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=$SECRET;EndpointSuffix=core.windows.net" }\n',
  ),
  planted(
    'authorization-basic',
    join('YWRtaW46', f(ALNUM, 16, 13)),
    'docs/api.http',
    'GET /admin\nAuthorization: Basic $SECRET\n',
  ),
  planted(
    'authorization-bearer',
    join('tok', f(ALNUM, 29, 14)),
    'scripts/call.sh',
    'curl -H "Authorization: Bearer $SECRET" https://api.example.com/v1\n',
  ),
  planted(
    'yaml-password',
    'Vb7-herd-Quill',
    'config/database.yml',
    'production:\n  adapter: postgresql\n  password: $SECRET\n',
  ),
  planted(
    'ini-password',
    'Lantern42Mossy',
    'config/app.ini',
    '[database]\nuser = app\npassword = $SECRET\n',
  ),
  planted('env-pass', 'Quartz9Pebble', 'deploy/run.sh', 'DB_PASS=$SECRET node dist/server.js\n'),
  planted(
    'properties-password',
    'Sparrow-77-Cobalt',
    'android/gradle.properties',
    'storeFile=release.jks\nstorePassword=$SECRET\nkeyAlias=upload\n',
  ),
  planted(
    'xml-password',
    'Marble5Orchid',
    'config/settings.xml',
    '<server>\n  <id>nexus</id>\n  <password>$SECRET</password>\n</server>\n',
  ),
  planted(
    'xml-property',
    'Tundra8Falcon',
    'src/main/resources/beans.xml',
    '<property name="password" value="$SECRET"/>\n',
  ),
  planted(
    'sql-comment-password',
    'Harbor3Violet',
    'db/seed.sql',
    "-- password: $SECRET\ninsert into users (name) values ('admin');\n",
  ),
  planted(
    'json-password',
    'Ember6',
    'fixtures/users.json',
    '{ "user": "admin", "password": "$SECRET" }\n',
  ),
  planted(
    'cli-password-flag',
    'Cinder4Maple',
    'Makefile',
    'db:\n\tmysql --password=$SECRET app < schema.sql\n',
  ),
  planted(
    'twilio',
    join('SK', f(HEX, 32, 15)),
    'src/sms.ts',
    'const twilio = new Twilio(sid, "$SECRET", token);\n',
  ),
  planted(
    'mailchimp',
    join(f(HEX, 32, 16), '-us', '12'),
    'src/news.py',
    'client.set_config({"k": "$SECRET", "server": "us12"})\n',
  ),
  planted(
    'telegram-bot-token',
    join('61', '23456789', ':AA', f(BASE64URL, 33, 17)),
    'bot/main.go',
    'bot, _ := tgbotapi.NewBotAPI("$SECRET")\n',
  ),
  planted(
    'postman',
    join('PMAK', '-', f(HEX, 24, 18), '-', f(HEX, 34, 19)),
    'ci/postman.yml',
    'env:\n  PM: $SECRET\n',
  ),
  planted(
    'new-relic',
    join('NRAK', '-', f('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ', 27, 20)),
    'newrelic.js',
    "exports.config = { k: '$SECRET' };\n",
  ),
  planted(
    'supabase',
    join('sbp', '_', f(HEX, 40, 21)),
    'scripts/deploy.sh',
    'supabase login --token $SECRET\n',
  ),
  planted(
    'square',
    join('sq0', 'atp-', f(BASE64URL, 22, 22)),
    'src/pay.ts',
    "const client = new Client({ k: '$SECRET' });\n",
  ),
  planted(
    'atlassian',
    join('ATATT3', f(BASE64URL, 186, 23)),
    'scripts/jira.sh',
    'curl -u me@example.com:$SECRET https://acme.atlassian.net\n',
  ),
  planted(
    'doppler',
    join('dp', '.pt.', f(ALNUM, 43, 24)),
    'Dockerfile',
    'RUN doppler configure set token $SECRET\n',
  ),
  planted(
    'pulumi',
    join('pul', '-', f(HEX, 40, 25)),
    '.github/workflows/infra.yml',
    '    env:\n      PULUMI: $SECRET\n',
  ),
  planted(
    'age-secret-key',
    join('AGE-SECRET', '-KEY-1', f('QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L', 58, 26)),
    'README.md',
    'Decrypt with `age -d -i key.txt`; the key starts $SECRET.\n',
  ),
];

/**
 * File names issue 27 found accepted (and only content-scanned), which must be refused as
 * secret files, and skipped by the digest builder.
 */
export const SECRET_FILE_NAMES: readonly string[] = [
  '.env-production',
  '.env_local',
  '.env ',
  '.env~',
  'dotenv',
  '\uff0eenv',
  '.e\u200bnv',
  'id_rsa.bak',
  'server.pem.bak',
  '_netrc',
  'credentials.yml',
  'secrets.ini',
  'serviceAccountKey.json',
  'acme-firebase-adminsdk-x1y2z-0123456789.json',
  'application_default_credentials.json',
  'terraform.tfstate.1700000000.backup',
  'prod.auto.tfvars',
  'prod.auto.tfvars.json',
  'kubeconfig',
  'wp-config.php',
  'keystore.properties',
];

/** A Google service-account key under a name that says nothing: refused by its content. */
export function serviceAccountJson(): string {
  return JSON.stringify({
    type: 'service_account',
    project_id: 'acme-prod',
    private_key_id: f(HEX, 40, 27),
    private_key: join(
      '-----BEGIN PRIVATE',
      ' KEY-----\n',
      f(ALNUM, 64, 28),
      '\n-----END PRIVATE',
      ' KEY-----\n',
    ),
    client_email: 'deployer@acme-prod.iam.gserviceaccount.com',
  });
}

/** Code that only names a secret: it must come back from redaction unchanged. */
export const ORDINARY_CODE: readonly { path: string; content: string }[] = [
  {
    path: 'src/types.ts',
    content:
      'export interface Login {\n  email: string;\n  password: string;\n  token?: string | null;\n}\n',
  },
  {
    path: 'app/views.py',
    content: "password = request.form['password']\ntoken = get_token(user)\n",
  },
  {
    path: 'src/form.tsx',
    content:
      'const passwordField = useRef(null);\n<input type="password" name="password" autoComplete="current-password" />\n',
  },
  {
    path: 'src/auth.ts',
    content:
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a template in the file's text, not in this code
      'const token = await getToken();\nconst secret = process.env.SESSION_SECRET;\nheaders.Authorization = `Bearer ${token}`;\n',
  },
  {
    path: 'src/api.js',
    content:
      "fetch(url, { credentials: 'include', headers: { Authorization: 'Bearer ' + token } });\n",
  },
  {
    path: 'config/app.yml',
    content:
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a template in the file's text, not in this code
      'auth:\n  password_min_length: 12\n  token_ttl: 3600\n  max_tokens: 4000\n  password: ${DB_PASSWORD}\n',
  },
  {
    path: 'src/schema.graphql',
    content: 'type Mutation {\n  login(email: String!, password: String!): Session\n}\n',
  },
  {
    path: 'app/models.py',
    content:
      'class User(Base):\n    password: Mapped[str]\n    api_key: str = Field(default=None)\n',
  },
];

const SERVICE_ACCOUNT_PATH = 'deploy/keys/prod.json';

/**
 * A repository holding one planted secret of each format (each in its own file), secret
 * files under the names issue 27 found accepted, and a service-account key under a name
 * that says nothing: for the tests that send a digest naively and search every table,
 * response and log line for what was planted.
 */
export const PLANTED_REPOSITORY: TestRepository = {
  name: 'planted-secrets',
  files: {
    'package.json': '{ "name": "planted-secrets", "dependencies": { "express": "^4" } }\n',
    ...Object.fromEntries(PLANTED_SECRETS.map(({ path, content }) => [path, content])),
    '.env-production': `MAPS_KEY=${REPRO_GOOGLE_KEY}\n`,
    'config/credentials.yml': `smtp:\n  password: ${PLANTED_SECRETS[0]!.secret}\n`,
    'deploy/id_rsa.bak': join('-----BEGIN OPENSSH PRIVATE', ' KEY-----\n', f(ALNUM, 70, 29), '\n'),
    [SERVICE_ACCOUNT_PATH]: serviceAccountJson(),
  },
  secrets: [...PLANTED_SECRETS.map(({ secret }) => secret), f(ALNUM, 64, 28), f(ALNUM, 70, 29)],
  secretFiles: [
    '.env-production',
    'config/credentials.yml',
    'deploy/id_rsa.bak',
    SERVICE_ACCOUNT_PATH,
  ],
  ignored: [],
  expected: {
    stack: [],
    componentPaths: [],
    dataStores: [],
    externalServices: [],
    routes: [],
    entities: [],
  },
};
