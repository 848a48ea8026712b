import { patternRule } from '@pgs/contract';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { isDatabaseUnavailable } from '../../database-unavailable.ts';
import {
  ApiError,
  type Details,
  type DomainCode,
  DomainError,
  ERROR_CATALOGUE,
  errorEnvelope,
} from '../../errors.ts';
import { type DrainBounds, drainAfterAnswer } from '../drain.ts';
import { echoedPath, KnownRoutes, methodNotAllowed } from '../known-routes.ts';
import { VERSION_HEADERS } from '../versioning.ts';

interface ValidationIssue {
  keyword: string;
  instancePath: string;
  message?: string;
  params: Record<string, unknown>;
}

/** `/a/0/b` → `a[0].b`; empty → the part of the request (`body`, `params`). */
function fieldName(pointer: string, context: string): string {
  if (pointer === '') return context;
  return pointer
    .slice(1)
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce(
      (name, part) => (/^\d+$/.test(part) ? `${name}[${part}]` : name ? `${name}.${part}` : part),
      '',
    );
}

function join(parent: string, child: string): string {
  return parent === '' ? child : `${parent}.${child}`;
}

function ruleText(issue: ValidationIssue): string {
  if (issue.keyword === 'format') return `must be a valid ${String(issue.params.format)}`;
  if (issue.keyword === 'additionalProperties') return 'is not allowed';
  // The single-line rule by name, not as a regular expression of escapes nobody can read.
  if (issue.keyword === 'pattern') return patternRule(String(issue.params.pattern));
  if (issue.keyword === 'enum') {
    return `must be one of ${(issue.params.allowedValues as unknown[]).map(String).join(', ')}`;
  }
  return issue.message ?? 'is not valid';
}

/** Ajv issues → `missing_fields` (names) and `invalid_fields` (name → rule). */
export function validationDetails(issues: readonly ValidationIssue[], context: string): Details {
  const missing: string[] = [];
  const invalid: Record<string, string> = {};
  for (const issue of issues) {
    const at = issue.instancePath === '' ? '' : fieldName(issue.instancePath, context);
    if (issue.keyword === 'required') {
      missing.push(join(at, String(issue.params.missingProperty)));
    } else if (issue.keyword === 'additionalProperties') {
      invalid[join(at, String(issue.params.additionalProperty))] = ruleText(issue);
    } else if (issue.keyword === 'unevaluatedProperties') {
      // A schema built with allOf names the member it refuses the same way.
      invalid[join(at, String(issue.params.unevaluatedProperty))] = 'is not allowed';
    } else {
      invalid[at || context] ??= ruleText(issue);
    }
  }
  return {
    ...(missing.length ? { missing_fields: missing } : {}),
    ...(Object.keys(invalid).length ? { invalid_fields: invalid } : {}),
  };
}

/**
 * The HTTP status of each domain code: the catalogue's, 413 for a refusal of the input's
 * size, 422 for input that does not fit what it names. `satisfies Record<DomainCode, …>`
 * makes a code a rule starts raising break the build here until HTTP answers it.
 *
 * @example
 * DOMAIN_STATUS.INSUFFICIENT_CREDITS(error); // 402
 */
export const DOMAIN_STATUS = {
  VALIDATION_ERROR: (error) =>
    error.tooLarge ? 413 : error.unprocessable ? 422 : ERROR_CATALOGUE.VALIDATION_ERROR.status,
  RESOURCE_NOT_FOUND: () => ERROR_CATALOGUE.RESOURCE_NOT_FOUND.status,
  INSUFFICIENT_CREDITS: () => ERROR_CATALOGUE.INSUFFICIENT_CREDITS.status,
  PROJECT_NOT_COMPLETED: () => ERROR_CATALOGUE.PROJECT_NOT_COMPLETED.status,
  PROJECT_NOT_IN_PROGRESS: () => ERROR_CATALOGUE.PROJECT_NOT_IN_PROGRESS.status,
  REVISION_IN_PROGRESS: () => ERROR_CATALOGUE.REVISION_IN_PROGRESS.status,
  TASK_TRANSITION_NOT_ALLOWED: () => ERROR_CATALOGUE.TASK_TRANSITION_NOT_ALLOWED.status,
  LEASE_NOT_HELD: () => ERROR_CATALOGUE.LEASE_NOT_HELD.status,
  PRECONDITION_FAILED: () => ERROR_CATALOGUE.PRECONDITION_FAILED.status,
  PRECONDITION_REQUIRED: () => ERROR_CATALOGUE.PRECONDITION_REQUIRED.status,
  TRACKER_REJECTED: () => ERROR_CATALOGUE.TRACKER_REJECTED.status,
  TRACKER_UNAVAILABLE: () => ERROR_CATALOGUE.TRACKER_UNAVAILABLE.status,
  ENCRYPTION_NOT_CONFIGURED: () => ERROR_CATALOGUE.ENCRYPTION_NOT_CONFIGURED.status,
} as const satisfies Record<DomainCode, (error: DomainError) => number>;

/** A domain rule's refusal as the API answers it: its code, message and details. */
export function domainApiError(error: DomainError): ApiError {
  return new ApiError(error.code, error.message, {
    status: DOMAIN_STATUS[error.code](error),
    ...(error.details === undefined ? {} : { details: error.details }),
    cause: error,
  });
}

/** Maps anything thrown while serving a request to an error of the catalogue. */
export function toApiError(error: unknown, bodyLimit: number): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof DomainError) return domainApiError(error);
  const fastifyError = error as Partial<FastifyError> & { validation?: ValidationIssue[] };
  if (Array.isArray(fastifyError.validation)) {
    const context = fastifyError.validationContext ?? 'request';
    const what =
      context === 'params' ? 'path parameter' : context === 'querystring' ? 'query' : context;
    return new ApiError('VALIDATION_ERROR', `The request ${what} is not valid.`, {
      details: validationDetails(fastifyError.validation, context),
    });
  }
  switch (fastifyError.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError(
        'VALIDATION_ERROR',
        `The request body is larger than ${bodyLimit} bytes.`,
        {
          status: 413,
          details: {
            invalid_fields: { body: `must be at most ${bodyLimit} bytes` },
            max_bytes: bodyLimit,
          },
        },
      );
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiError(
        'VALIDATION_ERROR',
        'The request body must be sent as application/json.',
        {
          status: 415,
          details: {
            invalid_fields: { 'Content-Type': 'must be application/json' },
            supported_media_types: ['application/json'],
          },
        },
      );
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new ApiError(
        'VALIDATION_ERROR',
        'The Content-Length header does not match the body.',
        {
          details: { invalid_fields: { 'Content-Length': 'must equal the body length' } },
        },
      );
    default:
      break;
  }
  const status = fastifyError.statusCode;
  if (status !== undefined && status >= 400 && status < 500) {
    // Fastify's own client errors (bad URL, bad headers): their messages are meant for
    // clients, but may quote the request (a bad URL quotes it whole), so they are passed
    // through the same screen as an echoed path: no key, no megabyte of the caller's text.
    const message =
      fastifyError.code === 'FST_ERR_BAD_URL'
        ? 'The URL holds a percent escape that is not valid UTF-8.'
        : echoedPath(fastifyError.message ?? 'The request is not valid.');
    return new ApiError('VALIDATION_ERROR', message, {
      status: status === 404 || status === 405 || status === 413 || status === 415 ? status : 400,
    });
  }
  if (isDatabaseUnavailable(error)) {
    // Not a fault of the request nor of our code: the same request succeeds once the
    // database is back, so say so (503, Retry-After) rather than answer a bare 500.
    return new ApiError('INTERNAL_ERROR', DATABASE_UNAVAILABLE_MESSAGE, {
      status: 503,
      headers: { 'retry-after': DATABASE_RETRY_AFTER_SECONDS },
      cause: error,
    });
  }
  return new ApiError('INTERNAL_ERROR', undefined, { cause: error });
}

/**
 * Builds an expected client error (a 404, a 401, a 429) without capturing a stack trace:
 * V8 walks the stack on every `new Error`, which measured about a tenth of a 404's CPU,
 * and these errors are answers, never logged with their stack (only 5xx are logged).
 *
 * @example
 * throw withoutStack(() => new ApiError('RESOURCE_NOT_FOUND'));
 */
export function withoutStack<T>(make: () => T): T {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return make();
  } finally {
    Error.stackTraceLimit = limit;
  }
}

/** Seconds a client is asked to wait (Retry-After) while the database is unreachable. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;
const DATABASE_UNAVAILABLE_MESSAGE =
  'The service is temporarily unavailable: its database cannot be reached. Retry after the seconds in Retry-After.';

/**
 * Sends an error in the envelope, with the request id and the error's own headers; a body
 * not yet read is drained within `drain`'s bounds.
 */
export function sendError(
  reply: FastifyReply,
  error: ApiError,
  docsUrl: string,
  drain?: DrainBounds,
): FastifyReply {
  // Errors raised before the onRequest hooks ran (framework errors) still get these headers.
  if (!reply.hasHeader('x-request-id')) reply.header('x-request-id', reply.request.id);
  if (!reply.hasHeader('api-version')) reply.headers(VERSION_HEADERS);
  reply.header('x-content-type-options', 'nosniff');
  drainAfterAnswer(reply, drain);
  for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
  return reply
    .code(error.status)
    .type('application/json; charset=utf-8')
    .send(JSON.stringify(errorEnvelope(error, String(reply.request.id), docsUrl)));
}

export interface ErrorHandlingOptions {
  docsUrl: string;
  bodyLimit: number;
  /** How a body left unread by an error is drained (default: {@link DrainBounds}'s). */
  drain?: DrainBounds;
  /** Filled here as routes are added; shared with what answers 405 outside Fastify. */
  routes?: KnownRoutes;
}

/**
 * Answers every error, including Fastify's own (unknown route, wrong method, parse and
 * validation errors), in the contract's envelope with the request id.
 */
export const errorHandling = fp(
  async (
    app: FastifyInstance,
    { docsUrl, bodyLimit, drain, routes = new KnownRoutes() }: ErrorHandlingOptions,
  ) => {
    app.addHook('onRoute', (route) => {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      routes.add(methods.map(String), route.url ?? route.path);
    });

    app.setErrorHandler((error: unknown, request: FastifyRequest, reply: FastifyReply) => {
      // The route's own limit when it has one (the routes that take a codebase digest do).
      const apiError = toApiError(error, request.routeOptions?.bodyLimit ?? bodyLimit);
      if (apiError.code === 'INTERNAL_ERROR' && apiError.status === 500) {
        request.log.error({ err: error }, 'request failed');
      } else if (apiError.status >= 500) {
        request.log.warn({ err: error }, 'request failed');
      }
      return sendError(reply, apiError, docsUrl, drain);
    });

    app.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) => {
      const path = request.url.split('?')[0] ?? '/';
      const allowed = routes.allowedAt(path);
      if (allowed.length > 0) {
        return sendError(reply, methodNotAllowed(request.method, path, allowed), docsUrl, drain);
      }
      const echoed = echoedPath(path);
      return sendError(
        reply,
        new ApiError('RESOURCE_NOT_FOUND', `No route ${request.method} ${echoed}.`, {
          details: { resource_type: 'route', resource_id: `${request.method} ${echoed}` },
        }),
        docsUrl,
        drain,
      );
    });
  },
  { name: 'pgs-errors' },
);
