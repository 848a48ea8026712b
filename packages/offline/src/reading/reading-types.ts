/**
 * What the idea reader reads out of an idea, as types only: reading.ts computes them, and the
 * files it is made of (reading-inert.ts) name them without importing it back.
 */
import type { Priority } from './reading-structure.ts';
import type { TypeReading } from './reading-type.ts';

/**
 * One thing the product lets someone do. Coordinated objects ("track expenses and invoices")
 * give one capability per object, each with the shared qualifiers and the same `group`: every
 * capability keeps its entity, tool and screen, while features.ts makes a coordination one
 * requirement (`members`), each capability a criterion of it (docs/decisions.md, 2026-11-29).
 */
export interface Capability {
  /** Base form, lower case: "send", "check in". */
  verb: string;
  /** The noun phrase as written, without leading determiners: "vaccine reminders". */
  object: string;
  /** Qualifiers as written: numbers in the object first ("16-week"), then "by SMS", "offline". */
  qualifiers: string[];
  /** The capability as one phrase: "send vaccine reminders by SMS". */
  text: string;
  /**
   * The thing it acts on, singular, without the words that only qualify it: "vaccine reminder"
   * of "vaccine reminders", "ticket" of "urgent tickets", "marathon plan" of "16-week marathon
   * plan"; '' when the capability has no object.
   */
  entity: string;
  /** What the idea's words ask ("must" Must, "should" Should, "later", "maybe", "v2" Could); undefined when they say nothing. */
  priority?: Priority | undefined;
  /** The coordination it was read in ("manage members, payments and reports"): shared by its capabilities. */
  group?: number | undefined;
  /** A coordination made one feature (features.ts): the capabilities it holds, in order. */
  members?: Capability[] | undefined;
}

/** What readIdeaNlp() reads out of an idea. */
export interface IdeaCapabilities {
  /** The idea on one line. */
  text: string;
  capabilities: Capability[];
  /** The product phrase: "tool", "habit tracker", "MCP server", "iPhone app". */
  product: string;
  /** The product's own name when the idea gives one: "Pocketvet" of "an app named Pocketvet". */
  name: string | undefined;
  /** The people it serves as written ("small veterinary clinics"); undefined when none is named. */
  audience: string | undefined;
  /** The AI client named in the idea ("Claude", "AI assistants"), never an audience. */
  assistant: string | undefined;
  /** Key nouns of the objects, singular, lower case unless proper: "appointment", "reminder". */
  entities: string[];
  /** Services and products named: "SMS", "AWS", "Google Calendar". */
  integrations: string[];
  /** Numbers with their unit as written: "16-week", "14 days", "under 2 seconds". */
  numbers: string[];
  /** Scope qualifiers as written: "read-only", "self-hosted", "offline", "in real time". */
  qualifiers: string[];
  /** Stems of the idea's content words (see contentTerms()). */
  terms: string[];
  type: TypeReading;
}
