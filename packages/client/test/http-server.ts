import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as the test server saw it. */
export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** Answers one request; may leave `res` open to simulate a hanging server. */
export type Handler = (req: SeenRequest, res: ServerResponse) => void;

/** A small node:http server on an ephemeral port that records requests. */
export interface TestServer {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  requests: SeenRequest[];
  /** Answers the next requests in order; the last handler repeats. */
  reply(...handlers: Handler[]): void;
  close(): Promise<void>;
}

/** Writes a JSON response with the given status and headers. */
export function json(status: number, body: unknown, headers: Record<string, string> = {}): Handler {
  return (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
    res.end(JSON.stringify(body));
  };
}

/** The contract's error envelope. */
export function envelope(
  code: string,
  message: string,
  requestId = 'req_01JD6WQ8V4Z9K3M2N5P7R8S0TA',
  details?: Record<string, unknown>,
) {
  return {
    success: false,
    error: {
      code,
      message,
      request_id: requestId,
      documentation: `https://docs.pgs.dev/errors#${code}`,
      ...(details ? { details } : {}),
    },
  };
}

/** Never answers: the connection stays open until the server closes. */
export const hang: Handler = () => {};

/**
 * Starts a recording server on 127.0.0.1 and an ephemeral port.
 *
 * @example
 * const server = await startServer(); server.reply(json(200, { success: true, data: {} }));
 */
export async function startServer(): Promise<TestServer> {
  let handlers: Handler[] = [json(500, { message: 'no handler' })];
  let next = 0;
  const requests: SeenRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const seen: SeenRequest = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(seen);
      const handler = handlers[Math.min(next, handlers.length - 1)]!;
      next++;
      handler(seen, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    reply(...hs) {
      handlers = hs;
      next = 0;
      requests.length = 0;
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
