import type { Socket } from 'node:net';
import type { FastifyReply } from 'fastify';

/**
 * The most of a refused body read and dropped after the answer; past it the connection is
 * cut. Larger than any body a client sends by mistake (the 2 MB probe), small enough that
 * nobody streams into it for long; the request time-out bounds it in time.
 */
export const DRAIN_MAX_BYTES = 8 * 1024 * 1024;

/** Sockets whose current request was answered before its body was read. */
const answeredEarly = new WeakSet<Socket>();

/**
 * For an answer sent before the request's body was read (a 413, a 415, a 401 from the
 * key check…): the rest of the body is read and dropped rather than the connection closed
 * under the client. A server that closes while the client is still sending makes the close
 * a reset, and the reset can discard the answer before the client reads it; reading on, as
 * a lingering close does, lets the client finish and read its 413. Node still parses the
 * body's framing as it is dropped, so the connection stays usable; past
 * {@link DRAIN_MAX_BYTES}, or the request time-out, it is cut.
 *
 * @example
 * if (!reply.request.raw.complete) drainAfterAnswer(reply);
 */
export function drainAfterAnswer(reply: FastifyReply, maxBytes = DRAIN_MAX_BYTES): void {
  const request = reply.request.raw;
  if (request.complete) return;
  // Fastify asks for a close after a body it refused; the drain makes that unneeded.
  reply.removeHeader('connection');
  const socket = request.socket;
  answeredEarly.add(socket);
  request.once('end', () => answeredEarly.delete(socket));
  // Read here rather than leave it to Node: the body Node drops itself (`_dump`) is never
  // counted, and a reader of our own keeps Node from dropping it.
  let read = 0;
  request.on('data', (chunk: Buffer) => {
    read += chunk.length;
    if (read > maxBytes) socket.destroy();
  });
}

/**
 * Whether the socket's request was already answered (its body being drained): a late
 * parser error or request time-out then closes the connection instead of writing a
 * second answer the client never asked for.
 */
export const wasAnsweredEarly = (socket: Socket): boolean => answeredEarly.has(socket);
