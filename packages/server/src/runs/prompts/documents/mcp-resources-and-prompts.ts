import type { DocumentPrompt } from '../types.ts';

/**
 * The prompt for MCP_RESOURCES_AND_PROMPTS.md: an MCP server's resources, templates, prompts and
 * subscriptions.
 */
export const MCP_RESOURCES_AND_PROMPTS: DocumentPrompt<'mcp-resources-and-prompts'> = {
  kind: 'mcp-resources-and-prompts',
  version: 1,
  reader:
    "The engineers implementing the server's resources, resource templates, prompts and " +
    'notifications, and the product lead deciding what the user and the host application, rather ' +
    'than the model, control.',
  purpose:
    'Define the context the server offers besides its tools: resources the host application or ' +
    'the user attaches for the model to read, templates for parameterised resources, prompts the ' +
    'user picks as ready-made tasks, and the notifications that tell clients when any of these ' +
    'change, each traced to the FRs it serves.',
  sections: {
    Resources:
      'One paragraph on what a resource is for this server (read-only data, addressed by URI, ' +
      'that the host application or the user chooses to put in front of the model) as opposed to ' +
      'a tool. Then a table with columns URI, Name, Title, MIME type, Contents, Requirements, ' +
      'one row per fixed resource. Use one URI scheme for the server (a custom scheme from the ' +
      "project's name, or `file://` for real files) and stable, readable paths. Say what " +
      '`resources/read` returns for each (text or blob, the size limit in KB, how it is kept ' +
      'small), and show one complete `resources/read` result in a json code block. If the ' +
      'product has no data worth exposing as a fixed resource, say so and why rather than ' +
      'inventing one.',
    'Resource templates':
      'A table with columns URI template, Variables, Returns, Completion, Requirements: each ' +
      'template as an RFC 6570 URI template, the meaning and format of each variable, the MIME ' +
      'type and contents returned, and whether its variables offer completion ' +
      '(`completion/complete`: which values are suggested, at most how many). Say how clients ' +
      'discover the concrete URIs, since `resources/list` does not enumerate them: from ' +
      '`resource_link` items in tool results, from completion, or from a listing resource.',
    Prompts:
      'Prompts are controlled by the user: clients show them as commands to pick (slash commands ' +
      'in several clients). Two to five prompts, one per recurring task in the requirements, ' +
      'each worth more than the user typing the sentence themselves. For each, a ### heading ' +
      'with its name (one naming style for all), its description as the user sees it in a menu, ' +
      'a table of its arguments with columns Argument, Required, Description, Completion, and ' +
      'the messages `prompts/get` returns as a json code block (roles `user` and `assistant`; ' +
      'text that states the task, the steps and the expected output, with resources embedded ' +
      'where they help).',
    Subscriptions:
      'The capabilities the server declares, as a json code block, with only what it implements: ' +
      '`resources` with `subscribe` and `listChanged`, `prompts` and `tools` with `listChanged`. ' +
      'Which resources support `resources/subscribe`, which change sends ' +
      '`notifications/resources/updated` for them, and how often at most (debounced to one ' +
      'notification per stated interval); when each list changes and its `list_changed` ' +
      'notification is sent. Subscriptions need a connection that stays open (stdio, or ' +
      'Streamable HTTP with its server-to-client stream) and many clients never subscribe, so ' +
      'say how every feature still works by reading again.',
  },
  rules: [
    'Cite FR and NFR IDs from the product requirements, written in full and never as a range; ' +
      'introduce no IDs of your own.',
    "Use the MCP specification's method and field names exactly (`resources/list`, " +
      '`resources/read`, `resources/templates/list`, `prompts/list`, `prompts/get`, `uri`, `name`, ' +
      '`title`, `mimeType`, `arguments`, `messages`), and describe no method the specification ' +
      'does not have.',
    'Name a tool only if it appears in a tools document you were given; otherwise let a prompt ' +
      'describe the task and leave the choice of tools to the model.',
    'About 1,000 to 2,000 words.',
  ],
  maxOutputTokens: 6_000,
};
