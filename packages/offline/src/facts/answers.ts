/**
 * The answers a definition holds as facts (docs/clarify.md), read once into decisions the
 * writers use: how people sign in, the compliance regimes, where it runs, how it is paid for,
 * whom it is for, its volumes and the services it works with. An answer reaches the engine
 * through the definition only (`applyAnswers` and `answerRegister` of `@pgs/contract`): a
 * constraint `Sign-in: …`, a decision `D-n` on a topic, or a member it replaced (the
 * audience, the business model, the platforms). What the engine cannot read in an answer is
 * kept as the team's words and quoted, never reworded into something the team did not say.
 */
import { CLARIFY_TOPICS } from '@pgs/contract';
import type { Conventions, ProjectDefinition } from '@pgs/contract/generation';
import { capitalize } from '../text/words.ts';
import { KNOWN_REGIMES, knownRegime, REQUIRED_BY_IDEA } from './compliance.ts';

/** How people sign in, as far as an answer says. */
export type SignInMethod = 'sso' | 'password' | 'email-link' | 'social' | 'none';

/** The sign-in answer: its method when the engine reads one, and the team's words. */
export interface SignIn {
  method: SignInMethod | undefined;
  answer: string;
  /**
   * The sign-in requirement (`FR-3`) that still stands although the team answered "No
   * accounts": an answer settles an entry, it removes no requirement (docs/clarify.md), so the
   * documents keep sign-in until a change request removes it (facts/settled.ts).
   */
  kept?: string;
}

/** A compliance regime: its name, and whether the team's conventions (rather than an answer) set it. */
export interface Regime {
  name: string;
  fromConventions: boolean;
  /** Whether the idea itself requires it (`Compliance: HIPAA (required by the idea)`). */
  fromIdea?: boolean;
}

/** The decisions of the answers; a topic nobody answered is absent. */
export interface Answered {
  signIn?: SignIn;
  /** The regimes the project must meet, from the answers and the house conventions. */
  compliance: Regime[];
  payment?: string;
  audience?: string;
  volumes?: string;
  integrations?: string;
}

const SIGN_IN: readonly [RegExp, SignInMethod][] = [
  [/\b(?:no (?:accounts?|sign-?in|log-?in)|anonymous|without (?:an )?account)\b/i, 'none'],
  [
    /\b(?:sso|single sign-?on|saml|oidc|openid|okta|entra|azure ad|active directory|google workspace|auth0)\b/i,
    'sso',
  ],
  [/\b(?:magic link|one-time link|email link|sign-?in link|login link)\b/i, 'email-link'],
  [/\bpassword\b/i, 'password'],
  [/\b(?:apple|google|facebook|github|microsoft|social)\b/i, 'social'],
];

/** An answer that says there is nothing to meet. */
const NONE = /^(?:none|no|nothing|n\/a|not applicable|no standard)\b/i;

/** The regimes an answer names: the known ones it mentions, or the answer itself. */
function regimesOf(answer: string): string[] {
  if (NONE.test(answer.trim())) return [];
  const known = KNOWN_REGIMES.filter((regime) => regime.pattern.test(answer)).map((r) => r.name);
  return known.length > 0 ? known : [answer.trim()];
}

/** The monetisation sentences the engine writes itself: no answer replaced them. */
const ENGINE_MONETIZATION =
  /^(?:Not stated in the idea; pricing|Open source and free to self-host)/;

/** The audience sentences the engine writes itself ("Dog groomers who want to …"). */
const engineAudience = (text: string, who: string) =>
  /^People who use .+ and want it to /.test(text) ||
  text.startsWith(`${capitalize(who)} that want to `) ||
  text.startsWith(`${capitalize(who)} who want to `);

/** Each topic's answers in the definition: its constraints, then its decisions. */
function answersByTopic(definition: ProjectDefinition): Map<string, string[]> {
  const q = definition.questionnaire;
  const found = new Map<string, string[]>();
  const add = (topic: string, answer: string) => {
    const list = found.get(topic) ?? [];
    if (answer !== '' && !list.includes(answer)) found.set(topic, [...list, answer]);
  };
  for (const constraint of q.constraints)
    for (const topic of CLARIFY_TOPICS)
      if (constraint.startsWith(`${topic.label}: `))
        add(topic.id, constraint.slice(topic.label.length + 2).trim());
  for (const decision of q.decisions ?? []) {
    const topic = CLARIFY_TOPICS.find((t) => t.mentions.test(decision.question));
    if (topic !== undefined) add(topic.id, decision.answer.trim());
  }
  return found;
}

/**
 * The decisions the answers of a definition hold, with the compliance of the conventions.
 * `who` is the audience the engine read, to tell an answered audience from its own sentence.
 *
 * @example
 * answeredIn(definition, undefined, 'dog groomers').signIn;
 * // { method: 'sso', answer: 'Google Workspace SSO only' }
 */
export function answeredIn(
  definition: ProjectDefinition,
  conventions: Conventions | undefined,
  who: string,
): Answered {
  const q = definition.questionnaire;
  const topics = answersByTopic(definition);
  const last = (topic: string) => topics.get(topic)?.at(-1);
  const answered: Answered = { compliance: [] };
  const signIn = last('sign-in');
  if (signIn !== undefined)
    answered.signIn = {
      method: SIGN_IN.find(([pattern]) => pattern.test(signIn))?.[1],
      answer: signIn,
    };
  const own = conventions?.compliance ?? [];
  const regimes: Regime[] = own.map((name) => ({ name, fromConventions: true }));
  for (const answer of topics.get('compliance') ?? [])
    for (const name of regimesOf(answer))
      regimes.push(
        answer.endsWith(REQUIRED_BY_IDEA)
          ? { name, fromConventions: false, fromIdea: true }
          : { name, fromConventions: false },
      );
  // One section per standard: the conventions' spelling first (the gate checks it by name).
  const key = (name: string) => knownRegime(name)?.name ?? name.toLowerCase();
  for (const regime of regimes)
    if (!answered.compliance.some((known) => key(known.name) === key(regime.name)))
      answered.compliance.push(regime);
  if (!ENGINE_MONETIZATION.test(q.monetization)) answered.payment = q.monetization;
  if (!engineAudience(q.targetAudience, who)) answered.audience = q.targetAudience;
  const volumes = last('volumes');
  if (volumes !== undefined) answered.volumes = volumes;
  const integrations = last('integrations');
  if (integrations !== undefined) answered.integrations = integrations;
  return answered;
}
