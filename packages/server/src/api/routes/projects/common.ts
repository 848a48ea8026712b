import type { FastifyReply } from 'fastify';
import { ApiError } from '../../../errors.ts';
import { withoutStack } from '../../plugins/errors.ts';

/** The `{projectId}` path parameter of every project route. */
export const projectIdParams = {
  type: 'object',
  required: ['projectId'],
  additionalProperties: false,
  properties: { projectId: { type: 'string', format: 'uuid' } },
} as const;

/**
 * The 404 for a project that does not exist or is not the caller's (same answer either
 * way); `resource_id` is the identifier as the client sent it.
 *
 * @example
 * throw projectNotFound(request.params.projectId);
 */
export const projectNotFound = (projectId: string) =>
  withoutStack(
    () =>
      new ApiError('RESOURCE_NOT_FOUND', 'No project with this identifier exists.', {
        details: { resource_type: 'project', resource_id: projectId },
      }),
  );

/**
 * Whether `If-None-Match` matches an ETag: a weak comparison, so `W/` prefixes added by
 * proxies still match, and `*` matches any.
 *
 * @example
 * if (etagMatches(request.headers['if-none-match'], etag)) return reply.code(304).send();
 */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  return ifNoneMatch
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === '*' || tag === etag);
}

/** Seconds a client should wait before polling an in-progress project again (seed: 10–30 s). */
export function pollHint(estimatedCompletionMs: number): number {
  return Math.min(30, Math.max(10, Math.ceil(estimatedCompletionMs / 1000)));
}

/** Why a {@link closedSignal} aborted (nobody reads it; shared so that aborting is cheap). */
const RESPONSE_CLOSED = Object.freeze(new Error('The response closed.'));

/**
 * An AbortSignal that aborts when the response closes: the client went away (or the
 * answer was sent). The request's own 'close' fires once its body is read, so it cannot
 * tell a client that left. It also aborts when the server shuts down (`app.closing`), so
 * a held answer (long-poll, event stream) ends then instead of holding the shutdown up.
 */
export function closedSignal(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  // One shared reason: abort() without one builds a DOMException (with its stack) per
  // response, which measured about a twentieth of the CPU of waking 10,000 long-polls.
  reply.raw.once('close', () => controller.abort(RESPONSE_CLOSED));
  const closing: AbortSignal | undefined = reply.server.closing;
  return closing === undefined ? controller.signal : AbortSignal.any([controller.signal, closing]);
}
