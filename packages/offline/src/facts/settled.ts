/**
 * The facts a document is written from, settled by the answers and the house conventions
 * (docs/clarify.md, docs/conventions.md): the decisions of the answers and the stack decision,
 * derived once per document call and read by every writer that talks about their topics, and
 * what they change in the facts themselves: the sign-in criterion follows the sign-in answer,
 * and the constraint on where it runs follows the platforms.
 */
import { inertText, mapStrings } from '@pgs/contract/document';
import type { DocumentContext, ProjectDefinition, RequirementSlot } from '@pgs/contract/generation';
import { listing } from '../text/words.ts';
import { type Answered, answeredIn } from './answers.ts';
import { signInFailure } from './criteria.ts';
import { type Facts, factsFor } from './facts.ts';
import type { Requirement, Settled } from './model.ts';
import { onPhones, stackChoice } from './stack-choice.ts';

/** A document call as write.ts and revise.ts make it. */
type Context = Omit<DocumentContext, 'task'> & { register?: readonly RequirementSlot[] };

const settledOnce = new WeakMap<Facts, Settled>();

/**
 * The decisions a document's facts rest on: those `settledFacts` derived, or, for facts
 * derived without a document call (a test's), those of their own members under no
 * conventions (the audience then is the engine's).
 *
 * @example
 * settledOf(f).stack.database ?? 'the database';
 */
export function settledOf(f: Facts): Settled {
  if (f.settled) return f.settled;
  let known = settledOnce.get(f);
  if (known === undefined) {
    const questionnaire = {
      targetAudience: '',
      monetization: f.monetization,
      techStack: f.stack,
      platforms: f.platforms,
      coreFeatures: [],
      constraints: f.constraints,
      successMetrics: [],
      decisions: f.decisions,
    };
    const { audience: _, ...answered } = answeredIn({ ...f, questionnaire }, undefined, f.who);
    known = {
      answered: keepingSignIn(answered, f),
      stack: stackChoice({ ...f, questionnaire }, undefined),
    };
    settledOnce.set(f, known);
  }
  return known;
}

/** The default constraint on where it runs, when the platforms answered say otherwise. */
function runsOn(constraint: string, platforms: readonly string[]): string {
  const browsers = platforms.some((p) => /\b(?:web|browsers?)\b/i.test(p));
  if (/^Runs in the current versions of Chrome\b/.test(constraint) && !browsers)
    return `Runs on ${listing([...platforms])}`;
  const phone = /^Runs on (.+), on the operating system versions of the last three years$/.exec(
    constraint,
  );
  if (phone && phone[1] !== listing([...platforms]))
    return `Runs on ${listing([...platforms])}, on the operating system versions of the last three years`;
  return constraint;
}

/** Whether a non-goal on platforms still holds with the platforms settled (answered). */
function stillOut(goal: string, platforms: readonly string[]): boolean {
  const has = (pattern: RegExp) => platforms.some((p) => pattern.test(p));
  if (/^Native mobile apps: /.test(goal)) return !has(/\b(?:ios|android|ipados)\b/i);
  const version = /^A version for (iOS|Android): /.exec(goal);
  if (version) return !has(new RegExp(`\\b${version[1]}\\b`, 'i'));
  if (/^A web version: /.test(goal)) return !has(/\b(?:web|browsers?)\b/i);
  return true;
}

/** Whether a requirement signs people in (criteria.ts writes its criteria as such). */
const signsPeopleIn = (req: Requirement) => req.verb.startsWith('sign');

/**
 * The answers with a "No accounts" answer marked `kept` while a requirement still signs people
 * in: an answer given later (docs/clarify.md#answer-later) removes no requirement, so the
 * project keeps its accounts until a change request removes that requirement.
 */
function keepingSignIn(answered: Answered, f: Pick<Facts, 'type' | 'requirements'>): Answered {
  const { signIn } = answered;
  // Only a requirement that does nothing but sign in: removing it removes no other feature.
  const kept = f.requirements.find((req) => signsPeopleIn(req) && !/,|\band\b/.test(req.text));
  if (signIn?.method !== 'none' || f.type === 'mcp' || kept === undefined) return answered;
  return { ...answered, signIn: { ...signIn, kept: kept.id } };
}

/**
 * A sign-in requirement's criteria with its failure as the sign-in answer has it; a kept one
 * (no accounts answered, the requirement not yet removed) keeps the criteria it was written with.
 */
function signingIn(req: Requirement, answered: Answered): Requirement {
  if (!signsPeopleIn(req) || answered.signIn === undefined || answered.signIn.kept) return req;
  const criteria = req.criteria.map((c) =>
    c.role === 'unwanted' ? { ...c, text: signInFailure(answered.signIn!) } : c,
  );
  return { ...req, criteria };
}

/**
 * The facts of a document call, settled by its answers and conventions.
 *
 * @example
 * settledFacts({ idea, definition, document, related: [], conventions }).settled?.stack.database;
 */
export function settledFacts(context: Context): Facts {
  const f = factsFor({ ...context, definition: signInRemoved(context.definition) });
  // Inert as the facts are: an answer quoted in a document is the team's text, never structure.
  const definition = mapStrings(context.definition, inertText);
  const settled: Settled = {
    answered: keepingSignIn(answeredIn(definition, context.conventions, f.who), f),
    stack: stackChoice(definition, context.conventions),
  };
  const requirements = f.requirements.map((req) => signingIn(req, settled.answered));
  // A web project answered for phones stays a web app, for the phones' browsers (stack-choice.ts).
  const placed = onPhones(f.type, f);
  const { platforms } = placed;
  const constraints = placed.constraints.map((c) => runsOn(c, platforms));
  const nonGoals = placed.nonGoals.filter((goal) => stillOut(goal, platforms));
  return { ...f, platforms, requirements, constraints, nonGoals, settled };
}

/**
 * Whether the sign-in answer settled that the product has no accounts: no one signs in. A web
 * product's data is then shared by everyone who reaches it; a phone app's stays with the
 * install that made it (`keptPerInstall`). An MCP server has no accounts of its own to drop.
 * While a requirement still signs people in (`kept`: answered after it was written), the
 * product keeps its accounts until a change request removes that requirement.
 *
 * @example
 * withoutAccounts(f); // true for a web or phone project whose team answered "No accounts"
 */
export function withoutAccounts(f: Facts): boolean {
  const signIn = settledOf(f).answered.signIn;
  return f.type !== 'mcp' && signIn?.method === 'none' && signIn.kept === undefined;
}

/**
 * Whether a phone app without accounts keeps each install's data apart (docs/decisions.md): the
 * app makes a random install key at first launch, names no one by it, and syncs only its own
 * rows under it, so no one reads another phone's data and nothing personal is asked.
 *
 * @example
 * keptPerInstall(f); // true for a mobile project answered "No accounts"
 */
export function keptPerInstall(f: Facts): boolean {
  return f.type === 'mobile' && withoutAccounts(f);
}

/** The sign-in feature the engine adds to an app's first release (reading/define.ts). */
const ENGINE_SIGN_IN = /^Sign in with an account per (?:person|organisation)$/;

/**
 * A definition without the sign-in feature the engine added, when the team answered that the
 * product has no accounts: nobody signs in, so no requirement, story, screen or entity may
 * speak of it. A feature the idea itself names is the idea's and stays.
 *
 * @example
 * withoutSignInFeature(definition).questionnaire.coreFeatures; // no "Sign in with an account per person"
 */
export function withoutSignInFeature(definition: ProjectDefinition): ProjectDefinition {
  const q = definition.questionnaire;
  if (definition.type === 'mcp' || answeredIn(definition, undefined, '').signIn?.method !== 'none')
    return definition;
  const coreFeatures = q.coreFeatures.filter((feature) => !ENGINE_SIGN_IN.test(feature));
  if (coreFeatures.length === q.coreFeatures.length) return definition;
  const keyEntities = q.keyEntities?.filter((e) => e !== 'account');
  return {
    ...definition,
    description: withoutSignInWords(definition.description),
    questionnaire: { ...q, coreFeatures, ...(keyEntities ? { keyEntities } : {}) },
  };
}

/** A description that lists the features: "to a, b and sign in with …" becomes "to a and b". */
const withoutSignInWords = (description: string) =>
  description
    .replace(/, ([^,.]*) and sign in with an account per (?:person|organisation)\./, ' and $1.')
    .replace(/ and sign in with an account per (?:person|organisation)\./, '.');

/**
 * A definition answered "No accounts" whose engine sign-in feature a change request removed
 * (docs/clarify.md#answer-later): the description, written with the feature, no longer lists it.
 */
function signInRemoved(definition: ProjectDefinition): ProjectDefinition {
  const { coreFeatures } = definition.questionnaire;
  if (
    definition.type === 'mcp' ||
    coreFeatures.some((feature) => ENGINE_SIGN_IN.test(feature)) ||
    answeredIn(definition, undefined, '').signIn?.method !== 'none'
  )
    return definition;
  return { ...definition, description: withoutSignInWords(definition.description) };
}

/**
 * The server's database as the documents name it: the stack's, else `neutral`, or the
 * engine's default (PostgreSQL) where a writer names one and the conventions allow it.
 *
 * @example
 * databaseOf(f, 'the database'); // 'PostgreSQL', or 'MySQL' when the conventions forbid PostgreSQL
 */
export function databaseOf(f: Facts, neutral: string, byDefault = false): string {
  const { stack } = settledOf(f);
  return stack.database ?? (byDefault && stack.allows('PostgreSQL') ? 'PostgreSQL' : neutral);
}
