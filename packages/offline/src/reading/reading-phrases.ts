/**
 * Noun phrases, qualifiers and the verb-or-noun decision of the NLP reading: the part of the
 * rules that knows where a phrase ends and whether the word after "and" starts a new verb.
 */
import {
  CONTROL,
  DETERMINERS,
  MEASURE_LINKS,
  OBJECT_PRONOUNS,
  PARTICLES,
  RATE_UNITS,
  STOP_ADVERBS,
  SUBORDINATORS,
  WANTING,
} from './reading-parse-words.ts';
import { canBeVerb, isNoun, type Tok } from './reading-tokens.ts';

/** The verb forms of a list; its items share the form of the first ("to track …, send …"). */
export type Form = 'bare' | 's' | 'ing';

/** A noun phrase by token index, end exclusive: "our Postgres analytics warehouse". */
export interface Phrase {
  /** First token, determiners included. */
  start: number;
  /** First token after the determiners. */
  body: number;
  end: number;
}

/** What is known where a verb may start: how much the place favours one, and what came before. */
export interface VerbContext {
  /** 1 after a comma or a verb's object, 0 inside a prepositional phrase. */
  base: number;
  comma?: boolean;
  /** A verb with no object waits for this one's ("view and export reports"). */
  pending?: boolean;
  /** The last word of the previous conjunct. */
  after?: Tok | undefined;
}

/**
 * Noun phrases and qualifiers over tagged tokens; the parser builds its reading on top.
 *
 * @example
 * class Parser extends PhraseReader {} // reads spans with this.phrase(i), this.qualifiers(e, form)
 */
export class PhraseReader {
  protected readonly t: Tok[];
  protected readonly text: string;
  /** Token indices where "to" opens an infinitive: after the product and after its audience. */
  protected readonly frames = new Set<number>();
  /** Where a noun list last stopped because a verb followed: the verb list goes on there. */
  protected verbStop = -1;
  /**
   * Whether the verb being read came after a comma of its list ("store protocols, book
   * equipment by the hour and search experiments"): its last "and" then ends the list more
   * often than it joins two nouns of a prepositional phrase.
   */
  protected listed = false;

  constructor(t: Tok[], text: string) {
    this.t = t;
    this.text = text;
  }

  protected span(start: number, end: number): string {
    const first = this.t[start];
    const last = this.t[end - 1];
    return first && last && end > start ? this.text.slice(first.start, last.end) : '';
  }

  protected isDet(i: number): boolean {
    const tok = this.t[i];
    return tok !== undefined && ['DET', 'PRON'].includes(tok.pos) && DETERMINERS.has(tok.lower);
  }

  /** Whether the words from i on end in a noun: "weekly meals", "failing pods", "live map". */
  protected nominalAt(i: number, depth = 0): boolean {
    const tok = this.t[i];
    if (!tok || depth > 4) return false;
    if (isNoun(tok)) return true;
    // The tagger reads many plurals as verbs ("budget alerts", "crop leaves"): a verb that ends
    // the phrase is its noun.
    if (tok.pos === 'VERB' && !this.participle(i))
      return this.nominalAt(i + 1, depth + 1) || this.endsPhrase(i + 1);
    if (tok.pos === 'ADJ' || tok.pos === 'NUM') return this.nominalAt(i + 1, depth + 1);
    return false;
  }

  /** Whether a noun phrase can end before i: punctuation, a conjunction, a preposition, a qualifier. */
  protected endsPhrase(i: number): boolean {
    const tok = this.t[i];
    if (!tok) return true;
    if (tok.possessive || this.isDet(i)) return false;
    return ['PUNCT', 'CCONJ', 'ADP', 'PART', 'SCONJ', 'ADV', 'ADJ', 'AUX'].includes(tok.pos);
  }

  /** "-ed" verb after a noun, followed by a preposition: "list grouped by aisle". */
  protected participle(i: number): boolean {
    const tok = this.t[i];
    return (
      tok?.pos === 'VERB' &&
      /(?:ed|en)$/.test(tok.lower) &&
      tok.lemma !== tok.lower &&
      ['ADP', 'PART'].includes(this.t[i + 1]?.pos ?? '')
    );
  }

  /** A noun phrase from i: determiners, modifiers and a head noun; trailing adjectives stay out. */
  protected phrase(i: number): Phrase | undefined {
    const { t } = this;
    let k = i;
    while (this.isDet(k)) k++;
    const body = k;
    const first = t[k];
    if (first?.pos === 'PRON' && OBJECT_PRONOUNS.has(first.lower))
      return { start: i, body, end: k + 1 };
    let head = -1;
    for (; k < t.length; k++) {
      const tok = t[k]!;
      // "designers need to file …": a noun phrase ends where its verb of wanting begins.
      if (head >= 0 && WANTING.test(tok.lower) && t[k + 1]?.lower === 'to') break;
      if (tok.possessive) {
        if (head < 0) break;
        continue;
      }
      if (isNoun(tok)) head = k;
      else if (tok.pos === 'VERB') {
        if (this.participle(k)) break;
        // A verb inside a noun phrase is a modifier ("failing pods") or, last, a mistagged noun.
        if (this.nominalAt(k + 1)) continue;
        if (!this.endsPhrase(k + 1)) break;
        head = k;
      } else if (tok.pos === 'ADV') {
        // "daily prompts": the tagger's adverb before a noun is the noun's adjective.
        if (head >= 0 || !this.nominalAt(k + 1)) break;
      } else if (
        !['ADJ', 'NUM'].includes(tok.pos) &&
        !(tok.pos === 'SYM' && /^[$€£%]$/.test(tok.text))
      )
        break;
      // After its head a phrase goes on only into another noun ("pet medical records"), not
      // into a number that starts a measure ("notices 60 days before expiry").
      const more = this.nominalAt(k + 1) && !t[k + 1]?.numeric;
      if (head === k && !more && !t[k + 1]?.possessive) {
        k++;
        break;
      }
    }
    return head < 0 ? undefined : { start: i, body, end: head + 1 };
  }

  /** Index after a list connector (",", "and", ", and", ", then"), and whether it has a comma. */
  protected connector(e: number): { index: number; comma: boolean } | undefined {
    const tok = this.t[e];
    if (!tok) return undefined;
    if (tok.text === ',') {
      const next = this.t[e + 1];
      const skip = next && ['and', 'or', 'then', 'plus'].includes(next.lower);
      return { index: skip ? e + 2 : e + 1, comma: true };
    }
    if (tok.pos === 'CCONJ' && ['and', 'or'].includes(tok.lower))
      return { index: e + 1, comma: false };
    return undefined;
  }

  protected formOf(tok: Tok): Form {
    if (/ing$/.test(tok.lower) && tok.lower.length > 5) return 'ing';
    if (/s$/.test(tok.lower) && tok.lemma !== tok.lower) return 's';
    return 'bare';
  }

  /** Whether an object (or a particle) can follow the word at i, as after a verb. */
  protected objectFollows(i: number): boolean {
    const next = this.t[i + 1];
    if (!next) return false;
    if (this.isDet(i + 1) || next.numeric || this.nominalAt(i + 1)) return true;
    if (next.pos === 'PRON' && OBJECT_PRONOUNS.has(next.lower)) return true;
    if (PARTICLES.has(next.lower)) return true;
    return this.t[i]?.pos === 'VERB' && next.pos === 'ADP';
  }

  /**
   * Whether the word at k starts a new verb phrase of a list rather than a coordinated noun:
   * the tagger's verb tag, the form shared with the list's first verb, whether the word can be a
   * verb at all, what follows it, and the list's last item all weigh in.
   */
  protected verbAt(k: number, form: Form, context: VerbContext): boolean {
    const { base, comma = false, pending = false, after } = context;
    const tok = this.t[k];
    if (!tok || tok.compound || tok.numeric || tok.possessive) return false;
    if (!['VERB', 'NOUN', 'ADV', 'ADJ'].includes(tok.pos)) return false;
    if (tok.pos !== 'VERB' && /^\p{Lu}/u.test(tok.text)) return false;
    let score = base;
    if (this.formOf(tok) !== form) score -= 2;
    if (tok.pos === 'VERB') score += 2;
    else if (canBeVerb(this.formOf(tok) === 's' ? tok.lemma : tok.lower)) score += 1;
    else if (tok.pos === 'ADJ' || tok.pos === 'ADV') return false;
    if (this.isDet(k + 1) || this.t[k + 1]?.numeric) score += 1;
    if (pending) score += 2;
    // "tracks expenses and exports reports": a third-person form with an object is a verb.
    if (form === 's' && this.formOf(tok) === 's' && this.nominalAt(k + 1)) score += 1;
    // Conjuncts are alike: "to Notion and tag candidates" does not join a name to a noun.
    if (after?.pos === 'PROPN') score += 1;
    if (comma && score === 1 && this.lastItemIsVerb(k, form)) score += 1;
    if (!this.objectFollows(k)) {
      const joined =
        this.t[k + 1]?.pos === 'CCONJ' && this.verbAt(k + 2, form, { base: 0, pending: true });
      if (!joined) return false;
    }
    return score >= 2;
  }

  /** "store protocols, version notebooks, and search …": the last item decides a comma list. */
  protected lastItemIsVerb(k: number, form: Form): boolean {
    for (let c = k + 1; c < this.t.length; c++) {
      const tok = this.t[c]!;
      if (/^[.;!?:]$/.test(tok.text)) return false;
      if (tok.pos === 'CCONJ') {
        const next = this.t[c + 1];
        return (
          next !== undefined &&
          this.formOf(next) === form &&
          (next.pos === 'VERB' || (canBeVerb(next.lower) && this.objectFollows(c + 1)))
        );
      }
    }
    return false;
  }

  /**
   * Coordinated noun phrases: "expenses and invoices", "AWS, GCP and Azure". After a verb's
   * object, "and" leans to a new verb ("swap shifts and track overtime"); inside a prepositional
   * phrase it leans to a noun ("by email and text message").
   */
  protected phrases(i: number, form: Form, inPhrase = false): Phrase[] {
    const first = this.phrase(i);
    if (!first) return [];
    const out = [first];
    let joined = 0;
    for (;;) {
      const last = out.at(-1)!;
      const next = this.connector(last.end);
      if (!next) break;
      // "flights and hotel rooms and share …": a second bare "and" rarely joins nouns again.
      const base = (next.comma || !inPhrase || this.listed ? 1 : 0) + joined;
      const context = { base, comma: next.comma, after: this.t[last.end - 1] };
      if (this.verbAt(next.index, form, context)) {
        this.verbStop = next.index;
        break;
      }
      const more = this.phrase(next.index);
      if (!more) break;
      // "with patients, and physiotherapy clinics need to …": the subject of a new clause.
      const then = this.t[more.end];
      if (
        then &&
        (then.pos === 'AUX' || (WANTING.test(then.lower) && this.t[more.end + 1]?.lower === 'to'))
      )
        break;
      if (!next.comma) joined = 1;
      out.push(more);
    }
    return out;
  }

  /** Whether a clause (with a verb) follows a subordinator at i: "when a spot opens". */
  protected clauseEnd(i: number): number | undefined {
    let k = i + 1;
    let verb = false;
    for (; k < this.t.length; k++) {
      const tok = this.t[k]!;
      if (tok.pos === 'PUNCT' && !tok.possessive) break;
      if (tok.pos === 'VERB' || tok.pos === 'AUX') verb = true;
    }
    return verb && ['DET', 'PRON', 'NOUN', 'PROPN', 'ADJ'].includes(this.t[i + 1]?.pos ?? '')
      ? k
      : undefined;
  }

  /**
   * "remind patients to take insulin": after the object of a verb that asks someone to act,
   * the infinitive says what for; it qualifies the capability, it is not one of its own.
   */
  protected controlled(
    verb: string,
    form: Form,
    read: { texts: string[]; end: number },
  ): { texts: string[]; end: number } {
    const { t } = this;
    if (!CONTROL.has(verb) || t[read.end]?.lower !== 'to' || !this.infinitive(read.end))
      return read;
    const objects = this.phrases(read.end + 2, form);
    const stop = objects.at(-1)?.end ?? read.end + 2;
    const more = this.qualifiers(stop, 'bare');
    return { texts: [...read.texts, this.span(read.end, stop), ...more.texts], end: more.end };
  }

  /** Qualifiers after an object: prepositional phrases, measures, adverbs, clauses. */
  protected qualifiers(e: number, form: Form): { texts: string[]; end: number } {
    const { t } = this;
    const texts: string[] = [];
    for (;;) {
      const tok = t[e];
      if (!tok) break;
      const clause = SUBORDINATORS.has(tok.lower) ? this.clauseEnd(e) : undefined;
      let end: number | undefined;
      if (clause !== undefined) end = clause;
      else if (
        ['a', 'an', 'per', 'every', 'each'].includes(tok.lower) &&
        RATE_UNITS.test(t[e + 1]?.lower ?? '')
      )
        end = e + 2;
      else if (tok.pos === 'ADP' || (tok.lower === 'to' && !this.infinitive(e))) {
        // "in under 2 seconds", "for up to 8 guests": prepositions may stack before the phrase.
        let k = e + 1;
        while (k < e + 3 && (t[k]?.pos === 'ADP' || t[k]?.lower === 'to' || t[k]?.lower === 'than'))
          k++;
        end = this.phrases(k, form, true).at(-1)?.end;
      } else if (tok.numeric) {
        end = this.phrase(e)?.end;
        const link = end === undefined ? undefined : t[end];
        if (end !== undefined && link && MEASURE_LINKS.has(link.lower))
          end = this.phrase(end + 1)?.end ?? end;
      } else if (
        (tok.pos === 'ADV' || tok.pos === 'ADJ') &&
        !STOP_ADVERBS.has(tok.lower) &&
        !this.nominalAt(e + 1)
      ) {
        end = e + 1;
      } else if (this.participle(e)) {
        end = this.phrases(e + 2, form, true).at(-1)?.end;
      }
      if (end === undefined) break;
      texts.push(this.span(e, end));
      e = end;
    }
    return { texts, end: e };
  }

  /** "to" opening an infinitive: tagged so, or right after the product or its audience. */
  protected infinitive(i: number): boolean {
    const tok = this.t[i];
    const next = this.t[i + 1];
    if (tok?.lower !== 'to' || !next || this.isDet(i + 1) || next.numeric) return false;
    if (next.compound || next.pos === 'PROPN' || next.pos === 'PRON') return false;
    if (this.frames.has(i)) return this.formOf(next) === 'bare';
    return tok.pos === 'PART' && (next.pos === 'VERB' || canBeVerb(next.lower));
  }

  /** Numbers inside an object stay visible as qualifiers: "16-week", "10 passes". */
  protected numbersIn(p: Phrase): string[] {
    const out: string[] = [];
    for (let j = p.body; j < p.end; j++) {
      const tok = this.t[j]!;
      if (!tok.numeric) continue;
      if (tok.compound) out.push(tok.text);
      else if (j + 1 < p.end) {
        out.push(this.span(j, j + 2));
        j++;
      }
    }
    return out;
  }

  /** Subject after "lets"/"helps": "users", "small clinics", "Claude", "AI assistants". */
  protected subject(i: number): number {
    const { t } = this;
    const first = t[i];
    if (!first) return i;
    if (first.pos === 'PRON') return i + 1;
    const bare = (tok: Tok | undefined) =>
      tok !== undefined && !tok.possessive && !tok.numeric && this.formOf(tok) === 'bare';
    if (bare(first) && first.pos === 'VERB' && this.objectFollows(i)) return i;
    let k = i;
    while (this.isDet(k)) k++;
    let noun = -1;
    for (; k < t.length; k++) {
      const tok = t[k]!;
      if (tok.pos === 'VERB' && noun >= 0 && bare(tok)) return k;
      if (!isNoun(tok) && tok.pos !== 'ADJ') break;
      if (isNoun(tok)) {
        noun = noun < 0 ? k : noun;
        const many = this.formOf(tok) === 's' || tok.pos === 'PROPN' || tok.compound;
        const after = t[k + 1];
        if (
          many &&
          bare(after) &&
          after!.pos !== 'PROPN' &&
          (after!.pos === 'VERB' || canBeVerb(after!.lower))
        )
          return k + 1;
      }
    }
    return noun >= 0 ? noun + 1 : i;
  }
}
