import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { HTTP_TIMEOUTS } from '../config.ts';

/**
 * The most of a refused body read and dropped after the answer; past it the connection is
 * cut. Larger than any body a client sends by mistake (the 2 MB probe), small enough that
 * nobody streams into it for long.
 */
export const DRAIN_MAX_BYTES = 8 * 1024 * 1024;

/**
 * How long, by default, a connection lingers after an answer sent before its request was
 * read whole (`PGS_DRAIN_TIMEOUT_MS`). Long enough for a client to finish a body it is
 * sending at ordinary speed and read its answer; a client that trickles, or never reads,
 * cannot hold the connection past it (issue 27: one did for 150 s and more).
 */
export const DRAIN_MAX_MS = HTTP_TIMEOUTS.drainTimeoutMs;

/** How much of a refused body is read and dropped, and for how long, before the cut. */
export interface DrainBounds {
  /** Bytes (default {@link DRAIN_MAX_BYTES}). */
  maxBytes?: number;
  /** Milliseconds from the answer (default {@link DRAIN_MAX_MS}). */
  maxMs?: number;
}

/** Sockets whose current request was answered before its body was read. */
const answeredEarly = new WeakSet<Socket>();

/**
 * Destroys the socket `ms` from now unless it closes first: the one bound no client
 * behaviour can stretch (bytes that keep arriving reset the idle time-out, and Node stops
 * the request time-out once the parser has failed).
 */
function cutAfter(socket: Duplex, ms: number): () => void {
  // inject()'s stand-in socket has nothing to cut (and no destroy).
  if (typeof socket.destroy !== 'function') return () => {};
  const timer = setTimeout(() => socket.destroy(), ms);
  // A lingering socket must not keep the process alive on its own.
  timer.unref();
  const stop = () => clearTimeout(timer);
  socket.once('close', stop);
  return stop;
}

/**
 * For an answer sent before the request's body was read (a 413, a 415, a 401 from the
 * key check…): the rest of the body is read and dropped rather than the connection closed
 * under the client. A server that closes while the client is still sending makes the close
 * a reset, and the reset can discard the answer before the client reads it; reading on, as
 * a lingering close does, lets the client finish and read its 413. Node still parses the
 * body's framing as it is dropped, so the connection stays usable once the body ends; past
 * `maxBytes` or `maxMs`, whichever comes first, it is cut.
 *
 * @example
 * drainAfterAnswer(reply, { maxMs: 5_000 });
 */
export function drainAfterAnswer(
  reply: FastifyReply,
  { maxBytes = DRAIN_MAX_BYTES, maxMs = DRAIN_MAX_MS }: DrainBounds = {},
): void {
  const request = reply.request.raw;
  if (request.complete) return;
  // Fastify asks for a close after a body it refused; the drain makes that unneeded.
  reply.removeHeader('connection');
  const socket = request.socket;
  answeredEarly.add(socket);
  const stop = cutAfter(socket, maxMs);
  request.once('end', () => {
    answeredEarly.delete(socket);
    stop();
  });
  // Read here rather than leave it to Node: the body Node drops itself (`_dump`) is never
  // counted, and a reader of our own keeps Node from dropping it.
  let read = 0;
  request.on('data', (chunk: Buffer) => {
    read += chunk.length;
    if (read > maxBytes) socket.destroy();
  });
}

/**
 * Ends a connection with a raw answer (Node's parser refused the request, or it timed out)
 * and destroys it `maxMs` later if the client has not closed by then. Ending rather than
 * destroying lets a client still sending read the answer; the bound keeps a client that
 * goes on sending, and never reads, from holding the half-closed socket.
 *
 * @example
 * endThenCut(socket, clientErrorResponse(error, docsUrl), 5_000);
 */
export function endThenCut(socket: Duplex, answer: string, maxMs = DRAIN_MAX_MS): void {
  cutAfter(socket, maxMs);
  // What the client still sends is dropped: unread data would make the close a reset.
  socket.resume();
  socket.end(answer);
}

/**
 * Whether the socket's request was already answered (its body being drained): a late
 * parser error or request time-out then closes the connection instead of writing a
 * second answer the client never asked for.
 */
export const wasAnsweredEarly = (socket: Socket): boolean => answeredEarly.has(socket);
