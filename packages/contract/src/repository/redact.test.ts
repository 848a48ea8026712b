import { describe, expect, it } from 'vitest';
import { naiveDigest, TEST_REPOSITORIES } from '../testing/repositories.ts';
import { redactSecrets } from './redact.ts';
import { looksBinary, pathProblem, secretFileKind } from './rules.ts';

// Built from parts so no secret scanner flags this test file itself.
const GITHUB = ['ghp', 'wWPw5k4aXcaT4fNP0UcnZwJUVFk6LO0pINUx'].join('_');
const STRIPE = ['sk', 'live', '51H8qwertyuiopasdfghjklzxcvbnm1234567890QWERTYUI'].join('_');
const AWS_ID = ['AKIA', 'QWERTYUIOPASDFGH'].join('');

describe('redactSecrets', () => {
  it('replaces what the recommended rules and the extra patterns find, and keeps the rest of the line', async () => {
    const text = [
      `const octokit = new Octokit({ auth: "${GITHUB}" });`,
      `const stripe = new Stripe('${STRIPE}');`,
      `const db = "postgres://app:s3cretpass@db.internal:5432/app";`,
      `aws_access_key_id = ${AWS_ID}`,
      'const password = "correct-horse-battery";',
      'SESSION_SECRET=abcdefgh12345678',
      '-----BEGIN OPENSSH PRIVATE KEY-----',
      'b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW',
      '-----END OPENSSH PRIVATE KEY-----',
      'const ok = "nothing secret here";',
    ].join('\n');
    const { content, redactions } = await redactSecrets('src/clients.ts', text);
    for (const secret of [
      GITHUB,
      STRIPE,
      's3cretpass',
      AWS_ID,
      'correct-horse-battery',
      'abcdefgh12345678',
      'b3BlbnNzaC1rZXkt',
    ]) {
      expect(content).not.toContain(secret);
    }
    expect(redactions).toBe(7);
    expect(content).toContain('new Stripe(');
    expect(content).toContain('const db = "[redacted:');
    expect(content).toContain('const ok = "nothing secret here";');
  });

  it('leaves code that only names a secret alone', async () => {
    const text =
      'const password = process.env.DB_PASSWORD;\nexport const schema = z.object({ password: z.string().min(8) });\n';
    expect(await redactSecrets('src/config.ts', text)).toEqual({ content: text, redactions: 0 });
  });
});

describe('repository rules', () => {
  it.each([
    ['../etc/passwd', 'must not contain ..'],
    ['src/../../x', 'must not contain ..'],
    ['/etc/passwd', 'must be relative to the repository root'],
    ['C:/Windows/x', 'must be relative to the repository root'],
    ['src\\x.ts', 'must use / as its separator'],
    ['src//x.ts', 'must be normalised (no empty or . segments, no trailing /)'],
    ['./src/x.ts', 'must be normalised (no empty or . segments, no trailing /)'],
    ['src/x\0.ts', 'must not contain NUL'],
  ])('refuses %j', (path, problem) => {
    expect(pathProblem(path)).toBe(problem);
  });

  it('accepts a normalised relative path', () => {
    expect(pathProblem('src/routes/users.ts')).toBeUndefined();
  });

  it.each([
    '.env',
    'config/.env.production',
    'deploy/server.pem',
    'id_rsa',
    '.npmrc',
    'home/.aws/credentials',
    'gcp/service-account-prod.json',
    'infra/terraform.tfstate',
  ])('knows %s holds secrets', (path) => {
    expect(secretFileKind(path)).toBeDefined();
  });

  it.each(['src/env.ts', 'README.md', 'package.json', 'src/keys.ts'])(
    'reads %s as source',
    (path) => {
      expect(secretFileKind(path)).toBeUndefined();
    },
  );

  it('tells binary from text', () => {
    expect(looksBinary('PNG\0\0\u0001')).toBe(true);
    expect(looksBinary('caf\ufffd')).toBe(true);
    expect(looksBinary('plain text\n\twith tabs\r\n')).toBe(false);
  });
});

describe('the test repositories', () => {
  it.each(TEST_REPOSITORIES.map((repository) => [repository.name, repository] as const))(
    '%s: every secret in source is redacted',
    async (_name, repository) => {
      const digest = naiveDigest(repository);
      const texts = await Promise.all(
        digest.files.map(async (file) => (await redactSecrets(file.path, file.content)).content),
      );
      for (const secret of repository.secrets) {
        expect(texts.join('\n')).not.toContain(secret);
      }
      for (const path of repository.secretFiles) expect(secretFileKind(path)).toBeDefined();
    },
  );
});
