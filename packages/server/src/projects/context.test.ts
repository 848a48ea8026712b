import { REPOSITORY_LIMITS, redactSecrets } from '@pgs/contract/repository';
import { describe, expect, it } from 'vitest';
import { prepareRepository } from './context.ts';

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
    expect(refusal.message).toContain('context.repository.files[1].path must not contain ..');
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
