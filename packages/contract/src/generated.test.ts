import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateContractFiles, OPENAPI_PATH, REPO_ROOT } from '../scripts/generate.ts';

describe('generated contract files', () => {
  it(`are up to date with ${OPENAPI_PATH}`, async () => {
    const files = await generateContractFiles();
    const stale: string[] = [];
    for (const [path, expected] of Object.entries(files)) {
      const actual = await readFile(join(REPO_ROOT, path), 'utf8').catch(() => undefined);
      // A checkout with CRLF line endings is still fresh.
      if (actual?.replaceAll('\r\n', '\n') !== expected) stale.push(path);
    }
    expect(
      stale,
      `${stale.join(', ')} differ from what ${OPENAPI_PATH} generates: run npm run generate`,
    ).toEqual([]);
  });
});
