import { describe, expect, it } from 'vitest';
import { conventionsBody, emptyConventionsForm, formOf, versionText } from './conventions.ts';

describe('conventionsBody', () => {
  it('sends only what is set, lists one item a line or split at commas', () => {
    expect(conventionsBody(emptyConventionsForm())).toEqual({ ok: true, body: {} });
    expect(
      conventionsBody({
        ...emptyConventionsForm(),
        markdown: '  We ship weekly.\n',
        required: 'PostgreSQL, TypeScript\nTypeScript',
        forbidden: 'MongoDB',
        compliance: 'GDPR\nSOC 2',
        language: 'pt-BR',
        requirementStyle: 'gherkin',
        detail: 'deep',
        naming: 'Tables are plural snake_case\nIDs are ULIDs, never integers',
        sections: [
          { title: ' Support ', content: 'Who is on call' },
          { title: '', content: '  ' },
        ],
      }),
    ).toEqual({
      ok: true,
      body: {
        markdown: 'We ship weekly.',
        stack: { required: ['PostgreSQL', 'TypeScript'], forbidden: ['MongoDB'] },
        compliance: ['GDPR', 'SOC 2'],
        language: 'pt-BR',
        requirementStyle: 'gherkin',
        detail: 'deep',
        naming: ['Tables are plural snake_case', 'IDs are ULIDs, never integers'],
        sections: [{ title: 'Support', content: 'Who is on call' }],
      },
    });
  });

  it('says what is wrong instead of sending it', () => {
    const form = emptyConventionsForm();
    expect(conventionsBody({ ...form, required: 'React', forbidden: 'react' })).toEqual({
      ok: false,
      problem: 'React cannot be both required and forbidden.',
    });
    expect(conventionsBody({ ...form, language: 'Portuguese (Brazil)' })).toMatchObject({
      ok: false,
      problem: 'Write the language as a BCP 47 tag, for example en, de or pt-BR.',
    });
    expect(
      conventionsBody({
        ...form,
        sections: [
          { title: 'A', content: 'a' },
          { title: ' ', content: 'b' },
        ],
      }),
    ).toEqual({ ok: false, problem: 'Section 2 needs a title.' });
  });

  it('reads back what formOf shows', () => {
    const body = {
      stack: { forbidden: ['PHP'] },
      naming: ['Kebab-case file names'],
      requirementStyle: 'ears' as const,
      sections: [{ title: 'Support', content: 'Who is on call' }],
    };
    expect(
      conventionsBody(formOf({ ...body, version: 2, createdAt: '2026-11-28T18:00:00Z' } as never)),
    ).toEqual({
      ok: true,
      body,
    });
    expect(formOf(undefined)).toEqual(emptyConventionsForm());
  });
});

describe('versionText', () => {
  it('names the version and when it was set, or that none is', () => {
    const date = (at: Date) => at.toISOString().slice(0, 10);
    expect(versionText({ version: 3, createdAt: '2026-11-28T18:00:00Z' }, date)).toBe(
      'Version 3, set 2026-11-28. Every new project follows it.',
    );
    expect(versionText(undefined, date)).toBe(
      'No conventions are set: projects follow only their own idea.',
    );
  });
});
