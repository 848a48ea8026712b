/**
 * The tools an MCP server exposes: the catalogue, input schemas, results and errors, and safety.
 */
import { phrase } from '../facts/brief-model.ts';
import { type Tool, toolsOf } from '../facts/delivery-model.ts';
import { theService } from '../facts/facts.ts';
import { settledOf } from '../facts/settled.ts';
import { blocks, bullets, code, ic, joined, p, t, table } from '../text/nodes.ts';
import { capitalize, listing, snake } from '../text/words.ts';
import type { KindWriter } from './kind.ts';

/** The JSON Schema of a tool's input, from its requirement's object and qualifiers. */
function schemaOf(tool: Tool): object {
  const req = tool.req;
  const properties: Record<string, object> = {};
  const required: string[] = [];
  if (tool.writes) {
    properties[`${snake(req.ent.label, 3)}_id`] = {
      type: 'string',
      description: `The ${req.ent.label} to ${req.verb}`,
    };
    required.push(`${snake(req.ent.label, 3)}_id`);
  } else {
    properties.query = {
      type: 'string',
      description: `Words that narrow which ${req.ent.plural} to ${req.verb}`,
    };
    properties.limit = { type: 'integer', minimum: 1, maximum: 50, default: 20 };
  }
  for (const q of req.qualifiers) {
    const hours = /^from the last\s+(\d+)\s+(\w+)/i.exec(q);
    const by = /^by\s+(\w+)/i.exec(q);
    const lang = /language/i.test(q);
    if (hours)
      properties.since_hours = {
        type: 'integer',
        minimum: 1,
        maximum: Number(hours[1]),
        default: Number(hours[1]),
        description: `Only ${req.ent.plural} ${q}`,
      };
    else if (by)
      properties.group_by = {
        type: 'string',
        enum: [by[1]!.toLowerCase()],
        description: `Results ${q}`,
      };
    else if (lang)
      properties.language = {
        type: 'string',
        description: `The language to write in; by default ${q.replace(/^in\s+/i, '')}`,
      };
    else if (/\bapproval\b/i.test(q)) {
      properties.approval_id = {
        type: 'string',
        description: 'The approval given for this request',
      };
      required.push('approval_id');
    }
  }
  return { type: 'object', properties, required, additionalProperties: false };
}

/** What a tool's input is written as: a Zod schema, a Pydantic model, or a schema. */
const schemaIn = (library: string | undefined) =>
  library === undefined
    ? 'a schema'
    : library === 'Pydantic'
      ? 'a Pydantic model'
      : `a ${library} schema`;

function annotations(tool: Tool): string {
  if (!tool.writes) return 'readOnlyHint: true';
  return `readOnlyHint: false, destructiveHint: ${/^(?:restart|close|delete|remove|cancel)$/.test(tool.req.verb)}`;
}

/**
 * The writers of MCP Tools (MCP_TOOLS.md): one per section of the catalogue's `mcp-tools`, so a
 * section missing or renamed there fails the build.
 */
export const MCP_TOOLS = {
  purpose: 'This document specifies the tools it exposes to AI assistants',
  sections: {
    'Tool catalogue': (f) => {
      const tools = toolsOf(f);
      return blocks(
        p`${f.name} gives ${f.assistant} ${tools.length} tools, one per requirement it serves${f.readOnly ? '; the idea calls it read-only, so every tool only reads' : ''}.`,
        table(
          ['Tool', 'Does', 'Reads or writes', 'Annotations', 'Serves'],
          tools.map((tool) => [
            ic(tool.name),
            tool.req.text,
            tool.writes ? (tool.approval ? 'Writes, once approved' : 'Writes') : 'Reads',
            annotations(tool),
            tool.req.criteria
              .filter((c) => c.role !== 'unwanted')
              .map((c) => c.id)
              .join(', '),
          ]),
        ),
        p`What each tool's description tells ${f.assistant}, so that it picks the right one:`,
        bullets(
          tools.map(
            (tool) =>
              t`${ic(tool.name)}: "${capitalize(phrase(tool.req))}${tool.req.qualifiers.length > 0 ? ` ${tool.req.qualifiers.join(' ')}` : ''}${tool.req.service ? ` in ${tool.req.service.name}` : ''}. ${tool.writes ? (tool.approval ? 'Changes data; needs an approval.' : 'Changes data.') : 'Only reads.'} ${tool.req.kind === 'read' ? `Returns at most 50 ${tool.req.ent.plural}.` : `Returns the ${tool.req.ent.label} it acted on.`}"`,
          ),
        ),
      );
    },

    'Input schemas': (f) =>
      blocks(
        p`Each tool's input is ${schemaIn(settledOf(f).stack.validation)} in ${f.name}, published to ${f.assistant} as JSON Schema:`,
        toolsOf(f).map((tool) => [
          p`${ic(tool.name)} (${tool.req.id}):`,
          code('json', JSON.stringify(schemaOf(tool), null, 2)),
        ]),
      ),

    'Results and errors': (f) => {
      const first = toolsOf(f)[0];
      return blocks(
        p`Every tool of ${f.name} answers with a short text for ${f.assistant} and the same data as structured content.${first ? t` For ${ic(first.name)}:` : ''}`,
        first &&
          code(
            'json',
            JSON.stringify(
              {
                content: [{ type: 'text', text: `${capitalize(first.req.ent.plural)}: 2 found.` }],
                structuredContent: {
                  items: [{ id: 'a1b2c3', title: `${capitalize(first.req.ent.label)} one` }],
                },
                isError: false,
              },
              null,
              2,
            ),
          ),
        bullets(
          toolsOf(f).map((tool) => {
            const c = tool.req.criteria.at(-1)!;
            return t`${ic(tool.name)} reports a failure as a tool error with ${'isError: true'} and a sentence ${f.assistant} can act on (${c.id}).`;
          }),
        ),
      );
    },

    Safety: (f) => {
      const tools = toolsOf(f);
      const writers = tools.filter((tool) => tool.writes);
      return blocks(
        p`${f.name} acts for a person, so what it can do is fixed by its tools:`,
        bullets([
          f.readOnly
            ? t`Every tool only reads (${joined(
                tools.map((tool) => ic(tool.name)),
                ', ',
              )}), over credentials that cannot write (${f.requirements
                .flatMap((r) => r.criteria.filter((c) => c.role === 'readonly').map((c) => c.id))
                .slice(0, 3)
                .join(', ')}).`
            : writers.length > 0
              ? t`Tools that change data (${joined(
                  writers.map((tool) => ic(tool.name)),
                  ', ',
                )}) ${writers.every((tool) => tool.approval) ? 'wait for the approval the idea requires' : writers.some((tool) => tool.approval) ? 'wait for the approval the idea requires, or ask the client to confirm each call' : 'ask the client to confirm each call'}.`
              : t`No tool changes data; each one reads.`,
          t`Text returned from ${listing(f.integrations.map((i) => theService(i.name))) || 'upstream'} is passed on as data and never followed as instructions.`,
          t`Each call is logged with the tool, the duration and the outcome, never with its arguments.`,
        ]),
      );
    },
  },
} satisfies KindWriter<'mcp-tools'>;
