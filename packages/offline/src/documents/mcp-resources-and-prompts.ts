/**
 * The resources, resource templates, prompts and subscriptions an MCP server offers.
 */
import { phrase } from '../facts/brief-model.ts';
import { requirementsOn } from '../facts/columns.ts';
import { toolsOf } from '../facts/delivery-model.ts';
import { theService } from '../facts/facts.ts';
import { blocks, bullets, code, ic, listingOf, p, t, table } from '../text/nodes.ts';
import { capitalize, kebab, listing, thirdPerson } from '../text/words.ts';
import type { KindWriter } from './kind.ts';

/**
 * The writers of MCP Resources and Prompts (MCP_RESOURCES_AND_PROMPTS.md): one per section of the
 * catalogue's `mcp-resources-and-prompts`, so a section missing or renamed there fails the build.
 */
export const MCP_RESOURCES_AND_PROMPTS = {
  purpose: 'This document specifies the resources, templates and prompts it offers to clients',
  sections: {
    Resources: (f) =>
      blocks(
        p`Resources give ${f.assistant} read-only context from ${f.name} without a tool call:`,
        table(
          ['URI', 'Content', 'Serves'],
          f.entities.map((e) => [
            ic(`${f.slug}://${e.path}/recent`),
            t`The 20 ${e.plural} most recently seen by ${f.name}`,
            requirementsOn(f, e)
              .map((r) => r.id)
              .join(', '),
          ]),
        ),
        p`Reading ${ic(`${f.slug}://${f.main.path}/recent`)} returns:`,
        code(
          'json',
          JSON.stringify(
            {
              contents: [
                {
                  uri: `${f.slug}://${f.main.path}/recent`,
                  mimeType: 'application/json',
                  text: JSON.stringify([
                    { id: 'a1b2c3', title: `${capitalize(f.main.label)} one` },
                  ]),
                },
              ],
            },
            null,
            2,
          ),
        ),
      ),

    'Resource templates': (f) => {
      const search = toolsOf(f).find((tool) => !tool.writes) ?? toolsOf(f)[0];
      return blocks(
        p`One template per entity lets a client read a single item by its ID:`,
        table(
          ['Template', 'Returns', 'Completion'],
          f.entities.map((e) => [
            ic(`${f.slug}://${e.path}/{id}`),
            t`One ${e.label} as ${f.name} last read it${requirementsOn(f, e)[0]?.service ? t` from ${requirementsOn(f, e)[0]!.service!.name}` : ''}`,
            t`The IDs of recent ${e.plural}, as the person types`,
          ]),
        ),
        p`An unknown ID returns a resource-not-found error that names the tool to search with${search ? t` (${ic(search.name)})` : ''}.`,
      );
    },

    Prompts: (f) => {
      const tools = toolsOf(f);
      const first = tools[0];
      return blocks(
        p`Prompts are starting points a person picks in ${f.assistant}; each one leads to the tools of one requirement:`,
        table(
          ['Prompt', 'Asks for', 'Uses', 'Serves'],
          tools.map((tool) => [
            ic(kebab(phrase(tool.req), 4)),
            `${capitalize(phrase(tool.req))}${tool.req.qualifiers.length > 0 ? ` ${tool.req.qualifiers.join(' ')}` : ''}`,
            ic(tool.name),
            tool.req.id,
          ]),
        ),
        first && p`${ic(kebab(phrase(first.req), 4))} expands to one user message:`,
        first &&
          code(
            'text',
            `${capitalize(phrase(first.req))}${first.req.qualifiers.length > 0 ? ` ${first.req.qualifiers.join(' ')}` : ''}, using the ${first.name} tool of ${f.name}. Say which ${first.req.ent.plural} you used, and stop if the tool reports an error.`,
          ),
        p`A prompt only assembles the request; the person sees each tool call it leads to.`,
      );
    },

    Subscriptions: (f) =>
      blocks(
        p`A client may subscribe to the resources above; ${f.name} checks ${listing(f.integrations.map((i) => theService(i.name))) || 'its source'} at most once a minute for them and sends ${ic('notifications/resources/updated')} when they change:`,
        bullets(
          f.entities.map((e) => {
            const reqs = requirementsOn(f, e);
            // Each way it changes once, however many requirements read or write it.
            const verbs = new Set(
              reqs.map((r) => (r.writes && !f.readOnly ? thirdPerson(r.verb) : '')),
            );
            const changes = [...verbs].map((verb) =>
              verb ? t`a tool call ${verb} ${e.a}` : t`${e.a} changes at its source`,
            );
            return t`${ic(`${f.slug}://${e.path}/recent`)} changes when ${listingOf(changes)}${reqs.length > 0 ? ` (${reqs.map((r) => r.id).join(', ')})` : ''}.`;
          }),
        ),
        p`Subscriptions end with the session; ${f.name} keeps nothing between sessions.`,
      ),
  },
} satisfies KindWriter<'mcp-resources-and-prompts'>;
