import { redactKeys } from '../accounts/api-keys.ts';
import { ApiError } from '../errors.ts';

/** The longest path an error message repeats; the rest is cut. */
const MAX_ECHOED_PATH = 200;

/**
 * A request's path as an error message may repeat it: any key in it redacted (however it
 * was encoded), and at most {@link MAX_ECHOED_PATH} characters, so a 404 never hands back a
 * secret or a megabyte of the caller's own text.
 *
 * @example
 * echoedPath('/x/pgs%5Ftest%5FAbc'); // '/x/pgs_test_[redacted]'
 */
export function echoedPath(path: string): string {
  const safe = redactKeys(path);
  return safe.length <= MAX_ECHOED_PATH ? safe : `${safe.slice(0, MAX_ECHOED_PATH)}…`;
}

interface RoutePattern {
  methods: readonly string[];
  matcher: RegExp;
}

function patternFor(url: string): RegExp {
  const source = url
    .split('/')
    .map((segment) =>
      segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
    )
    .join('/');
  // Exact: Fastify does not ignore a trailing slash, so `/credits/` is no route at all (404).
  return new RegExp(`^${source}$`);
}

/**
 * The app's routes as path patterns, so that a wrong method is answered 405 with `Allow`,
 * also where Fastify never sees the request (CONNECT, a method Node's parser refuses).
 *
 * @example
 * const routes = new KnownRoutes();
 * routes.add(['GET', 'HEAD'], '/api/v1/projects/:projectId');
 * routes.allowedAt('/api/v1/projects/0a1b'); // ['GET', 'HEAD']
 * routes.answers('TRACE'); // false
 */
export class KnownRoutes {
  readonly #routes: RoutePattern[] = [];
  readonly #methods = new Set<string>();

  add(methods: readonly string[], url: string): void {
    this.#routes.push({ methods, matcher: patternFor(url) });
    for (const method of methods) this.#methods.add(method);
  }

  /** The methods some route answers at this path (no query string); empty when none. */
  allowedAt(path: string): string[] {
    return [...new Set(this.#routes.filter((r) => r.matcher.test(path)).flatMap((r) => r.methods))];
  }

  /** Whether any route answers this method, on any path. */
  answers(method: string): boolean {
    return this.#methods.has(method);
  }
}

/**
 * 405 VALIDATION_ERROR: `method` is not answered at `target`; `Allow` lists the methods
 * that are when a route exists there.
 *
 * @example
 * methodNotAllowed('TRACE', '/api/v1/projects', ['POST']); // status 405, header allow: POST
 */
export function methodNotAllowed(
  method: string,
  target: string,
  allowed: readonly string[],
): ApiError {
  return new ApiError('VALIDATION_ERROR', `${method} is not allowed on ${echoedPath(target)}.`, {
    status: 405,
    ...(allowed.length > 0 ? { headers: { allow: allowed.join(', ') } } : {}),
    details: { method, allowed_methods: [...allowed] },
  });
}
