import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Pgs, type Provenance } from '@pgs/client';
import { EXPRESS_POSTGRES } from '@pgs/contract/testing/repositories';
import { buildRepositoryDigest } from '@pgs/repository';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RealServer } from '../../client/test/pgs-server.ts';
import { EXIT, run } from '../src/index.ts';
import { startRealCli, stopRealCli } from './cli-process.ts';

// pgs generate --repo and pgs revise --repo in-process against the real server (offline
// engine): what the server stored is read back through provenance's `context`, the digest's
// file list without its text.

const COMMIT = '9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a2f1e0d';

describe('pgs generate and revise --repo against the real server', { timeout: 180_000 }, () => {
  let server: RealServer;
  let tmp: string;
  let apiEnv: NodeJS.ProcessEnv;
  let sdk: Pgs;
  let root: string;

  beforeAll(async () => {
    ({ server, tmp, apiEnv } = await startRealCli());
    sdk = new Pgs({ apiKey: server.apiKey, baseUrl: server.url });
    root = join(tmp, 'vetbook-api');
    const files = {
      ...EXPRESS_POSTGRES.files,
      '.git/HEAD': 'ref: refs/heads/main\n',
      '.git/refs/heads/main': `${COMMIT}\n`,
    };
    for (const [path, text] of Object.entries(files)) {
      await mkdir(dirname(join(root, path)), { recursive: true });
      await writeFile(join(root, path), text);
    }
  });

  afterAll(async () => {
    await stopRealCli(server, tmp);
  });

  async function pgs(argv: string[]) {
    let stdout = '';
    let stderr = '';
    const code = await run(argv, {
      env: apiEnv,
      stdout: { write: (s: string) => (stdout += s) },
      stderr: { write: (s: string) => (stderr += s) },
      cwd: tmp,
    });
    return { code, stdout, stderr };
  }

  /** What provenance says the server stored, in the builder's terms. */
  function stored(provenance: Provenance) {
    const repository = provenance.context?.repository;
    return {
      name: repository?.name,
      commit: repository?.commit,
      files: repository?.files.map(({ path, bytes }) => ({ path, bytes })),
    };
  }

  it('the server stores the digest the CLI built; a revision stores the one sent with it', async () => {
    const { report } = await buildRepositoryDigest(root, {
      countTokens: (text) => countTokens(text, { disallowedSpecial: new Set() }),
    });
    const sent = {
      name: 'vetbook-api',
      commit: COMMIT,
      files: report.files.map(({ path, bytes }) => ({ path, bytes })),
    };

    const created = await pgs([
      'generate',
      'Add team billing: clinics pay per vet seat, monthly',
      '--repo',
      root,
      '--out',
      join(tmp, 'docs'),
      '--json',
    ]);
    expect(created.stderr).toBe('');
    expect(created.code).toBe(EXIT.OK);
    const { projectId, status } = JSON.parse(created.stdout);
    expect(status).toBe('completed');
    const first = await sdk.projects.provenance(projectId);
    expect(stored(first)).toEqual(sent);
    expect(first.context?.repository.revision).toBe(1);
    expect(JSON.stringify(first)).not.toContain('"content"');
    // Grounded documents, and none of them holds a secret of the repository.
    const documents = await readdir(join(tmp, 'docs'));
    expect(documents.length).toBeGreaterThan(0);
    for (const file of documents) {
      const text = await readFile(join(tmp, 'docs', file), 'utf8');
      for (const secret of EXPRESS_POSTGRES.secrets) expect(text, file).not.toContain(secret);
    }

    // The codebase moved on: the revision sends it as it is now.
    await writeFile(
      join(root, 'src/routes/billing.ts'),
      "import { Router } from 'express';\n\nexport const billing = Router();\n\nbilling.get('/', (_req, res) => res.json([]));\n",
    );
    const revised = await pgs([
      'revise',
      projectId,
      'Add a billing route that lists the clinic invoices',
      '--repo',
      root,
      '--json',
    ]);
    expect(revised.stderr).toBe('');
    expect(revised.code).toBe(EXIT.OK);
    expect(JSON.parse(revised.stdout)).toMatchObject({ revision: 2, status: 'completed' });
    const second = await sdk.projects.provenance(projectId);
    expect(second.context?.repository.revision).toBe(2);
    expect(second.context?.repository.files.map((f) => f.path)).toContain('src/routes/billing.ts');
  });
});
