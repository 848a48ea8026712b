import { describe, expect, it } from 'vitest';
import { documentRequest } from '../../test/plan.ts';
import { defineProject, writeDocument } from '../index.ts';

/** The Subscriptions bullet of an MCP server's resource of that path. */
function subscription(idea: string, path: string): string {
  const definition = defineProject({ idea, type: 'mcp' });
  const document = documentRequest('mcp-resources-and-prompts');
  const markdown = writeDocument({ idea, definition, document, related: [] });
  const section = markdown.split('## Subscriptions')[1] ?? '';
  return section.split('\n').find((line) => line.includes(`://${path}/recent\``)) ?? '';
}

describe('MCP resources and prompts', () => {
  it('says once that an entity changes at its source, however many requirements read it', () => {
    const line = subscription(
      'A read-only MCP server for Kubernetes that lets Claude list failing pods by namespace and summarise pods by label',
      'pods',
    );
    expect(line.match(/\(FR-\d+(?:, FR-\d+)+\)/)).not.toBe(null);
    expect(line.match(/a pod changes at its source/g)).toHaveLength(1);
  });

  it('says once that a tool call does a thing to an entity, however many requirements do it', () => {
    const line = subscription(
      'An MCP server for Kubernetes that lets Claude restart pods by name and restart pods by label',
      'pods',
    );
    expect(line.match(/a tool call restarts a pod/g)).toHaveLength(1);
  });
});
