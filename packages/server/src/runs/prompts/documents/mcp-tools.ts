import type { DocumentPrompt } from '../types.ts';

/**
 * The prompt for MCP_TOOLS.md: an MCP server's tools, their schemas, results, errors and safety.
 */
export const MCP_TOOLS: DocumentPrompt<'mcp-tools'> = {
  kind: 'mcp-tools',
  version: 2,
  reader:
    "The engineers implementing the server's tools and, through them, the AI model that reads " +
    "each tool's name, description and input schema to decide when and how to call it. Reviewers " +
    'use it to check that no tool can do more than the user intends.',
  purpose:
    "Define the server's tools: a small set designed around what users ask their assistant to " +
    'do, each with a description written for the model that calls it, an exact JSON Schema for ' +
    'its input, annotations that tell clients how careful to be, defined results and errors, and ' +
    'the safety controls around anything that writes, with every tool traced to the FRs it ' +
    'serves.',
  sections: {
    'Tool catalogue':
      'A table with one row per tool, columns Tool, Title, Does, Annotations, Requirements. ' +
      'Names are snake_case verb and object (`search_orders`, `cancel_order`), unique, at most ' +
      '64 characters of letters, digits, underscores and hyphens. Annotations give ' +
      '`readOnlyHint` for every tool and, for tools that change something, `destructiveHint` and ' +
      "`idempotentHint`, plus `openWorldHint` when the tool reaches beyond the server's own " +
      'data. Then, for each tool, the exact description the model will read, as a blockquote of ' +
      'two to four sentences: what the tool does, when to use it rather than its neighbours, ' +
      'what it returns and its limits, and the inputs that are easy to get wrong (formats, ' +
      'units, time zones, where an ID comes from).',
    'Input schemas':
      'For each tool, a ### heading with its name and a json code block with its `inputSchema`: ' +
      '`"type": "object"`, each property with its `type` and a `description` the model can act ' +
      'on, `required`, `"additionalProperties": false`, and the constraints that prevent bad ' +
      'calls (`enum` for closed sets, `minimum` and `maximum`, `maxLength`, `pattern` or ' +
      '`format` for identifiers and dates, defaults stated). Keep inputs few and flat, and ' +
      "prefer identifiers the model can take from another tool's result, saying which. Where a " +
      'tool returns structured data, a second json code block gives its `outputSchema`.',
    'Results and errors':
      'What each tool returns: the `content` items (text, and `resource_link` items where the ' +
      'model should read more), `structuredContent` matching the output schema, and the limits ' +
      "that keep a result within a model's context (maximum items, a `cursor` to fetch more, " +
      'text truncated at a stated number of characters with a note saying so). Then the errors: ' +
      'everything the model could fix or explain by calling again (arguments that fail ' +
      'validation, values not found, conflicts, upstream refusals, rate limits) comes back as a ' +
      'tool result with `isError: true` and a message saying what went wrong and how to correct ' +
      'the call; only protocol faults (an unknown tool, a malformed request) are JSON-RPC ' +
      'errors. A table with columns Tool, Failure, Message the model reads, and one complete ' +
      'error result in a json code block.',
    Safety:
      'For every tool that writes, deletes, sends or spends: the most it can affect (scope, ' +
      "count, amount), the confirmation it relies on (the client's approval prompt, which the " +
      'annotations inform; for irreversible actions, a preview step or a `dry_run` input before ' +
      'the real call), and how the effect can be undone. Then the server-wide controls: ' +
      'least-privilege credentials and scopes for each upstream system; per-tool rate limits in ' +
      'numbers; validation of every argument on the server whatever the schema says; text from ' +
      'upstream systems treated as data, since it may contain instructions aimed at the model, ' +
      'and marked as quoted content in results; no secrets or tokens in results or logs; and an ' +
      'audit log of every write call (who, what, when, outcome).',
  },
  rules: [
    'Design tools around the tasks in the requirements, not one per upstream API endpoint: ' +
      'usually five to fifteen tools. Merge tools a model would confuse; split a tool whose ' +
      'behaviour changes with a mode flag.',
    'Cite FR, FR-n.m and NFR IDs from the product requirements and the US IDs of the stories a ' +
      'tool serves, written in full and never as a range; introduce no IDs of your own. Every FR ' +
      'that needs the assistant to act is served by at least one tool, and the tools run on the ' +
      "architecture's components.",
    'Hold to what the idea allows: a server the idea calls read-only has no tool that creates, ' +
      'changes or deletes anything, and no confirmation step for writes it cannot make.',
    'Schemas are valid JSON Schema and agree with the catalogue and the descriptions. The top ' +
      'level is a plain object without `oneOf`, `anyOf` or `allOf`, which several clients reject; ' +
      'no `$ref` to external documents.',
    'Descriptions are for a model choosing between tools: no marketing, no restating the name, ' +
      'and the difference from the nearest other tool made explicit.',
    'About 200 to 300 words per tool plus about 500 for the rest; with many tools keep each ' +
      'description tight, so that the Safety section is still written.',
  ],
  maxOutputTokens: 8_000,
};
