/**
 * What the section writers are given: the facts of a project (its requirements, entities,
 * register), as types only, so the files that compute them (facts.ts, criteria.ts) import
 * each other's types without a circle.
 */
import type { ProjectType } from '@pgs/contract';
import type { Decision, Integration, RelatedDocument } from '@pgs/contract/generation';
import type { CodebaseFacts } from '../codebase/index.ts';
import type { FeatureParts } from '../reading/features.ts';
import type { IdeaCapabilities } from '../reading/reading.ts';
import type { Answered } from './answers.ts';
import type { StackChoice } from './stack-choice.ts';

/** A thing the product keeps, named every way the documents need it. */
export interface Entity {
  /** `VaccineReminder` */
  name: string;
  /** `vaccine reminder` */
  label: string;
  /** `vaccine reminders` */
  plural: string;
  /** `vaccine_reminders` (SQL) */
  table: string;
  /** `vaccine-reminders` (URL) */
  path: string;
  /** `a vaccine reminder` */
  a: string;
}

/** An acceptance criterion in EARS form, with what it is about (for the stories and tests). */
export interface Criterion {
  id: string;
  text: string;
  role: 'event' | 'quality' | 'unwanted' | 'offline' | 'approval' | 'readonly';
}

/** A functional requirement group: one core feature. */
export interface Requirement extends FeatureParts {
  id: string;
  n: number;
  priority: 'Must' | 'Should' | 'Could';
  ent: Entity;
  /** Whether it changes data (an MCP tool that writes). */
  writes: boolean;
  /** The service it goes through, if the definition names one for it. */
  service: Integration | undefined;
  criteria: Criterion[];
  /** The assumptions and open questions that bear on it (`A-2`, `Q-1`). */
  dependsOn: string[];
  /**
   * A coordination made one requirement ("Manage members, payments and reports"): each of its
   * capabilities as a requirement of its own, with this ID, its own entity and the criteria of
   * this one that test it; tools, screens and endpoints are made per part (`unitsOf`).
   */
  parts?: Requirement[];
}

/** An assumption of the brief: the fact the idea leaves open, and the default chosen. */
export interface Assumption {
  id: string;
  fact: string;
  choice: string;
}

/** An open question of the brief: the question, why it matters, and the feature it affects. */
export interface Question {
  id: string;
  question: string;
  impact: string;
  affects: string;
}

/** What the answers and the conventions decided (settled.ts), as the writers read it. */
export interface Settled {
  answered: Answered;
  stack: StackChoice;
}

/** Everything a section writer may use. */
export interface Facts {
  kind: string;
  title: string;
  name: string;
  /** `appointmentboard`: for packages, schemes and hosts. */
  slug: string;
  type: ProjectType;
  label: string;
  aLabel: string;
  description: string;
  idea: string;
  reading: IdeaCapabilities;
  /** The people it serves, as a plural noun phrase ("small veterinary clinics"). */
  who: string;
  /** One of them, as a story's role ("someone at a small veterinary clinic"). */
  role: string;
  /** The AI client an MCP server serves ("Claude"), or "the assistant". */
  assistant: string;
  requirements: Requirement[];
  entities: Entity[];
  main: Entity;
  integrations: Integration[];
  assumptions: Assumption[];
  questions: Question[];
  /** The answers that closed an assumption or a question (`D-n`), oldest first. */
  decisions: Decision[];
  nonGoals: string[];
  constraints: string[];
  metrics: string[];
  stack: string[];
  platforms: string[];
  monetization: string;
  readOnly: boolean;
  selfHosted: boolean;
  openSource: boolean;
  related: RelatedDocument[];
  /** What the digest of a grounded project shows (docs/brownfield.md); absent otherwise. */
  codebase?: CodebaseFacts;
  /**
   * `gherkin` when the criteria are written as Given/When/Then scenarios
   * (docs/requirement-style.md); absent, they are EARS sentences.
   */
  requirementStyle?: 'gherkin';
  /**
   * What the answers and the house conventions decided (settled.ts): absent on facts derived
   * without a document call; writers read it through `settledOf`.
   */
  settled?: Settled;
}
