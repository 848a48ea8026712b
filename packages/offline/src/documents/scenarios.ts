/**
 * Acceptance criteria as Gherkin scenarios (a project whose requirement style is `gherkin`,
 * docs/requirement-style.md): each EARS criterion the facts hold (criteria.ts), with its ID,
 * rewritten as `- **FR-n.m** Scenario: <name>` and its Given/When/Then steps. The same
 * behaviour, the same numbers, the same ID: only the form changes, so every other document
 * cites the same criteria.
 */
import {
  cite,
  definitionNode,
  list,
  paragraph,
  type StepInput,
  scenario,
  strong,
} from '@pgs/contract/document';
import type { List } from 'mdast';
import { theRole } from '../facts/criteria.ts';
import { unitsOf } from '../facts/facts.ts';
import type { Criterion, Facts, Requirement } from '../facts/model.ts';
import { inline } from '../text/nodes.ts';
import { capitalize, thirdPerson } from '../text/words.ts';

/** A scenario's step: its keyword and its text. */
export type Step = readonly ['Given' | 'When' | 'Then' | 'And', string];

/** A criterion as a scenario: its name and its steps. */
export interface ScenarioParts {
  name: string;
  steps: Step[];
}

const EARS = /^(?:(WHEN|IF|WHILE|WHERE)\s+(.+?)\s+(?:THEN\s+)?)?THE SYSTEM SHALL\s+(.+?)\.?$/s;

/** Verbs the system's responses coordinate ("… and record when it went out"). */
const RESPONSE_VERBS = new Set([
  'answer',
  'ask',
  'change',
  'connect',
  'deliver',
  'give',
  'hold',
  'keep',
  'leave',
  'let',
  'list',
  'mark',
  'name',
  'offer',
  'present',
  'queue',
  'record',
  'refuse',
  'report',
  'retry',
  'return',
  'say',
  'send',
  'show',
  'stop',
  'store',
  'suggest',
]);

/** A condition that is a state to start from ("has expired", "may not edit") rather than an event. */
const STATE = /\b(?:has|have|is|are|may not|lacks?|can)\b/;

/**
 * The system's response in the third person, after its subject: "retry it once and mark it
 * failed" → "retries it once and marks it failed". The first verb, and each verb a comma,
 * "and" or "then" coordinates, when it is one the responses use or the feature's own.
 */
function responding(response: string, req: Requirement): string {
  const own = req.verb.split(' ')[0]?.toLowerCase();
  return response.replace(
    /(^|,\s+then\s+|,?\s+and\s+|,\s+)([a-z]+)\b/g,
    (match, lead: string, word: string) =>
      lead === '' || RESPONSE_VERBS.has(word) || word === own
        ? `${lead}${thirdPerson(word)}`
        : match,
  );
}

/** The action a scenario without its own event starts from: the feature being used. */
function action(f: Facts, req: Requirement): string {
  const actor = f.type === 'mcp' ? f.assistant : theRole(f.role);
  if (req.verb === 'connect') return `${f.name} starts`;
  if (req.verb.startsWith('sign')) return `${actor} signs in`;
  if (req.kind === 'send') return `${req.ent.a} falls due`;
  return `${actor} asks to ${req.verb} ${req.object}`.trim();
}

/** The name of a scenario of a criterion that states no condition: its response, shortened. */
const nameOfResponse = (response: string) =>
  capitalize(response.split(/,\s+|\s+and\s+/)[0] ?? response);

/**
 * A criterion as a scenario: WHEN becomes When, IF an event When (a state Given, then the
 * feature's action), WHILE and WHERE a Given, the response Then, said of the product.
 * Undefined for a sentence that is not EARS.
 *
 * @example
 * scenarioParts(f, req, { id: 'FR-3.1', text: 'WHEN a reminder falls due THE SYSTEM SHALL send it once.', role: 'event' });
 * // { name: 'A reminder falls due', steps: [['When', 'a reminder falls due'], ['Then', 'VetBook sends it once']] }
 */
export function scenarioParts(
  f: Facts,
  req: Requirement,
  criterion: Criterion,
): ScenarioParts | undefined {
  const match = EARS.exec(criterion.text.trim());
  if (!match) return undefined;
  const [, keyword, condition, response = ''] = match;
  const then: Step = ['Then', `${f.name} ${responding(response, req)}`];
  if (keyword === undefined || condition === undefined)
    return { name: nameOfResponse(response), steps: [['When', action(f, req)], then] };
  const name = capitalize(condition);
  if (keyword === 'WHEN') return { name, steps: [['When', condition], then] };
  if (keyword === 'IF' && !STATE.test(condition))
    return { name, steps: [['When', condition], then] };
  const state = keyword === 'WHERE' ? `${condition} is included` : condition;
  return { name, steps: [['Given', state], ['When', action(f, req)], then] };
}

/**
 * A requirement group's criteria as one list of scenarios (`scenario` of
 * `@pgs/contract/document`); a criterion that is not EARS stays its sentence, still an item
 * opening with its ID.
 *
 * @example
 * scenarioList(f, req); // - **FR-3.1** Scenario: A reminder falls due\n  - **When** …
 */
export function scenarioList(f: Facts, req: Requirement): List {
  return list(
    req.criteria.map((c) => {
      // A coordination's criterion is a scenario of the part it tests ("asks to export reports").
      const owner = unitsOf(req).find((part) => part.criteria.some((k) => k.id === c.id)) ?? req;
      const parts = scenarioParts(f, owner, c);
      if (parts === undefined)
        return definitionNode(c.id, {
          form: 'item',
          spread: false,
          checked: null,
          children: [paragraph(strong(cite(c.id)), ' ', ...inline(c.text))],
        });
      const steps = parts.steps.map(([keyword, text]): StepInput => [keyword, ...inline(text)]);
      return scenario(c.id, inline(parts.name), steps);
    }),
  );
}
