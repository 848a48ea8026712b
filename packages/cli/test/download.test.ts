import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelope, json } from '../../client/test/http-server.ts';
import { EXIT } from '../src/index.ts';
import { pgs, server, useFakeApi } from './fake-api.ts';

// pgs download --revision in-process against a small fake API (see fake-api.ts); the
// archive's extraction is tested against the real server (cli-server-projects.test.ts,
// revisions.test.ts).

const ID = '7d0f2c8e-4a9b-4e43-9a55-0d2b8f1c6e21';
const ZIP = Buffer.from('PK\x05\x06 a zip as the server sent it');

useFakeApi();

describe('pgs download --revision', () => {
  let tmp: string;
  beforeAll(async () => {
    tmp = await mkdtemp(join(tmpdir(), 'pgs-download-'));
  });
  afterAll(async () => rm(tmp, { recursive: true, force: true }));

  it("asks for revision N's archive and says which it saved", async () => {
    server.reply((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/zip' });
      res.end(ZIP);
    });
    const file = join(tmp, 'two.zip');
    const r = await pgs(['download', ID, '--revision', '2', '--layout', 'openspec', '--zip', file]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(EXIT.OK);
    expect(r.stdout).toBe(
      `Saved the openspec, revision 2 archive (${ZIP.length} bytes) to ${file}\n`,
    );
    expect(await readFile(file)).toEqual(ZIP);
    expect(server.requests.map((q) => q.url)).toEqual([
      `/api/v1/projects/${ID}/archive?layout=openspec&revision=2`,
    ]);

    const again = await pgs([
      'download',
      ID,
      '--revision',
      '2',
      '--zip',
      join(tmp, 'json.zip'),
      '--json',
    ]);
    expect(JSON.parse(again.stdout)).toEqual({
      projectId: ID,
      revision: 2,
      layout: 'plain',
      zip: join(tmp, 'json.zip'),
      bytes: ZIP.length,
    });
  });

  it('a revision in progress exits 12 and says how to follow it', async () => {
    server.reply(
      json(
        409,
        envelope(
          'PROJECT_NOT_COMPLETED',
          'Revision 3 is still being generated; its documents are available once it is completed.',
          undefined,
          { resource_type: 'revision', resource_id: `${ID}/revisions/3`, status: 'in_progress' },
        ),
      ),
    );
    const r = await pgs(['download', ID, '--revision', '3', '--zip', join(tmp, 'three.zip')]);
    expect(r.code).toBe(EXIT.CONFLICT);
    expect(r.stderr).toContain(`Follow it with: pgs watch ${ID}, then run this command again.`);
  });

  it('a bad --revision is a usage error before any request; --help mentions it', async () => {
    for (const value of ['0', '-1', 'latest', '1000001']) {
      const r = await pgs(['download', ID, '--revision', value]);
      expect(r.code, value).toBe(EXIT.USAGE);
      expect(r.stderr).toContain('--revision');
    }
    expect(server.requests).toHaveLength(0);
    const help = await pgs(['download', '--help']);
    expect(help.stdout).toContain('[--revision N]');
    expect(help.stdout).toMatch(/^ {2}--revision N +the archive of revision N/m);
  });
});
