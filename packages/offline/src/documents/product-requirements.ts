/**
 * The product requirements and the user stories: one FR group per core feature with its EARS
 * criteria, the entities and NFRs, then stories that cite the criteria accepting them.
 */
import { nfrsOf, phrase } from '../facts/brief-model.ts';
import { attributesOf, requirementsOn } from '../facts/columns.ts';
import { epicsOf, storiesOf } from '../facts/delivery-model.ts';
import type { Facts, Requirement, SectionWriter } from '../facts/facts.ts';
import { ids, theService } from '../facts/facts.ts';
import { blocks, bullets, table } from '../text/markdown.ts';
import {
  capitalize,
  decapitalize,
  gerund,
  listing,
  thirdPerson,
  uncountable,
} from '../text/words.ts';

/** The requirement's statement: what the system does, and for whom. */
export function statement(f: Facts, req: Requirement): string {
  const through =
    req.service && !req.text.toLowerCase().includes(req.service.name.toLowerCase())
      ? ` through ${theService(req.service.name)}`
      : '';
  if (!req.fromIdea)
    return `${f.name} must ${decapitalize(req.text)}${through} for the other features to work; the idea does not name it, so it is a Should.`;
  return f.type === 'mcp'
    ? `${f.name} lets ${f.assistant} ${decapitalize(req.text)}${through} for the person using it, as the idea states.`
    : `${f.name} lets ${f.who} ${decapitalize(req.text)}${through}, as the idea states.`;
}

/** What an edge case does to a requirement, from the criterion that covers it. */
function edge(f: Facts, req: Requirement): string[] {
  const items: string[] = [];
  const first = req.criteria[0]!;
  if (req.kind === 'create' || req.kind === 'change')
    items.push(
      `The same request to ${phrase(req)} arrives twice (a double tap, a retry): ${req.ent.a} is ${req.kind === 'create' ? 'stored' : 'changed'} once, as ${first.id} is met once.`,
    );
  if (req.kind === 'read')
    items.push(
      `More ${uncountable(req.ent.label) ? req.ent.label : req.ent.plural} match a request to ${phrase(req)} than fit one answer: the first page comes back within the time of ${first.id}, with a way to narrow it.`,
    );
  if (req.kind === 'send')
    items.push(
      `Two ${req.ent.plural} fall due at the same moment: each goes out once, as ${first.id} requires.`,
    );
  for (const c of req.criteria) {
    if (c.role === 'unwanted' && req.service)
      items.push(
        `${capitalize(theService(req.service.name))} fails while ${f.name} is ${gerund(phrase(req))}: ${c.id} says what happens, and nothing is half done.`,
      );
    else if (c.role === 'unwanted' && req.kind === 'read')
      items.push(
        `Nothing matches a request to ${phrase(req)}: the answer says so instead of showing an empty result (${c.id}).`,
      );
    else if (c.role === 'unwanted' && req.kind === 'create')
      items.push(
        `${capitalize(req.ent.a)} is stored with a required field empty: it is refused and the input kept (${c.id}).`,
      );
    else if (c.role === 'unwanted' && !req.verb.startsWith('sign') && req.verb !== 'connect')
      items.push(
        `Someone without the right tries to ${req.verb} ${req.ent.a}: it is refused and left unchanged (${c.id}).`,
      );
    else if (c.role === 'unwanted')
      items.push(
        `${capitalize(gerund(phrase(req)))} fails at the first step: ${c.id} says what the person sees.`,
      );
    else if (c.role === 'offline')
      items.push(
        `The connection drops halfway through ${gerund(phrase(req))}: the work goes on from the device (${c.id}).`,
      );
    else if (c.role === 'approval')
      items.push(
        `The approval to ${req.verb} ${req.ent.a} never comes: it stays as it is and the request says whose approval is missing (${c.id}).`,
      );
    else if (c.role === 'readonly')
      items.push(
        `${capitalize(f.assistant)} is asked to change what it reads while ${gerund(phrase(req))}: the request is refused (${c.id}).`,
      );
    else if (c.role === 'quality' && /has had no change for/.test(c.text))
      items.push(
        `${capitalize(req.ent.a)} changes one day before the limit: the count starts again (${c.id}).`,
      );
  }
  return items;
}

export const PRODUCT_SECTIONS: Record<string, SectionWriter> = {
  'product-requirements/Summary': (f) => {
    const musts = f.requirements.filter((r) => r.priority === 'Must');
    return blocks(
      f.description,
      `These requirements turn the brief of ${f.name} into ${f.requirements.length} functional requirement groups (${f.requirements[0]!.id} to ${f.requirements.at(-1)!.id}, ${musts.length} of them Must) with acceptance criteria in EARS form, and ${nfrsOf(f).length} non-functional requirements. Stories, components and tasks cite these IDs.`,
      bullets([
        `Audience: ${f.who}`,
        `Platforms: ${listing(f.platforms)}`,
        `Services: ${listing(f.integrations.map((i) => theService(i.name))) || 'none named in the idea'}`,
      ]),
    );
  },

  'product-requirements/Personas': (f) =>
    blocks(
      `${f.name}'s personas are the roles the idea names, described only by what they do with it; no biography is invented for them.`,
      table(
        ['Persona', 'Source', 'Uses'],
        [
          [
            capitalize(f.role),
            f.reading.audience ? `"${f.who}" in the idea` : 'A neutral description',
            listing(f.requirements.map((r) => r.id)),
          ],
          ...(f.type === 'mcp'
            ? [
                [
                  capitalize(f.assistant),
                  'The AI client the idea names',
                  `Calls the tools behind ${listing(f.requirements.filter((r) => r.verb !== 'connect').map((r) => r.id))}`,
                ],
              ]
            : []),
          [
            `The person who sets ${f.name} up`,
            `An assumption (${f.assumptions[1]?.id ?? 'A-1'})`,
            listing(f.requirements.filter((r) => !r.fromIdea).map((r) => r.id)) ||
              `The set-up of ${f.name}`,
          ],
        ],
      ),
    ),

  'product-requirements/Key entities': (f) =>
    blocks(
      `What ${f.name} stores or acts on, from the objects of its features:`,
      table(
        ['Entity', 'What it is', 'Key attributes', 'Related to'],
        f.entities.map((e) => {
          const reqs = requirementsOn(f, e);
          return [
            e.name,
            `What ${f.name} ${listing([...new Set(reqs.map((r) => thirdPerson(r.verb)))])}: ${listing(reqs.map((r) => r.id))}`,
            attributesOf(f, e)
              .slice(1, 5)
              .map((a) => a.name)
              .join(', '),
            f.type === 'mcp'
              ? reqs[0]?.service
                ? reqs[0].service.name
                : f.assistant
              : `The account that owns it${e === f.main ? '' : `; may refer to ${f.main.a}`}`,
          ];
        }),
      ),
    ),

  'product-requirements/Functional requirements': (f) =>
    blocks(
      `One group per core feature of ${f.name}, in the definition's order. Every criterion is testable as written.`,
      ...f.requirements.map((req) =>
        blocks(
          `### ${req.id} ${req.text} (${req.priority})`,
          statement(f, req),
          req.dependsOn.length > 0 ? `Depends on: ${req.dependsOn.join(', ')}` : '',
          ...req.criteria.map((c) => `**${c.id}** ${c.text}`),
        ),
      ),
    ),

  'product-requirements/Non-functional requirements': (f) =>
    blocks(
      `These hold for every feature of ${f.name}; each states a number, the condition it holds under and how it is measured.`,
      ...nfrsOf(f).map((n) => `**${n.id}** (${n.category}) ${n.text}`),
    ),

  'product-requirements/Out of scope': (f) =>
    blocks(
      `Left out of ${f.name}'s first release on purpose, so the requirements above stay small enough to build and test:`,
      bullets(
        f.nonGoals.length > 0
          ? f.nonGoals
          : [`Anything beyond ${listing(f.requirements.map(phrase))}`],
      ),
      f.questions.length > 0
        ? `Until ${listing(f.questions.map((q) => q.id))} ${f.questions.length === 1 ? 'is' : 'are'} answered, nothing beyond the defaults of the assumptions is built for ${listing([...new Set(f.questions.map((q) => `"${q.affects}"`))])}.`
        : '',
    ),

  'user-stories/Epics': (f) => {
    const stories = storiesOf(f);
    const epics = epicsOf(f);
    return blocks(
      `The stories of ${f.name} are grouped by what they act on: one epic per entity of the requirements.`,
      table(
        ['Epic', 'Stories', 'Requirements'],
        epics.map((epic) => [
          epic.name,
          stories
            .filter((s) => epic.reqs.includes(s.req))
            .map((s) => s.id)
            .join(', '),
          epic.reqs.map((r) => r.id).join(', '),
        ]),
      ),
      bullets(
        epics.map(
          (epic) =>
            `**${epic.name}**: ${listing(epic.reqs.map((r) => `${decapitalize(r.text)} (${r.priority})`))}${epic.reqs.some((r) => r.service) ? `, through ${listing([...new Set(epic.reqs.flatMap((r) => (r.service ? [theService(r.service.name)] : [])))])}` : ''}.`,
        ),
      ),
    );
  },

  'user-stories/Stories': (f) =>
    blocks(
      `Each story cites the criteria that accept it; the criteria live in the requirements of ${f.name} and are not restated here.`,
      ...storiesOf(f).map((s) =>
        blocks(
          `### ${s.id} ${s.title} (${s.priority})`,
          `As ${s.as}, I want ${s.want}, so that ${s.outcome}.`,
          `Criteria: ${ids(s.criteria)}`,
          s.req.dependsOn.length > 0
            ? `It rests on ${listing(s.req.dependsOn)}: if the client answers otherwise, this story changes with ${s.req.id}.`
            : `Nothing the idea leaves open bears on it; ${s.req.id} is settled as written.`,
        ),
      ),
    ),

  'user-stories/Edge cases': (f) =>
    blocks(
      `Cases at the edges of ${f.name}'s stories, each with the criterion that settles it:`,
      bullets(f.requirements.flatMap((r) => edge(f, r))),
    ),
};
