import type { ImpactContext } from '@pgs/contract/generation';
import { describe, expect, it } from 'vitest';
import { CLINIC, GITHUB, type Project, TABLE, VET } from '../../test/impact.cases.ts';
import { readImpact } from './impact.ts';
import { clausesOf } from './impact-read.ts';

/** The impact context of a change request against a project whose FR-n are its titles. */
function contextOf(project: Project, changeRequest: string, nextNumber?: number): ImpactContext {
  return {
    task: 'impact',
    idea: `An idea for ${project.name}`,
    changeRequest,
    definition: {
      name: project.name,
      description: `${project.name} is a product.`,
      type: project.type,
      questionnaire: {
        targetAudience: 'People.',
        monetization: 'Not stated.',
        techStack: [],
        platforms: [],
        coreFeatures: project.titles,
        constraints: [],
        successMetrics: [],
      },
    },
    requirements: project.titles.map((title, i) => ({ id: `FR-${i + 1}`, title })),
    nextNumber: nextNumber ?? project.titles.length + 1,
  };
}

const read = (project: Project, request: string) => readImpact(contextOf(project, request));

describe('readImpact', () => {
  it('finds a requirement named by its ID, and by its title with the word "requirement"', () => {
    expect(read(CLINIC, 'Remove FR-2.')).toEqual([
      expect.objectContaining({ op: 'removed', id: 'FR-2' }),
    ]);
    expect(read(CLINIC, 'Drop FR-1 and FR-3')).toEqual([
      expect.objectContaining({ op: 'removed', id: 'FR-1' }),
      expect.objectContaining({ op: 'removed', id: 'FR-3' }),
    ]);
    expect(read(CLINIC, 'Remove the medical records requirement')).toEqual([
      expect.objectContaining({ op: 'removed', id: 'FR-2' }),
    ]);
    // An ID the project does not have names nothing: the revision fails rather than guess.
    expect(read(CLINIC, 'Remove FR-9')).toEqual([]);
  });

  it('reads the acceptance example: an SMS reminder added as FR-4, the medical records removed', () => {
    const deltas = read(
      CLINIC,
      'add SMS reminders two days before each appointment; drop the medical records',
    );
    expect(deltas).toHaveLength(2);
    const [added] = deltas;
    expect(added).toMatchObject({ op: 'added', id: 'FR-4' });
    expect(added?.op === 'added' && added.title).toContain('SMS reminders');
    expect(added?.op === 'added' && added.title).toContain('two days before each appointment');
    expect(deltas).toEqual([
      {
        op: 'added',
        id: 'FR-4',
        title: 'Send SMS reminders two days before each appointment',
        text: 'PetCare sends SMS reminders two days before each appointment.',
      },
      {
        op: 'removed',
        id: 'FR-2',
        title: 'Keep medical records for each pet',
        reason: 'Removed by the change request: "drop the medical records".',
      },
    ]);
  });

  it('renames a requirement, from its old title to the new one', () => {
    expect(read(CLINIC, 'Rename "Book appointments online" to "Schedule visits online".')).toEqual([
      { op: 'renamed', id: 'FR-1', from: 'Book appointments online', to: 'Schedule visits online' },
    ]);
    // A part of the title renamed: the rest of the title stays.
    expect(read(CLINIC, 'rename the medical records to health records')).toEqual([
      {
        op: 'renamed',
        id: 'FR-2',
        from: 'Keep medical records for each pet',
        to: 'Keep health records for each pet',
      },
    ]);
  });

  it('modifies a requirement with its full new title and text', () => {
    expect(read(CLINIC, 'Send the vaccine reminders by email instead of SMS')).toEqual([
      {
        op: 'modified',
        id: 'FR-3',
        title: 'Send vaccine reminders by email',
        text: 'PetCare sends vaccine reminders by email.',
      },
    ]);
    expect(read(CLINIC, 'Switch the vaccine reminders from SMS to WhatsApp')).toMatchObject([
      { op: 'modified', id: 'FR-3', title: 'Send vaccine reminders by WhatsApp' },
    ]);
  });

  it('makes an addition to an existing requirement a modification of it', () => {
    expect(read(CLINIC, 'add photo upload to the medical records')).toEqual([
      {
        op: 'modified',
        id: 'FR-2',
        title: 'Keep medical records for each pet with photo upload',
        text: 'PetCare keeps medical records for each pet with photo upload.',
      },
    ]);
  });

  it('gives nothing for a clause that matches no requirement, and does not guess', () => {
    expect(read(CLINIC, 'drop the invoices')).toEqual([]);
    expect(read(CLINIC, 'rename the loyalty programme to Paw Points')).toEqual([]);
    expect(read(CLINIC, 'make the invoices clearer')).toEqual([]);
    // Two requirements make appointments: which one goes is not the reader's to guess.
    const both = { ...CLINIC, titles: ['Book appointments online', 'Cancel appointments by SMS'] };
    expect(read(both, 'remove appointments')).toEqual([]);
    // Finding them is no feature of its own (issue 29): the one that books them goes.
    expect(read(VET, 'remove appointments')).toMatchObject([{ op: 'removed', id: 'FR-1' }]);
    // Only the clause that matches gives a delta.
    expect(read(CLINIC, 'drop the invoices and drop the vaccine reminders')).toMatchObject([
      { op: 'removed', id: 'FR-3' },
    ]);
  });

  it('reads the "no longer" and "don\'t need" forms as removals', () => {
    expect(read(CLINIC, 'We no longer need online booking.')).toMatchObject([
      { op: 'removed', id: 'FR-1', title: 'Book appointments online' },
    ]);
    expect(read(CLINIC, 'Vaccine reminders are no longer needed')).toMatchObject([
      { op: 'removed', id: 'FR-3' },
    ]);
    expect(read(CLINIC, 'the app should no longer send vaccine reminders')).toMatchObject([
      { op: 'removed', id: 'FR-3' },
    ]);
    expect(read(CLINIC, "we don't need the medical records anymore")).toMatchObject([
      { op: 'removed', id: 'FR-2' },
    ]);
  });

  it('numbers several additions from nextNumber up, in the order of the request', () => {
    expect(
      read(
        CLINIC,
        'add a waiting list for fully booked days and let owners cancel appointments online',
      ),
    ).toEqual([
      {
        op: 'added',
        id: 'FR-4',
        title: 'Keep a waiting list for fully booked days',
        text: 'PetCare keeps a waiting list for fully booked days.',
      },
      {
        op: 'added',
        id: 'FR-5',
        title: 'Cancel appointments online',
        text: 'PetCare lets owners cancel appointments online.',
      },
    ]);
    // nextNumber is above every ID ever used, not the count of the current ones.
    const retired = readImpact(contextOf(CLINIC, 'add a loyalty programme for pets', 9));
    expect(retired).toMatchObject([
      { op: 'added', id: 'FR-9', title: 'Offer a loyalty programme for pets' },
    ]);
  });

  it('matches words in other cases and forms', () => {
    const removed = { op: 'removed', id: 'FR-2', title: 'Keep medical records for each pet' };
    expect(read(CLINIC, 'Drop medical record keeping.')).toMatchObject([removed]);
    expect(read(CLINIC, 'DROP THE MEDICAL RECORDS')).toMatchObject([removed]);
    expect(read(CLINIC, 'Remove the Medical Record.')).toMatchObject([removed]);
    expect(read(GITHUB, 'remove the CI run summaries')).toMatchObject([
      { op: 'removed', id: 'FR-3', title: 'Summarise failing CI runs' },
    ]);
  });

  it('never gives two deltas on one ID: the first clause about it wins', () => {
    expect(
      read(CLINIC, 'drop the medical records and rename the medical records to health files'),
    ).toMatchObject([{ op: 'removed', id: 'FR-2' }]);
  });

  it('is deterministic', () => {
    const request =
      'Add SMS reminders two days before each appointment, drop the medical records and rename online booking to Schedule visits online';
    const first = read(VET, request);
    expect(first.length).toBeGreaterThan(1);
    for (let i = 0; i < 3; i++) expect(read(VET, request)).toEqual(first);
    expect(JSON.stringify(read(VET, request))).toBe(JSON.stringify(first));
  });
});

describe('clausesOf', () => {
  it('cuts at ";", full stops, newlines, and "and" or commas between two instructions', () => {
    expect(
      clausesOf('add SMS reminders two days before each appointment; drop the medical records'),
    ).toEqual(['add SMS reminders two days before each appointment', 'drop the medical records']);
    expect(clausesOf('Add a waiting list. Drop the sign-in\nrename X to Y')).toEqual([
      'Add a waiting list',
      'Drop the sign-in',
      'rename X to Y',
    ]);
    expect(clausesOf('add heart rate zones, and also track cadence')).toEqual([
      'add heart rate zones',
      'track cadence',
    ]);
  });

  it('keeps "and" inside one instruction whole', () => {
    expect(clausesOf('let owners book and cancel appointments')).toEqual([
      'let owners book and cancel appointments',
    ]);
    expect(clausesOf('add SMS reminders and email reminders')).toEqual([
      'add SMS reminders and email reminders',
    ]);
    expect(clausesOf('version 2.5 of the plan should add rest days')).toHaveLength(1);
  });
});

describe('readImpact on realistic change requests', () => {
  it.each(TABLE)('$project.name: $request', ({ project, request, expected }) => {
    const deltas = read(project, request);
    expect(deltas).toHaveLength(expected.length);
    expect(deltas).toMatchObject(expected);
  });
});
