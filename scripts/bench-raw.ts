/**
 * The ceiling for `npm run bench`: a bare `node:http` server, in a process of its own,
 * that answers every request with the bytes of one recorded PGS response (status line,
 * headers, body), chosen by the bench over IPC. It reads each request's body (a POST's
 * too) and does nothing else, so PGS's ratio to it is what PGS's own work costs. Told to
 * `hold`, it keeps every request until told to `release`, then answers them all at once:
 * the ceiling of waking many long-polls. Told to hold streams, it sends each held request
 * the recorded headers and a first event at once, then at `release` the last event to
 * each and then the ends: the ceiling of an event reaching many event streams.
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

/** Held requests are streams: the recorded headers and `first` at once, `last` at release. */
export interface StreamOrder {
  holdStreams: number;
  status: number;
  headers: [string, string][];
  first: string;
  last: string;
}

/** Requests held (the watchers group's ceiling) until the bench says `release`. */
let holding = false;
let streams: { first: Buffer; last: Buffer } | undefined;
/** Tells the bench once this many requests are held. */
let expected = 0;
let held: (() => void)[] = [];
/** Held streams' ends, run after every held answer's write at release. */
let ends: (() => void)[] = [];

const server = http.createServer((req, res) => {
  req.on('data', () => {});
  req.on('end', () => {
    if (holding && streams !== undefined) {
      const { first, last } = streams;
      res.writeHead(current.status, current.headers.flat());
      res.write(first);
      // The final event first to every stream, then the ends, as PGS's streams do.
      held.push(() => res.write(last));
      ends.push(() => res.end());
      if (held.length === expected) process.send!({ held: held.length });
      return;
    }
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

process.on('message', (message: Recorded | { hold: number } | StreamOrder | { release: true }) => {
  if ('hold' in message) {
    holding = true;
    expected = message.hold;
    process.send!('ready');
    return;
  }
  if ('holdStreams' in message) {
    holding = true;
    expected = message.holdStreams;
    current = { status: message.status, headers: message.headers, body: Buffer.alloc(0) };
    streams = { first: Buffer.from(message.first), last: Buffer.from(message.last) };
    process.send!('ready');
    return;
  }
  if ('release' in message) {
    // Every held request answered in one go, as a woken long-poll group is.
    holding = false;
    streams = undefined;
    const answers = [...held, ...ends];
    held = [];
    ends = [];
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
