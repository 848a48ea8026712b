import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32, deflateRawSync } from 'node:zlib';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  envelope,
  type Handler,
  json,
  startServer,
  type TestServer,
} from '../../client/test/http-server.ts';
import { EXIT, run } from '../src/index.ts';
import { readZip } from '../src/unzip.ts';

// pgs watch and pgs download in-process against a small fake API.

const KEY = 'pgs_test_abcdefghijklmnopqrstuvwxyz0123456789';
const ID = '7d0f2c8e-4a9b-4e43-9a55-0d2b8f1c6e21';

const frame = (id: number, type: string, data: unknown) =>
  `id: ${id}\nevent: ${type}\ndata: ${JSON.stringify(data)}\n\n`;
const doc = (filename: string) => ({
  type: 'doc',
  filename,
  stage: 'design',
  tokens_used: 42,
  generated_at: '2026-11-22T10:00:00.000Z',
});
const STATUS = { projectId: ID, status: 'in_progress', estimatedCompletionMs: 12_000 };
const FIRST = frame(1, 'status', STATUS) + frame(2, 'stage.started', { stage: 'design' });
const REST =
  frame(3, 'document.completed', doc('PROJECT_BRIEF.md')) +
  frame(4, 'project.completed', { status: 'completed', documentsGenerated: 1, creditsConsumed: 5 });
const FAILED = frame(3, 'project.failed', {
  status: 'failed',
  error: { code: 'generation_failed', message: 'The AI service timed out. Credits refunded.' },
});

const sse =
  (body: string, how: 'end' | 'drop' = 'end'): Handler =>
  (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8' });
    if (how === 'end') res.end(body);
    else res.write(body, () => setTimeout(() => res.socket?.destroy(), 20));
  };

/** A zip of the given files, stored or deflated, as a zip writer lays it out. */
function makeZip(files: Record<string, string>, deflate = true): Uint8Array {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, text] of Object.entries(files)) {
    const data = Buffer.from(text);
    const body = deflate ? deflateRawSync(data) : data;
    const nameBytes = Buffer.from(name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(deflate ? 8 : 0, 8);
    local.writeUInt32LE(crc32(data), 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(deflate ? 8 : 0, 10);
    central.writeUInt32LE(crc32(data), 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, body);
    centrals.push(central, nameBytes);
    offset += 30 + nameBytes.length + body.length;
  }
  const dir = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Object.keys(files).length, 8);
  end.writeUInt16LE(Object.keys(files).length, 10);
  end.writeUInt32LE(dir.length, 12);
  end.writeUInt32LE(offset, 16);
  return new Uint8Array(Buffer.concat([...locals, dir, end]));
}
const zipReply =
  (zip: Uint8Array): Handler =>
  (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/zip' });
    res.end(zip);
  };

let server: TestServer;
let tmp: string;
beforeAll(async () => {
  server = await startServer();
  tmp = await mkdtemp(join(tmpdir(), 'pgs-cli-live-'));
});
afterAll(async () => {
  await server.close();
  await rm(tmp, { recursive: true, force: true });
});
beforeEach(() => {
  server.reply(json(500, { message: 'no handler' }));
});

async function pgs(argv: string[], { cwd, tty }: { cwd?: string; tty?: boolean } = {}) {
  let stdout = '';
  let stderr = '';
  const code = await run(argv, {
    env: { PGS_BASE_URL: server.url, PGS_API_KEY: KEY },
    stdout: { write: (s: string) => (stdout += s), isTTY: tty, columns: 80 },
    stderr: { write: (s: string) => (stderr += s) },
    cwd: cwd ?? (await mkdtemp(join(tmp, 'cwd-'))),
    client: { sleep: async () => {}, random: () => 0.5 },
  });
  return { code, stdout, stderr };
}

describe('pgs watch', () => {
  it('prints one line per event, resumes a dropped stream, and exits 0 when completed', async () => {
    server.reply(sse(FIRST, 'drop'), sse(REST));
    const r = await pgs(['watch', ID]);
    expect(r).toMatchObject({ code: EXIT.OK, stderr: '' });
    expect(r.stdout).toBe(
      [
        'in_progress: about 12 s left',
        'stage: design',
        'document: PROJECT_BRIEF.md (42 tokens)',
        'completed: 1 document, 5 credits consumed',
        '',
      ].join('\n'),
    );
    expect(server.requests.map((q) => q.headers['last-event-id'])).toEqual([undefined, '2']);
  });

  it('--json prints each event as a JSON line', async () => {
    server.reply(sse(FIRST + REST));
    const r = await pgs(['watch', ID, '--json']);
    expect(r.code).toBe(EXIT.OK);
    const lines = r.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: string; type: string });
    expect(lines.map((e) => [e.id, e.type])).toEqual([
      ['1', 'status'],
      ['2', 'stage.started'],
      ['3', 'document.completed'],
      ['4', 'project.completed'],
    ]);
    expect(lines[2]).toEqual({
      id: '3',
      type: 'document.completed',
      data: doc('PROJECT_BRIEF.md'),
    });
  });

  it('on a terminal appends documents and redraws one status line', async () => {
    server.reply(sse(FIRST + REST));
    const r = await pgs(['watch', ID], { tty: true });
    expect(r.code).toBe(EXIT.OK);
    expect(r.stdout).toContain('\r\x1b[K  ✓ PROJECT_BRIEF.md\n');
    expect(r.stdout).toContain('\rstage design · 0 documents done');
    expect(r.stdout.endsWith('completed: 1 document, 5 credits consumed\n')).toBe(true);
  });

  it('a failed project exits 9 with the reason; an unknown one exits 4', async () => {
    server.reply(sse(frame(1, 'status', STATUS) + FAILED));
    const r = await pgs(['watch', ID]);
    expect(r.code).toBe(EXIT.GENERATION_FAILED);
    expect(r.stderr).toBe(
      'error: generation failed: The AI service timed out. Credits refunded. (generation_failed)\n',
    );
    server.reply(
      json(404, envelope('RESOURCE_NOT_FOUND', 'No project with this identifier exists.')),
    );
    expect((await pgs(['watch', ID])).code).toBe(EXIT.NOT_FOUND);
    expect((await pgs(['watch'])).code).toBe(EXIT.USAGE);
  });
});

describe('pgs download', () => {
  const files = {
    '.kiro/steering/product.md': '# Product',
    '.kiro/specs/teampulse/design.md': '# Design',
    'README.md': '# TeamPulse',
  };

  it('extracts the archive into --out and lists the files', async () => {
    server.reply(zipReply(makeZip(files)));
    const cwd = await mkdtemp(join(tmp, 'dl-'));
    const r = await pgs(['download', ID, '--layout', 'kiro', '--out', 'repo'], { cwd });
    expect(r).toMatchObject({ code: EXIT.OK, stderr: '' });
    expect(r.stdout.split('\n')[0]).toBe('Extracted 3 files (kiro) to repo:');
    expect(server.requests[0]?.url).toBe(`/api/v1/projects/${ID}/archive?layout=kiro`);
    expect(await readFile(join(cwd, 'repo/.kiro/specs/teampulse/design.md'), 'utf8')).toBe(
      '# Design',
    );
    expect(await readFile(join(cwd, 'repo/README.md'), 'utf8')).toBe('# TeamPulse');

    // A second download into the same place refuses, and writes nothing at all.
    await rm(join(cwd, 'repo/.kiro'), { recursive: true });
    server.reply(zipReply(makeZip(files)));
    const again = await pgs(['download', ID, '--layout', 'kiro', '--out', 'repo'], { cwd });
    expect(again.code).toBe(EXIT.UNEXPECTED);
    expect(again.stderr).toContain(
      `${join('repo', 'README.md')} already exists; nothing was written`,
    );
    expect(await readdir(join(cwd, 'repo'))).toEqual(['README.md']);
    server.reply(zipReply(makeZip(files)));
    expect((await pgs(['download', ID, '--out', 'repo', '--force', '--json'], { cwd })).code).toBe(
      EXIT.OK,
    );
  });

  it('refuses an archive with a path that leaves --out (zip slip)', async () => {
    for (const name of [
      '../evil.md',
      '/etc/evil.md',
      'a/../../evil.md',
      'C:/evil.md',
      'a\\..\\evil',
    ]) {
      server.reply(zipReply(makeZip({ 'ok.md': 'fine', [name]: 'evil' }, false)));
      const cwd = await mkdtemp(join(tmp, 'slip-'));
      await mkdir(join(cwd, 'out'));
      const r = await pgs(['download', ID, '--out', 'out'], { cwd });
      expect(r.code).toBe(EXIT.UNEXPECTED);
      expect(r.stderr).toContain('unsafe path');
      expect(await readdir(cwd)).toEqual(['out']);
      expect(await readdir(join(cwd, 'out'))).toEqual([]);
    }
  });

  it('--zip saves the archive as it is, never over an existing file', async () => {
    const zip = makeZip(files);
    server.reply(zipReply(zip));
    const cwd = await mkdtemp(join(tmp, 'zip-'));
    const r = await pgs(['download', ID, '--zip', 'p.zip', '--json'], { cwd });
    expect(r.code).toBe(EXIT.OK);
    expect(JSON.parse(r.stdout)).toEqual({
      projectId: ID,
      layout: 'plain',
      zip: 'p.zip',
      bytes: zip.length,
    });
    expect(new Uint8Array(await readFile(join(cwd, 'p.zip')))).toEqual(zip);
    await writeFile(join(cwd, 'taken.zip'), 'x');
    const taken = await pgs(['download', ID, '--zip', 'taken.zip'], { cwd });
    expect(taken.stderr).toContain('taken.zip already exists');
  });

  it('a project not completed exits 12; usage errors exit 2 before any request', async () => {
    server.reply(
      json(
        409,
        envelope('PROJECT_NOT_COMPLETED', 'The project is still in progress.', undefined, {
          status: 'in_progress',
        }),
      ),
    );
    const r = await pgs(['download', ID]);
    expect(r.code).toBe(EXIT.CONFLICT);
    expect(server.requests).toHaveLength(1);
    server.reply(json(500, {}));
    for (const argv of [
      ['download'],
      ['download', ID, '--layout', 'zip'],
      ['download', ID, '--out', 'a', '--zip', 'b.zip'],
    ]) {
      expect((await pgs(argv)).code).toBe(EXIT.USAGE);
    }
    expect(server.requests).toHaveLength(0);
  });
});

describe('readZip', () => {
  it('reads stored and deflated entries and checks their CRC', () => {
    for (const deflate of [true, false]) {
      const entries = readZip(makeZip({ 'a/b.md': 'héllo', 'c.json': '{}' }, deflate));
      expect(entries.map((e) => [e.name, new TextDecoder().decode(e.data)])).toEqual([
        ['a/b.md', 'héllo'],
        ['c.json', '{}'],
      ]);
    }
    const damaged = makeZip({ 'a.md': 'hello' }, false);
    damaged[30 + 4] = (damaged[30 + 4] ?? 0) ^ 0xff;
    expect(() => readZip(damaged)).toThrow(/CRC mismatch/);
    expect(() => readZip(new Uint8Array([1, 2, 3]))).toThrow(/not a zip file/);
  });
});
