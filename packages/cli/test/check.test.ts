import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { type ConformanceCheck, Pgs } from '@pgs/client';
import { EXPRESS_POSTGRES } from '@pgs/contract/testing/repositories';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RealServer } from '../../client/test/pgs-server.ts';
import { EXIT, run } from '../src/index.ts';
import { startRealCli, stopRealCli } from './cli-process.ts';

// pgs check in-process against the real server (offline engine): a grounded project made from
// the test repository, then the same repository checked against its spec, with a test that
// cites a criterion and a route the spec never names.

describe('pgs check against the real server', { timeout: 180_000 }, () => {
  let server: RealServer;
  let tmp: string;
  let apiEnv: NodeJS.ProcessEnv;
  let root: string;
  let projectId: string;

  async function pgs(argv: string[]) {
    let stdout = '';
    let stderr = '';
    const code = await run(argv, {
      env: apiEnv,
      stdout: { write: (s: string) => (stdout += s) },
      stderr: { write: (s: string) => (stderr += s) },
      cwd: root,
    });
    return { code, stdout, stderr };
  }

  beforeAll(async () => {
    ({ server, tmp, apiEnv } = await startRealCli());
    root = join(tmp, 'vetbook-api');
    for (const [path, text] of Object.entries(EXPRESS_POSTGRES.files)) {
      await mkdir(dirname(join(root, path)), { recursive: true });
      await writeFile(join(root, path), text);
    }
    const created = await pgs(['generate', 'Add SMS reminders before each appointment', '--json']);
    expect(created.code, created.stderr).toBe(EXIT.OK);
    projectId = JSON.parse(created.stdout).projectId;
    // The code moves on: a test citing FR-1.1, and a route nothing in the spec names.
    await writeFile(
      join(root, 'test/reminders.test.ts'),
      "describe('reminders', () => {\n  it('FR-1.1 sends the reminder', () => {});\n});\n",
    );
    await writeFile(
      join(root, 'src/routes/exports.ts'),
      "import { Router } from 'express';\nexport const exportsRouter = Router();\nexportsRouter.get('/exports/ledger', (_req, res) => res.json([]));\n",
    );
  });

  afterAll(async () => {
    await stopRealCli(server, tmp);
  });

  it('prints per requirement, the drift and the revision to submit; exits 0', async () => {
    const { code, stdout, stderr } = await pgs(['check', projectId]);
    expect(stderr).toBe('');
    expect(code).toBe(EXIT.OK);
    expect(stdout).toMatch(/against revision 1: \d+ requirements, \d+ tested/);
    expect(stdout).toMatch(/^FR-1\s+tested\s+test\/reminders\.test\.ts:2/m);
    expect(stdout).toContain('GET /exports/ledger');
    expect(stdout).toContain(`pgs revise ${projectId} "Describe what the code already does`);
    for (const secret of EXPRESS_POSTGRES.secrets) expect(stdout).not.toContain(secret);
  });

  it('answers the check as JSON, stored and listed by the API', async () => {
    const { code, stdout } = await pgs(['check', projectId, '--repo', '.', '--json']);
    expect(code).toBe(EXIT.OK);
    const check = JSON.parse(stdout) as ConformanceCheck;
    expect(check.status).toBe('succeeded');
    expect(check.repository.citations).toBe(1);
    const sdk = new Pgs({ apiKey: server.apiKey, baseUrl: server.url });
    const [latest] = await sdk.projects.conformance.list(projectId);
    expect(latest?.id).toBe(check.id);
    expect((await sdk.projects.conformance.get(projectId, check.id)).report).toEqual(check.report);
  });

  it('exits 15 with --strict when the code and the spec disagree, 4 for an unknown project', async () => {
    const strict = await pgs(['check', projectId, '--strict']);
    expect(strict.code).toBe(EXIT.NOT_CONFORMANT);
    expect(strict.stderr).toContain('does not conform');
    const unknown = await pgs(['check', '00000000-0000-4000-8000-000000000000']);
    expect(unknown.code).toBe(EXIT.NOT_FOUND);
  });
});
