import { type IncomingMessage, METHODS, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { ApiError, errorEnvelope } from '../errors.ts';
import { newRequestId } from '../ids.ts';
import { type KnownRoutes, methodNotAllowed } from './known-routes.ts';
import { VERSION_HEADERS } from './versioning.ts';

/** What Node's parser reports with a `clientError` (Fastify's `ConnectionError`). */
type ParserError = NodeJS.ErrnoException & { bytesParsed?: number; rawPacket?: unknown };

// A request line with a method token (RFC 9110 tchar), a target and an HTTP/1.x version.
const REQUEST_LINE = /^([!#$%&'*+.^_`|~0-9A-Za-z-]{1,32}) (\S+) HTTP\/1\.[01]\r?$/;

/**
 * A complete HTTP/1.1 response, written straight to a socket Fastify does not answer: the
 * contract's envelope with a fresh request id, then the connection closes.
 */
function rawErrorResponse(error: ApiError, docsUrl: string): string {
  const requestId = newRequestId();
  const body = JSON.stringify(errorEnvelope(error, requestId, docsUrl));
  const extraLines = Object.entries({ ...VERSION_HEADERS, ...error.headers })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  return (
    `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status] ?? 'Error'}\r\n` +
    'content-type: application/json; charset=utf-8\r\n' +
    'x-content-type-options: nosniff\r\n' +
    `content-length: ${Buffer.byteLength(body)}\r\n` +
    `x-request-id: ${requestId}\r\n${extraLines}connection: close\r\n\r\n${body}`
  );
}

/** 405 for `method` at `target`, with `Allow` when the target is a path some route serves. */
function refusedMethod(method: string, target: string, routes: KnownRoutes | undefined): ApiError {
  const path = target.startsWith('/') ? (target.split('?')[0] ?? target) : undefined;
  const allowed = path === undefined || routes === undefined ? [] : routes.allowedAt(path);
  return methodNotAllowed(method, path ?? target, allowed);
}

/**
 * The well-formed request line whose method Node's parser does not know (`FOO / HTTP/1.1`);
 * undefined for anything else it refused as a method, which is then a malformed request.
 */
function unknownMethodLine(error: ParserError): { method: string; target: string } | undefined {
  const raw = error.rawPacket;
  if (error.code !== 'HPE_INVALID_METHOD' || !Buffer.isBuffer(raw)) return undefined;
  // The packet may hold earlier pipelined requests: the refused line starts after the last
  // line break before the point of failure.
  const start = raw.lastIndexOf(0x0a, Math.max(0, (error.bytesParsed ?? 0) - 1)) + 1;
  const end = raw.indexOf(0x0a, start);
  if (end === -1) return undefined;
  const match = REQUEST_LINE.exec(raw.toString('latin1', start, end));
  if (!match?.[1] || !match[2] || METHODS.includes(match[1])) return undefined;
  return { method: match[1], target: match[2] };
}

/**
 * The raw HTTP response for a request Node's parser rejected before Fastify saw it
 * (malformed request line, oversized headers, a method it does not know): still the
 * contract's envelope.
 *
 * @example
 * socket.end(clientErrorResponse(error, 'https://docs.example/pgs', routes));
 */
export function clientErrorResponse(
  error: ParserError,
  docsUrl: string,
  routes?: KnownRoutes,
  timeouts?: { requestTimeoutMs: number; headersTimeoutMs: number },
): string {
  const unknown = unknownMethodLine(error);
  if (unknown) {
    return rawErrorResponse(refusedMethod(unknown.method, unknown.target, routes), docsUrl);
  }
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    const limit = timeouts
      ? ` (headers within ${timeouts.headersTimeoutMs} ms, the whole request within ${timeouts.requestTimeoutMs} ms)`
      : '';
    return rawErrorResponse(
      new ApiError(
        'VALIDATION_ERROR',
        `The request was not received in time${limit}; nothing was stored. Send the whole request at once.`,
        { status: 408, details: { issue: 'request_timeout' } },
      ),
      docsUrl,
    );
  }
  const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
  return rawErrorResponse(
    new ApiError(
      'VALIDATION_ERROR',
      tooLarge ? 'The request headers are too large.' : 'The HTTP request is malformed.',
      { status: tooLarge ? 431 : 400 },
    ),
    docsUrl,
  );
}

/** How long a refused CONNECT's socket may stay open for the client to close its side. */
const CONNECT_LINGER_MS = 5_000;

/**
 * Answers a CONNECT (this server is no proxy) with 405 in the envelope, then closes the
 * socket. Node hands CONNECT to the server's `connect` listeners, never to Fastify, and
 * destroys the socket without a word when there is none.
 *
 * @example
 * server.on('connect', (request, socket) => refuseConnect(request, socket, docsUrl, routes));
 */
export function refuseConnect(
  request: IncomingMessage,
  socket: Duplex,
  docsUrl: string,
  routes?: KnownRoutes,
): void {
  // Node took its own listeners off the socket before handing it over.
  socket.on('error', () => socket.destroy());
  // Drop whatever the client sends meanwhile: unread data would make the close a reset,
  // which can discard the answer before the client reads it.
  socket.resume();
  const timer = setTimeout(() => socket.destroy(), CONNECT_LINGER_MS);
  socket.once('close', () => clearTimeout(timer));
  socket.end(rawErrorResponse(refusedMethod('CONNECT', request.url ?? '', routes), docsUrl));
}
