/**
 * The product requirements: one FR group per core feature with its criteria (EARS sentences, or
 * Given/When/Then scenarios in a Gherkin project: scenarios.ts), the personas,
 * the key entities and the NFRs; a grounded project writes each group as a change to the code that
 * exists.
 */

import { criterion, nfr, type Priority, requirement } from '@pgs/contract/document';
import { nfrsOf, phrase } from '../facts/brief-model.ts';
import { attributesOf, requirementsOn } from '../facts/columns.ts';
import type { Facts, Requirement } from '../facts/facts.ts';
import { theService } from '../facts/facts.ts';
import { keptPerInstall, settledOf, withoutAccounts } from '../facts/settled.ts';
import {
  type BlockPart,
  blocks,
  bullets,
  type FlowContent,
  type Inline,
  ic,
  inline,
  p,
  t,
  table,
} from '../text/nodes.ts';
import { capitalize, decapitalize, listing, thirdPerson } from '../text/words.ts';
import { change, codebaseOf, today } from './grounded.ts';
import type { KindWriter } from './kind.ts';
import { scenarioList } from './scenarios.ts';
import { setupAssumption } from './settled-text.ts';

/** A group's criteria in the project's style: EARS paragraphs, or one list of scenarios. */
function criteriaOf(f: Facts, req: Requirement): FlowContent[] {
  return f.requirementStyle === 'gherkin'
    ? [scenarioList(f, req)]
    : req.criteria.map((c) => criterion(c.id, ...inline(c.text)));
}

/** What a criterion is, as the document's prose says it. */
const criteriaForm = (f: Facts) =>
  f.requirementStyle === 'gherkin' ? 'as Given/When/Then scenarios' : 'in EARS form';

/** The functional requirements' opening promise, by style. */
const testable = (f: Facts) =>
  f.requirementStyle === 'gherkin'
    ? 'Every scenario is testable as written: its When is the event, its Then what can be observed.'
    : 'Every criterion is testable as written.';

/** The requirement's statement: what the system does, and for whom. */
export function statement(f: Facts, req: Requirement): Inline {
  const through =
    req.service && !req.text.toLowerCase().includes(req.service.name.toLowerCase())
      ? t` through ${theService(req.service.name)}`
      : '';
  if (!req.fromIdea)
    return t`${f.name} must ${decapitalize(req.text)}${through} for the other features to work; the idea does not name it, so it is a Should.`;
  return f.type === 'mcp'
    ? t`${f.name} lets ${f.assistant} ${decapitalize(req.text)}${through} for the person using it, as the idea states.`
    : t`${f.name} lets ${f.who} ${decapitalize(req.text)}${through}, as the idea states.`;
}

/**
 * A requirement group `FR-n`: its heading, its statement, what a grounded project says of the
 * code (`grounded`), what it depends on and its criteria, as the parser reads them back.
 */
function group(f: Facts, req: Requirement, grounded: BlockPart = false) {
  return requirement({
    id: req.id,
    title: inline(req.text),
    priority: req.priority.toLowerCase() as Priority,
    body: blocks(
      p(statement(f, req)),
      grounded,
      req.dependsOn.length > 0 && p`Depends on: ${req.dependsOn.join(', ')}`,
      criteriaOf(f, req),
    ),
  });
}

/**
 * The writers of Product Requirements (PRODUCT_REQUIREMENTS.md): one per section of the
 * catalogue's `product-requirements`, so a section missing or renamed there fails the build.
 */
export const PRODUCT_REQUIREMENTS = {
  purpose: 'These requirements turn the brief into numbered, testable statements',
  sections: {
    Summary: (f) => {
      const musts = f.requirements.filter((r) => r.priority === 'Must');
      return blocks(
        p(f.description),
        p`These requirements turn the brief of ${f.name} into ${f.requirements.length} functional requirement groups (${f.requirements[0]!.id} to ${f.requirements.at(-1)!.id}, ${musts.length} of them Must) with acceptance criteria ${criteriaForm(f)}, and ${nfrsOf(f).length} non-functional requirements. Stories, components and tasks cite these IDs.`,
        bullets([
          t`Audience: ${f.who}`,
          t`Platforms: ${listing(f.platforms)}`,
          t`Services: ${listing(f.integrations.map((i) => theService(i.name))) || 'none named in the idea'}`,
        ]),
      );
    },

    Personas: (f) =>
      blocks(
        p`${f.name}'s personas are the roles the idea names, described only by what they do with it; no biography is invented for them.`,
        table(
          ['Persona', 'Source', 'Uses'],
          [
            [
              capitalize(f.role),
              f.reading.audience ? t`"${f.who}" in the idea` : 'A neutral description',
              listing(f.requirements.map((r) => r.id)),
            ],
            ...(f.type === 'mcp'
              ? [
                  [
                    capitalize(f.assistant),
                    'The AI client the idea names',
                    t`Calls the tools behind ${listing(f.requirements.filter((r) => r.verb !== 'connect').map((r) => r.id))}`,
                  ],
                ]
              : []),
            [
              t`The person who sets ${f.name} up`,
              setupAssumption(f) === undefined && settledOf(f).answered.signIn
                ? "The team's answer on sign-in"
                : t`An assumption (${setupAssumption(f) ?? 'A-1'})`,
              listing(f.requirements.filter((r) => !r.fromIdea).map((r) => r.id)) ||
                t`The set-up of ${f.name}`,
            ],
          ],
        ),
      ),

    'Key entities': (f) =>
      blocks(
        p`What ${f.name} stores or acts on, from the objects of its features:`,
        table(
          ['Entity', 'What it is', 'Key attributes', 'Related to'],
          f.entities.map((e) => {
            const reqs = requirementsOn(f, e);
            return [
              e.name,
              t`What ${f.name} ${listing([...new Set(reqs.map((r) => thirdPerson(r.verb)))])}: ${listing(reqs.map((r) => r.id))}`,
              attributesOf(f, e)
                .slice(1, 5)
                .map((a) => a.name)
                .join(', '),
              f.type === 'mcp'
                ? reqs[0]?.service
                  ? reqs[0].service.name
                  : f.assistant
                : t`${withoutAccounts(f) ? (keptPerInstall(f) ? 'The install of the app that made it' : 'Shared by everyone who uses it') : 'The account that owns it'}${e === f.main ? '' : t`; may refer to ${f.main.a}`}`,
            ];
          }),
        ),
      ),

    'Functional requirements': (f) =>
      blocks(
        p`One group per core feature of ${f.name}, in the definition's order. ${testable(f)}`,
        f.requirements.map((req) => group(f, req)),
      ),

    'Non-functional requirements': (f) =>
      blocks(
        p`These hold for every feature of ${f.name}; each states a number, the condition it holds under and how it is measured.`,
        nfrsOf(f).map((n) => nfr(n.id, ...t`(${n.category}) ${n.text}`)),
      ),

    'Out of scope': (f) =>
      blocks(
        p`Left out of ${f.name}'s first release on purpose, so the requirements above stay small enough to build and test:`,
        bullets(
          f.nonGoals.length > 0
            ? f.nonGoals
            : [t`Anything beyond ${listing(f.requirements.map(phrase))}`],
        ),
        f.questions.length > 0 &&
          p`Until ${listing(f.questions.map((q) => q.id))} ${f.questions.length === 1 ? 'is' : 'are'} answered, nothing beyond the defaults of the assumptions is built for ${listing([...new Set(f.questions.map((q) => `"${q.affects}"`))])}.`,
      ),
  },
  grounded: {
    'Functional requirements': (f) =>
      blocks(
        p`One group per core feature of ${f.name}, each written as a change to ${ic(codebaseOf(f).name)}: what exists today, then what changes. ${testable(f)}`,
        f.requirements.map((req) => group(f, req, [p(today(f, req)), p(change(f, req))])),
      ),
  },
} satisfies KindWriter<'product-requirements'>;
