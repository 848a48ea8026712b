import { REPOSITORY_LIMITS, redactSecrets } from '@pgs/contract/repository';
import {
  PLANTED_SECRETS,
  SECRET_FILE_NAMES,
  serviceAccountJson,
} from '@pgs/contract/testing/secrets';
import { describe, expect, it } from 'vitest';
import { prepareRepository, shownPath } from './context.ts';

// Built from parts so no secret scanner flags this file itself.
const GITHUB = ['ghp', 'wWPw5k4aXcaT4fNP0UcnZwJUVFk6LO0pINUx'].join('_');
const SOURCE = `const octokit = new Octokit({ auth: "${GITHUB}" });\nexport default octokit;\n`;

const refusalOf = async (files: { path: string; content: string }[]) => {
  const prepared = await prepareRepository({ name: 'app', files });
  if (prepared.outcome !== 'refused') throw new Error('expected a refusal');
  return prepared.refusal;
};

describe('prepareRepository', () => {
  it('redacts each file, counts per file and in all, and keeps the order and the commit', async () => {
    const prepared = await prepareRepository({
      name: 'app',
      commit: 'abc1234',
      files: [
        { path: 'README.md', content: '# App\n' },
        { path: 'src/github.ts', content: SOURCE },
      ],
    });
    expect(prepared.outcome).toBe('prepared');
    if (prepared.outcome !== 'prepared') return;
    const { repository } = prepared;
    expect(repository.commit).toBe('abc1234');
    expect(repository.files.map((file) => file.path)).toEqual(['README.md', 'src/github.ts']);
    expect(repository.files[1]?.content).not.toContain(GITHUB);
    expect(repository.files[1]?.content).toContain('new Octokit({ auth: "[redacted:');
    expect(repository.files.map((file) => file.redactions)).toEqual([0, 1]);
    expect(repository.redactions).toBe(1);
    expect(repository.files[1]?.bytes).toBe(Buffer.byteLength(repository.files[1]!.content));
    expect(repository.totalBytes).toBe(6 + repository.files[1]!.bytes);
  });

  it("counts the digest builder's redactions, which the second pass leaves as they are", async () => {
    const fromBuilder = (await redactSecrets('src/github.ts', SOURCE)).content;
    const prepared = await prepareRepository({
      name: 'app',
      files: [{ path: 'src/github.ts', content: fromBuilder }],
    });
    if (prepared.outcome !== 'prepared') throw new Error('expected the digest to pass');
    expect(prepared.repository.files[0]?.content).toBe(fromBuilder);
    expect(prepared.repository.redactions).toBe(1);
    expect(prepared.repository.commit).toBeNull();
  });

  it('names every bad field, and never quotes a refused file', async () => {
    const refusal = await refusalOf([
      { path: 'src/app.ts', content: 'ok' },
      { path: '../up.ts', content: 'ok' },
      { path: 'config/.env.production', content: `GITHUB_TOKEN=${GITHUB}` },
      { path: 'keys/deploy.pem', content: `-----BEGIN PRIVATE KEY-----\n${GITHUB}` },
      { path: 'src/app.ts', content: 'again' },
      { path: 'logo.png', content: '\u0001\u0002\u0003PNG' },
      { path: 'src/big.ts', content: 'é'.repeat(REPOSITORY_LIMITS.maxFileBytes / 2 + 1) },
    ]);
    expect(refusal.status).toBe(400);
    expect(refusal.invalidFields).toEqual({
      'context.repository.files[1].path': 'must not contain ..',
      'context.repository.files[2].path': expect.stringMatching(/^is an environment file: /),
      'context.repository.files[3].path': expect.stringMatching(/^is a key or certificate: /),
      'context.repository.files[4].path': 'is the same path as context.repository.files[0].path',
      'context.repository.files[5].content': 'must be text, not binary content',
      'context.repository.files[6].content': expect.stringMatching(/^must be at most 262144 bytes/),
    });
    expect(refusal.message).toContain(
      'context.repository.files[1].path "../up.ts" must not contain ..',
    );
    expect(refusal.paths).toEqual({
      'context.repository.files[1].path': '../up.ts',
      'context.repository.files[2].path': 'config/.env.production',
      'context.repository.files[3].path': 'keys/deploy.pem',
      'context.repository.files[4].path': 'src/app.ts',
      'context.repository.files[5].content': 'logo.png',
      'context.repository.files[6].content': 'src/big.ts',
    });
    expect(refusal.message).toContain('and 5 more');
    expect(JSON.stringify(refusal)).not.toContain(GITHUB);
    expect(JSON.stringify(refusal)).not.toContain('PNG');
  });

  it('answers 413 past the total size, naming the files and the limit', async () => {
    const size = REPOSITORY_LIMITS.maxFileBytes;
    const count = Math.floor(REPOSITORY_LIMITS.maxTotalBytes / size) + 1;
    const refusal = await refusalOf(
      Array.from({ length: count }, (_, i) => ({
        path: `src/f${i}.ts`,
        content: 'x'.repeat(size),
      })),
    );
    expect(refusal).toMatchObject({
      status: 413,
      maxBytes: REPOSITORY_LIMITS.maxTotalBytes,
      invalidFields: {
        'context.repository.files': 'must hold at most 1048576 bytes of text in all',
      },
    });
  });

  it('refuses more files than the limit even if the schema let them through', async () => {
    const refusal = await refusalOf(
      Array.from({ length: REPOSITORY_LIMITS.maxFiles + 1 }, (_, i) => ({
        path: `src/f${i}.ts`,
        content: 'x',
      })),
    );
    expect(refusal.invalidFields['context.repository.files']).toBe('must hold at most 1000 files');
  });
});

describe('redaction the client cannot turn off', () => {
  it('redacts a secret on a line marked secretlint-disable', async () => {
    const content = `const k = "${GITHUB}"; // secretlint-disable-line\n/* secretlint-disable */\nconst j = "${GITHUB}";\n`;
    const prepared = await prepareRepository({
      name: 'app',
      files: [{ path: 'src/k.ts', content }],
    });
    if (prepared.outcome !== 'prepared') throw new Error('expected the digest to pass');
    expect(prepared.repository.files[0]?.content).not.toContain(GITHUB);
    expect(prepared.repository.redactions).toBe(2);
  });
});

describe('issue 27: secret files under other names, path tricks, the path named', () => {
  const README = { path: 'README.md', content: '# App\n' };

  it('names the path of a refused file in the message and beside its field', async () => {
    const refusal = await refusalOf([README, { path: '.env-production', content: 'X=1' }]);
    expect(refusal.message).toBe(
      'The repository digest is not valid: context.repository.files[1].path ".env-production" is an environment file: files that hold secrets are refused; `pgs generate --repo` skips them.',
    );
    expect(refusal.paths).toEqual({ 'context.repository.files[1].path': '.env-production' });
  });

  it.each(SECRET_FILE_NAMES.map((name) => [shownPath(name), name] as const))(
    'refuses %s as a secret file, naming it',
    async (shown, name) => {
      const refusal = await refusalOf([README, { path: `config/${name}`, content: 'not read' }]);
      expect(refusal.invalidFields).toEqual({
        'context.repository.files[1].path': expect.stringMatching(
          /^is an? .*: files that hold secrets/,
        ),
      });
      expect(refusal.message).toContain(`files[1].path ${shownPath(`config/${name}`)} is `);
      expect(shown).not.toMatch(/[\u200b\ufeff]/);
    },
  );

  it('refuses a Google service-account key by its content, whatever its name, without quoting it', async () => {
    const key = serviceAccountJson();
    const refusal = await refusalOf([README, { path: 'deploy/prod.json', content: key }]);
    expect(refusal.invalidFields).toEqual({
      'context.repository.files[1].content': expect.stringMatching(
        /^is a Google service-account key: files that hold secrets are refused/,
      ),
    });
    expect(refusal.message).toContain('files[1].content of "deploy/prod.json" is a Google');
    expect(JSON.stringify(refusal)).not.toContain('PRIVATE');
    // What the digest builder sends instead (its own redaction pass) is accepted.
    const fromBuilder = await redactSecrets('deploy/prod.json', key);
    const prepared = await prepareRepository({
      name: 'app',
      files: [{ path: 'deploy/prod.json', content: fromBuilder.content }],
    });
    expect(prepared.outcome).toBe('prepared');
  });

  it('refuses two paths that differ only by case or normal form, naming both', async () => {
    const refusal = await refusalOf([
      { path: 'src/App.ts', content: 'a' },
      { path: 'src/caf\u00e9.ts', content: 'b' },
      { path: 'src/app.ts', content: 'c' },
      { path: 'src/cafe\u0301.ts', content: 'd' },
      { path: 'src/a\u200bpp.TS', content: 'e' },
    ]);
    expect(refusal.invalidFields).toEqual({
      'context.repository.files[2].path':
        'is the same path as context.repository.files[0].path "src/App.ts" once case and Unicode form are ignored',
      'context.repository.files[3].path':
        'is the same path as context.repository.files[1].path "src/café.ts" once case and Unicode form are ignored',
      'context.repository.files[4].path':
        'is the same path as context.repository.files[0].path "src/App.ts" once case and Unicode form are ignored',
    });
    expect(refusal.message).toContain(
      'files[2].path "src/app.ts" is the same path as context.repository.files[0].path "src/App.ts"',
    );
    expect(refusal.message).toContain('(and 2 more in details)');
  });

  it.each(['src/%2e%2e/x.ts', 'src/\u2024\u2024/x.ts', '\uff0e\uff0e/x.ts', 'src/%252E%252E/x.ts'])(
    'refuses the path trick %j',
    async (path) => {
      const refusal = await refusalOf([README, { path, content: 'x' }]);
      expect(refusal.invalidFields).toEqual({
        'context.repository.files[1].path':
          'must not contain an encoded or look-alike . or .. segment',
      });
    },
  );

  it('shows invisible characters and cuts a long path in a message', () => {
    expect(shownPath('.e\u200bnv')).toBe('".e\\u200bnv"');
    expect(shownPath('a\u202eb')).toBe('"a\\u202eb"');
    expect(shownPath('x'.repeat(300))).toBe(`"${'x'.repeat(200)}…"`);
  });

  it('keeps every planted secret of issue 27 out of what is stored, and counts them', async () => {
    const prepared = await prepareRepository({
      name: 'app',
      files: PLANTED_SECRETS.map(({ format, path, content }) => ({
        path: `${format}/${path}`,
        content,
      })),
    });
    if (prepared.outcome !== 'prepared') throw new Error(prepared.refusal.message);
    const stored = JSON.stringify(prepared.repository);
    for (const { format, secret } of PLANTED_SECRETS) expect(stored, format).not.toContain(secret);
    expect(prepared.repository.files.every((file) => file.redactions > 0)).toBe(true);
    expect(prepared.repository.redactions).toBeGreaterThanOrEqual(PLANTED_SECRETS.length);
  });
});
