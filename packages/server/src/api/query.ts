import type { Ajv2020, ErrorObject } from 'ajv/dist/2020.js';
import type { RouteOptions } from 'fastify';

/** A decimal integer as a query string may spell one: digits, an optional minus. */
const DECIMAL_INTEGER = /^-?[0-9]{1,20}$/;

type Validator = ((data: unknown) => boolean) & { errors?: ErrorObject[] | null };

interface ObjectSchema {
  properties?: Record<string, { type?: unknown }>;
}

/**
 * A query-string (or path) validator that reads numbers the way a person writes them, and no other
 * way. Ajv's own coercion turns any text `Number()` accepts into a number (`Infinity`,
 * `1e400`, `0x10`, ` 16 `), which reached the database as a limit it refused. Here an
 * integer parameter is converted only when it is a plain decimal integer; anything else
 * stays text and fails the schema's `type: integer` with a 400 naming the parameter. A
 * repeated parameter (`limit=1&limit=2`) arrives as an array and fails the same way.
 *
 * @example
 * app.setValidatorCompiler(({ schema, httpPart }) =>
 *   httpPart === 'querystring' ? queryValidator(ajv, schema) : ajv.compile(schema));
 */
export function queryValidator(ajv: Ajv2020, schema: object): Validator {
  const validate = ajv.compile(schema);
  const properties = (schema as ObjectSchema).properties ?? {};
  const integers = Object.entries(properties)
    .filter(([, property]) => property.type === 'integer')
    .map(([name]) => name);
  const check: Validator = (data) => {
    if (typeof data === 'object' && data !== null) {
      const query = data as Record<string, unknown>;
      for (const name of integers) {
        const value = query[name];
        if (typeof value === 'string' && DECIMAL_INTEGER.test(value)) query[name] = Number(value);
      }
    }
    const valid = validate(data);
    check.errors = validate.errors ?? null;
    return valid;
  };
  return check;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route reads no query schema and ignores parameters it does not know (only
     * getProjectStatus: see {@link closedQuery}). Every other route refuses them.
     */
    ignoresUnknownQuery?: boolean;
  }
}

/** The query of a route that takes no parameters: any parameter is a 400 naming it. */
export const NO_QUERY = { type: 'object', additionalProperties: false } as const;

/**
 * An `onRoute` hook that gives every route without a query schema {@link NO_QUERY}, so a
 * parameter the route does not read (`?revision=1` where no revision can be chosen, a
 * misspelt `?fromat=json`) is refused by the same validator and answer as a declared
 * route's (400 VALIDATION_ERROR, `invalid_fields.<name>: "is not allowed"`) instead of being
 * silently ignored. A route declaring its own query schema keeps it; one marked
 * `ignoresUnknownQuery` keeps none (validating nothing costs nothing on its path).
 *
 * @example
 * api.addHook('onRoute', closedQuery);
 */
export function closedQuery(route: RouteOptions): void {
  if (route.config?.ignoresUnknownQuery === true) return;
  route.schema ??= {};
  route.schema.querystring ??= NO_QUERY;
}
