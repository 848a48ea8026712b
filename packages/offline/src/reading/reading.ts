/**
 * Reads an idea with wink-nlp's tagger and rules on top: one capability per verb phrase (with its
 * object and qualifiers as written), the product, the audience only when one is named, the
 * services and numbers it mentions, and the project type weighed over the whole idea. Where
 * idea.ts matches word tables, this reads structure, so lists of verbs, "by SMS" and "16-week"
 * survive. Deterministic and offline: the tagger is a fixed model loaded once per process.
 */
import { inertText, proseOf } from '@pgs/contract/document';
import { inert } from './reading-inert.ts';
import { integrationsOf, numbersOf, qualifiersOf, spanText } from './reading-mentions.ts';
import { type ParsedCapability, parse } from './reading-parse.ts';
import { type Priority, priorityAt, structureOf } from './reading-structure.ts';
import { isNoun, nounLemma, type RawTok, rawTokens, type Tok, tokensOf } from './reading-tokens.ts';
import { inferType } from './reading-type.ts';
import type { IdeaCapabilities } from './reading-types.ts';

export type { TypeReading } from './reading-type.ts';

export type { Capability, IdeaCapabilities } from './reading-types.ts';

/** Words that name the kind of product, or say nothing of the idea's subject. */
const GENERIC = new Set(
  `app apps application applications tool tools platform platforms website websites site sites web
  webapp service services system systems software server servers mcp dashboard portal saas solution
  solutions product products mobile iphone ipad android ios phone phones smartphone model context
  protocol assistant assistants agent agents ai llm user users someone everyone let help allow
  enable want need use make build way thing things`
    .split(/\s+/)
    .filter(Boolean),
);

/** The idea's prose (fences, tags and link targets aside, see proseOf) on one line. */
function oneLine(idea: string): string {
  return proseOf(idea).replace(/\s+/g, ' ').trim().slice(0, 2000);
}

/** "clinics" → "clinic"; keeps the word where the lemma strays ("app" → "application"). */
function singular(tok: Tok): string {
  const word = tok.pos === 'PROPN' ? tok.text : tok.lower;
  if (tok.pos === 'PROPN' || /^(?:data|media|news|analytics)$/.test(tok.lower)) return word;
  const lemma = (tok.pos === 'VERB' ? nounLemma(tok.lower) : tok.lemma).toLowerCase();
  return lemma.slice(0, 3) === tok.lower.slice(0, 3) ? lemma : word;
}

/**
 * The object without what only qualifies it: leading adjectives, numbers, participles,
 * possessives and the services named ("Postgres"), its last word singular.
 */
function entityOf(object: readonly Tok[], exclude: ReadonlySet<string>): string {
  let start = 0;
  const head = object.length - 1;
  while (start < head) {
    const tok = object[start]!;
    const service = tok.pos === 'PROPN' && exclude.has(tok.lower);
    if (tok.pos === 'NOUN' && !tok.numeric && !tok.possessive) break;
    if (tok.pos === 'PROPN' && !service && !tok.possessive) break;
    // A bare verb before the head is a noun the tagger missed ("pull requests"); a participle
    // only qualifies it ("failing pods", "waitlisted students").
    if (tok.pos === 'VERB' && !/(?:ing|ed)$/.test(tok.lower)) break;
    start++;
  }
  const last = object[head];
  if (!last) return '';
  const words = object
    .slice(start, head)
    .map((tok) => (tok.pos === 'PROPN' ? tok.text : tok.lower));
  let noun = singular(last);
  // A plural the lemmatiser does not know ("diffs", "payouts").
  if (
    noun === last.lower &&
    /[^su]s$/.test(noun) &&
    !/(?:news|ics|series|species)$/.test(noun) &&
    last.pos !== 'PROPN'
  )
    noun = noun.slice(0, -1);
  return [...words, noun].join(' ');
}

function entitiesOf(
  caps: readonly ParsedCapability[],
  product: readonly Tok[],
  exclude: ReadonlySet<string>,
): string[] {
  const verbs = new Set(caps.flatMap((cap) => cap.verb.split(' ')));
  const heads: string[] = [];
  const others: string[] = [];
  const keep = (tok: Tok, into: string[], head: boolean) => {
    // A head the tagger read as a verb is still the object ("budget alerts"); a verb before
    // the head modifies it ("failing pods") and is no entity.
    if (head ? !isNoun(tok) && tok.pos !== 'VERB' : tok.pos !== 'NOUN') return;
    if (tok.numeric || tok.possessive) return;
    const noun = singular(tok);
    const lower = noun.toLowerCase();
    if (GENERIC.has(lower) || verbs.has(tok.lower) || exclude.has(lower) || lower.length < 2)
      return;
    if (!heads.includes(noun) && !others.includes(noun)) into.push(noun);
  };
  for (const cap of caps) {
    const head = cap.objectTokens.at(-1);
    if (head) keep(head, heads, true);
  }
  for (const cap of caps) for (const tok of cap.objectTokens.slice(0, -1)) keep(tok, others, false);
  // The product's own subject ("habit" of "habit tracker"), not its kind or its platform.
  for (const tok of product.slice(0, -1)) if (tok.pos === 'NOUN') keep(tok, others, false);
  return [...heads, ...others];
}

/** The priority the idea's words ask at an offset, as an optional member. */
function priorityOf(spans: Parameters<typeof priorityAt>[0], at: number): { priority?: Priority } {
  const priority = priorityAt(spans, at);
  return priority ? { priority } : {};
}

/**
 * Reads an idea into capabilities, product, audience, entities, integrations, numbers, scope
 * qualifiers, content terms and the project type.
 *
 * @example
 * readIdeaNlp('A tool for vets to send vaccine reminders by SMS').capabilities[0]?.text; // 'send vaccine reminders by SMS'
 */
export function readIdeaNlp(idea: string): IdeaCapabilities {
  const text = oneLine(idea);
  // The rules read the idea's sentences: its name taken out, its bullets and colon lists made
  // sentences (reading-structure.ts); what the documents quote is the idea as written.
  const structured = structureOf(proseOf(idea));
  const read = structured.text.slice(0, 2000);
  const toks = tokensOf(read);
  const parsed = parse(toks, read);
  let product = parsed.product
    ? spanText(read, toks, parsed.product.start, parsed.product.end)
    : 'product';
  // "Tools for Cursor …": a capital that only opens the sentence is not part of the name.
  if (parsed.product?.start === 0 && /^\p{Lu}\p{Ll}+\b/u.test(product))
    product = product.charAt(0).toLowerCase() + product.slice(1);
  const audience = parsed.audience
    ? spanText(read, toks, parsed.audience.start, parsed.audience.end)
    : undefined;
  const name =
    structured.name ??
    (parsed.name ? spanText(read, toks, parsed.name.start, parsed.name.end) : undefined);
  const integrations = integrationsOf(read, toks, parsed, name);
  const productToks = parsed.product ? toks.slice(parsed.product.start, parsed.product.end) : [];
  const exclude = new Set([
    ...integrations.map((service) => service.toLowerCase()),
    ...(parsed.assistant ? [parsed.assistant.toLowerCase()] : []),
  ]);
  return inert({
    text,
    capabilities: parsed.capabilities.map(
      ({ verb, object, qualifiers, text: phrase, objectTokens, verbIndex, group }) => {
        // The object's clause decides: "supports X, Y and optional Z" puts off Z alone.
        const at = objectTokens[0]?.start ?? toks[verbIndex]?.start ?? -1;
        return {
          verb,
          object,
          qualifiers,
          text: phrase,
          entity: entityOf(objectTokens, exclude),
          ...priorityOf(structured.priorities, at),
          ...(group === undefined ? {} : { group }),
        };
      },
    ),
    product,
    name,
    audience,
    assistant: parsed.assistant,
    entities: entitiesOf(parsed.capabilities, productToks, exclude),
    integrations,
    numbers: numbersOf(read, toks),
    qualifiers: qualifiersOf(read, toks),
    terms: contentTerms(text),
    type: inferType({
      text,
      product,
      audience,
      assistant: parsed.assistant,
      assistantActs: parsed.assistantActs,
    }),
  });
}

const CONTENT = new Set(['NOUN', 'PROPN', 'VERB', 'ADJ', 'NUM', 'ADV']);

/**
 * wink-nlp's stop list holds content verbs and adjectives ("keep", "show", "empty"); of its
 * words only these carry nothing of an idea.
 */
const EMPTY_WORDS = new Set(
  'be have do get make let go come say seem become can will would should may might must also very just then too so'.split(
    ' ',
  ),
);

function contentTokens(text: string): RawTok[] {
  return rawTokens(oneLine(text)).filter(
    (tok) =>
      CONTENT.has(tok.pos) &&
      (!tok.stop || (tok.pos !== 'ADV' && !EMPTY_WORDS.has(tok.lemma.toLowerCase()))) &&
      /[\p{L}\p{N}]/u.test(tok.text) &&
      (tok.text.length > 1 || /\d/.test(tok.text)) &&
      !GENERIC.has(tok.lemma.toLowerCase()) &&
      !GENERIC.has(tok.text.toLowerCase()),
  );
}

/**
 * The content words of a text as Porter stems (wink-nlp's its.stem), stop words and generic
 * product words left out: what a definition must keep of an idea.
 *
 * @example
 * contentTerms('Send vaccine reminders by SMS'); // ['send', 'vaccin', 'remind', 'sms']
 */
export function contentTerms(text: string): string[] {
  return [...new Set(contentTokens(text).map((tok) => tok.stem.toLowerCase()))];
}

/**
 * The idea's content words that a definition lost: no word of the definition shares their stem
 * or lemma. Returned as written in the idea (not stemmed), so a message can quote them.
 *
 * @example
 * missingTerms('Send reminders by SMS', 'Sends reminders to owners'); // ['SMS']
 */
export function missingTerms(idea: string, definitionText: string): string[] {
  const kept = new Set<string>();
  // The whole definition counts: a definition runs to a few thousand characters, and the
  // members that carry the idea's terms (ideaCoverage) come last.
  for (const tok of rawTokens(definitionText.replace(/\s+/g, ' ').trim()))
    for (const form of [tok.stem, tok.lemma, tok.text]) kept.add(form.toLowerCase());
  const missing = new Map<string, string>();
  for (const tok of contentTokens(idea)) {
    const stem = tok.stem.toLowerCase();
    if (kept.has(stem) || kept.has(tok.lemma.toLowerCase()) || kept.has(tok.text.toLowerCase()))
      continue;
    if (!missing.has(stem))
      missing.set(stem, tok.pos === 'PROPN' ? tok.text : tok.text.toLowerCase());
  }
  return [...missing.values()].map(inertText);
}
