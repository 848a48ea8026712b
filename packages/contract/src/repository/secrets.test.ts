import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  fakeChars,
  ORDINARY_CODE,
  PLANTED_SECRETS,
  REPRO_GOOGLE_KEY,
  SECRET_FILE_NAMES,
  serviceAccountJson,
} from '../testing/secrets.ts';
import { redactSecrets } from './redact.ts';
import {
  normalisePath,
  pathProblem,
  samePathKey,
  secretContentKind,
  secretFileKind,
} from './rules.ts';

// Issue 27: secrets the redaction missed, secret files under other names, path tricks.

describe('redactSecrets on the formats issue 27 found', () => {
  it('redacts the Google API key of the reproduction, and keeps the route readable', async () => {
    const text = `router.get('/maps/${REPRO_GOOGLE_KEY}', a)`;
    expect(await redactSecrets('src/routes/maps.ts', text)).toEqual({
      content: "router.get('/maps/[redacted:google-api-key]', a)",
      redactions: 1,
    });
  });

  it.each(PLANTED_SECRETS.map((planted) => [planted.format, planted] as const))(
    '%s',
    async (_format, planted) => {
      const { content, redactions } = await redactSecrets(planted.path, planted.content);
      expect(content).not.toContain(planted.secret);
      expect(content).toContain(`[redacted:${planted.rule}]`);
      expect(redactions).toBeGreaterThan(0);
      // Only the secret goes: the text before it stays.
      const before = planted.content.slice(0, planted.content.indexOf(planted.secret));
      expect(content.startsWith(before)).toBe(true);
    },
  );

  it.each([
    ['YAML', 'config/app.yaml', 'db:\n  password: Tr0ub4dor\n'],
    ['INI', 'setup.cfg', '[db]\npassword = Tr0ub4dor ; production\n'],
    ['TOML, unquoted by mistake', 'config.toml', 'db_password = Tr0ub4dor\n'],
    [
      'an environment line',
      'docker-compose.yml',
      '    environment:\n      - PGPASSWORD=Tr0ub4dor\n',
    ],
    ['a properties file', 'app.properties', 'spring.datasource.password=Tr0ub4dor\n'],
    ['an XML element', 'pom.xml', '<db.password>Tr0ub4dor</db.password>\n'],
    ['an XML entry', 'app.xml', '<entry key="smtp.password">Tr0ub4dor</entry>\n'],
    ['.NET appSettings', 'Web.config', '<add key="DbPassword" value="Tr0ub4dor" />\n'],
    ['a SQL comment', 'schema.sql', '-- password: Tr0ub4dor\n'],
    ['a comment in code', 'src/db.ts', 'connect(); // password: Tr0ub4dor\n'],
    ['a Python comment', 'app/db.py', 'engine = connect()  # DB_PASS=Tr0ub4dor\n'],
    ['a short JSON password', 'seed.json', '{ "password": "Tr0ub" }\n'],
    ['a secret name', 'app.env.yml', 'client_secret: Tr0ub4dor\napi_key: Tr0ub4dor\n'],
    ['a Markdown note', 'README.md', 'Login: admin\nPassword: Tr0ub4dor\n'],
  ])('redacts a value given to a secret name: %s', async (_what, path, text) => {
    const { content } = await redactSecrets(path, text);
    expect(content).not.toContain('Tr0ub');
    expect(content).toContain('[redacted:assigned-secret]');
  });

  it.each(ORDINARY_CODE.map((file) => [file.path, file] as const))(
    'leaves %s readable: it only names a secret',
    async (_path, file) => {
      expect(await redactSecrets(file.path, file.content)).toEqual({
        content: file.content,
        redactions: 0,
      });
    },
  );

  it.each([
    [
      'docs/api.md',
      "| field | type |\n| password: string | the user's password |\nPassword: required\n",
    ],
    [
      'openapi.yaml',
      'password:\n  type: string\n  minLength: 12\ntoken_url: https://auth.example.com/token\n',
    ],
    [
      'config/app.yml',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a template in the file's text, not in this code
      'secret: ${SECRET_FROM_VAULT}\npassword: "{{ .Values.db.password }}"\ntoken: !Ref ApiToken\n',
    ],
    ['src/db.ts', 'export const passwordRules = { min: 12 };\nconst bypass = tokenize(input);\n'],
    ['README.md', 'Set the token: see docs/tokens.md for how to make one.\nkeys: 3 of them\n'],
    ['app.ini', 'password_file = /run/secrets/db\npassword = ********\n'],
    ['README.md', 'OPENAI_API_KEY=sk-… npm start\nSend "Authorization: Bearer pgs_test_…".\n'],
  ])('leaves %s alone: types, references, placeholders and prose', async (path, text) => {
    expect(await redactSecrets(path, text)).toEqual({ content: text, redactions: 0 });
  });

  it('replaces a Google service-account key whole, whatever its name', async () => {
    const key = serviceAccountJson();
    expect(secretContentKind(key)).toBe('a Google service-account key');
    expect(await redactSecrets('deploy/prod.json', key)).toEqual({
      content: '[redacted:google-service-account]',
      redactions: 1,
    });
    expect(secretContentKind('{ "client_email": "a@b.c" }')).toBeUndefined();
  });

  it('reads a megabyte of one long line in linear time', async () => {
    const line = 'password=x'.repeat(50_000) + 'a:b;'.repeat(100_000);
    const started = performance.now();
    await redactSecrets('big.ini', line);
    // A generous bound: a quadratic scan of this line takes minutes.
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});

/** A fresh value of each provider format, to plant anywhere. */
const TOKEN_ARB: fc.Arbitrary<string> = fc
  .tuple(fc.integer({ min: 1, max: 2 ** 31 }), fc.nat({ max: PLANTED_SECRETS.length - 1 }))
  .map(([seed, i]) => {
    const planted = PLANTED_SECRETS[i]!;
    // The same shape with other characters: each character class kept, values new.
    return planted.rule === 'assigned-secret'
      ? `${fakeChars('abcdefghjkmnpqrstuvwxyz', 6, seed)}${seed % 97}X`
      : planted.secret.replace(/[a-f]/g, (c) => fakeChars('abcdef', 1, seed + c.charCodeAt(0)));
  });

describe('redaction, whatever surrounds the secret (property)', () => {
  it('never lets a planted token through, in any context', async () => {
    const contexts = [
      (s: string) => `const k = "${s}";`,
      (s: string) => `url: https://api.example.com/v1?key=${s}&x=1`,
      (s: string) => `{"data":{"value":"${s}"}}`,
      (s: string) => `  - ${s}`,
      (s: string) => `fetch(\`/x/${s}/y\`)`,
    ];
    await fc.assert(
      fc.asyncProperty(
        fc.nat({ max: PLANTED_SECRETS.length - 1 }),
        fc.nat({ max: contexts.length - 1 }),
        fc.string({ maxLength: 40 }).map((s) => s.replace(/[\w-]+$/, '')),
        async (i, c, prefix) => {
          const planted = PLANTED_SECRETS[i]!;
          // Those found by where they stand (`AccountKey=`, `Authorization:`) are planted there.
          if (['assigned-secret', 'azure-key', 'authorization-header'].includes(planted.rule))
            return;
          const text = `${prefix}\n${contexts[c]!(planted.secret)}\n`;
          const { content } = await redactSecrets('src/any.ts', text);
          expect(content).not.toContain(planted.secret);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('never lets a value given to a secret name through, in any config syntax', async () => {
    const names = [
      'password',
      'DB_PASS',
      'storePassword',
      'db.password',
      'client_secret',
      'API_KEY',
      'authToken',
      'smtp_passwd',
    ];
    const syntaxes = [
      (k: string, v: string) => ['config/app.yml', `x:\n  ${k}: ${v}\n`],
      (k: string, v: string) => ['app.ini', `[s]\n${k} = ${v}\n`],
      (k: string, v: string) => ['deploy/env.sh', `export ${k}=${v}\n`],
      (k: string, v: string) => ['gradle.properties', `${k}=${v}\n`],
      (k: string, v: string) => ['settings.xml', `<${k}>${v}</${k}>\n`],
      (k: string, v: string) => ['seed.sql', `-- ${k}: ${v}\n`],
      (k: string, v: string) => ['app.json', `{"${k}": "${v}"}\n`],
    ];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...names),
        fc.nat({ max: syntaxes.length - 1 }),
        TOKEN_ARB.filter((v) => /^[\w.+/=-]+$/.test(v) && /\d/.test(v) && /[a-z]/i.test(v)),
        async (name, s, value) => {
          const [path, text] = syntaxes[s]!(name, value);
          const { content } = await redactSecrets(path!, text!);
          expect(content).not.toContain(value);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('secret files under other names (issue 27)', () => {
  it.each(SECRET_FILE_NAMES.map((name) => [JSON.stringify(name), name] as const))(
    'knows %s holds secrets, at the root and in a folder',
    (_shown, name) => {
      expect(secretFileKind(name)).toBeDefined();
      expect(secretFileKind(`deploy/config/${name}`)).toBeDefined();
    },
  );

  it('still reads source that only sounds like a secret as source', () => {
    for (const path of [
      'src/env.ts',
      'src/secrets.ts',
      'lib/credentials.py',
      'docs/tokens.md',
      'src/keys.ts',
      'environment.ts',
      'app/backup.py',
    ]) {
      expect(secretFileKind(path), path).toBeUndefined();
    }
  });

  it('knows a secret file under any look-alike, invisible, trailing or backup form (property)', () => {
    const disguise = fc.constantFrom(
      (n: string) => n,
      (n: string) => `${n} `,
      (n: string) => ` ${n}\u00a0`,
      (n: string) => n.replace('.', '\uff0e'),
      (n: string) => n.replace(/(.)/, '$1\u200b'),
      (n: string) => n.replace(/(..)/, '$1\u2060'),
      (n: string) => `\ufeff${n}`,
      (n: string) => `${n}.bak`,
      (n: string) => `${n}~`,
      (n: string) => `${n}.orig`,
    );
    fc.assert(
      fc.property(
        fc.constantFrom(...SECRET_FILE_NAMES, '.env', 'id_ed25519', 'deploy.pem', '.npmrc'),
        disguise,
        fc.array(fc.constantFrom('src', 'config', 'deploy', 'a b'), { maxLength: 3 }),
        (name, hide, folders) => {
          const path = [...folders, hide(name)].join('/');
          expect(secretFileKind(path), JSON.stringify(path)).toBeDefined();
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('paths in their normal form (issue 27)', () => {
  it('normalises look-alike, invisible and padding characters', () => {
    expect(normalisePath('config/\uff0ee\u200bnv ')).toBe('config/.env');
    expect(normalisePath('src/\u2024\u2024/x')).toBe('src/../x');
    expect(samePathKey('src/App.ts')).toBe(samePathKey('src/app.ts'));
    expect(samePathKey('src/caf\u00e9.ts')).toBe(samePathKey('src/cafe\u0301.ts'));
  });

  it.each([
    ['%2e%2e/etc/passwd'],
    ['src/%2E%2E/x'],
    ['src/%252e%252e/x'],
    ['src/\u2024\u2024/x'],
    ['src/\u2025/x'],
    ['\uff0e\uff0e/x'],
    ['src/%2e/x'],
    ['src/.\u200b./x'],
  ])('refuses the path trick %j', (path) => {
    expect(pathProblem(path)).toBe('must not contain an encoded or look-alike . or .. segment');
  });

  it('refuses encoded separators, and keeps legitimate names', () => {
    expect(pathProblem('src/a%5cb')).toBe(
      'must not contain an encoded or look-alike backslash or NUL',
    );
    expect(pathProblem('\uff0fetc/passwd')).toBe('must be relative to the repository root');
    for (const path of ['src/100%.ts', 'docs/caf\u00e9.md', 'src/..hidden.ts', 'src/a.b..c.ts']) {
      expect(pathProblem(path), path).toBeUndefined();
    }
  });
});
