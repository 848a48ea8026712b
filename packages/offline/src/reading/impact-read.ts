/**
 * The syntax of a change request: its clauses, and what each asks for (an intent) before any
 * requirement is matched. The rules are documented in impact.ts's header.
 */
import { qualifiersOf, type Substitution } from './impact-phrases.ts';
import { BOUNDARY, headOf, isNumber, stemsOf } from './impact-terms.ts';
import { namesPeople } from './reading-people.ts';
import { canBeVerb, gerundBase, rawTokens } from './reading-tokens.ts';

/** What a clause asks for, its phrases as written. */
export type Intent =
  | { op: 'removed'; target: string }
  /** Candidate (old, new) splits, most likely first. */
  | { op: 'renamed'; candidates: [from: string, to: string][] }
  | {
      op: 'modified';
      target: string;
      /** Stems of the head the target must hold. */
      head: string[];
      substitutions: Substitution[];
      qualifiers: string[];
      /** What the clause is when no requirement takes the change ("add … instead of …"). */
      otherwise?: Intent;
      /** "too", "also": a qualifier joins the title's own instead of replacing it. */
      additive?: boolean;
    }
  | { op: 'should'; subject: string; predicate: string; also: boolean }
  /** A noun phrase added to the thing another phrase names. */
  | { op: 'extend'; addition: string; onto: string; whole: string }
  | { op: 'noun'; object: string; verb?: string }
  /** A capability; `bare` when the clause is a bare imperative ("Publish schedules …"). */
  | { op: 'verb'; phrase: string; people?: string | undefined; bare?: boolean };

const ADD = 'add|include|introduce|provide|support|offer|enable|allow|let';
const REMOVE =
  'drop|remove|delete|cut|scrap|ditch|kill|disable|stop|axe|retire|deprecate|get rid of|do away with|take out|strip out';
const MODIFY =
  'change|modify|update|replace|switch|adjust|make|move|extend|limit|restrict|shorten|increase|reduce';
const LEAD = new RegExp(`^(?:${ADD}|${REMOVE}|${MODIFY}|rename|retitle|no longer)\\b`, 'i');
const FILLER = new RegExp(
  `^(?:(?:and|but|then|also|plus|so|now|finally|lastly|additionally|oh|ok|okay|please|kindly|actually)\\b[\\s,]*|(?:can|could|would) you\\s+|(?:we|i)(?:'d| would) (?:also )?like (?:you )?to\\s+|(?:we|i) (?:also )?want (?:you )?to\\s+|let's\\s+|(?:we|you) (?:should|must|need to|have to)\\s+(?=(?:also\\s+)?(?:${ADD}|${REMOVE}|${MODIFY}|rename)\\b))`,
  'i',
);
const TRAILING =
  /[\s,]*\b(?:please|too|as well|for now|altogether|entirely|completely|anymore|any more)\s*$/i;
const ASSISTANT = /^(?:assistant|agent|claude|model|ai|llm|bot|copilot|them|everyone|anyone)$/i;

/** A clause without the words around the instruction ("please also …", "… too"). */
function bare(text: string): string {
  let out = text
    .replace(/[’‘]/g, "'")
    .trim()
    .replace(/[\s.!?]+$/, '');
  for (let before = ''; before !== out; ) {
    before = out;
    out = out.replace(FILLER, '').replace(TRAILING, '').trim();
  }
  return out;
}

/**
 * The people a phrase names ("owners", "the assistant"), or undefined for a thing.
 *
 * @example
 * peopleIn('the runners'); // 'the runners'
 */
export function peopleIn(phrase: string): string | undefined {
  const last = phrase.trim().split(/\s+/).pop() ?? '';
  return namesPeople(last) || ASSISTANT.test(last) ? phrase.trim() : undefined;
}

/** "let owners cancel …": the people, then what they do. */
function letting(rest: string): Intent {
  const words = rest.split(/\s+/);
  for (let j = 1; j < Math.min(words.length, 5); j++) {
    const people = peopleIn(words.slice(0, j).join(' '));
    if (people && canBeVerb(words[j]!))
      return { op: 'verb', phrase: words.slice(j).join(' '), people };
  }
  return { op: 'verb', phrase: `let ${rest}` };
}

/** What "add X" asks for: a capability, an addition to a requirement, or a thing. */
function adding(verb: string, object: string): Intent {
  const tool =
    /^(?:(?:a|an|the)\s+)?(?:way|tool|option|button|command|endpoint|setting|feature|ability|possibility|means|screen|page)\s+(?:for\s+(.+?)\s+)?to\s+(.+)$/i.exec(
      object,
    );
  if (tool) return { op: 'verb', phrase: tool[2]!, people: tool[1] && peopleIn(tool[1]) };
  const doing =
    /^(?:(?:a|an|the)\s+)?(?:tool|way|option|command|endpoint|button)\s+for\s+(\w+ing)\b\s*(.*)$/i.exec(
      object,
    );
  if (doing) return { op: 'verb', phrase: `${gerundBase(doing[1]!)} ${doing[2]}` };
  const support = /^support\s+for\s+(.+)$/i.exec(object);
  if (support) return { op: 'noun', verb: 'support', object: support[1]! };
  if (/^(?:support|offer|enable)$/i.test(verb)) return { op: 'noun', verb, object };
  const onto = /^(.+?)\s+(?:to|into|in|on)\s+(.+)$/i.exec(object);
  if (onto && !isNumber(onto[1]!.split(' ')[0]!))
    return { op: 'extend', addition: onto[1]!, onto: onto[2]!, whole: object };
  return { op: 'noun', object };
}

/** Verbs that only choose the new value: "use SMS instead of …", "switch to Outlook instead of …". */
const CHOOSING = /^(?:use|choose|pick|prefer|switch to|go with|take|have)\s+/i;

/** "A instead of B": the substitution, and the clause without it. */
function instead(clause: string): [Substitution, string] | undefined {
  const match = /\s*,?\s*\binstead of\s+(.+?)(?=$|,|\s(?:for|in|on|so|because|when)\s)/i.exec(
    clause,
  );
  if (!match) return undefined;
  const written = match[1]!;
  let from = written.replace(/^(?:the|a|an)\s+/i, '');
  const head = clause.slice(0, match.index);
  const before = head.split(/\s+/);
  const rest = `${head}${clause.slice(match.index + match[0].length)}`;
  let to: string;
  const chosen = CHOOSING.exec(head);
  if (chosen) {
    // "Use local groups instead of neighbours": all that is chosen replaces the old value.
    to = head.slice(chosen[0].length).replace(/^(?:the|a|an)\s+/i, '');
  } else {
    // A number replaces a number ("20 weeks instead of 16"); else as many words as it replaces.
    let start = before.length - from.split(/\s+/).length;
    if (isNumber(from)) start = before.findLastIndex((word) => isNumber(word));
    else if (start > 0 && isNumber(before[start - 1]!)) start--;
    to = before.slice(Math.max(0, start)).join(' ');
  }
  // "five days instead of a week": the article counted the old value, the number the new one.
  if (isNumber(to.split(/\s+/)[0] ?? '') && /^(?:a|an|one)\s/i.test(written)) from = written;
  return to ? [{ from, to }, rest.trim()] : undefined;
}

/** "make the marathon plan 20 weeks": the thing (up to its first non-noun), and the rest. */
function thingThen(text: string): [string, string] {
  const tokens = rawTokens(text);
  let seenNoun = false;
  for (const tok of tokens) {
    if (seenNoun && !['NOUN', 'PROPN'].includes(tok.pos))
      return [text.slice(0, tok.start).trim(), text.slice(tok.start).trim()];
    if (['NOUN', 'PROPN'].includes(tok.pos)) seenNoun = true;
  }
  return [text, ''];
}

function changing(verb: string, rest: string): Intent {
  const replace = /^(.+?)\s+(?:with|by)\s+(.+)$/i.exec(rest);
  if (verb === 'replace' && replace) {
    const from = replace[1]!.replace(/^(?:the|a|an)\s+/i, '');
    const [to, after] = splitNoun(replace[2]!);
    return modify(`${from} ${after}`, [{ from, to }], [], headOf(from));
  }
  const fromTo = /^(.+?)\s+from\s+(.+?)\s+to\s+(.+)$/i.exec(rest);
  if (fromTo)
    return modify(
      `${fromTo[1]} ${fromTo[2]}`,
      [{ from: fromTo[2]!, to: fromTo[3]! }],
      [],
      headOf(fromTo[1]!),
    );
  const [thing, complement] =
    verb === 'make'
      ? thingThen(rest)
      : ((/^(.+?)\s+(?:to|so that|so|into)\s+(.+)$/i.exec(rest)?.slice(1) as [string, string]) ?? [
          rest,
          rest,
        ]);
  const qualifiers = qualifiersOf(complement);
  if (qualifiers.length > 0 || complement === rest)
    return modify(thing, [], qualifiers, headOf(thing));
  const from = thing.replace(/^(?:the|a|an)\s+/i, '');
  const [to] = splitNoun(complement);
  return { ...modify(thing, [{ from, to }], [], []), head: [] };
}

/** The noun phrase a text opens with, and the rest. */
function splitNoun(text: string): [string, string] {
  const words = text.split(/\s+/);
  const end = words.findIndex((word, i) => i > 0 && BOUNDARY.has(word.toLowerCase()));
  return end < 0 ? [text, ''] : [words.slice(0, end).join(' '), words.slice(end).join(' ')];
}

/**
 * A MODIFIED intent: the phrase naming the target, the head it must hold, and the changes.
 *
 * @example
 * modify('the vaccine reminders', [], ['by email'], headOf('the vaccine reminders'));
 */
export function modify(
  target: string,
  substitutions: Substitution[],
  qualifiers: string[],
  head: string[],
): Extract<Intent, { op: 'modified' }> {
  return { op: 'modified', target, head, substitutions, qualifiers };
}

const NEGATIVE =
  /\b(?:don't|do not|doesn't|does not|won't|will not|didn't|did not|no)\s+(?:really\s+|actually\s+)?(?:need|want|require|use)\s+(?:to\s+)?(.+)$/i;
const NOT_NEEDED =
  /^(.+?)\s+(?:is|are|isn't|aren't)\s*(?:not|n't)?\s+(?:needed|required|necessary|wanted)\b/i;
const OUT_OF_SCOPE =
  /\s+(?:from|in|out of)\s+(?:the\s+)?(?:app|application|system|project|product|site|website|server|first release|release|scope|mvp|v1|plan)\b.*$/i;

function removing(clause: string): Intent | undefined {
  const target = (text: string): Intent => ({
    op: 'removed',
    target: text.replace(OUT_OF_SCOPE, ''),
  });
  const lead = new RegExp(`^(?:${REMOVE})\\s+(.+)$`, 'i').exec(clause);
  if (lead) return target(lead[1]!);
  const noLonger = /^(.*?)\s*\bno longer\s+(.+)$/i.exec(clause);
  if (noLonger) {
    const after = noLonger[2]!.replace(/^(?:needs?|wants?|requires?|has|have)\s+(?:to\s+)?/i, '');
    if (!/^(?:be\s+)?(?:needed|required|necessary|wanted|used|offered|supported)?$/i.test(after))
      return target(after);
    return target(noLonger[1]!.replace(/\s+(?:is|are|be|will be|should be|can be|do|does)$/i, ''));
  }
  const negative = NEGATIVE.exec(clause) ?? NOT_NEEDED.exec(clause);
  if (negative) return target(negative[1]!);
  return undefined;
}

/**
 * What a clause asks for, or undefined when it is no instruction the reader knows.
 *
 * @example
 * intentOf('drop the medical records'); // { op: 'removed', target: 'the medical records' }
 */
export function intentOf(clause: string): Intent | undefined {
  const c = bare(clause);
  if (c === '') return undefined;
  const rename =
    /^(?:rename|retitle)\s+["“'‘](.+?)["”'’]\s+(?:to|as|into)\s+(.+)$/i.exec(c) ??
    /^change the (?:name|title) of\s+(.+?)\s+to\s+(.+)$/i.exec(c) ??
    /^(.+?)\s+(?:should|must|will|shall)\s+(?:now\s+)?be\s+(?:called|named|renamed(?:\s+to)?|titled)\s+(.+)$/i.exec(
      c,
    );
  if (rename) return { op: 'renamed', candidates: [[rename[1]!, rename[2]!]] };
  const renameAny = /^(?:rename|retitle|call)\s+(.+)$/i.exec(c);
  if (renameAny) {
    const words = renameAny[1]!.split(/\s+/);
    const calls = /^call/i.test(c);
    const candidates: [string, string][] = [];
    // A title runs to a dozen words or so: longer splits are not worth trying.
    for (let k = Math.min(words.length - 1, 24); k > 0; k--) {
      const next = words[k]!.toLowerCase();
      if (calls) candidates.push([words.slice(0, k).join(' '), words.slice(k).join(' ')]);
      else if (/^(?:to|as|into)$/.test(next) && k + 1 < words.length)
        candidates.push([words.slice(0, k).join(' '), words.slice(k + 1).join(' ')]);
    }
    return { op: 'renamed', candidates };
  }
  const removal = removing(c);
  if (removal) return removal;
  const possible =
    /^(?:make it possible|it should (?:also )?be possible|there should (?:also )?be a way)\s+(?:for\s+(.+?)\s+)?to\s+(.+)$/i.exec(
      c,
    );
  if (possible)
    return { op: 'verb', phrase: possible[2]!, people: possible[1] && peopleIn(possible[1]) };
  const thereBe = /^there should (?:also )?be\s+(.+)$/i.exec(c);
  if (thereBe) return adding('add', thereBe[1]!);
  const lead = new RegExp(`^(${ADD}|${MODIFY})\\s+(.+)$`, 'i').exec(c);
  const verb = lead?.[1]?.toLowerCase();
  const swap = instead(c);
  if (swap) {
    const [substitution, rest] = swap;
    const target = lead ? rest.replace(/^\S+\s+/, '') : rest;
    const change = modify(target, [substitution], qualifiersOf(rest), headOf(target));
    if (verb && new RegExp(`^(?:${ADD})$`).test(verb))
      return { ...change, otherwise: adding(verb, bare(rest.replace(/^\S+\s+/, ''))) };
    return change;
  }
  const plain = c.replace(/[\s,]*\binstead\b/i, '');
  if (verb === 'let') return letting(lead![2]!);
  const allow = /^(?:allow|enable)\s+(.+?)\s+to\s+(.+)$/i.exec(plain);
  if (allow && peopleIn(allow[1]!)) return { op: 'verb', phrase: allow[2]!, people: allow[1] };
  if (verb && new RegExp(`^(?:${ADD})$`).test(verb))
    return adding(verb, bare(plain.replace(/^\S+\s+/, '')));
  const need =
    /^(?:we|i|they)\s+(?:also\s+)?(?:need|want|would like)\s+(to\s+(?:be able to\s+)?)?(.+)$/i.exec(
      c,
    );
  if (need)
    return need[1]
      ? (intentOf(need[2]!) ?? { op: 'verb', phrase: need[2]! })
      : adding('add', need[2]!);
  const without = /\bwithout\s+(.+)$/i.exec(c);
  if (without) return { op: 'removed', target: without[1]!.replace(OUT_OF_SCOPE, '') };
  if (verb) return changing(verb, lead![2]!);
  if (/\binstead\b/i.test(c)) return modify(plain, [], qualifiersOf(plain), headOf(plain));
  const should = /^(.+?)\s+(?:should|must|needs to|need to|has to|have to|shall)\s+(.+)$/i.exec(c);
  if (should) {
    // "the app should drop …": the product's own instruction.
    const inner = should[2]!.replace(/^also\s+/i, '');
    if (stemsOf(should[1]!).length === 0 && LEAD.test(inner)) return intentOf(inner);
    const also = /^also\b/i.test(should[2]!) || /\b(?:too|as well)[\s.!?]*$/i.test(clause);
    return {
      op: 'should',
      subject: should[1]!,
      predicate: should[2]!.replace(/^also\s+/i, ''),
      also,
    };
  }
  return imperative(c) ? { op: 'verb', phrase: c, bare: true } : undefined;
}

/** A bare imperative of a verb the reader has no rule for: "Export runs as GPX files". */
function imperative(text: string): boolean {
  const [first, second] = rawTokens(text);
  return (
    second !== undefined &&
    first !== undefined &&
    !['PROPN', 'ADJ', 'DET', 'PRON', 'AUX', 'NUM'].includes(first.pos) &&
    canBeVerb(first.text)
  );
}

/** Whether a text opens an instruction of its own: what a clause may be cut before. */
function opensInstruction(text: string, also: boolean, comma = false): boolean {
  const t = bare(text);
  if (LEAD.test(t) && !/^call\b/i.test(t)) return true;
  if (/^(?:we|i)\s+(?:also\s+)?(?:need|want|don't need|do not need|no longer)\b/i.test(t))
    return true;
  if (/^(?:\S+\s+){1,4}?(?:should|must|(?:is|are) no longer)\b/i.test(t)) return true;
  // "…, and use monthly instead of quarterly": a substitution is an instruction of its own.
  if (/\binstead of\b/i.test(t) && CHOOSING.test(t)) return true;
  return (also || comma) && imperative(t);
}

/**
 * The clauses of a change request: cut at ";", full stops and newlines, and at a comma or
 * "and"/"but" between two instructions.
 *
 * @example
 * clausesOf('add SMS reminders; drop the medical records and rename X to Y'); // 3 clauses
 */
export function clausesOf(request: string): string[] {
  const clauses: string[] = [];
  const connector =
    /\s*,\s*(?:(?:and|but|plus)\s+)?(?:(?:also|then)\s+)?|\s+(?:and|but|plus)\s+(?:(?:also|then)\s+)?/gi;
  for (const sentence of request.split(/\s*(?:;|\n|[.!?](?=\s|$))\s*/)) {
    let from = 0;
    for (const match of sentence.matchAll(connector)) {
      const left = sentence.slice(from, match.index);
      const right = sentence.slice(match.index + match[0].length);
      const comma = /,\s*and\b/i.test(match[0]);
      if (opensInstruction(right, /also|then/i.test(match[0]), comma) && intentOf(left)) {
        clauses.push(left.trim());
        from = match.index + match[0].length;
      }
    }
    const last = sentence.slice(from).trim();
    if (last) clauses.push(last);
  }
  return clauses.filter((clause) => /[\p{L}\p{N}]/u.test(clause));
}
