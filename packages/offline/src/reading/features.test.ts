import { describe, expect, it } from 'vitest';
import { coordinated, featureCapabilities, featureOf, partsOf } from './features.ts';
import { narrowedTitle } from './impact-groups.ts';
import { readIdeaNlp } from './reading.ts';

/** The features an idea asks for, as the offline definition writes them. */
const featuresOf = (idea: string) =>
  featureCapabilities(readIdeaNlp(idea)).map((c) => featureOf(c, 'web'));

describe('coordinations as one feature (docs/decisions.md, 2026-11-29)', () => {
  it('makes one feature of one verb over a comma list of objects, each object a member', () => {
    const reading = readIdeaNlp(
      'A web app for sports clubs to manage members, subscriptions, payments and reports',
    );
    expect(reading.capabilities).toHaveLength(4);
    const [group] = featureCapabilities(reading);
    expect(group?.text).toBe('manage members, subscriptions, payments and reports');
    expect(group?.members?.map((m) => m.entity)).toEqual([
      'member',
      'subscription',
      'payment',
      'report',
    ]);
  });

  it('makes one feature of two objects joined by "and", and of verbs sharing their object', () => {
    expect(featuresOf('A tool for freelancers to track expenses and invoices')).toEqual([
      'Track expenses and invoices',
    ]);
    expect(featuresOf('A tool for analysts to view and export monthly reports')).toEqual([
      'View and export monthly reports',
    ]);
  });

  it('writes every verb of a coordination in its base form, the idea’s spelling kept', () => {
    // The lemmatiser leaves "analyzes" (and "analyses") as written; a title is an imperative.
    expect(
      featuresOf('A tool for security teams that analyzes and inspects files and applications'),
    ).toEqual(['Analyze and inspect files and applications']);
    expect(featuresOf('A tool that inspects and analyses logs')).toEqual([
      'Inspect and analyse logs',
    ]);
  });

  it('keeps verb phrases of their own apart, and a coordination beside them', () => {
    expect(
      featuresOf(
        'A tool for clinics to book appointments online, send reminders by SMS and keep records',
      ),
    ).toEqual(['Book appointments online', 'Send reminders by SMS', 'Keep records']);
  });

  it("keeps apart what the idea puts off, and a light verb's nominal features", () => {
    const [rents, deposits] = readIdeaNlp(
      'A tool for landlords to track rents and deposits',
    ).capabilities;
    expect(coordinated([rents!, deposits!])?.text).toBe('track rents and deposits');
    expect(coordinated([rents!, { ...deposits!, priority: 'Could' }])).toBe(undefined);
    expect(featuresOf('A mobile app that offers mood tracking, dark mode and CSV export')).toEqual([
      'Track mood',
      'Manage dark mode',
      'Manage CSV export',
    ]);
  });

  it('reads a coordination back into its members, the idea’s own capabilities', () => {
    const idea = 'A tool for freelancers to track expenses and invoices by client';
    const reading = readIdeaNlp(idea);
    const parts = partsOf('Track expenses and invoices by client', reading, 'web', false);
    expect(parts.members?.map((m) => [m.text, m.entity, m.fromIdea])).toEqual([
      ['Track expenses by client', 'expense', true],
      ['Track invoices by client', 'invoice', true],
    ]);
    // A title a revision narrowed is read the same way, members still the idea's.
    const narrowed = partsOf('Track expenses by client', reading, 'web', false);
    expect([narrowed.fromIdea, narrowed.members]).toEqual([true, undefined]);
  });

  it('narrows a coordination by the objects a removal names, and never to nothing', () => {
    expect(narrowedTitle('Track expenses and invoices', ['the invoices'])).toBe('Track expenses');
    expect(
      narrowedTitle('Manage members, subscriptions, payments and reports', ['the payments']),
    ).toBe('Manage members, subscriptions and reports');
    expect(narrowedTitle('View and export monthly statements', ['exporting statements'])).toBe(
      'View monthly statements',
    );
    expect(narrowedTitle('Track expenses and invoices', ['the expenses', 'the invoices'])).toBe(
      undefined,
    );
    expect(narrowedTitle('Send receipts by email', ['the receipts'])).toBe(undefined);
  });
});
