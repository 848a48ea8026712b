/**
 * The ceiling for `npm run bench`: a bare `node:http` server, in a process of its own,
 * that answers every request with the bytes of one recorded PGS response (status line,
 * headers, body), chosen by the bench over IPC. It reads each request's body (a POST's
 * too) and does nothing else, so PGS's ratio to it is what PGS's own work costs. Told to
 * `hold`, it keeps every request until told to `release`, then answers them all at once:
 * the ceiling of waking many long-polls.
 */
import http from 'node:http';

/** A response as PGS sent it. */
export interface Recorded {
  status: number;
  headers: [string, string][];
  body: string;
  /** Replace this text in the body by a fresh UUID on each answer (createProject). */
  freshId?: string;
}

let current: { status: number; headers: [string, string][]; body: Buffer; freshId?: string } = {
  status: 204,
  headers: [],
  body: Buffer.alloc(0),
};

/** Requests held (the watchers group's ceiling) until the bench says `release`. */
let holding = false;
/** Tells the bench once this many requests are held. */
let expected = 0;
let held: (() => void)[] = [];

const server = http.createServer((req, res) => {
  req.on('data', () => {});
  req.on('end', () => {
    if (holding) {
      held.push(() => {
        res.writeHead(current.status, current.headers.flat());
        res.end(current.body);
      });
      if (held.length === expected) process.send!({ held: held.length });
      return;
    }
    let body = current.body;
    if (current.freshId !== undefined) {
      // Same length: a UUID for a UUID.
      body = Buffer.from(body.toString().replaceAll(current.freshId, crypto.randomUUID()));
    }
    res.writeHead(current.status, current.headers.flat());
    res.end(body);
  });
});

process.on('message', (message: Recorded | { hold: number } | { release: true }) => {
  if ('hold' in message) {
    holding = true;
    expected = message.hold;
    process.send!('ready');
    return;
  }
  if ('release' in message) {
    // Every held request answered in one go, as a woken long-poll group is.
    holding = false;
    const answers = held;
    held = [];
    for (const answer of answers) answer();
    return;
  }
  current = {
    status: message.status,
    headers: message.headers,
    body: Buffer.from(message.body),
    ...(message.freshId === undefined ? {} : { freshId: message.freshId }),
  };
  process.send!('ready');
});

server.keepAliveTimeout = 72_000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address() as { port: number };
  process.send!({ port: address.port });
});
process.on('disconnect', () => server.close(() => process.exit(0)));
