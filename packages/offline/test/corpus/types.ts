/**
 * The corpus's entries as its JSON files hold them (README.md there is the annotation guide).
 * The bench (scripts/bench-corpus.ts) reads the engine's output against them.
 */
import type { ProjectType } from '@pgs/contract';

/** What the idea's words ask: `must` (must, required), `should` (named: at least Should), `could` (later, maybe, nice to have, v2). */
export type Priority = 'must' | 'should' | 'could';

/** A capability as the idea writes it: its base verb, its object's key word, qualifiers that must stay. */
export interface CorpusCapability {
  /** The base verb, or the verbs accepted (a nominal feature may read as "provide" or "support"). */
  verb: string | string[];
  object: string;
  qualifiers?: string[];
  priority: Priority;
}

/** One idea with what a careful reader takes from it. */
export interface CorpusIdea {
  /** `written:<Product>/<shape>` or `sourced:<source>/<entry>`. */
  id: string;
  /** Where the text comes from: `written for the corpus` or the source's address. */
  source: string;
  licence: string;
  shape: string;
  idea: string;
  /** The product's own name as the idea gives it; null when it gives none. */
  name: string | null;
  type: ProjectType;
  capabilities: CorpusCapability[];
  /** Constraints the idea states (compliance, offline, sign-in), as written. */
  constraints: string[];
}

/** One expected requirement delta; `target` is the index of the idea's capability it changes. */
export interface ExpectedDelta {
  op: 'added' | 'removed' | 'modified' | 'renamed';
  /** The capability of the idea whose FR the delta changes; absent for `added`. */
  target?: number;
  /** For `added`: the capability the new FR carries. */
  capability?: { verb: string; object: string };
  /** A word the changed FR's title or text holds afterwards (the new value, the new name). */
  now?: string;
  /** A word the modified FR no longer holds (the value replaced). */
  gone?: string;
}

/** A change request against an idea of the corpus, with exactly the deltas it asks for. */
export interface CorpusChange {
  id: string;
  /** The id of the idea (same part of the split) it revises. */
  idea: string;
  shape: string;
  request: string;
  expected: ExpectedDelta[];
}
