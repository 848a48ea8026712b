/**
 * The questions the offline engine asks before writing (issue 32, docs/clarify.md): what its
 * reading of the idea leaves open, among the topics every spec needs settled (who it is for,
 * sign-in, compliance, payment, platforms, volumes, integrations), each with the answer the engine would
 * otherwise assume, so an idea asked about and not answered gives the same documents.
 */
import type { ProjectType } from '@pgs/contract';
import { CLARIFY_TOPICS, type ClarifyQuestion } from '@pgs/contract';
import type { ProjectDefinition } from '@pgs/contract/generation';
import { COMPLIANCE_REGIME } from '../reading/reading-mentions.ts';
import { listing } from '../text/words.ts';

/** At most this many questions: the ones whose answers change the most documents. */
export const MAX_QUESTIONS = 5;

type Asker = (d: ProjectDefinition) => Omit<ClarifyQuestion, 'id' | 'recommended'>;

const ASK: Record<string, Asker> = {
  audience: (d) => ({
    question: `Who is ${d.name} for, and what are they doing when they reach for it?`,
    why: 'It decides the personas, the goals and who every story is written for.',
  }),
  'sign-in': (d) => ({
    question: `How do people sign in to ${d.name}?`,
    why: "It decides the accounts in the data model, the sign-in screens and the API's authentication.",
    options:
      d.type === 'mobile'
        ? ['Sign in with Apple or Google', 'Email and a one-time link', 'No accounts']
        : [
            'Email and a one-time link',
            'Email and password',
            'Single sign-on (Google, Microsoft)',
            'No accounts',
          ],
  }),
  compliance: (d) => ({
    question: `Must ${d.name} meet a compliance standard?`,
    why: 'It adds requirements on personal data, retention and audit, and a compliance section to the design.',
    options: ['None', 'GDPR', 'HIPAA', 'PCI DSS', 'SOC 2'],
  }),
  payment: (d) => ({
    question: `How is ${d.name} paid for?`,
    why: 'It decides whether plans, billing and payment screens are part of the first release.',
    options: ['Free', 'Subscription', 'One-time purchase', 'Free and self-hosted'],
  }),
  platforms: (d) => ({
    question: `Where must ${d.name} run in its first release?`,
    why: 'It decides the platforms the architecture, the screens and the plan target.',
  }),
  integrations: (d) => ({
    question: `Which other services must ${d.name} work with, and what does it exchange with each?`,
    why: "It decides the integrations in the architecture, each adapter's credentials, limits and failure mode, and the tasks that build them.",
  }),
  volumes: () => ({
    question: 'How many people and records must the first release handle?',
    why: "It sizes the architecture, the data model's indexes and the performance requirements.",
  }),
};

/** The default an assumption states: what follows "… is not stated;". */
function defaultOf(assumption: string): string {
  const cut = assumption.indexOf('; ');
  const text = cut === -1 ? assumption : assumption.slice(cut + 2);
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}`.replace(/\.?$/, '');
}

/** What the idea says itself on a topic: then nothing is asked about it. */
const STATED: Record<string, RegExp> = {
  // "for dog groomers", "used by remote teams": a group of people the idea names.
  audience: /\b(?:for|used by|helps?)\s+(?:[\w-]+\s+){0,3}[\w-]+s\b/i,
  compliance: /\b(?:gdpr|hipaa|pci|soc ?2|iso 27001|complian\w*)\b/i,
  platforms: /\b(?:ios|android|iphone|web ?app|browser|desktop|mobile app|mac|windows|linux)\b/i,
};

/** An idea that implies working with other services without naming one: syncing, importing… */
const IMPLIES_SERVICES =
  /\b(?:sync\w*|integrat\w*|import\w*|export\w*|connect\w* (?:to|with)|plugs? into|calendars?|crm)\b/i;

/**
 * The answer the engine assumes on integrations: the services it read, or none. A compliance
 * regime a definition lists as a service (a model's, or one written before the reading knew
 * better) is no service: it is the compliance question's, and never recommended here.
 */
function integrationsAssumed(idea: string, definition: ProjectDefinition): string | undefined {
  const names = (definition.questionnaire.integrations ?? [])
    .map((i) => i.name)
    .filter((name) => !COMPLIANCE_REGIME.test(name.trim()));
  if (names.length > 0)
    return `Only ${listing(names)}, as the idea names ${names.length === 1 ? 'it' : 'them'}`;
  return IMPLIES_SERVICES.test(idea) ? 'None in the first release' : undefined;
}

/**
 * The questions an idea leaves open, most consequential first, at most {@link MAX_QUESTIONS}:
 * a topic the engine had to assume (its assumption's default is the recommended answer), or
 * one a spec needs settled that the idea does not touch (audience, compliance, platforms), or
 * the services it works with when it names or implies some.
 *
 * @example
 * clarifyQuestions('A booking tool for dog groomers', defineProject({ idea }))[0]?.id; // 'sign-in'
 */
export function clarifyQuestions(idea: string, definition: ProjectDefinition): ClarifyQuestion[] {
  const q = definition.questionnaire;
  const assumptions = q.assumptions ?? [];
  const questions: (ClarifyQuestion & { weight: number })[] = [];
  for (const topic of CLARIFY_TOPICS) {
    const ask = ASK[topic.id];
    if (ask === undefined) continue;
    const assumed = assumptions.find((a) => topic.mentions.test(a));
    const stated = STATED[topic.id]?.test(idea) ?? false;
    let recommended: string | undefined;
    if (assumed !== undefined) recommended = defaultOf(assumed);
    else if (stated) continue;
    else if (topic.id === 'audience') recommended = q.targetAudience;
    else if (topic.id === 'platforms') recommended = q.platforms.join(', ');
    else if (topic.id === 'integrations') recommended = integrationsAssumed(idea, definition);
    else if (topic.id === 'compliance')
      recommended = 'None in the first release; people can export and delete their personal data';
    if (recommended === undefined || recommended.trim() === '') continue;
    questions.push({ id: topic.id, ...ask(definition), recommended, weight: topic.weight });
  }
  return questions
    .sort((a, b) => b.weight - a.weight)
    .slice(0, MAX_QUESTIONS)
    .map(({ weight: _, ...question }) => question);
}

/** A project type the caller pinned, if any. */
export type ClarifyRequest = { idea: string; type?: ProjectType };
