/**
 * OpenAPI 3.1 schema objects as plain JSON Schema 2020-12: shared by the generator (which
 * writes the bundle) and the contract checker of the tests (which compiles inline schemas).
 */

/** Where component schemas live in an OpenAPI document. */
export const COMPONENT_SCHEMA_REF = '#/components/schemas/';

// OpenAPI keywords that are not JSON Schema: Ajv's strict mode rejects them as unknown.
const OPENAPI_ONLY_KEYWORDS = new Set(['discriminator', 'example', 'xml', 'externalDocs']);

// Keywords whose value is a map from names (not keywords) to subschemas.
const SCHEMA_MAP_KEYWORDS = new Set([
  'properties',
  'patternProperties',
  '$defs',
  'dependentSchemas',
]);

// Keywords whose value is instance data, copied as is.
const DATA_KEYWORDS = new Set(['const', 'enum', 'examples', 'default']);

/**
 * Turns an OpenAPI schema object into plain JSON Schema: drops the OpenAPI-only keywords and
 * points `#/components/schemas/X` refs at `${refBase}X`.
 *
 * @example toJsonSchema({ $ref: '#/components/schemas/Mode', example: 'live' }, '#/$defs/')
 *   // { $ref: '#/$defs/Mode' }
 */
export function toJsonSchema(schema: unknown, refBase: string): unknown {
  if (Array.isArray(schema)) return schema.map((item) => toJsonSchema(item, refBase));
  if (schema === null || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (OPENAPI_ONLY_KEYWORDS.has(key)) continue;
    if (key === '$ref') {
      out[key] = rewriteRef(value, refBase);
    } else if (SCHEMA_MAP_KEYWORDS.has(key) && value !== null && typeof value === 'object') {
      out[key] = Object.fromEntries(
        Object.entries(value).map(([name, sub]) => [name, toJsonSchema(sub, refBase)]),
      );
    } else if (DATA_KEYWORDS.has(key)) {
      out[key] = value;
    } else {
      out[key] = toJsonSchema(value, refBase);
    }
  }
  return out;
}

function rewriteRef(ref: unknown, refBase: string): string {
  if (typeof ref !== 'string' || !ref.startsWith(COMPONENT_SCHEMA_REF)) {
    throw new Error(
      `schema $ref ${JSON.stringify(ref)} does not point into ${COMPONENT_SCHEMA_REF}; the bundle cannot resolve it`,
    );
  }
  return refBase + ref.slice(COMPONENT_SCHEMA_REF.length);
}
