import { describe, expect, it } from 'vitest';
import { documentRequest } from '../../test/plan.ts';
import { defineProject, writeDocument } from '../index.ts';

const idea =
  'A web app for small veterinary clinics to book appointments and send vaccine reminders by SMS';
const definition = defineProject({ idea, type: 'web' });

describe('the kinds the engine writes', () => {
  it('writes every section a kind has in the catalogue, as its own ## heading', () => {
    const document = documentRequest('user-stories');
    const markdown = writeDocument({ idea, definition, document, related: [] });
    const headings = markdown.split('\n').filter((line) => line.startsWith('## '));
    expect(headings).toEqual(document.sections.map((section) => `## ${section}`));
  });

  it('refuses a section its kind does not have, rather than writing filler for it', () => {
    const document = { ...documentRequest('user-stories'), sections: ['Epics', 'Personas'] };
    expect(() => writeDocument({ idea, definition, document, related: [] })).toThrow(
      'the offline engine has no writer for the section "Personas" of user-stories',
    );
  });

  it('refuses a kind the catalogue does not have, and an inherited name', () => {
    for (const kind of ['security-review', 'constructor']) {
      const document = { ...documentRequest('readme'), kind };
      expect(() => writeDocument({ idea, definition, document, related: [] })).toThrow(
        `the offline engine writes no document of the kind "${kind}"`,
      );
    }
  });
});
