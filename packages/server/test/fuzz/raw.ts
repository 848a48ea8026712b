import net from 'node:net';
import fc from 'fast-check';
import { type FuzzRequest, requestArb } from './arbitraries.ts';
import type { Answer } from './check.ts';
import type { FuzzApp } from './fuzz-app.ts';

/** A request as bytes on the wire, and what a reader should expect of the answer. */
export interface RawRequest {
  /** The request it was made from (method, URL and headers as generated). */
  base: FuzzRequest;
  bytes: Buffer;
  /** The method on the request line (HEAD answers carry no body). */
  method: string;
}

/** How the body is framed: what inject() cannot send. */
type Framing = 'length' | 'chunked' | 'length-twice-differing' | 'length-and-chunked';

/**
 * Raw HTTP/1.1 requests built on {@link requestArb}: repeated headers (Authorization,
 * Content-Type, Host), odd request lines (CONNECT, unknown or lowercase methods, absolute
 * and `*` targets, raw non-ASCII bytes, other versions), a missing Host, folded headers,
 * oversized header blocks, and bodies framed by length, chunked, or both.
 */
export function rawRequestArb(fuzz: FuzzApp): fc.Arbitrary<RawRequest> {
  return fc
    .record({
      base: requestArb(fuzz),
      method: fc.oneof(
        { weight: 12, arbitrary: fc.constant(undefined) },
        {
          weight: 1,
          arbitrary: fc.constantFrom('CONNECT', 'FOO', 'get', 'G ET', 'PRI', 'M-SEARCH'),
        },
      ),
      target: fc.oneof(
        { weight: 12, arbitrary: fc.constant(undefined) },
        {
          weight: 1,
          arbitrary: fc.constantFrom(
            '*',
            'http://evil.example/api/v1/credits',
            '127.0.0.1:5432',
            '/api/v1/projects/\u00ff\u00fe',
            '/api/v1/%',
            `/${'a'.repeat(20_000)}`,
          ),
        },
      ),
      version: fc.oneof(
        { weight: 12, arbitrary: fc.constant('HTTP/1.1') },
        {
          weight: 1,
          arbitrary: fc.constantFrom('HTTP/1.0', 'HTTP/2.0', 'HTTP/1.1 x', 'HTTP/0.9', ''),
        },
      ),
      repeats: fc.array(
        fc.constantFrom(
          'authorization',
          'content-type',
          'host',
          'idempotency-key',
          'api-version',
          'x-forwarded-for',
        ),
        { maxLength: 3 },
      ),
      noHost: fc.oneof(
        { weight: 12, arbitrary: fc.constant(false) },
        { weight: 1, arbitrary: fc.constant(true) },
      ),
      oddHeader: fc.oneof(
        { weight: 10, arbitrary: fc.constant(undefined) },
        {
          weight: 1,
          arbitrary: fc.constantFrom(
            'X-Fold: a\r\n b',
            'No-Colon',
            ': empty-name',
            `X-Big: ${'b'.repeat(20_000)}`,
            'X-Latin: caf\u00e9',
            'Transfer-Encoding: gzip',
            'Expect: 100-continue',
          ),
        },
      ),
      framing: fc.oneof(
        { weight: 10, arbitrary: fc.constant<Framing>('length') },
        { weight: 3, arbitrary: fc.constant<Framing>('chunked') },
        {
          weight: 1,
          arbitrary: fc.constantFrom<Framing>('length-twice-differing', 'length-and-chunked'),
        },
      ),
    })
    .map(({ base, method, target, version, repeats, noHost, oddHeader, framing }) => {
      const line = `${method ?? base.method} ${target ?? base.url} ${version}`.trimEnd();
      const headers: string[] = noHost ? [] : ['Host: 127.0.0.1'];
      for (const [name, value] of base.headers) headers.push(`${name}: ${value}`);
      for (const name of repeats) {
        const other = base.headers.find(([n]) => n === name)?.[1];
        // The same value twice, or a second, different one.
        headers.push(`${name}: ${other ?? (name === 'host' ? 'evil.example' : 'x')}`);
      }
      if (oddHeader) headers.push(oddHeader);
      headers.push('Connection: close');
      const body = base.body ?? Buffer.alloc(0);
      let payload = body;
      if (framing === 'chunked' || framing === 'length-and-chunked') {
        headers.push('Transfer-Encoding: chunked');
        const chunks =
          body.length === 0
            ? []
            : [body.subarray(0, body.length >> 1), body.subarray(body.length >> 1)];
        payload = Buffer.concat([
          ...chunks
            .filter((c) => c.length > 0)
            .flatMap((c) => [Buffer.from(`${c.length.toString(16)}\r\n`), c, Buffer.from('\r\n')]),
          Buffer.from('0\r\n\r\n'),
        ]);
      }
      if (framing !== 'chunked' && (body.length > 0 || base.body !== undefined)) {
        headers.push(`Content-Length: ${body.length}`);
      }
      if (framing === 'length-twice-differing') headers.push(`Content-Length: ${body.length + 1}`);
      const head = Buffer.from(`${line}\r\n${headers.join('\r\n')}\r\n\r\n`, 'latin1');
      const request: RawRequest = {
        base,
        bytes: Buffer.concat([head, payload]),
        method: method ?? base.method,
      };
      return Object.assign(request, {
        [fc.toStringMethod]: () =>
          JSON.stringify(head.toString('latin1').slice(0, 1500)) +
          ` + ${payload.length} body bytes`,
      });
    });
}

/**
 * Writes the bytes, reads until the server closes the connection (every request says
 * `Connection: close`), and parses the answer; rejects after `timeoutMs` without one.
 */
export function exchange(
  port: number,
  bytes: Buffer,
  head: boolean,
  timeoutMs = 10_000,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port, host: '127.0.0.1' }, () => {
      socket.write(bytes);
    });
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(
        new Error(
          `no complete answer within ${timeoutMs} ms (got ${Buffer.concat(chunks).length} bytes)`,
        ),
      );
    }, timeoutMs);
    socket.on('data', (chunk) => chunks.push(chunk));
    // The server may close while we still write (it answered early, e.g. 431 or 413).
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(timer);
      try {
        resolve(parseAnswer(Buffer.concat(chunks), head));
      } catch (error) {
        reject(error);
      }
    });
  });
}

/** Parses one HTTP/1.1 response (length-framed or chunked). */
export function parseAnswer(raw: Buffer, head: boolean): Answer {
  // An interim `100 Continue` (to `Expect: 100-continue`) comes before the answer.
  while (/^HTTP\/1\.[01] 1\d\d /.test(raw.subarray(0, 16).toString('latin1'))) {
    const end = raw.indexOf('\r\n\r\n');
    if (end === -1) break;
    raw = raw.subarray(end + 4);
  }
  const split = raw.indexOf('\r\n\r\n');
  if (split === -1)
    throw new Error(`no HTTP answer: ${JSON.stringify(raw.toString('latin1').slice(0, 200))}`);
  const [statusLine = '', ...lines] = raw.subarray(0, split).toString('latin1').split('\r\n');
  const status = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine);
  if (!status) throw new Error(`bad status line ${JSON.stringify(statusLine)}`);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const at = line.indexOf(':');
    const name = line.slice(0, at).trim().toLowerCase();
    const value = line.slice(at + 1).trim();
    headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
  }
  let body = raw.subarray(split + 4);
  if (head) body = Buffer.alloc(0);
  else if (/chunked/i.test(headers['transfer-encoding'] ?? '')) body = dechunk(body);
  else if (headers['content-length'] !== undefined)
    body = body.subarray(0, Number(headers['content-length']));
  return { statusCode: Number(status[1]), headers, body: body.toString('utf8') };
}

function dechunk(data: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const end = data.indexOf('\r\n', at);
    if (end === -1) break;
    const size = Number.parseInt(data.subarray(at, end).toString('latin1'), 16);
    if (!(size > 0)) break;
    parts.push(data.subarray(end + 2, end + 2 + size));
    at = end + 2 + size + 2;
  }
  return Buffer.concat(parts);
}
