import { lintSource } from '@secretlint/core';
import { rules as recommendedRules } from '@secretlint/secretlint-rule-preset-recommend';
import { assignedSecretSpans, type Span } from './assignments.ts';
import { secretContentKind } from './rules.ts';
import { TOKEN_PATTERNS } from './tokens.ts';

/** What {@link redactSecrets} did to one file. */
export interface Redacted {
  /** The text with every secret found replaced by `[redacted:<rule>]`. */
  content: string;
  /** How many secrets were replaced. */
  redactions: number;
}

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
 * auth…), the provider tokens the preset leaves out (`tokens.ts`: Google API keys and
 * OAuth secrets, JWTs, Stripe webhook secrets, PyPI, DigitalOcean, Mailgun, Azure keys,
 * Authorization headers…) and values given to names that say they are secret in any
 * common syntax (`assignments.ts`). The rest of the line stays, so a document can still
 * say which service the code calls. A file that is a secret as a whole (a Google
 * service-account key, whatever its name) becomes one marker. Both the digest builder and
 * the server run it; the second pass finds nothing in a digest the builder made. The
 * patterns err towards redacting: a lost literal costs a document nothing, a leaked one
 * costs a key.
 *
 * @example
 * const { content, redactions } = await redactSecrets('src/db.ts', 'connect("postgres://app:s3cretpass@db/app")');
 * // content: 'connect("postgres://app:[redacted:url-credentials]@db/app")', redactions: 1
 */
export async function redactSecrets(path: string, text: string): Promise<Redacted> {
  if (secretContentKind(text) !== undefined) {
    return { content: '[redacted:google-service-account]', redactions: 1 };
  }
  const spans: Span[] = [];
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
  for (const [rule, pattern, lead = 0] of TOKEN_PATTERNS) {
    for (const match of text.matchAll(pattern)) {
      const [start, end] = match.indices?.[1] ?? [
        match.index - lead,
        match.index + match[0].length,
      ];
      if (end > start) spans.push({ start, end, rule });
    }
  }
  spans.push(...assignedSecretSpans(path, text));
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
