/**
 * The idea's structure before its sentences are tagged: the product's own name where the idea
 * opens with it ("Clinicly — …", "FoodGenie is a …", "Clinicly: …", "Build Clinicly, a …", a
 * quoted name), bulleted lines and colon lists as one sentence per item, and the priority each
 * sentence's words ask for ("must", "should", "later", "maybe", "nice to have", "v2"). The
 * rules of reading-parse.ts then read sentences, never layout.
 */
import { canBeVerb, rawTokens } from './reading-tokens.ts';

/** What an idea's words ask of a capability (MoSCoW, as the requirements document writes it). */
export type Priority = 'Must' | 'Should' | 'Could';

/** A span of the structured text and the priority its words ask for. */
export interface PrioritySpan {
  start: number;
  end: number;
  priority: Priority;
}

/** The idea rewritten as sentences the rules read, with what the layout said. */
export interface Structured {
  /** One line: the name taken out, bullets and colon lists as sentences, wish labels gone. */
  text: string;
  /** The product's own name when the idea opens with it (or quotes it). */
  name: string | undefined;
  priorities: PrioritySpan[];
}

/** One word of a name: "Clinicly", "2FAuth", "Alf.io", "Django-CRM", "ACP". */
const NAME_WORD = String.raw`[\p{Lu}\p{N}][\p{L}\p{N}]*(?:[.+&'’-][\p{L}\p{N}]+)*`;
/** A name of one to four words, each capitalised (or a number), as products are named. */
const NAME = `${NAME_WORD}(?: ${NAME_WORD}){0,3}`;
/** Words that open a sentence but never name a product. */
const NOT_NAMES =
  /^(?:it|this|that|these|those|the|a|an|our|my|your|their|its|there|here|what|who|we|i|they|you|he|she|each|every|some|all|one|users?|people|customers?|teams?)$/i;
/** Labels before a colon that say what follows, not what the product is called. */
const LABELS =
  /^(?:nice to have|must have|should have|could have|required|requirements?|features?|key features|note|notes|later|maybe|optional|eventually|future|v\d+|version \d+|phase \d+|mvp|goals?|problem|idea|summary|scope|constraints?|tech|stack|platforms?|audience|users?|example|todo|update|bonus|extras?|also|plus|wish(?:es)?|wishlist|out of scope|non-goals?)$/i;
/** A label that puts what follows off: a wish. */
const WISH_LABEL =
  /^(?:nice to have|could have|later|maybe|maybe later|optional|eventually|future|v[2-9]|version [2-9]|phase [2-9]|bonus|extras?|wish(?:es)?|wishlist)$/i;
const MUST_LABEL = /^(?:must|must have|required|requirements?|mvp)$/i;
/** Words that put a feature off: "later", "maybe", "nice to have", "v2", "eventually". */
const WISH =
  /\b(?:maybe|perhaps|eventually|someday|one day|nice[- ]to[- ]have|v[2-9]|version [2-9]|phase [2-9]|in (?:the|a) future(?: version| release)?|in a later (?:version|release)|down the (?:road|line)|if time allows|optional(?:ly)?|later)\b/i;
/** "two days later", "a week later": a measure, not a wish. */
const MEASURED_LATER =
  /\b(?:\d+|one|two|three|four|five|six|seven|a|an|few)\s+(?:\w+\s+)?(?:seconds?|minutes?|hours?|days?|weeks?|months?|years?)\s+later\b/i;
const MUST = /\b(?:must|required|requires?|mandatory|essential|need(?:s)? to|ha(?:s|ve) to)\b/i;
const SHOULD = /\bshould\b/i;
const BULLET = /^\s*(?:[-*•+]|\d{1,2}[.)])\s+/;

/** The name as the idea writes it, without surrounding quotes. */
const unquote = (name: string) => name.replace(/^["“'‘]|["”'’]$/g, '').trim();

/** Whether a phrase can be a product's name: capitalised words, none a sentence opener. */
function nameLike(phrase: string): boolean {
  const words = phrase.split(/\s+/);
  return words.length <= 4 && !NOT_NAMES.test(words[0]!) && !LABELS.test(phrase);
}

/** "A patient portal …" from "a patient portal …": the rest of the opening reads as a sentence. */
const sentence = (rest: string) => rest.charAt(0).toUpperCase() + rest.slice(1);

/**
 * The name the idea opens with and the opening without it, or undefined.
 *
 * @example
 * openingName('Clinicly — a patient portal for clinics'); // { name: 'Clinicly', rest: 'A patient portal for clinics' }
 */
export function openingName(text: string): { name: string; rest: string } | undefined {
  const quoted = /^["“]([^"”]{2,40})["”]\s*(?:[—–:-]|\bis\b)?\s*/u.exec(text);
  if (quoted) return { name: quoted[1]!.trim(), rest: sentence(text.slice(quoted[0].length)) };
  const shapes: RegExp[] = [
    // "Clinicly — a …", "2FAuth - Manage …", "Clinicly: a …", "Clinicly (a patient portal …)"
    new RegExp(String.raw`^(${NAME})\s*(?:[—–]|\s-\s|:(?=\s))\s*`, 'u'),
    new RegExp(String.raw`^(${NAME})\s*(?=\()`, 'u'),
    // "FoodGenie is a … app that …"
    new RegExp(String.raw`^(${NAME})\s+(?:is|are)\s+(?=(?:a|an|the|your|our)\s)`, 'u'),
    // "snowshare - File and link sharing …": a list entry's name may be lower case.
    /^([\p{Ll}\p{N}][\p{L}\p{N}]*(?:[.+&'’-][\p{L}\p{N}]+)*)\s+[—–-]\s+/u,
  ];
  for (const shape of shapes) {
    const match = shape.exec(text);
    if (!match || !nameLike(match[1]!)) continue;
    let rest = text.slice(match[0].length);
    // "Clinicly (a patient portal for clinics). It …": the parenthesis is the opening sentence.
    const paren = /^\(([^)]*)\)\s*\.?\s*/.exec(rest);
    if (paren) rest = `${paren[1]!.trim()}. ${rest.slice(paren[0].length)}`;
    // "Kapowarr - Build and manage a comic book library": the entry opens with what it does.
    else if (opensWithAction(rest)) rest = `It can ${rest.charAt(0).toLowerCase()}${rest.slice(1)}`;
    return { name: match[1]!, rest: sentence(rest) };
  }
  // "Build Clinicly, a patient portal …"
  const build = new RegExp(
    String.raw`^((?:Build|Create|Make|Develop|Design|Launch)\s+)(${NAME}),\s+(?=(?:a|an)\s)`,
    'u',
  ).exec(text);
  if (build && nameLike(build[2]!))
    return { name: build[2]!, rest: `${build[1]}${text.slice(build[0].length)}` };
  return undefined;
}

/** A name the idea gives after "called" or "named": `an app called "Pocket Vet"`, "called Sous". */
function calledName(text: string): string | undefined {
  const quoted = /\b(?:called|named)\s+(["“'‘][^"”'’]{2,40}["”'’])/u.exec(text);
  if (quoted) return unquote(quoted[1]!);
  const bare = new RegExp(String.raw`\b(?:called|named)\s+(${NAME})`, 'u').exec(text);
  return bare && nameLike(bare[1]!) ? bare[1] : undefined;
}

/** Whether a phrase reads as a verb phrase: it opens with a word that can be a verb. */
function opensWithVerb(phrase: string): boolean {
  const first = /^[\p{L}-]+/u.exec(phrase)?.[0]?.toLowerCase();
  if (!first || /(?:s|ing)$/.test(first) || NOT_NAMES.test(first)) return false;
  return canBeVerb(first);
}

/**
 * Whether a phrase surely opens with a verb: the tagger reads its first word as one, or the word
 * can be a verb and what follows is an object or another verb, never a noun it compounds with
 * ("Travel tracker", "File uploader").
 */
function opensWithAction(phrase: string): boolean {
  const [first, second] = rawTokens(phrase.slice(0, 80));
  if (!first || !second || /^\p{Lu}{2}/u.test(first.text) || !opensWithVerb(phrase)) return false;
  const noun = second.pos === 'NOUN';
  if (noun && second.lemma.toLowerCase() === second.text.toLowerCase()) return false;
  return (
    first.pos === 'VERB' ||
    noun ||
    ['DET', 'ADJ', 'CCONJ', 'PRON', 'NUM'].includes(second.pos) ||
    second.text === ','
  );
}

/** A wish or must label opening an item ("v2: …", "Nice to have: …"), and the item without it. */
function labelled(item: string): { priority: Priority | undefined; rest: string } {
  const match = /^\(?([\p{L}\d ]{2,20}?)\)?\s*:\s+/u.exec(item);
  if (match && WISH_LABEL.test(match[1]!.trim()))
    return { priority: 'Could', rest: item.slice(match[0].length) };
  if (match && MUST_LABEL.test(match[1]!.trim()))
    return { priority: 'Must', rest: item.slice(match[0].length) };
  const tail = /\s*\((?:later|maybe|v[2-9]|optional|nice to have)\)\s*$/i.exec(item);
  if (tail) return { priority: 'Could', rest: item.slice(0, tail.index) };
  return { priority: undefined, rest: item };
}

/** A list item as a sentence: "It can book sessions online." or "It has offline mode." */
function itemSentence(item: string): string {
  const body = item.trim().replace(/[.;,]+$/, '');
  if (body === '') return '';
  const lower = body.charAt(0).toLowerCase() + body.slice(1);
  if (opensWithVerb(body)) return `It can ${lower}.`;
  // An item that is a sentence of its own ("Clients book slots online") stays one.
  if (/\b(?:can|will|should|must|may)\s/i.test(body)) return `${sentence(body)}.`;
  return `It has ${lower}.`;
}

/** The priority of one sentence's words, from the clause the word opens to the sentence's end. */
function sentencePriorities(text: string, start: number, end: number, into: PrioritySpan[]): void {
  const body = text.slice(start, end);
  const clauseStart = (at: number) => {
    const before = body.slice(0, at);
    const cut = Math.max(
      before.lastIndexOf(','),
      before.lastIndexOf(';'),
      before.search(/\s(?:and|but)\s(?!.*\s(?:and|but)\s)/),
    );
    return cut < 0 ? 0 : cut + 1;
  };
  const marks: Array<[RegExp, Priority]> = [
    [MUST, 'Must'],
    [SHOULD, 'Should'],
  ];
  for (const [words, priority] of marks)
    for (const match of body.matchAll(new RegExp(words.source, 'gi')))
      into.push({ start: start + clauseStart(match.index), end, priority });
  const wish = WISH.exec(body.replace(MEASURED_LATER, (m) => ' '.repeat(m.length)));
  if (wish) into.push({ start: start + clauseStart(wish.index), end, priority: 'Could' });
}

/**
 * The idea as sentences, with its name and the priorities its words ask for.
 *
 * @example
 * structureOf('Clinicly: a portal.\n- Book sessions\n- v2: run video calls').text;
 * // 'A portal. It can book sessions. It can run video calls.'
 */
export function structureOf(idea: string): Structured {
  const priorities: PrioritySpan[] = [];
  const parts: string[] = [];
  let length = 0;
  const add = (part: string, priority?: Priority) => {
    if (part === '') return;
    const start = length + (parts.length > 0 ? 1 : 0);
    parts.push(part);
    length = start + part.length;
    if (priority) priorities.push({ start, end: length, priority });
  };
  let name = calledName(idea);
  const lines = idea.split(/\r?\n/).map((line) => line.trim());
  let first = true;
  for (const line of lines) {
    if (line === '') continue;
    if (BULLET.test(line)) {
      const { priority, rest } = labelled(line.replace(BULLET, ''));
      add(itemSentence(rest), priority);
      continue;
    }
    let prose = line.replace(/\s+/g, ' ');
    if (first) {
      const opening = openingName(prose);
      if (opening) {
        name ??= unquote(opening.name);
        prose = opening.rest;
      }
      first = false;
    }
    for (const raw of prose.split(/(?<=[.!?])\s+(?=["“(]?[\p{Lu}\d])/u)) {
      const { priority, rest } = labelled(raw);
      // "Nice to have: run video consultations": the label is a priority, the rest an item.
      // "Required: HIPAA compliance" is a constraint the sentence states as written.
      const item = priority === 'Must' && !opensWithVerb(rest) ? undefined : priority;
      const said = item ? itemSentence(rest) : colonList(raw);
      add(said, item);
    }
  }
  let text = parts.join(' ');
  // Later mentions of the name are the product ("Bludit uses flat files"): "it", never a service.
  if (name) text = withoutName(text, name);
  const spans: PrioritySpan[] = [...priorities];
  for (const match of text.matchAll(/[^.!?]+[.!?]?/g))
    sentencePriorities(text, match.index, match.index + match[0].length, spans);
  return { text, name, priorities: spans };
}

/**
 * "A portal for clinics: book sessions online, share plans" → "A portal for clinics. It can
 * book sessions online, share plans": a colon before a verb phrase opens a list of capabilities,
 * not nouns on the product.
 */
function colonList(sentenceText: string): string {
  const colon = /:\s+/.exec(sentenceText);
  if (!colon) return sentenceText;
  const head = sentenceText.slice(0, colon.index).trim();
  const rest = sentenceText.slice(colon.index + colon[0].length);
  if (LABELS.test(head)) return opensWithVerb(rest) ? itemSentence(rest) : sentenceText;
  if (!opensWithVerb(rest)) return sentenceText;
  return `${head}. It can ${rest.charAt(0).toLowerCase()}${rest.slice(1)}`;
}

const capitalizeWord = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/** The text with the product's own name read as "it" where it is a subject or an object. */
function withoutName(text: string, name: string): string {
  const words = name
    .split(/[\s-]+/)
    .map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join(String.raw`[\s-]?`);
  const mention = new RegExp(String.raw`(^|[\s(])${words}(['’]s)?(?=$|[\s.,;:!?)])`, 'gu');
  return text.replace(
    mention,
    (whole, before: string, owner: string | undefined, offset: number) => {
      // "an app called Sous": the naming phrase stays, the parse reads the name from it.
      if (/\b(?:called|named)\s*$/.test(text.slice(0, offset + before.length))) return whole;
      const opens = offset === 0 || /[.!?]\s*$/.test(text.slice(0, offset + before.length));
      const it = owner ? 'its' : 'it';
      return `${before}${opens ? capitalizeWord(it) : it}`;
    },
  );
}

/**
 * The priority the idea's words ask for at an offset of the structured text: the innermost
 * span holding it, a wish over a must of the same clause.
 */
export function priorityAt(spans: readonly PrioritySpan[], at: number): Priority | undefined {
  let found: PrioritySpan | undefined;
  for (const span of spans) {
    if (at < span.start || at >= span.end) continue;
    if (
      !found ||
      span.start > found.start ||
      (span.start === found.start && span.priority === 'Could')
    )
      found = span;
  }
  return found?.priority;
}
