/**
 * Small lexical helpers for the route and schema readers: matching brackets past strings and
 * comments, splitting arguments, joining URL paths. Enough to read declarations, not to parse
 * a language.
 */

const OPEN: Record<string, string> = { '(': ')', '[': ']', '{': '}' };

/** How far a statement's end is looked for: a statement longer than this is not one we read. */
const STATEMENT_LIMIT = 20_000;

/** Options of a language's lexical rules that matter for bracket matching. */
export interface Lexis {
  /** `#` starts a comment (Python, Ruby), and `//` is an operator, not a comment. */
  hash?: boolean;
}

/** The index just past a string literal or comment starting at `i`, or `i` when there is none. */
function skip(text: string, i: number, lexis: Lexis): number {
  const c = text[i];
  if (c === '/' && !lexis.hash && text[i + 1] === '/') {
    const end = text.indexOf('\n', i);
    return end < 0 ? text.length : end;
  }
  if (c === '/' && !lexis.hash && text[i + 1] === '*') {
    const end = text.indexOf('*/', i + 2);
    return end < 0 ? text.length : end + 2;
  }
  if (c === '#' && lexis.hash) {
    const end = text.indexOf('\n', i);
    return end < 0 ? text.length : end;
  }
  if (c === '"' || c === "'" || c === '`') {
    const triple = lexis.hash && text.startsWith(c.repeat(3), i);
    if (triple) {
      const end = text.indexOf(c.repeat(3), i + 3);
      return end < 0 ? text.length : end + 3;
    }
    for (let j = i + 1; j < text.length; j++) {
      if (text[j] === '\\') j++;
      else if (text[j] === c) return j + 1;
      // A quote that never closes on its line is an apostrophe (Rust lifetimes, prose), not a string.
      else if (text[j] === '\n' && c !== '`') return i + 1;
    }
    return text.length;
  }
  return i;
}

/** How many unclosed brackets a close bracket looks through for its own kind. */
const RECOVERY_DEPTH = 64;

/** The last files' tables, one per lexis: readers ask about one file many times in a row. */
const tables = new Map<boolean, { text: string; closes: Int32Array }>();

/**
 * For every bracket of a text, the index of the bracket that closes it (-1 when none does),
 * in one pass over the text: asking about a thousand brackets of one file costs one pass.
 */
function closes(text: string, lexis: Lexis): Int32Array {
  const hash = lexis.hash === true;
  const cached = tables.get(hash);
  if (cached && cached.text === text) return cached.closes;
  const out = new Int32Array(text.length).fill(-1);
  const stack: number[] = [];
  let i = 0;
  while (i < text.length) {
    const next = skip(text, i, lexis);
    if (next !== i) {
      i = next;
      continue;
    }
    const c = text[i]!;
    if (OPEN[c]) stack.push(i);
    else if (c === ')' || c === ']' || c === '}') {
      // A stray close bracket is ignored; brackets opened above its match never closed.
      const floor = Math.max(0, stack.length - RECOVERY_DEPTH);
      for (let k = stack.length - 1; k >= floor; k--)
        if (OPEN[text[stack[k]!]!] === c) {
          out[stack[k]!] = i;
          stack.length = k;
          break;
        }
    }
    i++;
  }
  tables.set(hash, { text, closes: out });
  return out;
}

/**
 * The index of the bracket that closes the one at `open`, or -1.
 *
 * @example
 * matchingClose('f(a, "(", g(b)) + 1', 1); // 14
 */
export function matchingClose(text: string, open: number, lexis: Lexis = {}): number {
  return open >= 0 && open < text.length ? closes(text, lexis)[open]! : -1;
}

/**
 * The text between the bracket at `open` and its match; empty when it never closes (an
 * unbalanced or truncated file says nothing reliable there).
 *
 * @example
 * inside('get("/x", h)', 3); // '"/x", h'
 */
export function inside(text: string, open: number, lexis: Lexis = {}): string {
  const close = matchingClose(text, open, lexis);
  return close < 0 ? '' : text.slice(open + 1, close);
}

/**
 * Splits at the separator where no bracket or string is open.
 *
 * @example
 * splitTopLevel('"/p", auth(a, b), router'); // ['"/p"', ' auth(a, b)', ' router']
 */
export function splitTopLevel(text: string, separator = ',', lexis: Lexis = {}): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  let i = 0;
  while (i < text.length) {
    const next = skip(text, i, lexis);
    if (next !== i) {
      i = next;
      continue;
    }
    const c = text[i]!;
    if (OPEN[c]) depth++;
    else if (c === ')' || c === ']' || c === '}') depth--;
    else if (c === separator && depth === 0) {
      out.push(text.slice(start, i));
      start = i + 1;
    }
    i++;
  }
  out.push(text.slice(start));
  return out;
}

/**
 * The index of the `;` that ends the statement starting at `start` (brackets skipped whole),
 * or the end of the text.
 *
 * @example
 * statementEnd('let a = f(x; y); b', 0); // 15
 */
export function statementEnd(text: string, start: number, lexis: Lexis = {}): number {
  let i = start;
  const end = Math.min(text.length, start + STATEMENT_LIMIT);
  while (i < end) {
    const next = skip(text, i, lexis);
    if (next !== i) {
      i = next;
      continue;
    }
    const c = text[i]!;
    if (OPEN[c]) {
      const close = matchingClose(text, i, lexis);
      if (close < 0) return end;
      i = close + 1;
      continue;
    }
    if (c === ';') return i;
    i++;
  }
  return end;
}

/** A region of a file (a closure's body, a function's) and the URL prefix routes in it take. */
export interface Scope {
  start: number;
  end: number;
  prefix: string;
}

/**
 * The prefixes of the scopes around an index, outermost first.
 *
 * @example
 * scopePrefix([{ start: 0, end: 50, prefix: '/api' }, { start: 10, end: 20, prefix: '/v1' }], 15); // ['/api', '/v1']
 */
export function scopePrefix(scopes: readonly Scope[], index: number): string[] {
  return scopes
    .filter((s) => s.start <= index && index < s.end)
    .sort((a, b) => a.start - b.start || b.end - a.end)
    .map((s) => s.prefix);
}

/**
 * URL path parts joined: one slash between parts, a leading slash, none trailing but the root's.
 *
 * @example
 * joinPath('/invoices/', '/'); // '/invoices'
 */
export function joinPath(...parts: readonly string[]): string {
  const joined = parts
    .map((part) => part.trim())
    .filter(Boolean)
    .join('/')
    .replace(/\/{2,}/g, '/');
  const rooted = joined.startsWith('/') ? joined : `/${joined}`;
  return rooted.length > 1 ? rooted.replace(/\/+$/, '') || '/' : rooted;
}

/**
 * The string literal at the start of a piece of code (`"x"`, `'x'`, `r"x"`), or undefined.
 *
 * @example
 * literal(' r"^search/$", views.search'); // '^search/$'
 */
export function literal(code: string): string | undefined {
  return /^\s*(?:[rbfuRBFU]{1,2})?(["'`])([^"'`]*)\1/.exec(code)?.[2];
}
