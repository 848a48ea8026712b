import { describe, expect, it } from 'vitest';
import { openapiDocument } from './generated/openapi.ts';
import { patternRule, SINGLE_LINE_PATTERN, SINGLE_LINE_RULE } from './single-line.ts';

const singleLine = new RegExp(SINGLE_LINE_PATTERN, 'u');

/** Every code point the rule refuses, listed by hand rather than read from the pattern. */
const REFUSED = [
  ...Array.from({ length: 0x20 }, (_, i) => i), // C0, TAB, LF and CR included
  ...Array.from({ length: 0xa0 - 0x7f }, (_, i) => 0x7f + i), // DEL and C1 (NEL included)
  0x061c, // ARABIC LETTER MARK
  0x200e, // LEFT-TO-RIGHT MARK
  0x200f, // RIGHT-TO-LEFT MARK
  0x2028, // LINE SEPARATOR
  0x2029, // PARAGRAPH SEPARATOR
  ...[0x202a, 0x202b, 0x202c, 0x202d, 0x202e], // embeddings, overrides, PDF
  ...[0x2066, 0x2067, 0x2068, 0x2069], // isolates
];

/**
 * Text fields of request bodies that are not single-line, each with why; any other plain
 * string of a request body must carry the single-line pattern.
 */
const NOT_SINGLE_LINE: Record<string, string> = {
  idea: 'multi-line prose',
  changeRequest: 'multi-line prose',
  note: "multi-line prose: a task's note (updateTask), kept in its history",
  content: "a repository file's text, or a house conventions section's markdown",
  markdown: "multi-line prose: a team's house conventions in markdown (putConventions)",
  text: "a digest's citation: the cited line of a test file as the code has it (one line, cut at 200 characters)",
  path: 'a repository path: the digest path rules refuse control characters (repository/rules.ts)',
};

type Schema = { [keyword: string]: unknown };
const schemas = openapiDocument.components.schemas as unknown as Record<string, Schema>;

/** `[field path, schema]` of every string property reachable from `schema`. */
function stringFields(schema: Schema, at: string, seen = new Set<string>()): [string, Schema][] {
  const ref = schema.$ref as string | undefined;
  if (ref !== undefined) {
    const name = ref.split('/').pop() as string;
    if (seen.has(name)) return [];
    return stringFields(schemas[name] as Schema, at, new Set([...seen, name]));
  }
  const found: [string, Schema][] = schema.type === 'string' ? [[at, schema]] : [];
  for (const [name, sub] of Object.entries((schema.properties ?? {}) as Record<string, Schema>)) {
    found.push(...stringFields(sub, at ? `${at}.${name}` : name, seen));
  }
  if (schema.items) found.push(...stringFields(schema.items as Schema, `${at}[]`, seen));
  for (const key of ['allOf', 'oneOf', 'anyOf']) {
    for (const sub of (schema[key] ?? []) as Schema[]) found.push(...stringFields(sub, at, seen));
  }
  return found;
}

describe('single-line text fields', () => {
  it('refuse every control, line-separator and bidirectional formatting character', () => {
    for (const code of REFUSED) {
      const c = String.fromCodePoint(code);
      expect(singleLine.test(`Acme${c}Corp`), `U+${code.toString(16)}`).toBe(false);
    }
    expect(singleLine.test('Acme\n\n## Injected Section')).toBe(false);
  });

  it('accept any other text: accents, scripts, emoji (joined by U+200D), spaces', () => {
    for (const text of [
      'Acme',
      'Café Compost Circle!',
      'مرحبا',
      '日本語',
      '👩‍💻 dev',
      'a\u00a0b',
      '',
    ]) {
      expect(singleLine.test(text), JSON.stringify(text)).toBe(true);
    }
  });

  it('is named in words, other patterns quoted', () => {
    expect(patternRule(SINGLE_LINE_PATTERN)).toBe(SINGLE_LINE_RULE);
    expect(patternRule('^[0-9a-f]{7,64}$')).toBe('must match pattern "^[0-9a-f]{7,64}$"');
  });

  it('is the pattern of every plain string field of every request body in the contract', () => {
    const unmarked: string[] = [];
    let checked = 0;
    for (const [path, operations] of Object.entries(openapiDocument.paths)) {
      for (const [method, operation] of Object.entries(operations as Record<string, Schema>)) {
        const content = (operation.requestBody as Schema | undefined)?.content as
          | Record<string, { schema: Schema }>
          | undefined;
        for (const { schema } of Object.values(content ?? {})) {
          for (const [field, string] of stringFields(schema, '')) {
            const leaf = field.split('.').pop()?.replace('[]', '') ?? field;
            const constrained = 'enum' in string || 'format' in string || 'const' in string;
            const ownPattern = 'pattern' in string && string.pattern !== SINGLE_LINE_PATTERN;
            if (constrained || ownPattern || leaf in NOT_SINGLE_LINE) continue;
            checked++;
            if (string.pattern !== SINGLE_LINE_PATTERN) unmarked.push(`${method} ${path} ${field}`);
          }
        }
      }
    }
    expect(unmarked).toEqual([]);
    // The project's, the repository's, the account's and the key's names at least.
    expect(checked).toBeGreaterThanOrEqual(4);
  });
});
