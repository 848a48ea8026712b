import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CITATION_LIMITS, findCitations } from './citations.ts';
import { buildRepositoryDigest } from './digest.ts';

// Built from parts so no secret scanner flags this test file itself.
const GITHUB = ['ghp', 'wWPw5k4aXcaT4fNP0UcnZwJUVFk6LO0pINUx'].join('_');

describe('findCitations', () => {
  it('finds IDs in test names, describe strings and comments, with their lines', () => {
    const text = [
      "describe('T-4 reminders', () => {",
      "  it('FR-3.2 sends the reminder two days before', () => {});",
      '  // covers FR-3 and NFR-1',
      "  const label = 'FR-9 is data, not a citation';",
      "  test.each([1])('checks FR-5.1 too', () => {});",
      '});',
    ].join('\n');
    const found = findCitations('test/reminders.test.ts', text);
    expect(found.map(({ id, line }) => `${id}@${line}`)).toEqual([
      'T-4@1',
      'FR-3.2@2',
      'FR-3@3',
      'NFR-1@3',
      'FR-5.1@5',
    ]);
    expect(found[1]!.text).toBe("it('FR-3.2 sends the reminder two days before', () => {});");
  });

  it('reads Python, Go and Gherkin tests, and refuses look-alikes', () => {
    expect(findCitations('tests/test_a.py', 'def test_login():  # FR-1.1')[0]!.id).toBe('FR-1.1');
    expect(findCitations('a_test.go', '\tt.Run("FR-2 lists", func(t *testing.T) {')[0]!.id).toBe(
      'FR-2',
    );
    expect(findCitations('spec/x.feature', 'Scenario: FR-7.3 export')[0]!.id).toBe('FR-7.3');
    expect(findCitations('t.test.ts', '// SFR-3, T-4a, FR-3x, CVE-2024-1')).toEqual([]);
  });

  it('cuts long lines and keeps at most the per-file limit', () => {
    const long = `// FR-1 ${'x'.repeat(500)}`;
    expect(findCitations('a.test.ts', long)[0]!.text).toHaveLength(CITATION_LIMITS.maxTextLength);
    const many = Array.from({ length: 500 }, (_, i) => `// FR-${i + 1}`).join('\n');
    expect(findCitations('a.test.ts', many)).toHaveLength(CITATION_LIMITS.maxPerFile);
  });
});

describe('buildRepositoryDigest with citations', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  async function tree(files: Record<string, string>): Promise<string> {
    const root = await mkdtemp(join(tmpdir(), 'pgs-citations-'));
    dirs.push(root);
    for (const [path, content] of Object.entries(files)) {
      await mkdir(dirname(join(root, path)), { recursive: true });
      await writeFile(join(root, path), content);
    }
    return root;
  }

  it('scans test files the budget left out, redacts secrets, and never reads .env', async () => {
    const root = await tree({
      'package.json': '{"name":"vetbook"}',
      'src/app.ts': `export const app = 1;\n${'// filler\n'.repeat(200)}`,
      'test/app.test.ts': [
        "it('FR-1.1 books', () => {});",
        `it('FR-2 uses ${GITHUB}', () => {});`,
        // Over the budget alone: the file is left out of `files`, its citations still go.
        'const pad = 1;\n'.repeat(300),
      ].join('\n'),
      '.env': '# FR-9 TOKEN=x',
    });
    const { repository, report } = await buildRepositoryDigest(root, {
      budgetTokens: 600,
      citations: true,
    });
    expect(repository.files.map((f) => f.path)).not.toContain('test/app.test.ts');
    expect(repository.citations?.map((c) => `${c.id}@${c.path}:${c.line}`)).toEqual([
      'FR-1.1@test/app.test.ts:1',
      'FR-2@test/app.test.ts:2',
    ]);
    expect(repository.citations?.[1]?.text).toContain('[redacted:');
    expect(JSON.stringify(repository)).not.toContain(GITHUB);
    expect(report.citations).toBe(2);
  });

  it('sends no citations unless asked', async () => {
    const root = await tree({ 'a.test.ts': "it('FR-1 a', () => {});" });
    const { repository } = await buildRepositoryDigest(root);
    expect(repository.citations).toBeUndefined();
  });
});
