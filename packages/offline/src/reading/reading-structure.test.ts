import { describe, expect, it } from 'vitest';
import { readIdeaNlp } from './reading.ts';
import { openingName, structureOf } from './reading-structure.ts';

const texts = (idea: string) => readIdeaNlp(idea).capabilities.map((c) => c.text);

describe('the name an idea opens with', () => {
  it('reads "Name — …", "Name: …", "Name (…)", "Name is a …", "Build Name, a …" and quotes', () => {
    expect(openingName('Tally — a budget app for students')).toEqual({
      name: 'Tally',
      rest: 'A budget app for students',
    });
    expect(openingName('Tally: a budget app')?.name).toBe('Tally');
    expect(openingName('Tally (a budget app). It must sync banks.')?.rest).toBe(
      'A budget app. It must sync banks.',
    );
    expect(openingName('FoodGenie is a delivery app')?.name).toBe('FoodGenie');
    expect(openingName('Build Tally, a budget app')).toEqual({
      name: 'Tally',
      rest: 'Build a budget app',
    });
    expect(openingName('"Pocket Vet" is an app for vets')?.name).toBe('Pocket Vet');
  });

  it('never reads a sentence opener or a label as a name', () => {
    expect(openingName('It is a budget app')).toBeUndefined();
    expect(openingName('The app is a budget app')).toBeUndefined();
    expect(openingName('Nice to have: export to CSV')).toBeUndefined();
  });

  it('keeps the name out of the services and the features', () => {
    const reading = readIdeaNlp(
      'Billbird - subscription billing platform. Billbird sends invoices through Stripe.',
    );
    expect(reading.name).toBe('Billbird');
    expect(reading.integrations).toEqual(['Stripe']);
    expect(reading.capabilities.map((c) => c.text)).toEqual(['send invoices through Stripe']);
  });
});

describe('lists and priorities', () => {
  it('reads every bullet, a wish label as Could', () => {
    const reading = readIdeaNlp(
      'Tally: a budget app for students.\n\n- Track spending by category\n- Split bills with flatmates\n- v2: scan receipts',
    );
    expect(reading.capabilities.map((c) => [c.text, c.priority])).toEqual([
      ['track spending by category', undefined],
      ['split bills with flatmates', undefined],
      ['scan receipts', 'Could'],
    ]);
  });

  it('reads a colon list of verb phrases as capabilities, not as a feature named by nouns', () => {
    expect(
      texts(
        'Clinicly — a patient portal for physiotherapy clinics: book sessions online, share exercise plans with patients and collect intake forms before the first visit.',
      ),
    ).toEqual([
      'book sessions online',
      'share exercise plans with patients',
      'collect intake forms before the first visit',
    ]);
  });

  it('takes must, should and later from the clause that says them', () => {
    const reading = readIdeaNlp(
      'A budget app for students. It must track spending. It should split bills, and maybe later it could scan receipts.',
    );
    expect(reading.capabilities.map((c) => c.priority)).toEqual(['Must', 'Should', 'Could']);
  });

  it('reads "two days later" as a measure, not a wish', () => {
    const { priorities } = structureOf('A tool to remind tenants two days later.');
    expect(priorities.some((span) => span.priority === 'Could')).toBe(false);
  });
});

describe('filler and fragments', () => {
  it('reads no requirement from praise, a lone verb or a pronoun object', () => {
    expect(
      texts(
        'A platform that helps users enhance the overall user experience. It aims to be easy to use and gives you back a link. Users can start servers from a user-friendly interface.',
      ),
    ).toEqual(['start servers']);
  });

  it('shares an object between verbs listed with commas', () => {
    expect(texts('An app to manage, tag and search recipes')).toEqual([
      'manage recipes',
      'tag recipes',
      'search recipes',
    ]);
  });
});
