/**
 * Values given to names that say they are secret (`password`, `DB_PASS`, `storePassword`,
 * `client_secret`, `api_key`, `<password>`…), in every common syntax: code, YAML, INI,
 * environment files, properties, TOML, XML, SQL comments. Unlike a provider's token, such a
 * value has no shape of its own, so what decides is where it stands: in a configuration file
 * or a comment a bare word after `password:` is the password; in code it is a variable or a
 * type (`password: string`, `password = request.form['password']`), which must stay readable.
 */

/** A stretch of text to replace, and the rule that found it. */
export interface Span {
  start: number;
  end: number;
  rule: string;
}

const RULE = 'assigned-secret';

/**
 * A quoted literal after a name that says it is secret (the first quoted one after the
 * assignment, as in `KEY = env.KEY ?? '…'`), and an environment line's value. A password
 * needs 8 characters, other secrets letters and digits as well, so that code that merely
 * names a secret (`token: 'Bearer'`) is left alone.
 */
const QUOTED_PATTERNS: readonly RegExp[] = [
  /(?<=\b[\w.-]*(?:passw(?:or)?d|pwd)[\w.-]*["']?\s*(?::|=|:=|=>)[^\n"'`]*["'`])[^"'`\s]{8,}(?=["'`])/gi,
  /(?<=\b[\w.-]*(?:secret|token|api[_-]?key|apikey|access[_-]?key|auth[_-]?key|private[_-]?key|client[_-]?secret|credentials?)[\w.-]*["']?\s*(?::|=|:=|=>)[^\n"'`]*["'`])(?=[^"'`\s]*\d)(?=[^"'`\s]*[A-Za-z])[^"'`\s/]{8,}(?=["'`])/gi,
  /(?<=^[ \t]*(?:export[ \t]+)?[A-Z0-9_]*(?:PASSWORD|PASSWD|SECRET|TOKEN|API_KEY|APIKEY|ACCESS_KEY|PRIVATE_KEY|CREDENTIALS?)[A-Z0-9_]*[ \t]*=[ \t]*)[^\s"'#]{8,}/gm,
];

/**
 * `name <sep> value` where the name holds a secret word. The name may be quoted (JSON),
 * follow `export`, `--`, a list dash or a comment marker, and carry TypeScript's `?`/`!`.
 * The value is a quoted literal (group 5) or a bare word (group 6), group 7 set when the
 * bare word ends its line (a `,`/`;` or a comment may follow; an alternative, not `?`: a
 * quantified group never captures an empty match). The match consumes the value,
 * so the next search starts after it and a long line is read once.
 */
const ASSIGNMENT =
  /(?<![\w.$]|[\w.$]-)(["']?)((?=[A-Za-z_])[\w.-]*(?:pass|pwd|secret|token|key|credential)[\w.-]*)\1[?!]?[ \t]*(:=|=>|=(?!=)|:(?![:=]))[ \t]*(?:(["'`])([^\n"'`]*)\4|([^\s"'`]+)(?:([,;]?[ \t]*(?:$|(?<=[ \t])(?:#|;|\/\/|--)))|))/dgim;

/** `<password>x</password>`, `<entry key="password">x</entry>`. */
const XML_ELEMENT =
  /<([A-Za-z_][\w.:-]*)((?:\s+[\w.:-]+\s*=\s*(?:"[^"\n]*"|'[^'\n]*'))*)\s*>([^<\n]{1,400})<\/\1\s*>/dg;
/** `<add key="DbPassword" value="x"/>`, `<property name="password" value="x"/>`. */
const XML_ATTRIBUTES =
  /<[\w.:-]+\s[^<>\n]*?\b(?:key|name)\s*=\s*["']([^"'\n]+)["'][^<>\n]*?\bvalue\s*=\s*["']([^"'\n]+)["']/dg;
const NAMED_BY = /\b(?:key|name)\s*=\s*["']([^"'\n]+)["']/;

/** A name's last word that makes it about a secret rather than the secret itself. */
const DESCRIPTORS = new Set(
  `url uri urls endpoint host hostname path file filename dir directory name names type types
  length len size count limit min max minimum maximum ttl expiry expires expiration timeout
  field fields label prompt hint header policy enabled enable disabled required rotation format
  pattern regex id ids env var prefix suffix mode method algorithm alg strategy provider
  version at placeholder input validator validation schema column param message error text
  title description help audience issuer scope scopes class component style icon budget usage
  strength rules reset confirmation confirm changed store storage manager service`.split(/\s+/),
);

/** Values that are a type, a keyword or a placeholder, never a secret. */
const STOP_VALUES = new Set(
  `string str number int integer float double boolean bool text varchar char bytes byte any
  unknown object null nil none undefined true false yes no on off required optional empty
  secret secrets password passwords passwort passwd token tokens bearer basic include omit
  same-origin redacted hidden masked`.split(/\s+/),
);

/** Source code files: there, an unquoted value is an expression, not a literal. */
const CODE = new Set(
  `ts tsx mts cts js jsx mjs cjs py pyi rb go java kt kts scala groovy gradle cs fs vb php rs
  swift c h cc cpp cxx hpp m mm dart lua pl pm ex exs erl hrl clj cljs hs ml elm zig nim r jl
  vue svelte astro graphql gql prisma proto sol tf hcl`.split(/\s+/),
);

const COMMENT_BEFORE =
  /(?:^|[ \t;])\/\/|(?:^|[ \t])#(?=[ \t#]|$)|(?:^|[ \t])--[ \t]|\/\*|<!--|^[ \t]*\*|^[ \t]*;/;

/** The lowercase words of a name: `storePassword` → store, password; `DB_PASS` → db, pass. */
function words(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '');
}

const KEY_OWNERS =
  /^(?:api|access|private|secret|auth|signing|encryption|master|client|account|license|app)$/;
const PASS_WORDS =
  /^(?:pass|pwd|(?:db|pg|my|sql|smtp|mail|ftp|admin|root|user|redis|mongo|ldap)pass)$/;

/** 'password' for names of the password family, 'secret' for other secret names, else undefined. */
function secretName(name: string): 'password' | 'secret' | undefined {
  const list = words(name);
  const last = list.at(-1);
  if (last === undefined || DESCRIPTORS.has(last)) return undefined;
  let found: 'password' | 'secret' | undefined;
  for (const [i, word] of list.entries()) {
    if (word.includes('passw') || word.includes('passphrase') || PASS_WORDS.test(word)) {
      return 'password';
    }
    if (
      word.includes('secret') ||
      word.includes('credential') ||
      word.endsWith('token') ||
      /^(?:api|access|private|auth|secret|signing|master)key$/.test(word) ||
      (word === 'key' && KEY_OWNERS.test(list[i - 1] ?? ''))
    ) {
      found = 'secret';
    }
  }
  return found;
}

/** True when a value is a reference, an expression, a placeholder or a type: not a secret. */
function notASecret(value: string, family: 'password' | 'secret'): boolean {
  if (value.length < 3 || STOP_VALUES.has(value.toLowerCase())) return true;
  if (/^[$%{<!&*:?@([`=]/.test(value) || /\$\{|\{\{|[()]/.test(value)) return true;
  if (/^(.)\1*$/.test(value)) return true; // `********`, `xxxx`
  if (/…|\.\.\./.test(value)) return true; // `sk-…`, `pgs_test_...`: a documented placeholder
  // process.env.X, settings.SECRET_KEY: a reference; a token with digits is not one.
  if (/^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/.test(value) && !/\d/.test(value)) return true;
  return family === 'secret' && /^\d+$/.test(value); // max_token = 4000
}

/**
 * Where the secret is in an assignment's match: a quoted literal without spaces (password
 * names only: other secret names have {@link QUOTED_PATTERNS}), or, in a configuration file
 * or a comment, a bare word that ends the line.
 */
function valueSpan(match: RegExpExecArray, literal: boolean): [number, number] | undefined {
  const family = secretName(match[2]!);
  if (family === undefined) return undefined;
  const quoted = match[5];
  if (quoted !== undefined) {
    if (family !== 'password' || /\s/.test(quoted) || notASecret(quoted, family)) return undefined;
    return match.indices![5];
  }
  const bare = match[6];
  // `KEY=value more` (a shell line, a flag, a query) ends the value at a space; otherwise
  // the value must end its line, or it is the start of an expression or of prose.
  const tight = match[3] === '=' && match.indices![3]![1] === match.indices![6]?.[0];
  if (!literal || bare === undefined || (match[7] === undefined && !tight)) return undefined;
  // A tight value ends where the next pair of a connection or query string starts.
  const value = (tight ? bare.replace(/[;&,].*$/, '') : bare).replace(/[,;]+$/, '');
  if (notASecret(value, family)) return undefined;
  const start = match.indices![6]![0];
  return [start, start + value.length];
}

/**
 * True when a quoted literal after a secret name is the name of a secret, not its value:
 * a subscript (`request.form['password']`), an environment variable's name
 * (`os.environ.get('DB_PASSWORD')`) or a word such as `password` itself.
 */
function namesASecret(text: string, start: number, value: string): boolean {
  if (text[start - 2] === '[') return true;
  return /^[A-Z]+(?:_[A-Z0-9]+)+$/.test(value) || STOP_VALUES.has(value.toLowerCase());
}

/**
 * The spans of values given to secret names in `text`, a file at `path`.
 *
 * @example
 * assignedSecretSpans('config/app.ini', 'password = hunter2horse');
 * // [{ start: 11, end: 23, rule: 'assigned-secret' }]
 */
export function assignedSecretSpans(path: string, text: string): Span[] {
  const spans: Span[] = [];
  const name = path.slice(path.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  const code = dot > 0 && CODE.has(name.slice(dot + 1).toLowerCase());
  for (const match of text.matchAll(ASSIGNMENT)) {
    // What precedes the name on its line, at most 200 characters back: a comment marker there
    // makes a code file's line read as text.
    const before = text.slice(Math.max(0, match.index - 200), match.index);
    const literal = !code || COMMENT_BEFORE.test(before.slice(before.lastIndexOf('\n') + 1));
    const span = valueSpan(match, literal);
    if (span !== undefined) spans.push({ start: span[0], end: span[1], rule: RULE });
  }
  for (const pattern of QUOTED_PATTERNS) {
    for (const match of text.matchAll(pattern)) {
      if (!namesASecret(text, match.index, match[0])) {
        spans.push({ start: match.index, end: match.index + match[0].length, rule: RULE });
      }
    }
  }
  for (const match of text.matchAll(XML_ELEMENT)) {
    const named = NAMED_BY.exec(match[2] ?? '')?.[1];
    const family = secretName(named ?? match[1]!);
    const value = match[3]!.trim();
    if (family === undefined || notASecret(value, family)) continue;
    const [start, end] = match.indices![3]!;
    spans.push({ start, end, rule: RULE });
  }
  for (const match of text.matchAll(XML_ATTRIBUTES)) {
    const family = secretName(match[1]!);
    if (family === undefined || notASecret(match[2]!, family)) continue;
    const [start, end] = match.indices![2]!;
    spans.push({ start, end, rule: RULE });
  }
  return spans;
}
