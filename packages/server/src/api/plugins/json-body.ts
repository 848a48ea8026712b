import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import secureJson from 'secure-json-parse';
import { EMBEDDED_KEY_PATTERN } from '../../accounts/api-keys.ts';
import { ApiError } from '../../errors.ts';

/** The rule named for each string that PostgreSQL text cannot hold or that is not Unicode. */
export const UNSAFE_TEXT_RULE = 'must not contain NUL characters or unpaired surrogates';
/** At most this many fields are named, so a body full of them does not make a huge answer. */
const MAX_UNSAFE_FIELDS = 20;

// NUL (PostgreSQL refuses it in text) and a lone UTF-16 surrogate (not a character: drivers
// would store U+FFFD in its place).
const unsafeText = (text: string) => text.includes('\0') || !text.isWellFormed();
const UNSAFE_CHARACTER =
  /\0|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
/** A key as it is named in the answer: offending characters spelled as JSON escapes. */
const printable = (key: string) =>
  key.replace(UNSAFE_CHARACTER, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

interface Step {
  value: unknown;
  parent: Step | undefined;
  /** Index in the parent array or key in the parent object; undefined for the body. */
  at: number | string | undefined;
}

/** `a.b[0]` (the names of `details.invalid_fields`), `body` for the body itself. */
function pathOf(step: Step): string {
  const parts: (number | string)[] = [];
  for (let s: Step | undefined = step; s?.at !== undefined; s = s.parent) parts.push(s.at);
  let path = '';
  for (const at of parts.reverse()) {
    if (typeof at === 'number') path += `[${at}]`;
    else path += path === '' ? printable(at) : `.${printable(at)}`;
  }
  return path || 'body';
}

/**
 * The paths of the strings in a parsed JSON value, keys included, that hold a NUL or a lone
 * surrogate; at most `limit`. One walk with its own stack: nesting depth cannot overflow it.
 *
 * @example
 * unsafeTextFields({ idea: 'a\u0000b', tags: ['ok', '\uD800'] }); // ['idea', 'tags[1]']
 */
export function unsafeTextFields(value: unknown, limit = MAX_UNSAFE_FIELDS): string[] {
  const found = new Set<string>();
  const stack: Step[] = [{ value, parent: undefined, at: undefined }];
  for (let step = stack.pop(); step !== undefined && found.size < limit; step = stack.pop()) {
    const node = step.value;
    if (typeof node === 'string') {
      if (unsafeText(node)) found.add(pathOf(step));
    } else if (Array.isArray(node)) {
      for (let i = node.length - 1; i >= 0; i--)
        stack.push({ value: node[i], parent: step, at: i });
    } else if (typeof node === 'object' && node !== null) {
      const keys = Object.keys(node);
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i] as string;
        const child: Step = {
          value: (node as Record<string, unknown>)[key],
          parent: step,
          at: key,
        };
        if (unsafeText(key)) found.add(pathOf(child));
        stack.push(child);
      }
    }
  }
  return [...found].slice(0, limit);
}

/**
 * Parses a JSON body: syntax errors → INVALID_JSON; `__proto__` or `constructor.prototype`
 * keys, or an API key anywhere in the body → SECURITY_VIOLATION; a NUL or a lone surrogate
 * in any string, keys included → VALIDATION_ERROR naming each field.
 *
 * @example
 * parseJsonBody('{"mode":"test"}'); // { mode: 'test' }
 */
export function parseJsonBody(text: string): unknown {
  if (text.trim() === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ApiError(
      'INVALID_JSON',
      `The request body is not valid JSON: ${(error as Error).message}`,
    );
  }
  try {
    if (typeof value === 'object' && value !== null) {
      secureJson.scan(value as Record<string, unknown>, {
        protoAction: 'error',
        constructorAction: 'error',
      });
    }
  } catch {
    throw new ApiError('SECURITY_VIOLATION', 'The request body contains a forbidden key.', {
      details: {
        issue: 'prototype_pollution',
        forbidden_keys: ['__proto__', 'constructor.prototype'],
      },
    });
  }
  if (EMBEDDED_KEY_PATTERN.test(text)) {
    throw new ApiError(
      'SECURITY_VIOLATION',
      'The request body contains an API key. Send keys only in the Authorization header, and revoke this one: it may have been logged.',
      { details: { field: 'body', issue: 'api_key_in_body' } },
    );
  }
  // JSON.parse refuses a raw NUL, and Fastify decodes the body as UTF-8 (a bad byte becomes
  // U+FFFD): both arrive as `\u` escapes, so the usual body, with none, skips the walk.
  if (text.includes('\\u') || !text.isWellFormed()) {
    const fields = unsafeTextFields(value);
    if (fields.length > 0) {
      throw new ApiError(
        'VALIDATION_ERROR',
        'Strings in the request body must not contain NUL characters (\\u0000) or unpaired UTF-16 surrogates.',
        {
          details: { invalid_fields: Object.fromEntries(fields.map((f) => [f, UNSAFE_TEXT_RULE])) },
        },
      );
    }
  }
  return value;
}

/** The only body type the API accepts is JSON; anything else is answered 415. */
export const jsonBody = fp(
  async (app: FastifyInstance) => {
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
      try {
        done(null, parseJsonBody(body as string));
      } catch (error) {
        done(error as Error, undefined);
      }
    });
  },
  { name: 'pgs-json-body' },
);
