import {
  patternRule,
  SINGLE_LINE_FORMAT,
  SINGLE_LINE_PATTERN,
  SINGLE_LINE_RULE,
} from '../single-line.ts';
import type { McpJsonSchema, McpToolDefinition } from './tools.ts';

/** Why arguments were refused, as the API's VALIDATION_ERROR says it (`details`). */
export interface ArgumentProblems {
  missing_fields?: string[];
  invalid_fields?: Record<string, string>;
}

/** The outcome of {@link checkArguments}. */
export type CheckedArguments =
  | { ok: true; value: Record<string, unknown> }
  | { ok: false; message: string; details: ArgumentProblems };

/** The keywords the tool schemas use; a test fails when a schema uses another. */
export const SUPPORTED_KEYWORDS: ReadonlySet<string> = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'enum',
  'pattern',
  'format',
  'default',
  'description',
]);

export { SINGLE_LINE_FORMAT };

const SINGLE_LINE = new RegExp(SINGLE_LINE_PATTERN, 'u');

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** The rule a value breaks, worded as the API's validation (Ajv) words it; undefined if none. */
function brokenRule(schema: McpJsonSchema, value: unknown): string | undefined {
  const type = schema.type as string | undefined;
  const actual = typeOf(value);
  if (type !== undefined && actual !== type && !(type === 'number' && actual === 'integer')) {
    return `must be ${type}`;
  }
  const allowed = schema.enum as readonly unknown[] | undefined;
  if (allowed !== undefined && !allowed.includes(value)) {
    return `must be one of ${allowed.map(String).join(', ')}`;
  }
  if (typeof value === 'string') {
    // Characters as Ajv counts them: code points, so an emoji is one.
    const length = [...value].length;
    const min = schema.minLength as number | undefined;
    const max = schema.maxLength as number | undefined;
    if (min !== undefined && length < min) return `must NOT have fewer than ${min} characters`;
    if (max !== undefined && length > max) return `must NOT have more than ${max} characters`;
    const pattern = schema.pattern as string | undefined;
    if (pattern !== undefined && !new RegExp(pattern, 'u').test(value)) {
      return patternRule(pattern);
    }
    if (schema.format === 'uuid' && !UUID.test(value)) return 'must be a valid uuid';
    if (schema.format === SINGLE_LINE_FORMAT && !SINGLE_LINE.test(value)) return SINGLE_LINE_RULE;
  }
  if (typeof value === 'number') {
    const min = schema.minimum as number | undefined;
    const max = schema.maximum as number | undefined;
    if (min !== undefined && value < min) return `must be >= ${min}`;
    if (max !== undefined && value > max) return `must be <= ${max}`;
  }
  return undefined;
}

/**
 * Checks a tool call's arguments against the tool's input schema (flat objects of the
 * keywords in {@link SUPPORTED_KEYWORDS}), naming each field as the REST API's
 * VALIDATION_ERROR does: `missing_fields` and `invalid_fields` (field → rule). Both MCP
 * servers check with this, so a bad argument reads the same over HTTP and stdio.
 *
 * @example
 * const checked = checkArguments(tool, { idea: 'short' });
 * if (!checked.ok) console.log(checked.details.invalid_fields); // { idea: 'must NOT have fewer than 10 characters' }
 */
export function checkArguments(tool: McpToolDefinition, args: unknown): CheckedArguments {
  const value = args ?? {};
  if (typeOf(value) !== 'object') {
    return refused(tool, { invalid_fields: { arguments: 'must be object' } });
  }
  const given = value as Record<string, unknown>;
  const properties = (tool.inputSchema.properties ?? {}) as Record<string, McpJsonSchema>;
  const missing = ((tool.inputSchema.required ?? []) as string[]).filter(
    (name) => !Object.hasOwn(given, name),
  );
  const invalid: Record<string, string> = {};
  for (const [name, field] of Object.entries(given)) {
    const schema = Object.hasOwn(properties, name) ? properties[name] : undefined;
    const rule = schema === undefined ? 'is not allowed' : brokenRule(schema, field);
    if (rule !== undefined) invalid[name] = rule;
  }
  if (missing.length === 0 && Object.keys(invalid).length === 0) return { ok: true, value: given };
  return refused(tool, {
    ...(missing.length > 0 ? { missing_fields: missing } : {}),
    ...(Object.keys(invalid).length > 0 ? { invalid_fields: invalid } : {}),
  });
}

function refused(tool: McpToolDefinition, details: ArgumentProblems): CheckedArguments {
  const parts = [
    ...(details.missing_fields ?? []).map((name) => `${name} is required`),
    ...Object.entries(details.invalid_fields ?? {}).map(([name, rule]) => `${name} ${rule}`),
  ];
  return {
    ok: false,
    message: `The arguments of ${tool.name} are not valid: ${parts.join('; ')}.`,
    details,
  };
}
