import type { Provenance } from '@pgs/client';
import { describe, expect, it } from 'vitest';
import { codebaseView, countOf, formatBytes, type RepositoryProvenance } from './codebase.ts';

const COMMIT = '4f9c2d1e8b7a6f5e4d3c2b1a0f9e8d7c6b5a4f3e';

const provenance = (repository: RepositoryProvenance | null): Provenance => ({
  projectId: '7d0f2c8e-4a9b-4e43-9a55-0d2b8f1c6e21',
  status: 'completed',
  detail: 'standard',
  requirementStyle: 'ears',
  conventionsVersion: null,
  language: null,
  writtenInEnglish: [],
  context: repository === null ? null : { repository },
  totals: {
    inputTokens: 0,
    cachedInputTokens: 0,
    cacheWriteTokens: 0,
    outputTokens: 0,
    costUsd: 0,
  },
  definition: null,
  documents: [],
});

const vetbook = (extra: Partial<RepositoryProvenance> = {}): RepositoryProvenance => ({
  name: 'vetbook-api',
  commit: COMMIT,
  revision: 1,
  totalBytes: 49_460,
  redactions: 3,
  files: [
    { path: 'package.json', bytes: 812, redactions: 0 },
    { path: 'src/config.ts', bytes: 1_536, redactions: 2 },
    { path: 'src/routes/appointments.ts', bytes: 47_112, redactions: 1 },
  ],
  ...extra,
});

describe('codebaseView', () => {
  it('is nothing for a project created without a codebase', () => {
    expect(codebaseView(provenance(null))).toBeUndefined();
  });

  it('names the repository, its commit in 12 characters (the whole in the tooltip), its size and secrets', () => {
    const view = codebaseView(provenance(vetbook()));
    expect(view).toMatchObject({
      name: 'vetbook-api',
      commit: { short: '4f9c2d1e8b7a', full: COMMIT },
      sent: 'sent with the project',
      fileCount: '3 files',
      size: '48 KB',
      secrets: '3 redacted before storage',
      secretsNote:
        'The 3 secrets found were replaced in the files before anything was stored or sent to a model, and are never shown.',
    });
    expect(view?.files).toEqual([
      { path: 'package.json', size: '812 B', redactions: '0', redacted: false },
      { path: 'src/config.ts', size: '1.5 KB', redactions: '2', redacted: true },
      { path: 'src/routes/appointments.ts', size: '46 KB', redactions: '1', redacted: true },
    ]);
  });

  it('says which revision replaced the digest', () => {
    expect(codebaseView(provenance(vetbook({ revision: 3 })))?.sent).toBe('replaced by revision 3');
  });

  it('reads without a commit, one file and one secret, or none', () => {
    const one = codebaseView(
      provenance(
        vetbook({
          commit: null,
          totalBytes: 120,
          redactions: 1,
          files: [{ path: 'main.go', bytes: 120, redactions: 1 }],
        }),
      ),
    );
    expect(one).toMatchObject({
      commit: undefined,
      fileCount: '1 file',
      size: '120 B',
      secrets: '1 redacted before storage',
      secretsNote:
        'The secret found was replaced in its file before anything was stored or sent to a model, and is never shown.',
    });
    const none = codebaseView(provenance(vetbook({ redactions: 0 })));
    expect(none?.secrets).toBe('none found');
    expect(none?.secretsNote).toBe(
      'No secret was found in these files; one would have been replaced before anything was stored or sent to a model, and never shown.',
    );
  });

  it('keeps a commit shorter than 12 characters whole', () => {
    expect(codebaseView(provenance(vetbook({ commit: '4f9c2d1' })))).toMatchObject({
      commit: { short: '4f9c2d1', full: '4f9c2d1' },
    });
  });

  it('lists every file of a digest at its limit (1,000 files, 1 MB), in the order given', () => {
    const files = Array.from({ length: 1000 }, (_, i) => ({
      path: `packages/module-${String(i).padStart(4, '0')}/src/${'deeply/nested/'.repeat(20)}index.ts`,
      bytes: 1_048,
      redactions: i % 250 === 0 ? 1 : 0,
    }));
    const view = codebaseView(provenance(vetbook({ files, totalBytes: 1_048_576, redactions: 4 })));
    expect(view?.fileCount).toBe('1,000 files');
    expect(view?.size).toBe('1 MB');
    expect(view?.secrets).toBe('4 redacted before storage');
    expect(view?.files).toHaveLength(1000);
    expect(view?.files.map((file) => file.path)).toEqual(files.map((file) => file.path));
    expect(view?.files.filter((file) => file.redacted)).toHaveLength(4);
    expect(view?.files[999]).toMatchObject({ size: '1 KB', redactions: '0' });
  });
});

describe('formatBytes', () => {
  it('writes bytes under 1 KB, then units of 1,024 with one decimal under 10', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(1023)).toBe('1,023 B');
    expect(formatBytes(1024)).toBe('1 KB');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(10_240)).toBe('10 KB');
    expect(formatBytes(262_144)).toBe('256 KB');
    expect(formatBytes(1_048_576)).toBe('1 MB');
    expect(formatBytes(3.25 * 1_048_576)).toBe('3.3 MB');
  });

  it('moves up a unit when rounding reaches 1,024', () => {
    expect(formatBytes(1_048_575)).toBe('1 MB');
    expect(formatBytes(1_048_000)).toBe('1,023 KB');
  });
});

describe('countOf', () => {
  it('counts in English', () => {
    expect(countOf(0, 'file')).toBe('0 files');
    expect(countOf(1, 'file')).toBe('1 file');
    expect(countOf(1000, 'file')).toBe('1,000 files');
  });
});
