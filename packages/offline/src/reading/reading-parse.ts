/**
 * The rules of the NLP reading: from tagged tokens to the product, the people it serves and one
 * capability per verb phrase. The rules read structure (tags, coordination, prepositions,
 * infinitives), not topics, so they hold for ideas they were not written against.
 */

import { clauseKey } from '@pgs/contract/document';
import { keptQualifiers } from './reading-filler.ts';
import {
  ASSISTANT,
  ENABLERS,
  LIGHT_VERBS,
  MODALS,
  NOMINAL_OPENERS,
  PARTICLES,
  type Parse,
  type ParsedCapability,
  PRODUCT_FILLER,
  SEPARABLE,
  type Span,
} from './reading-parse-words.ts';
import { namesPeople } from './reading-people.ts';
import { type Form, type Phrase, PhraseReader } from './reading-phrases.ts';
import {
  canBeVerb,
  gerundBase,
  isNoun,
  SCOPE,
  type Tok,
  verbBase,
  verbOfAgentNoun,
} from './reading-tokens.ts';

export type { Parse, ParsedCapability, Span } from './reading-parse-words.ts';

/**
 * Reads tagged tokens: product, audience, assistant and capabilities.
 *
 * @example
 * parse(tokensOf(idea), idea).capabilities.map((c) => c.verb); // ['schedule', 'send', 'keep']
 */
export function parse(toks: Tok[], text: string): Parse {
  const parser = new Parser(toks, text);
  parser.run();
  return parser.result();
}

class Parser extends PhraseReader {
  private readonly used = this.t.map(() => false);
  private readonly caps: ParsedCapability[] = [];
  /** What each capability says, case and spacing aside: a clause repeated is read once. */
  private readonly said = new Set<string>();
  /** The verb list's step being emitted: its capabilities are one coordination (features.ts). */
  private step: number | undefined;
  private product: Span | undefined;
  private audience: Span | undefined;
  private assistant: string | undefined;
  private assistantActs = false;
  private name: Span | undefined;

  result(): Parse {
    return {
      product: this.product,
      audience: this.audience,
      assistant: this.assistant,
      assistantActs: this.assistantActs,
      name: this.name,
      capabilities: this.caps,
    };
  }

  run(): void {
    // An assistant named anywhere ("Give ChatGPT access to …") is the client, whoever acts.
    const named = this.t.findIndex((tok) => tok.pos === 'PROPN' && ASSISTANT.test(tok.text));
    if (named >= 0) this.assistant = this.t[named]!.text;
    const head = this.readProduct();
    if (head !== undefined) this.readProductModifiers(head);
    for (let i = 0; i < this.t.length; i++) if (!this.used[i]) this.detect(i);
    if (this.caps.length === 0) this.capabilityFromProduct();
  }

  private mark(start: number, end: number): void {
    for (let i = start; i < end; i++) this.used[i] = true;
  }

  private emit(verb: string, verbIndex: number, p: Phrase | undefined, said: string[]): void {
    const after = keptQualifiers(verb, p ? this.t.slice(p.body, p.end) : [], said);
    if (!after) return;
    const object = p ? this.span(p.body, p.end) : '';
    const inner = p ? this.numbersIn(p) : [];
    const text = [verb, p ? this.span(p.start, p.end) : '', ...after].filter(Boolean).join(' ');
    const objectTokens = p ? this.t.slice(p.body, p.end) : [];
    const key = clauseKey(`${verb}|${object}|${after.join('|')}`);
    if (this.said.has(key)) return;
    this.said.add(key);
    this.caps.push({
      verb,
      object,
      qualifiers: [...inner, ...after],
      text,
      objectTokens,
      verbIndex,
      ...(this.step === undefined ? {} : { group: this.step }),
    });
  }

  /** A feature named by a noun: "mood tracking" → track mood; "offline mode" → support it. */
  private emitNominal(p: Phrase, after: string[]): void {
    const head = this.t[p.end - 1]!;
    if (head.lower.endsWith('ing') && head.pos !== 'PROPN' && p.end - 1 > p.body) {
      const base = gerundBase(head.lower);
      if (canBeVerb(base)) {
        this.emit(base, -1, { start: p.start, body: p.body, end: p.end - 1 }, after);
        return;
      }
    }
    this.emit(this.formOf(head) === 's' ? 'provide' : 'support', -1, p, after);
  }

  /** One verb list: "schedule appointments, send reminders by SMS, and keep records". */
  private list(start: number, form: Form): void {
    const { t } = this;
    let k = start;
    const pending: Array<{ verb: string; index: number }> = [];
    this.listed = false;
    for (;;) {
      let verb = verbBase(t[k]!);
      let after = k + 1;
      const particle = t[after];
      const beyond = t[after + 1];
      // "check in at the station", "look up drug interactions": a particle right after the verb.
      const ends = !beyond || ['ADP', 'PUNCT', 'CCONJ'].includes(beyond.pos);
      const before = particle && SEPARABLE.has(particle.lower) && this.nominalAt(after + 1);
      if (particle && PARTICLES.has(particle.lower) && (ends || before)) {
        verb = `${verb} ${particle.lower}`;
        after++;
      }
      const objects = this.phrases(after, form);
      const objectEnd = objects.at(-1)?.end ?? after;
      const joined = objects.length === 0 ? this.connector(objectEnd) : undefined;
      if (joined && this.verbAt(joined.index, form, { base: 0, pending: true })) {
        // "view and export reports", "manage, tag and search recipes": the verbs share the
        // object that follows.
        pending.push({ verb, index: k });
        this.mark(k, joined.index);
        k = joined.index;
        continue;
      }
      const { texts, end } = this.controlled(verb, form, this.qualifiers(objectEnd, form));
      const verbs = [...pending, { verb, index: k }];
      pending.length = 0;
      this.step = this.caps.length;
      for (const v of verbs) {
        if (LIGHT_VERBS.has(v.verb) && objects.length > 0)
          for (const p of objects) this.emitNominal(p, texts);
        else if (objects.length === 0) this.emit(v.verb, v.index, undefined, texts);
        else for (const p of objects) this.emit(v.verb, v.index, p, texts);
      }
      this.step = undefined;
      this.mark(k, end);
      const next = this.connector(end);
      if (!next) return;
      const goesOn =
        next.index === this.verbStop ||
        this.verbAt(next.index, form, { base: 1, comma: next.comma, after: t[end - 1] });
      if (!goesOn) return;
      this.mark(end, next.index);
      this.listed = next.comma;
      k = next.index;
    }
  }

  /** A list of features named by nouns: "with offline mode, dark theme and CSV export". */
  private nominalList(opener: number): number {
    const objects = this.phrases(opener + 1, 'bare');
    let end = opener + 1;
    for (const p of objects) {
      const { texts, end: after } = this.qualifiers(p.end, 'bare');
      this.emitNominal(p, texts);
      end = Math.max(end, after);
    }
    if (objects.length > 0) this.mark(opener, end);
    return objects.length > 0 ? end : opener;
  }

  private readProduct(): number | undefined {
    const { t } = this;
    // "Build an app …", "I want a tool …": the product starts at the first article.
    const article = t.slice(0, 5).findIndex((tok) => ['a', 'an', 'the'].includes(tok.lower));
    let k = article > 0 && t.slice(0, article).every((tok) => !isNoun(tok)) ? article : 0;
    if (this.isDet(k)) k++;
    // An idea that opens with a verb ("Lets teams …", "Track expenses …") names no product.
    const opener = t[k];
    if (opener && k === 0 && (ENABLERS.has(opener.lemma) || opener.pos === 'VERB'))
      return undefined;
    if (k === 0 && this.imperative(0)) return undefined;
    const start = k;
    let head = -1;
    for (; k < t.length; k++) {
      const tok = t[k]!;
      if (isNoun(tok)) head = k;
      else if (tok.pos === 'ADJ' || tok.pos === 'NUM') continue;
      // A verb before the head is part of its name ("help desk"); after it, it starts a clause.
      else if (tok.pos === 'VERB' && head < 0 && this.nominalAt(k + 1) && !this.isDet(k + 1))
        continue;
      else if (tok.text === ',' && head < 0 && t[k + 1]?.pos === 'ADJ') continue;
      else break;
    }
    if (head < 0) return undefined;
    this.mark(0, head + 1);
    this.frames.add(head + 1);
    let first = start;
    while (
      first < head &&
      (SCOPE.test(t[first]!.lower) || PRODUCT_FILLER.has(t[first]!.lower) || t[first]!.text === ',')
    )
      first++;
    this.product = { start: first, end: head + 1 };
    // "an app named Pocketvet", "a bot called Sous": the product's own name, not a service.
    const naming = t[head + 1];
    if (naming && ['name', 'call'].includes(naming.lemma) && t[head + 2]?.pos === 'PROPN') {
      let end = head + 2;
      while (t[end]?.pos === 'PROPN') end++;
      this.name = { start: head + 2, end };
      this.mark(head + 1, end);
      return end - 1;
    }
    return head;
  }

  /** Who acts: an assistant is recorded as the client, anyone else as the audience. */
  private agent(p: Span, acts: boolean): void {
    const words = this.span(p.start, p.end);
    const assistant = ASSISTANT.exec(words)?.[0];
    if (assistant) {
      if (!this.assistantActs && acts) this.assistant = assistant;
      this.assistant ??= assistant;
      this.assistantActs ||= acts;
    } else if (!this.audience && (acts || namesPeople(words))) {
      const allProper = this.t.slice(p.start, p.end).every((tok) => tok.pos === 'PROPN');
      const pronoun = this.t[p.start]?.pos === 'PRON';
      if (!allProper && !pronoun) this.audience = p;
    }
  }

  /** "for small clinics", "with offline mode", ": streaks, reminders": phrases on the product. */
  private readProductModifiers(head: number): void {
    let k = head + 1;
    for (;;) {
      const tok = this.t[k];
      if (!tok) return;
      const next = this.t[k + 1];
      const agentPhrase = tok.lower === 'for' ? this.phrase(k + 1) : undefined;
      // "for wedding planners to …": an "-ing" word that names people's trade, not a purpose.
      const named = agentPhrase !== undefined && this.t[agentPhrase.end]?.lower === 'to';
      if (
        tok.lower === 'for' &&
        next &&
        (named || !(next.lower.endsWith('ing') && this.objectFollows(k + 1)))
      ) {
        const p = agentPhrase;
        if (!p) return;
        // "for people with diabetes": the "with" phrase says who they are, not a feature.
        const described =
          this.t[p.end]?.lower === 'with' && namesPeople(this.span(p.body, p.end))
            ? this.phrase(p.end + 1)
            : undefined;
        const end = described?.end ?? p.end;
        this.frames.add(end);
        const acts = this.infinitive(end);
        this.agent({ start: p.body, end }, acts || ASSISTANT.test(this.span(p.body, end)));
        this.mark(k, end);
        k = end;
      } else if (NOMINAL_OPENERS.has(tok.lower) || tok.text === ':') {
        const end = this.nominalList(k);
        if (end === k) return;
        k = end;
      } else return;
    }
  }

  /** "where local farmers sell …", "so nurses can swap …": the people before the verb act. */
  private subjectBefore(i: number): void {
    let k = i - 1;
    if (MODALS.has(this.t[k]?.lower ?? '')) k--;
    const end = k + 1;
    while (k >= 0 && (isNoun(this.t[k]) || this.t[k]!.pos === 'ADJ' || this.t[k]!.compound)) k--;
    const opener = this.t[k]?.lower ?? '';
    if (end > k + 1 && ['where', 'so', 'when', 'that'].includes(opener) && isNoun(this.t[end - 1]))
      this.agent({ start: k + 1, end }, namesPeople(this.span(k + 1, end)));
  }

  /**
   * A sentence that opens with a verb the tagger calls a noun: "Track expenses for …" (a bare
   * word that can be a verb, then an object: a determiner, a number or a plural noun).
   */
  private imperative(i: number): boolean {
    const tok = this.t[i];
    const next = this.t[i + 1];
    const opens = i === 0 || /^[.!?;]$/.test(this.t[i - 1]?.text ?? '');
    if (!tok || !next || !opens || tok.pos === 'PROPN' || this.formOf(tok) !== 'bare') return false;
    if (tok.compound || tok.numeric || !canBeVerb(tok.lower)) return false;
    // "Party guests join a room": a noun and its verb, the sentence's subject.
    if (isNoun(next) && this.t[i + 2]?.pos === 'VERB' && this.formOf(this.t[i + 2]!) === 'bare')
      return false;
    return this.isDet(i + 1) || next.numeric || (isNoun(next) && this.formOf(next) === 's');
  }

  /** Reads from token i if a verb list or a feature list opens there. */
  private detect(i: number): void {
    const tok = this.t[i]!;
    if (tok.lower === 'who') {
      // "kids who finish chores" describes people; an infinitive in it still reads
      // ("nurses who want to swap shifts").
      let k = i + 1;
      while (this.t[k] && this.t[k]!.pos !== 'PUNCT' && !this.infinitive(k)) k++;
      this.mark(i, k);
      return;
    }
    if (NOMINAL_OPENERS.has(tok.lower) && (this.t[i - 1]?.text === ',' || this.used[i - 1])) {
      this.nominalList(i);
      return;
    }
    const opening = this.opening(i);
    if (opening) this.list(opening.at, opening.form);
  }

  /**
   * Where a verb list opens at token i: "to X", "lets users X", "that Xs", "for X-ing",
   * "can X", or a verb the tagger is sure of.
   */
  private opening(i: number): { at: number; form: Form } | undefined {
    const { t } = this;
    const tok = t[i]!;
    const next = t[i + 1];
    if (tok.lower === 'to' && this.infinitive(i)) return { at: i + 1, form: 'bare' };
    if (this.imperative(i)) return { at: i, form: 'bare' };
    if (ENABLERS.has(tok.lemma) && ['VERB', 'NOUN'].includes(tok.pos) && next) {
      const end = this.subject(i + 1);
      if (end > i + 1) this.agent({ start: this.isDet(i + 1) ? i + 2 : i + 1, end }, true);
      const verb = t[end]?.lower === 'to' ? end + 1 : end;
      const candidate = t[verb];
      if (!candidate || this.formOf(candidate) !== 'bare' || /^\p{Lu}/u.test(candidate.text))
        return undefined;
      this.mark(i, verb);
      return { at: verb, form: 'bare' };
    }
    if (['that', 'which'].includes(tok.lower) && isNoun(t[i - 1])) {
      let v = i + 1;
      while (t[v] && (t[v]!.pos === 'AUX' || MODALS.has(t[v]!.lower) || t[v]!.lower === 'also'))
        v++;
      const verb = t[v];
      // "that lets …": the enabler opens the list when the loop reaches it.
      if (!verb || ENABLERS.has(verb.lemma)) return undefined;
      const form = v > i + 1 ? 'bare' : this.formOf(verb);
      const sure = verb.pos === 'VERB' || (canBeVerb(verb.lemma) && this.objectFollows(v));
      return sure ? { at: v, form } : undefined;
    }
    if (tok.lower === 'it' && tok.pos === 'PRON') {
      // "It also messages parents": after the product's pronoun, an "-s" word is its verb.
      const v = t[i + 1]?.lower === 'also' ? i + 2 : i + 1;
      const verb = t[v];
      if (verb && this.formOf(verb) === 's' && canBeVerb(verb.lemma) && this.objectFollows(v))
        return { at: v, form: 's' };
    }
    if (tok.lower === 'for' && next && this.formOf(next) === 'ing' && this.objectFollows(i + 1))
      return { at: i + 1, form: 'ing' };
    if (MODALS.has(tok.lower) && next && (next.pos === 'VERB' || canBeVerb(next.lower))) {
      this.subjectBefore(i + 1);
      return { at: i + 1, form: 'bare' };
    }
    const adjectival = this.nominalAt(i + 1) && ['DET', 'ADJ', 'ADP'].includes(t[i - 1]?.pos ?? '');
    if (
      tok.pos === 'VERB' &&
      !ENABLERS.has(tok.lemma) &&
      !['be', 'do'].includes(tok.lemma) &&
      !adjectival &&
      // "no email is sent without a human": a passive states a rule, not a capability.
      t[i - 1]?.lemma !== 'be' &&
      this.objectFollows(i)
    ) {
      this.subjectBefore(i);
      return { at: i, form: this.formOf(tok) };
    }
    return undefined;
  }

  /** "A habit tracker" with no verb phrase: track habits. */
  private capabilityFromProduct(): void {
    const product = this.product;
    if (!product || product.end - product.start < 2) return;
    const verb = verbOfAgentNoun(this.t[product.end - 1]!.lower);
    if (verb)
      this.emit(verb, -1, { start: product.start, body: product.start, end: product.end - 1 }, []);
  }
}
