import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkOutDir, defaultOutDir, safeFilename, slugify, writeDocuments } from './documents.ts';
import { UsageError } from './errors.ts';

const doc = (filename: string, content = `# ${filename}`) => ({
  type: 'readme',
  filename,
  content,
  generated_at: '2026-11-22T10:00:00.000Z',
  stage: 'documentation',
  tokens_used: 1,
});

let tmp: string;
beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'pgs-docs-'));
});
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe('names', () => {
  it.each([
    ['HabitTrack', 'habittrack'],
    ['Habit Track: for Teams!', 'habit-track-for-teams'],
    ['Café Ünïcode', 'cafe-unicode'],
    ['***', 'project'],
    ['x'.repeat(100), 'x'.repeat(50)],
  ])('slugify(%j) = %j', (name, slug) => {
    expect(slugify(name)).toBe(slug);
  });

  it.each([
    ['README.md', 'README.md'],
    ['../../etc/passwd', 'passwd'],
    ['..\\..\\evil.md', 'evil.md'],
    ['.bashrc', 'bashrc'],
    ['a b?.md', 'a_b_.md'],
    ['..', 'document.md'],
    ['', 'document.md'],
  ])('safeFilename(%j) = %j', (name, safe) => {
    expect(safeFilename(name)).toBe(safe);
  });
});

describe('writing', () => {
  it('writes every document, keeps names unique, and never overwrites without force', async () => {
    const paths = await writeDocuments(tmp, 'out', [
      doc('README.md', 'one'),
      doc('readme.md', 'two'),
      doc('../README.md', 'three'),
    ]);
    expect(paths).toEqual([
      join('out', 'README.md'),
      join('out', 'readme-2.md'),
      join('out', 'README-3.md'),
    ]);
    expect(await readFile(join(tmp, 'out', 'README-3.md'), 'utf8')).toBe('three');
    expect((await readdir(tmp)).sort()).toEqual(['out']);

    await expect(writeDocuments(tmp, 'out', [doc('README.md', 'again')])).rejects.toThrow(
      /already exists; it was not overwritten/,
    );
    await writeDocuments(tmp, 'out', [doc('README.md', 'forced')], { force: true });
    expect(await readFile(join(tmp, 'out', 'README.md'), 'utf8')).toBe('forced');
  });

  it('the default directory skips one that holds files', async () => {
    await mkdir(join(tmp, 'habittrack'));
    expect(await defaultOutDir(tmp, 'HabitTrack')).toBe('habittrack');
    await writeFile(join(tmp, 'habittrack', 'x'), '');
    await mkdir(join(tmp, 'habittrack-2'));
    await writeFile(join(tmp, 'habittrack-2', 'y'), '');
    expect(await defaultOutDir(tmp, 'HabitTrack')).toBe('habittrack-3');
  });

  it('a given --out must be missing or empty unless forced, and not a file', async () => {
    await expect(checkOutDir(tmp, 'missing', false, 'generate')).resolves.toBeUndefined();
    await expect(checkOutDir(tmp, 'out', false, 'generate')).rejects.toThrow(UsageError);
    await expect(checkOutDir(tmp, 'out', true, 'generate')).resolves.toBeUndefined();
    await expect(checkOutDir(tmp, 'out/README.md', false, 'generate')).rejects.toThrow(/is a file/);
  });
});
