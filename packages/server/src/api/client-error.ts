import { ApiError, errorEnvelope } from '../errors.ts';
import { newRequestId } from '../ids.ts';
import { VERSION_HEADERS } from './versioning.ts';

/**
 * The raw HTTP response for a request Node's parser rejected before Fastify saw it
 * (malformed request line, oversized headers): still the contract's envelope.
 */
export function clientErrorResponse(error: NodeJS.ErrnoException, docsUrl: string): string {
  const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
  const status = tooLarge ? 431 : 400;
  const requestId = newRequestId();
  const body = JSON.stringify(
    errorEnvelope(
      new ApiError(
        'VALIDATION_ERROR',
        tooLarge ? 'The request headers are too large.' : 'The HTTP request is malformed.',
        { status },
      ),
      requestId,
      docsUrl,
    ),
  );
  const versionLines = Object.entries(VERSION_HEADERS)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  return (
    `HTTP/1.1 ${status} ${tooLarge ? 'Request Header Fields Too Large' : 'Bad Request'}\r\n` +
    'content-type: application/json; charset=utf-8\r\n' +
    `content-length: ${Buffer.byteLength(body)}\r\n` +
    `x-request-id: ${requestId}\r\n${versionLines}connection: close\r\n\r\n${body}`
  );
}
