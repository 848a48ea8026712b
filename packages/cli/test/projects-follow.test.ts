import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { envelope, hang, json } from '../../client/test/http-server.ts';
import { EXIT } from '../src/index.ts';
import {
  accepted,
  completed,
  failed,
  ID,
  IDEA,
  pgs,
  running,
  server,
  tmp,
  useProjectsServer,
} from './projects-fixture.ts';

// pgs wait, status and credits in-process against a small fake API (see projects-fixture.ts).

useProjectsServer();

describe('pgs wait, status and credits', () => {
  it('--max-wait ends the wait with exit 11 and says how to resume', async () => {
    server.reply(running(60_000));
    const out = join(tmp, 'later');
    const r = await pgs(['wait', ID, '--max-wait', '30s', '--out', out]);
    expect(r.code).toBe(EXIT.WAIT_TIMEOUT);
    expect(r.sleeps).toEqual([12_000, 12_000, 6_000]);
    expect(r.stderr).toBe(
      `error: project ${ID} was still in progress after 30 s (about 60 s left)\n` +
        `The project keeps generating on the server. Wait for it again with: pgs wait ${ID} --out ${out}\n`,
    );
  });

  it('Ctrl-C while waiting exits 130 and says how to resume', async () => {
    server.reply(accepted, hang);
    const interrupt = new AbortController();
    const pending = pgs(['generate', IDEA, '--out', join(tmp, 'interrupted')], {
      signal: interrupt.signal,
    });
    while (server.requests.length < 2) await new Promise((r) => setTimeout(r, 5));
    interrupt.abort();
    const r = await pending;
    expect(r.code).toBe(EXIT.INTERRUPTED);
    expect(r.stderr).toContain('error: interrupted\n');
    expect(r.stderr).toContain(`pgs wait ${ID} --out ${join(tmp, 'interrupted')}`);
  });

  it('wait without --out lists the documents and says how to write them', async () => {
    server.reply(running(3_000), completed);
    const r = await pgs(['wait', ID]);
    expect(r.code).toBe(EXIT.OK);
    expect(r.stdout).toContain('Documents:\n  PROJECT_BRIEF.md\n');
    expect(r.stdout).toContain(`Write them to a directory with: pgs wait ${ID} --out DIR\n`);
    expect(server.requests.map((q) => `${q.method} ${q.url}`)).toEqual([
      `GET /api/v1/projects/${ID}`,
      `GET /api/v1/projects/${ID}`,
    ]);
  });

  it('status prints each state, exits 0 for all three, and --json the status itself', async () => {
    server.reply(running(12_300), failed, completed);
    expect((await pgs(['status', ID])).stdout).toBe(
      `Project ${ID}: in_progress, about 13 s left\n`,
    );
    const f = await pgs(['status', ID]);
    expect(f).toMatchObject({
      code: 0,
      stdout: `Project ${ID}: failed: The AI service timed out. Credits refunded. (generation_failed)\n`,
    });
    const c = await pgs(['status', ID, '--json']);
    expect(JSON.parse(c.stdout)).toMatchObject({ status: 'completed', projectId: ID });
  });

  it('status of an unknown project exits 4 with a hint about modes', async () => {
    server.reply(
      json(404, envelope('RESOURCE_NOT_FOUND', 'No project with this identifier exists.')),
    );
    const r = await pgs(['status', ID]);
    expect(r.code).toBe(EXIT.NOT_FOUND);
    expect(r.stderr).toContain('Live and test keys see separate projects');
  });

  it('credits prints the balance; --json the object', async () => {
    server.reply(json(200, { success: true, data: { mode: 'test', balance: 953, reserved: 47 } }));
    expect((await pgs(['credits'])).stdout).toBe(
      '953 test credits available, 47 reserved by projects in progress.\n',
    );
    expect(JSON.parse((await pgs(['credits', '--json'])).stdout)).toEqual({
      mode: 'test',
      balance: 953,
      reserved: 47,
    });
    expect(server.requests[0]?.url).toBe('/api/v1/credits');
  });
});
