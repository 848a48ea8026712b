/**
 * The user stories: epics by requirement group, one story per criterion group citing the criteria
 * that accept it, and the edge cases each settled by a criterion.
 */
import { type Priority, story } from '@pgs/contract/document';
import { phrase } from '../facts/brief-model.ts';
import { epicsOf, storiesOf } from '../facts/delivery-model.ts';
import type { Facts, Requirement } from '../facts/facts.ts';
import { ids, theService } from '../facts/facts.ts';
import { blocks, bold, bullets, type Inline, inline, p, t, table } from '../text/nodes.ts';
import { capitalize, decapitalize, gerund, listing, uncountable } from '../text/words.ts';
import type { KindWriter } from './kind.ts';

/** What an edge case does to a requirement, from the criterion that covers it. */
function edge(f: Facts, req: Requirement): Inline[] {
  const items: Inline[] = [];
  const first = req.criteria[0]!;
  if (req.kind === 'create' || req.kind === 'change')
    items.push(
      t`The same request to ${phrase(req)} arrives twice (a double tap, a retry): ${req.ent.a} is ${req.kind === 'create' ? 'stored' : 'changed'} once, as ${first.id} is met once.`,
    );
  if (req.kind === 'read')
    items.push(
      t`More ${uncountable(req.ent.label) ? req.ent.label : req.ent.plural} match a request to ${phrase(req)} than fit one answer: the first page comes back within the time of ${first.id}, with a way to narrow it.`,
    );
  if (req.kind === 'send')
    items.push(
      t`Two ${req.ent.plural} fall due at the same moment: each goes out once, as ${first.id} requires.`,
    );
  for (const c of req.criteria) {
    if (c.role === 'unwanted' && req.service)
      items.push(
        t`${capitalize(theService(req.service.name))} fails while ${f.name} is ${gerund(phrase(req))}: ${c.id} says what happens, and nothing is half done.`,
      );
    else if (c.role === 'unwanted' && req.kind === 'read')
      items.push(
        t`Nothing matches a request to ${phrase(req)}: the answer says so instead of showing an empty result (${c.id}).`,
      );
    else if (c.role === 'unwanted' && req.kind === 'create')
      items.push(
        t`${capitalize(req.ent.a)} is stored with a required field empty: it is refused and the input kept (${c.id}).`,
      );
    else if (c.role === 'unwanted' && !req.verb.startsWith('sign') && req.verb !== 'connect')
      items.push(
        t`Someone without the right tries to ${req.verb} ${req.ent.a}: it is refused and left unchanged (${c.id}).`,
      );
    else if (c.role === 'unwanted')
      items.push(
        t`${capitalize(gerund(phrase(req)))} fails at the first step: ${c.id} says what the person sees.`,
      );
    else if (c.role === 'offline')
      items.push(
        t`The connection drops halfway through ${gerund(phrase(req))}: the work goes on from the device (${c.id}).`,
      );
    else if (c.role === 'approval')
      items.push(
        t`The approval to ${req.verb} ${req.ent.a} never comes: it stays as it is and the request says whose approval is missing (${c.id}).`,
      );
    else if (c.role === 'readonly')
      items.push(
        t`${capitalize(f.assistant)} is asked to change what it reads while ${gerund(phrase(req))}: the request is refused (${c.id}).`,
      );
    else if (c.role === 'quality' && /has had no change for/.test(c.text))
      items.push(
        t`${capitalize(req.ent.a)} changes one day before the limit: the count starts again (${c.id}).`,
      );
  }
  return items;
}

/**
 * The writers of User Stories (USER_STORIES.md): one per section of the catalogue's `user-
 * stories`, so a section missing or renamed there fails the build.
 */
export const USER_STORIES = {
  purpose: 'These stories describe the work from the point of view of the people who will use it',
  sections: {
    Epics: (f) => {
      const stories = storiesOf(f);
      const epics = epicsOf(f);
      return blocks(
        p`The stories of ${f.name} are grouped by what they act on: one epic per entity of the requirements.`,
        table(
          ['Epic', 'Stories', 'Requirements'],
          epics.map((epic) => [
            epic.name,
            stories
              .filter((s) => epic.reqs.some((r) => r.id === s.req.id))
              .map((s) => s.id)
              .join(', '),
            [...new Set(epic.reqs.map((r) => r.id))].join(', '),
          ]),
        ),
        bullets(
          epics.map((epic) => {
            const services = [
              ...new Set(epic.reqs.flatMap((r) => (r.service ? [theService(r.service.name)] : []))),
            ];
            return t`${bold(epic.name)}: ${listing(epic.reqs.map((r) => `${decapitalize(r.text)} (${r.priority})`))}${services.length > 0 ? t`, through ${listing(services)}` : ''}.`;
          }),
        ),
      );
    },

    Stories: (f) =>
      blocks(
        f.requirementStyle === 'gherkin'
          ? p`Each story cites the scenarios that accept it; the scenarios, with their Given/When/Then steps, live in the requirements of ${f.name} and are not restated here.`
          : p`Each story cites the criteria that accept it; the criteria live in the requirements of ${f.name} and are not restated here.`,
        storiesOf(f).map((s) =>
          story({
            id: s.id,
            title: inline(s.title),
            priority: s.priority.toLowerCase() as Priority,
            body: [
              p`As ${s.as}, I want ${s.want}, so that ${s.outcome}.`,
              p`Criteria: ${ids(s.criteria)}`,
              s.req.dependsOn.length > 0
                ? p`It rests on ${listing(s.req.dependsOn)}: if the client answers otherwise, this story changes with ${s.req.id}.`
                : p`Nothing the idea leaves open bears on it; ${s.req.id} is settled as written.`,
            ],
          }),
        ),
      ),

    'Edge cases': (f) =>
      blocks(
        p`Cases at the edges of ${f.name}'s stories, each with the criterion that settles it:`,
        bullets(f.requirements.flatMap((r) => edge(f, r))),
      ),
  },
} satisfies KindWriter<'user-stories'>;
