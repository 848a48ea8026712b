/**
 * The shapes the NLP reading produces (a capability with its tokens, a span, the parse) and
 * the closed word classes its rules turn on (enablers, light verbs, modals, particles).
 */
import type { Tok } from './reading-tokens.ts';

/** A capability with the tokens behind it. */
export interface ParsedCapability {
  verb: string;
  object: string;
  qualifiers: string[];
  text: string;
  objectTokens: Tok[];
  /** The token of the verb; -1 for a capability named by a noun ("offline mode"). */
  verbIndex: number;
  /** The coordination it was read in: the capabilities of one verb list's step share it. */
  group?: number;
}

/** A span of tokens, end exclusive. */
export interface Span {
  start: number;
  end: number;
}

/** What the rules found in an idea. */
export interface Parse {
  product: Span | undefined;
  audience: Span | undefined;
  assistant: string | undefined;
  /** The assistant is the one that acts ("lets Claude query …", "tools for Cursor to …"). */
  assistantActs: boolean;
  /** The product's own name: "Pocketvet" of "an app named Pocketvet". */
  name: Span | undefined;
  capabilities: ParsedCapability[];
}

/** Verbs that hand the capability to someone: "lets vets send …". */
export const ENABLERS = new Set(['let', 'help', 'allow', 'enable', 'empower']);
/** Verbs that ask someone to act: "remind patients to take insulin" is one capability. */
export const CONTROL = new Set(
  'remind ask tell invite encourage nudge prompt notify alert teach train require urge'.split(' '),
);
/** Verbs whose object is the feature itself: "has offline mode". */
export const LIGHT_VERBS = new Set(['have', 'include', 'feature', 'offer', 'contain']);
/** Modal verbs before a capability: "can export". */
export const MODALS = new Set('can could will would should may might must'.split(' '));
/** Particles that also go before an object ("look up drug interactions", "back up files"). */
export const SEPARABLE = new Set('up out off back down'.split(' '));
/** Words that open a list of features named by nouns: "with offline mode". */
export const NOMINAL_OPENERS = new Set(['with', 'featuring', 'including', 'offering']);
/** Words a product phrase drops: they qualify the product, they do not name it. */
export const PRODUCT_FILLER = new Set(
  'simple small tiny lightweight minimal easy modern beautiful smart new free fast quick little friendly clean basic'.split(
    ' ',
  ),
);
/** Clients of an MCP server: the one that acts in "lets Claude …" is not an audience. */
export const ASSISTANT =
  /\b(claude|chatgpt|gpt-?\d\w*|cursor|copilot|gemini|windsurf|codex|llms?|ai\s+(?:assistants?|agents?|models?|tools?)|coding\s+agents?)\b/i;

// The phrase reader's words (reading-phrases.ts).

/** Words that open a noun phrase and that an object is quoted without ("the", "our", "each"). */
export const DETERMINERS = new Set(
  'a an the this these those our their my your his her its each every any all some'.split(' '),
);
/** Pronouns that can stand as an object ("assign them to …"). */
export const OBJECT_PRONOUNS = new Set('them it us me you everything everyone'.split(' '));
/** Particles of phrasal verbs: "check in", "look up", "back up". */
export const PARTICLES = new Set('up in out off back down over on away'.split(' '));
/** Units a rate is counted in: "20 words a day". */
export const RATE_UNITS = /^(?:second|minute|hour|day|night|week|month|quarter|year)s?$/;
export const SUBORDINATORS = new Set(
  'when whenever while once if unless until before after as where whereas'.split(' '),
);
/** Prepositions that a measure phrase ("60 days") takes with it: "60 days before expiry". */
export const MEASURE_LINKS = new Set(['before', 'after', 'ahead', 'earlier', 'later', 'of', 'per']);
export const STOP_ADVERBS = new Set(
  'also then so too just even only very really still already now here there when where how why not as'.split(
    ' ',
  ),
);

/** Verbs of wanting, which the tagger may read as nouns ("designers need to …"). */
export const WANTING = /^(?:need|needs|want|wants)$/;
