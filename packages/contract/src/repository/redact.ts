import { lintSource } from '@secretlint/core';
import { rules as recommendedRules } from '@secretlint/secretlint-rule-preset-recommend';

/** What {@link redactSecrets} did to one file. */
export interface Redacted {
  /** The text with every secret found replaced by `[redacted:<rule>]`. */
  content: string;
  /** How many secrets were replaced. */
  redactions: number;
}

/**
 * Patterns for what secretlint's recommended preset leaves to others: private key blocks
 * with any body, AWS access key ids, OpenAI-style and PGS keys, credentials in a URL, and a
 * literal given to a name that says it is secret (with letters and digits unless it is a password) (the first quoted
 * one after the assignment, as in `KEY = env.KEY ?? '…'`, or an environment line's value). They
 * err towards redacting: a lost literal costs a document nothing, a leaked one costs a key.
 */
const EXTRA_RULES: readonly (readonly [string, RegExp])[] = [
  [
    'private-key',
    /-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|$)/g,
  ],
  ['aws-access-key-id', /\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA)[0-9A-Z]{16}\b/g],
  ['api-key', /\bsk-(?:proj-|svcacct-|admin-|ant-[a-z0-9]+-)?[A-Za-z0-9_-]{20,}/g],
  ['pgs-key', /\bpgs_(?:live|test|admin)_[0-9A-Za-z]{16,}/g],
  ['url-credentials', /(?<=\b[a-z][a-z0-9+.-]*:\/\/[^\s:/@'"`]*:)[^\s@'"`/]{3,}(?=@)/gi],
  [
    'assigned-secret',
    /(?<=\b[\w.-]*(?:passw(?:or)?d|pwd)[\w.-]*["']?\s*(?::|=|:=|=>)[^\n"'`]*["'`])[^"'`\s]{8,}(?=["'`])/gi,
  ],
  [
    'assigned-secret',
    /(?<=\b[\w.-]*(?:secret|token|api[_-]?key|apikey|access[_-]?key|auth[_-]?key|private[_-]?key|client[_-]?secret|credentials?)[\w.-]*["']?\s*(?::|=|:=|=>)[^\n"'`]*["'`])(?=[^"'`\s]*\d)(?=[^"'`\s]*[A-Za-z])[^"'`\s/]{8,}(?=["'`])/gi,
  ],
  [
    'assigned-secret',
    /(?<=^[ \t]*(?:export[ \t]+)?[A-Z0-9_]*(?:PASSWORD|PASSWD|SECRET|TOKEN|API_KEY|APIKEY|ACCESS_KEY|PRIVATE_KEY|CREDENTIALS?)[A-Z0-9_]*[ \t]*=[ \t]*)[^\s"'#]{8,}/gm,
  ],
];

/**
 * The recommended preset's rules, taken one by one to leave out `filter-comments`: with it,
 * a `secretlint-disable` comment in a file kept that line's secret (its `disabled` setting is
 * not honoured inside a preset). A digest is not its author's lint run: every secret goes.
 */
const RULES = recommendedRules
  .filter((rule) => rule.meta.id !== '@secretlint/secretlint-rule-filter-comments')
  .map((rule) => ({ id: rule.meta.id, rule }));

/**
 * Replaces every secret in a file's text: what secretlint's recommended rules find (AWS,
 * GCP, GitHub, npm, Slack, Stripe, Anthropic, OpenAI, database connection strings, basic
 * auth…) and {@link EXTRA_RULES}. The rest of the line stays, so a document can still say
 * which service the code calls. Both the digest builder and the server run it; the second
 * pass finds nothing in a digest the builder made.
 *
 * @example
 * const { content, redactions } = await redactSecrets('src/db.ts', 'connect("postgres://app:s3cretpass@db/app")');
 * // content: 'connect("postgres://app:[redacted:url-credentials]@db/app")', redactions: 1
 */
export async function redactSecrets(path: string, text: string): Promise<Redacted> {
  const spans: { start: number; end: number; rule: string }[] = [];
  const dot = path.lastIndexOf('.');
  const result = await lintSource({
    source: {
      filePath: path,
      content: text,
      contentType: 'text',
      ext: dot > path.lastIndexOf('/') ? path.slice(dot) : '',
    },
    options: { config: { rules: RULES } },
  });
  for (const message of result.messages) {
    const [start, end] = message.range;
    spans.push({ start, end, rule: message.ruleId.replace(/^@secretlint\/secretlint-rule-/, '') });
  }
  for (const [rule, pattern] of EXTRA_RULES) {
    for (const match of text.matchAll(pattern)) {
      if (match[0].length > 0) {
        spans.push({ start: match.index, end: match.index + match[0].length, rule });
      }
    }
  }
  if (spans.length === 0) return { content: text, redactions: 0 };
  spans.sort((a, b) => a.start - b.start || b.end - a.end);
  const merged: typeof spans = [];
  for (const span of spans) {
    const last = merged.at(-1);
    if (last && span.start < last.end) last.end = Math.max(last.end, span.end);
    else merged.push({ ...span });
  }
  let content = '';
  let at = 0;
  for (const span of merged) {
    content += `${text.slice(at, span.start)}[redacted:${span.rule}]`;
    at = span.end;
  }
  return { content: content + text.slice(at), redactions: merged.length };
}
