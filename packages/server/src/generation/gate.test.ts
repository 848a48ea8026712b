import { describe, expect, it } from 'vitest';
import { checkDocument, type GateInput } from './gate.ts';

const base: GateInput = {
  kind: 'architecture',
  content: '',
  projectName: 'MentorLoop',
  sections: ['Context', 'Components', 'Security'],
  knownIds: new Set(['FR-1', 'FR-2', 'NFR-1', 'US-1']),
  defines: [],
};

const good = `# Architecture: MentorLoop

MentorLoop is built as three services.

## Context
Bookings (FR-1) and payouts (FR-2) under NFR-1.

## 2. Components
The booking service serves US-1.

## Security:
Tokens are kept server-side.
`;

const rules = (content: string, extra: Partial<GateInput> = {}) =>
  checkDocument({ ...base, ...extra, content }).map((f) => f.rule);

describe('checkDocument', () => {
  it('passes a document with every section (numbering and punctuation aside), the name and known IDs', () => {
    expect(checkDocument({ ...base, content: good })).toEqual([]);
  });

  it('names every missing section', () => {
    const [finding] = checkDocument({
      ...base,
      content: good.replace('## Security:', '### Security'),
    });
    expect(finding).toMatchObject({ rule: 'missing-section' });
    expect(finding!.message).toContain('"Security"');
  });

  it.each([
    ['TODO: pick a queue', 'TODO'],
    ['Retention is TBD.', 'TBD'],
    ['Lorem ipsum dolor sit amet.', 'lorem ipsum'],
    ['Deploy to [insert cloud provider].', '[insert'],
    ['Set the header to <your api key>.', '<your'],
    ['The region is to be decided.', 'to be decided'],
  ])('finds the placeholder in %j', (text, shown) => {
    const findings = checkDocument({ ...base, content: `${good}\n${text}\n` });
    expect(findings.map((f) => f.rule)).toEqual(['placeholder']);
    expect(findings[0]!.message.toLowerCase()).toContain(shown.toLowerCase());
  });

  it('allows placeholder-like text inside code blocks, and words that merely contain TODO', () => {
    expect(
      rules(
        `${good}\n\`\`\`bash\nexport TOKEN=<your-token>\n\`\`\`\nA TODOS list and a mastodon are fine.\n`,
      ),
    ).toEqual([]);
  });

  it('wants the project name, in any case', () => {
    expect(rules(good.replaceAll('MentorLoop', 'the product'))).toEqual(['missing-name']);
    expect(rules(good.replaceAll('MentorLoop', 'MENTORLOOP'))).toEqual([]);
  });

  it('flags cited IDs that no earlier document defines, unless this document defines them', () => {
    const findings = checkDocument({ ...base, content: `${good}\nAlso FR-9 and US-4.\n` });
    expect(findings.map((f) => f.rule)).toEqual(['unknown-id']);
    expect(findings[0]!.message).toContain('FR-9, US-4');
    expect(rules(`${good}\n**FR-9** A new requirement.\n`, { defines: ['FR', 'NFR'] })).toEqual([]);
  });

  it('for the plan: every FR of the requirements is covered by a task that cites it', () => {
    const findings = checkDocument({ ...base, content: good, mustCover: ['FR-1', 'FR-2', 'FR-3'] });
    expect(findings.map((f) => f.rule)).toEqual(['uncovered-requirement']);
    expect(findings[0]!.message).toContain('FR-3');
  });

  it('an empty answer is one finding', () => {
    expect(rules('  \n')).toEqual(['empty']);
  });
});
