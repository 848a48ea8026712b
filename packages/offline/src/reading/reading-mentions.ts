/**
 * What an idea mentions besides its capabilities: the services it names (never the product's
 * own name), its numbers with their units and its scope qualifiers ("read-only", "offline").
 */
import type { Parse } from './reading-parse.ts';
import { isNoun, SCOPE, type Tok } from './reading-tokens.ts';

/** The words of tokens start to end (exclusive) as the text writes them. */
export function spanText(text: string, toks: readonly Tok[], start: number, end: number): string {
  const first = toks[start];
  const last = toks[end - 1];
  return first && last && end > start ? text.slice(first.start, last.end) : '';
}

/** Services the idea may name in lower case or as a common word ("by email", "SMS"). */
export const SERVICES = new Map(
  `sms email e-mail stripe slack github gitlab bitbucket jira confluence aws gcp azure postgres postgresql
  mysql sqlite mongodb redis notion shopify twilio zoom figma salesforce hubspot linear zendesk intercom
  gmail outlook whatsapp telegram discord dropbox airtable quickbooks xero paypal s3 bigquery snowflake
  sentry datadog pagerduty kubernetes docker vercel netlify heroku trello asana clickup mailchimp sendgrid
  openai anthropic webhooks webhook rss ical`
    .split(/\s+/)
    .filter(Boolean)
    .map((name) => [name, name]),
);

/** Proper nouns that are platforms or languages, not services to integrate. */
const NOT_SERVICES = new Set(
  `iphone ipad ios android macos windows linux web mcp english spanish french german italian portuguese
  dutch swahili arabic hindi chinese mandarin japanese korean russian turkish polish swedish greek
  hebrew urdu bengali indonesian vietnamese thai csv pdf json xml html markdown yaml png jpeg`
    .split(/\s+/)
    .filter(Boolean),
);

/**
 * Languages, frameworks and toolkits a product is built with ("built with Django"): its stack
 * (reading/stack.ts), never a service it works with.
 */
const BUILT_WITH =
  /^(?:django|flask|fastapi|python|typescript|javascript|node(?:\.?js)?|react(?: native)?|vue(?:\.js)?|angular|svelte(?:kit)?|next(?:\.js)?|nuxt|remix|ruby(?: on rails)?|rails|laravel|php|kotlin|jetpack compose|swift(?:ui)?|flutter|dart|expo|spring(?: boot)?|java|golang|rust|elixir|phoenix|\.net|c#)$/i;

/**
 * A compliance regime or standard, alone or with the word that says it is met ("HIPAA",
 * "SOC 2", "PCI-DSS", "GDPR-compliant"), or a SOC report's type read apart from it ("Type
 * II"): a rule the product meets, never a service it works with, so never an integration.
 *
 * @example
 * COMPLIANCE_REGIME.test('HIPAA'); // true
 */
export const COMPLIANCE_REGIME =
  /^(?:gdpr|uk gdpr|dsgvo|hipaa|hitech|soc(?: ?[12])?(?: type (?:1|2|i|ii))?|type (?:1|2|i|ii)|pci(?:[ -]?dss)?|iso(?:[ /-]?iec)?(?: ?\d{4,5})?|ccpa|cpra|ferpa|coppa|sox|glba|fedramp|pipeda|lgpd|nis ?2|fisma)(?:[ -](?:compliant|compliance|certified|ready|audited|rules?|standards?))?$/i;

const COMPARATIVES = new Set([
  'under',
  'over',
  'below',
  'above',
  'less than',
  'more than',
  'fewer than',
  'at least',
  'at most',
  'up to',
  'no more than',
]);

/** A name as a key: case, spaces and punctuation aside ("Django-CRM" is "Django CRM"). */
const nameKey = (name: string) => name.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');

/** The services and products the idea names, the product's own name apart. */
export function integrationsOf(
  text: string,
  toks: readonly Tok[],
  parsed: Parse,
  own: string | undefined,
): string[] {
  const skip = new Set<number>();
  for (const span of [parsed.product, parsed.audience, parsed.name])
    if (span) for (let i = span.start; i < span.end; i++) skip.add(i);
  for (const cap of parsed.capabilities) if (cap.verbIndex >= 0) skip.add(cap.verbIndex);
  const assistant = parsed.assistant?.toLowerCase();
  const found: string[] = [];
  const add = (name: string) => {
    const lower = name.toLowerCase();
    if (
      lower === assistant ||
      NOT_SERVICES.has(lower) ||
      COMPLIANCE_REGIME.test(lower) ||
      BUILT_WITH.test(lower) ||
      lower.split(' ').some((w) => w === 'mcp')
    )
      return;
    // The product's own name ("Kill Bill") or a phrase holding it is never a service.
    if (own && nameKey(lower).includes(nameKey(own))) return;
    if (!found.some((known) => known.toLowerCase() === lower)) found.push(name);
  };
  for (let i = 0; i < toks.length; i++) {
    const tok = toks[i]!;
    if (skip.has(i)) continue;
    if (tok.pos === 'PROPN' && /\p{Lu}/u.test(tok.text)) {
      let end = i + 1;
      while (toks[end]?.pos === 'PROPN' && !skip.has(end) && /\p{Lu}/u.test(toks[end]!.text)) end++;
      add(spanText(text, toks, i, end));
      i = end - 1;
    } else if (SERVICES.has(tok.lower)) add(tok.text);
  }
  return found;
}

/** Numbers with their unit as written: "16-week", "under 2 seconds". */
export function numbersOf(text: string, toks: readonly Tok[]): string[] {
  const found: string[] = [];
  for (let i = 0; i < toks.length; i++) {
    const tok = toks[i]!;
    if (!tok.numeric || !/\d|^(?:one|two|three|four|five|six|seven|eight|nine|ten)/.test(tok.lower))
      continue;
    let start = i;
    const before = toks[i - 1];
    const twoBefore = toks[i - 2];
    if (before?.pos === 'SYM') start = i - 1;
    else if (twoBefore && before && COMPARATIVES.has(`${twoBefore.lower} ${before.lower}`))
      start = i - 2;
    else if (before && COMPARATIVES.has(before.lower)) start = i - 1;
    let end = i + 1;
    if (!tok.compound) {
      if (toks[end]?.text === '%') end++;
      // The unit: the noun the number counts, within a couple of words ("24 hours", "2 failed answers").
      for (let j = end; j < Math.min(toks.length, i + 4); j++) {
        const unit = toks[j]!;
        if (isNoun(unit)) {
          end = j + 1;
          break;
        }
        if (!['ADJ', 'VERB'].includes(unit.pos)) break;
      }
    }
    const phrase = spanText(text, toks, start, end);
    if (!found.includes(phrase)) found.push(phrase);
    i = end - 1;
  }
  return found;
}

/** Scope qualifiers as written: "read-only", "end-to-end encrypted", "in real time". */
export function qualifiersOf(text: string, toks: readonly Tok[]): string[] {
  const found: string[] = [];
  for (const [i, tok] of toks.entries()) {
    if (!SCOPE.test(tok.lower)) continue;
    const next = toks[i + 1];
    // "end-to-end encrypted", "offline first": the qualifier keeps the word it leans on.
    const pair = next && SCOPE.test(`${tok.lower}-${next.lower}`);
    const phrase = pair ? spanText(text, toks, i, i + 2) : tok.text;
    if (!found.some((known) => known.includes(phrase))) found.push(phrase);
  }
  for (const match of text.matchAll(/\bin real[- ]time\b/gi)) found.push(match[0]);
  return found;
}
