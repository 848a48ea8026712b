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

/**
 * A completed project's current results change when a revision completes: revalidate with
 * the ETag. A revision asked for by number never changes: cache it. Either way the answer
 * depends on the key, so it is private (docs/revisions.md, Caching).
 */
export const CURRENT_CACHE = 'private, no-cache';
export const PINNED_CACHE = 'private, max-age=86400, immutable';

/**
 * The `Cache-Control` of a read of a project's results: `no-cache` while it is not
 * completed (parts are still being added), then {@link CURRENT_CACHE}, or
 * {@link PINNED_CACHE} for a `?revision=n` read.
 *
 * @example
 * reply.header('cache-control', resultCache('completed', 2)); // private, max-age=86400, immutable
 */
export function resultCache(status: string, revision: number | undefined): string {
  if (status !== 'completed') return 'no-cache';
  return revision === undefined ? CURRENT_CACHE : PINNED_CACHE;
}
