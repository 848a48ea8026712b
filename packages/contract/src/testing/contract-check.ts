/**
 * `@pgs/contract/testing`: checks an HTTP response against `openapi/pgs.openapi.yaml`.
 * Test-only: it uses Ajv, a dev dependency, which the package proper must not need.
 */
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { openapiDocument } from '../generated/openapi.ts';
import { SCHEMA_BUNDLE_ID, schemaBundle } from '../generated/schemas.ts';
import { COMPONENT_SCHEMA_REF, toJsonSchema } from '../json-schema.ts';

/** A response as `app.inject()` returns it (headers as Node gives them). */
export interface ContractResponse {
  statusCode: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
}

// The subset of OpenAPI the checker reads; the document is trusted (it is linted).
type Json = Record<string, unknown>;
interface HeaderObject {
  required?: boolean;
  schema?: Json;
}
interface MediaTypeObject {
  schema?: Json;
}
interface ResponseObject {
  headers?: Record<string, HeaderObject | Json>;
  content?: Record<string, MediaTypeObject>;
}
interface OperationObject {
  operationId: string;
  responses: Record<string, ResponseObject | Json>;
}
interface ServerObject {
  url: string;
  variables?: Record<string, { default: string }>;
}
interface Route {
  method: string;
  regex: RegExp;
  params: number;
  operation: OperationObject;
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

const document = openapiDocument as unknown as Json;

// ajv-formats is CommonJS: Node's default import is module.exports, whose `default` is the plugin.
const addFormats = addFormatsModule.default;
const ajv = new Ajv2020({ strict: true, allErrors: true });
addFormats(ajv);
ajv.addSchema(schemaBundle);
const validators = new Map<string, ValidateFunction>();

/**
 * Throws an Error with a readable explanation when the response does not match
 * openapi/pgs.openapi.yaml. Returns the operationId matched, or `'unmatched'` for a URL or
 * method the contract does not declare (whose answer must then be the error envelope).
 *
 * @example
 *   const res = await app.inject({ method: 'GET', url: `/api/v1/projects/${id}`, headers });
 *   expect(assertMatchesContract('GET', `/api/v1/projects/${id}`, res)).toBe('getProjectStatus');
 */
export function assertMatchesContract(method: string, url: string, res: ContractResponse): string {
  const path = new URL(url, 'http://localhost').pathname;
  const route = findRoute(method.toLowerCase(), path);
  const operationId = route?.operation.operationId ?? 'unmatched';
  const problems = route ? checkOperation(route, res) : checkUnmatched(res);
  if (res.statusCode >= 400) problems.push(...checkRequestId(res));
  if (problems.length > 0) {
    const where = route
      ? `${operationId}, status ${res.statusCode}`
      : `no operation matches, status ${res.statusCode}`;
    throw new Error(
      `Response to ${method.toUpperCase()} ${url} does not match openapi/pgs.openapi.yaml (${where}):\n` +
        problems.map((problem) => `  - ${problem}`).join('\n') +
        `\nbody: ${truncate(res.body)}`,
    );
  }
  return operationId;
}

// Routes -------------------------------------------------------------------------------------

let routes: Route[] | undefined;

function allRoutes(): Route[] {
  if (routes) return routes;
  routes = [];
  const rootServers = (document.servers ?? []) as ServerObject[];
  for (const [template, item] of Object.entries(document.paths as Record<string, Json>)) {
    const servers = (item.servers ?? rootServers) as ServerObject[];
    // Every declared server, not only the first: the root lists production (/v1) before the
    // development server (/api/v1) that the tests talk to.
    const bases = servers.length > 0 ? [...new Set(servers.map(serverPath))] : [''];
    for (const method of METHODS) {
      const operation = item[method] as OperationObject | undefined;
      if (!operation) continue;
      for (const base of bases) {
        const params = template.match(/\{[^}]+\}/g)?.length ?? 0;
        routes.push({ method, regex: templateRegex(base + template), params, operation });
      }
    }
  }
  // A concrete path wins over a templated one that also matches (OpenAPI path matching).
  routes.sort((a, b) => a.params - b.params);
  return routes;
}

function serverPath(server: ServerObject): string {
  const url = server.url.replace(
    /\{([^}]+)\}/g,
    (_, name: string) => server.variables?.[name]?.default ?? '',
  );
  return new URL(url, 'http://localhost').pathname.replace(/\/+$/, '');
}

function templateRegex(template: string): RegExp {
  const source = template
    .split(/(\{[^}]+\})/)
    .map((part) => (part.startsWith('{') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${source}$`);
}

function findRoute(method: string, path: string): Route | undefined {
  const candidates = allRoutes().filter((route) => route.regex.test(path));
  // HEAD is answered like GET without a body, unless the contract declares it.
  return (
    candidates.find((route) => route.method === method) ??
    (method === 'head' ? candidates.find((route) => route.method === 'get') : undefined)
  );
}

// Checks -------------------------------------------------------------------------------------

function checkOperation(route: Route, res: ContractResponse): string[] {
  const { operation } = route;
  const responses = operation.responses;
  const declared =
    responses[String(res.statusCode)] ??
    responses[`${Math.floor(res.statusCode / 100)}XX`] ??
    responses.default;
  if (!declared) {
    return [
      `status ${res.statusCode} not declared for ${operation.operationId} (declared: ${Object.keys(responses).join(', ')})`,
    ];
  }
  const response = resolve(declared) as ResponseObject;
  const problems = checkHeaders(response, res);
  const json = response.content?.['application/json'];
  const other = Object.keys(response.content ?? {}).filter((type) => type !== 'application/json');
  const contentType = String(headerValue(res, 'content-type') ?? '');
  // A response may offer JSON beside another media type (a diff or its JSON form): the
  // body is checked as JSON when it is JSON or when JSON is all the status offers.
  const isOther = other.some((type) => contentType.toLowerCase().startsWith(type.toLowerCase()));
  if (route.method !== 'head' && json && !isOther) {
    problems.push(...checkJsonBody(json.schema, res));
  } else if (route.method !== 'head' && other.length > 0) {
    // A body that is not JSON (markdown, an event stream, a zip): its media type is checked.
    if (!isOther) {
      problems.push(
        `content-type is ${JSON.stringify(contentType)}, expected one of ${other.join(', ')}`,
      );
    }
  } else if (res.body !== '') {
    problems.push(
      `the contract declares no body for status ${res.statusCode}, but the body is not empty`,
    );
  }
  return problems;
}

function checkUnmatched(res: ContractResponse): string[] {
  if (res.statusCode < 400) {
    return [
      `no operation of the contract matches, yet the status is ${res.statusCode} (expected an error)`,
    ];
  }
  return checkJsonBody({ $ref: `${COMPONENT_SCHEMA_REF}ErrorResponse` }, res);
}

function checkHeaders(response: ResponseObject, res: ContractResponse): string[] {
  const problems: string[] = [];
  for (const [name, declared] of Object.entries(response.headers ?? {})) {
    const header = resolve(declared) as HeaderObject;
    const value = headerValue(res, name);
    if (value === undefined) {
      if (header.required) problems.push(`header ${name} is required but missing`);
      continue;
    }
    if (!header.schema) continue;
    const validate = validator(header.schema);
    const data = coerceHeader(value, header.schema);
    if (!validate(data)) {
      problems.push(`header ${name}: ${JSON.stringify(value)} ${describeErrors(validate.errors)}`);
    }
  }
  return problems;
}

function checkJsonBody(schema: Json | undefined, res: ContractResponse): string[] {
  const contentType = String(headerValue(res, 'content-type') ?? '');
  const problems: string[] = [];
  if (!/^application\/json\b/i.test(contentType)) {
    problems.push(`content-type is ${JSON.stringify(contentType)}, expected application/json`);
  }
  let body: unknown;
  try {
    body = JSON.parse(res.body);
  } catch {
    return [...problems, 'the body is not JSON'];
  }
  if (schema) {
    const validate = validator(schema);
    if (!validate(body)) problems.push(`body ${describeErrors(validate.errors)}`);
  }
  return problems;
}

function checkRequestId(res: ContractResponse): string[] {
  const header = headerValue(res, 'x-request-id');
  let requestId: unknown;
  try {
    requestId = (JSON.parse(res.body) as { error?: { request_id?: unknown } })?.error?.request_id;
  } catch {
    // Reported by the body check.
  }
  if (header === undefined) return ['an error response needs the X-Request-ID header'];
  if (requestId !== header) {
    return [
      `error.request_id ${JSON.stringify(requestId)} differs from X-Request-ID ${JSON.stringify(header)}`,
    ];
  }
  return [];
}

// Helpers ------------------------------------------------------------------------------------

function headerValue(res: ContractResponse, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(res.headers)) {
    if (key.toLowerCase() !== wanted || value === undefined) continue;
    return Array.isArray(value) ? value.join(', ') : String(value);
  }
  return undefined;
}

// Header values travel as text: read one as a number when its schema wants one.
function coerceHeader(value: string, schema: Json): unknown {
  const type = schemaType(schema);
  if (type === 'integer' && /^-?\d+$/.test(value)) return Number(value);
  if (type === 'number' && value.trim() !== '' && Number.isFinite(Number(value))) {
    return Number(value);
  }
  return value;
}

function schemaType(schema: Json): unknown {
  let current: Json | undefined = schema;
  while (typeof current?.$ref === 'string' && current.$ref.startsWith(COMPONENT_SCHEMA_REF)) {
    const name = current.$ref.slice(COMPONENT_SCHEMA_REF.length);
    current = (schemaBundle.$defs as Record<string, Json>)[name];
  }
  return current?.type;
}

function validator(schema: Json): ValidateFunction {
  const jsonSchema = toBundleSchema(schema) as Json;
  const key = JSON.stringify(jsonSchema);
  let validate = validators.get(key);
  if (!validate) {
    validate = ajv.compile(jsonSchema);
    validators.set(key, validate);
  }
  return validate;
}

// The generator's rewrite, with absolute refs: an inline schema is compiled on its own.
const toBundleSchema = (schema: unknown) => toJsonSchema(schema, `${SCHEMA_BUNDLE_ID}#/$defs/`);

// Follows `$ref`s between components (responses, headers) to the object itself.
function resolve(node: object): Json {
  let current = node as Json;
  for (let hops = 0; typeof current.$ref === 'string'; hops++) {
    if (hops > 10 || !current.$ref.startsWith('#/')) {
      throw new Error(`cannot resolve $ref ${current.$ref}`);
    }
    let target: unknown = document;
    for (const segment of current.$ref.slice(2).split('/')) {
      const key = decodeURIComponent(segment).replaceAll('~1', '/').replaceAll('~0', '~');
      target = (target as Json | undefined)?.[key];
    }
    if (target === null || typeof target !== 'object') {
      throw new Error(`$ref ${current.$ref} points at nothing`);
    }
    current = target as Json;
  }
  return current;
}

// One line per distinct error. Under a oneOf every variant reports, so the lines name the
// value each variant wanted (`const`, `enum`) to show which variant said what.
function describeErrors(errors: ErrorObject[] | null | undefined): string {
  const lines = new Set(
    (errors ?? []).map((error) => {
      const params = error.params as Record<string, unknown>;
      let extra = '';
      if ('additionalProperty' in params) extra = ` (${String(params.additionalProperty)})`;
      else if ('allowedValue' in params) extra = ` ${JSON.stringify(params.allowedValue)}`;
      else if ('allowedValues' in params) extra = ` ${JSON.stringify(params.allowedValues)}`;
      const at = error.instancePath === '' ? '' : ` at ${error.instancePath}`;
      return `${error.message ?? 'is invalid'}${extra}${at}`;
    }),
  );
  const list = [...lines];
  return list.length === 1 ? (list[0] ?? '') : `is invalid:\n      ${list.join('\n      ')}`;
}

function truncate(text: string): string {
  if (text === '') return '(empty)';
  return text.length > 500 ? `${text.slice(0, 500)}...` : text;
}
