import { lstat, mkdir, writeFile } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve } from 'node:path';
import * as zlib from 'node:zlib';

// A zip reader for the archives PGS sends (stored or deflated files, no zip64, no
// encryption): Node's own zlib inflates, so the CLI needs no unzip dependency.

/** One file of a zip: its path as stored and its bytes. */
export interface ZipEntry {
  name: string;
  data: Uint8Array;
}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

/**
 * Reads every file of a zip (directory entries skipped), checking each CRC-32 where the
 * runtime has `zlib.crc32`.
 *
 * @example
 * for (const { name, data } of readZip(bytes)) console.log(name, data.length);
 */
export function readZip(zip: Uint8Array): ZipEntry[] {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  let eocd = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 22 - 0xffff); i--) {
    if (view.getUint32(i, true) === EOCD) {
      eocd = i;
      break;
    }
  }
  if (eocd === -1) throw new Error('the archive is not a zip file (no end of central directory)');
  const count = view.getUint16(eocd + 10, true);
  let at = view.getUint32(eocd + 16, true);
  const decoder = new TextDecoder();
  const crc32 = (zlib as { crc32?: (data: Uint8Array) => number }).crc32;
  const entries: ZipEntry[] = [];
  for (let n = 0; n < count; n++) {
    if (at + 46 > zip.length || view.getUint32(at, true) !== CENTRAL) {
      throw new Error('the zip file is damaged (central directory)');
    }
    const method = view.getUint16(at + 10, true);
    const crc = view.getUint32(at + 16, true);
    const compressed = view.getUint32(at + 20, true);
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const commentLength = view.getUint16(at + 32, true);
    const local = view.getUint32(at + 42, true);
    const name = decoder.decode(zip.subarray(at + 46, at + 46 + nameLength));
    at += 46 + nameLength + extraLength + commentLength;
    if (name.endsWith('/')) continue;
    if (local + 30 > zip.length || view.getUint32(local, true) !== LOCAL) {
      throw new Error(`the zip file is damaged (${name})`);
    }
    const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
    const raw = zip.subarray(start, start + compressed);
    let data: Uint8Array;
    if (method === 0) data = raw;
    else if (method === 8) data = new Uint8Array(zlib.inflateRawSync(raw));
    else throw new Error(`${name} uses zip compression method ${method}, which is not supported`);
    if (crc32 !== undefined && crc32(data) >>> 0 !== crc) {
      throw new Error(`the zip file is damaged (${name}: CRC mismatch)`);
    }
    entries.push({ name, data });
  }
  return entries;
}

/**
 * The path inside `root` where an entry goes, or an error for a name that would leave it
 * (zip slip: `..`, an absolute path, a drive letter, a backslash, a NUL).
 *
 * @example
 * safeEntryPath('/tmp/out', '.kiro/specs/app/design.md'); // '/tmp/out/.kiro/specs/app/design.md'
 */
export function safeEntryPath(root: string, name: string): string {
  const segments = name.split('/');
  if (
    name === '' ||
    name.includes('\\') ||
    name.includes('\0') ||
    isAbsolute(name) ||
    /^[A-Za-z]:/.test(name) ||
    segments.some((s) => s === '..' || s === '.' || s === '')
  ) {
    throw new Error(
      `the archive holds an unsafe path, ${JSON.stringify(name)}; nothing was written`,
    );
  }
  const target = resolve(root, ...segments);
  const inside = relative(resolve(root), target);
  if (inside === '' || inside.startsWith('..') || isAbsolute(inside)) {
    throw new Error(
      `the archive holds an unsafe path, ${JSON.stringify(name)}; nothing was written`,
    );
  }
  return target;
}

/**
 * Writes the entries below `dir` (relative to `cwd`) and returns the paths written, as
 * `dir` joined with each name. Every path is checked first: an unsafe name, or (unless
 * `force`) a file that already exists, writes nothing at all.
 *
 * @example
 * const paths = await extractZip(process.cwd(), '.', readZip(bytes));
 */
export async function extractZip(
  cwd: string,
  dir: string,
  entries: readonly ZipEntry[],
  { force = false }: { force?: boolean } = {},
): Promise<string[]> {
  const root = resolve(cwd, dir);
  const targets = entries.map((entry) => ({ ...entry, target: safeEntryPath(root, entry.name) }));
  if (!force) {
    for (const { name } of targets) {
      const path = join(dir, ...name.split('/'));
      const exists = await lstat(resolve(root, ...name.split('/'))).then(
        () => true,
        (error: { code?: unknown }) => {
          if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return false;
          throw error;
        },
      );
      if (exists) {
        throw new Error(
          `${path} already exists; nothing was written (add --force to overwrite, or choose another --out)`,
        );
      }
    }
  }
  const paths: string[] = [];
  for (const { name, data, target } of targets) {
    await mkdir(resolve(target, '..'), { recursive: true });
    await writeFile(target, data, { flag: force ? 'w' : 'wx' });
    paths.push(join(dir, ...name.split('/')));
  }
  return paths;
}
