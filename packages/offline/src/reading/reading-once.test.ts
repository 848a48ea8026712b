import type { ProjectType } from '@pgs/contract';
import { describe, expect, it } from 'vitest';
import { documentRequests } from '../../test/plan.ts';
import { defineProject, writeDocument } from '../index.ts';
import { readIdeaNlp } from './reading.ts';
import { readIdeaOnce } from './reading-once.ts';

const IDEAS: [ProjectType, string][] = [
  ['web', 'A web app for small veterinary clinics to book appointments and send vaccine reminders'],
  ['mobile', 'A mobile app for runners to log runs offline and follow a 16-week marathon plan'],
  ['mcp', 'An MCP server that lets Claude query our Postgres analytics warehouse read-only'],
];

describe('readIdeaOnce', () => {
  it('reads an idea once, as readIdeaNlp reads it', () => {
    const [, idea] = IDEAS[0]!;
    const reading = readIdeaOnce(idea);
    expect(readIdeaOnce(`${idea}`)).toBe(reading);
    expect(reading).toEqual(readIdeaNlp(idea));
  });

  // Every document of a project shares the reading: a writer that changed it would change
  // the next document. Frozen, a change throws here, in every document kind of every type.
  it.each(IDEAS)('is left as read by every %s document', (type, idea) => {
    const definition = defineProject({ idea, type });
    for (const requirementStyle of ['ears', 'gherkin'] as const)
      for (const document of documentRequests(type))
        writeDocument({ idea, definition, document, related: [], requirementStyle });
    expect(Object.isFrozen(readIdeaOnce(idea).capabilities[0])).toBe(true);
    expect(readIdeaOnce(idea)).toEqual(readIdeaNlp(idea));
  });
});
