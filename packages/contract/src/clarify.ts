/**
 * Clarifying questions and their answers (issue 32, docs/clarify.md): what an idea leaves
 * open, asked before writing, and the answers a project's definition treats as facts.
 *
 * The topics are shared by whoever asks (the offline engine reads which ones an idea leaves
 * open) and by {@link applyAnswers}, which every definition passes through whatever model
 * wrote it, so an answered question is never left as an assumption or an open question.
 */
import type { ProjectDefinition } from './generation.ts';

/** A question PGS asks before writing, with the answer it would assume. */
export interface ClarifyQuestion {
  /** A topic id (`sign-in`, `payment`…) or `Q-n` for a question of the idea's own features. */
  id: string;
  question: string;
  /** Why the answer matters: what it changes in the documents. */
  why: string;
  options?: string[];
  /** The answer assumed when none is given. */
  recommended: string;
}

/** An answer given at creation: `question` is a question's id or its text. */
export interface ClarifyAnswer {
  question: string;
  answer: string;
}

/** Where an answer lands in a definition. */
type Target = 'targetAudience' | 'monetization' | 'platforms' | 'constraints';

/** A topic an idea may leave open. */
export interface ClarifyTopic {
  id: string;
  /** How the answer is named among the constraints (`Sign-in: …`). */
  label: string;
  target: Target;
  /** How many documents the answer changes: the rank of its question. */
  weight: number;
  /** An assumption or open question on this topic, as engines and models word them. */
  mentions: RegExp;
}

/** The topics, most consequential first. */
export const CLARIFY_TOPICS: readonly ClarifyTopic[] = [
  {
    id: 'audience',
    label: 'Audience',
    target: 'targetAudience',
    weight: 9,
    mentions: /\b(?:audience|primary users?|who (?:is it|it is) for)\b/i,
  },
  {
    id: 'sign-in',
    label: 'Sign-in',
    target: 'constraints',
    weight: 8,
    mentions:
      /\b(?:sign(?:s|ing)? in|log(?:s|ging)? in|login|authenticat\w*|accounts?\b.*\bsee)\b/i,
  },
  {
    id: 'compliance',
    label: 'Compliance',
    target: 'constraints',
    weight: 7,
    mentions: /\b(?:gdpr|hipaa|pci|soc ?2|complian\w*|regulat\w*)\b/i,
  },
  {
    id: 'payment',
    label: 'Payment',
    target: 'monetization',
    weight: 6,
    mentions:
      /\b(?:paid for|pricing|price|funding|subscription|monetis\w*|monetiz\w*|paid tier)\b/i,
  },
  {
    id: 'platforms',
    label: 'Platforms',
    target: 'platforms',
    weight: 5,
    mentions: /\b(?:platforms?|ios|android|browsers?|desktop)\b/i,
  },
  {
    id: 'volumes',
    label: 'Volumes',
    target: 'constraints',
    weight: 4,
    mentions: /\b(?:volumes?|sized for|how many|scale)\b/i,
  },
  {
    id: 'integrations',
    label: 'Integrations',
    target: 'constraints',
    weight: 3,
    mentions: /\b(?:account and plan|integrat\w*|which \S+ account)\b/i,
  },
];

const normal = (text: string) => text.toLowerCase().replace(/\s+/g, ' ').trim();

/**
 * The definition with the answers as facts: each answer replaces what its topic decides (the
 * audience, the business model, the platforms) or joins the constraints as `Label: answer`;
 * the assumptions and open questions on an answered topic, or whose text is the question
 * answered, are removed. Answers are the client's words: kept as written, never reworded.
 *
 * @example
 * applyAnswers(definition, [{ question: 'sign-in', answer: 'Google Workspace SSO only' }])
 *   .questionnaire.constraints; // [..., 'Sign-in: Google Workspace SSO only']
 */
export function applyAnswers(
  definition: ProjectDefinition,
  answers: readonly ClarifyAnswer[],
): ProjectDefinition {
  if (answers.length === 0) return definition;
  const q = { ...definition.questionnaire, constraints: [...definition.questionnaire.constraints] };
  // Applied twice (by the engine, then by the workflow for any model), an answer is one fact.
  const fact = (constraint: string) => {
    if (!q.constraints.includes(constraint)) q.constraints.push(constraint);
  };
  const answered: RegExp[] = [];
  const answeredText = new Set<string>();
  for (const { question, answer } of answers) {
    const text = answer.trim();
    if (text === '') continue;
    const topic = CLARIFY_TOPICS.find((t) => t.id === question.trim());
    if (topic === undefined) {
      answeredText.add(normal(question));
      fact(`${question.trim().replace(/[?.!:]+$/, '')}: ${text}`);
      continue;
    }
    answered.push(topic.mentions);
    if (topic.target === 'targetAudience') q.targetAudience = text;
    else if (topic.target === 'monetization') q.monetization = text;
    else if (topic.target === 'platforms')
      q.platforms = text.split(/\s*(?:,|;|\band\b)\s*/).filter((p) => p !== '');
    else fact(`${topic.label}: ${text}`);
  }
  const open = (entry: string) =>
    !answered.some((mentions) => mentions.test(entry)) &&
    ![...answeredText].some((asked) => normal(entry).startsWith(asked));
  if (q.assumptions) q.assumptions = q.assumptions.filter(open);
  if (q.openQuestions) q.openQuestions = q.openQuestions.filter(open);
  return { ...definition, questionnaire: q };
}
