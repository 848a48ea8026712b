import { describe, expect, it } from 'vitest';
import { definitionChecks } from './definition-check.ts';
import { changeFindings, namedPhrasesOf, removalFindings, removalsOf } from './impact-check.ts';
import { wishFindings } from './priority-check.ts';

const GROOMERS = [
  { id: 'FR-1', title: 'Book grooming slots online' },
  { id: 'FR-2', title: "Keep a record of each dog's coat and temperament" },
  { id: 'FR-3', title: 'Email invoices to owners after each visit' },
];

describe("the offline reading's tests on a model's answer (issue 29, item 4)", () => {
  it('finds a removal that falls on a requirement the request does not name', () => {
    const request = 'Add SMS reminders the day before, and drop the emailed invoices.';
    expect(removalsOf(request)).toContain('the emailed invoices');
    const wrong = [{ op: 'removed' as const, id: 'FR-2', title: GROOMERS[1]!.title, reason: 'r' }];
    expect(removalFindings(request, GROOMERS, wrong)).toEqual([
      expect.stringMatching(
        /^FR-2 \("Keep a record of each dog's coat and temperament"\) was removed, but the request removes only "the emailed invoices"/,
      ),
    ]);
    const right = [{ op: 'removed' as const, id: 'FR-3', title: GROOMERS[2]!.title, reason: 'r' }];
    expect(removalFindings(request, GROOMERS, right)).toEqual([]);
  });

  it('finds a removal of a whole coordination when the request drops one of its objects', () => {
    const ledger = [
      { id: 'FR-1', title: 'Track expenses and invoices' },
      { id: 'FR-2', title: 'Send receipts by email' },
    ];
    const removed = (id: string) => [
      { op: 'removed' as const, id, title: ledger.find((r) => r.id === id)!.title, reason: 'r' },
    ];
    expect(removalFindings('Drop the invoices.', ledger, removed('FR-1'))).toEqual([
      expect.stringMatching(
        /^FR-1 \("Track expenses and invoices"\) was removed, but the request removes only "the invoices", part of what it holds: modify it to "Track expenses" instead/,
      ),
    ]);
    expect(removalFindings('Drop the expenses and the invoices.', ledger, removed('FR-1'))).toEqual(
      [],
    );
    const modified = [
      { op: 'modified' as const, id: 'FR-1', title: 'Track expenses', text: 'It tracks expenses.' },
    ];
    expect(changeFindings('Drop the invoices.', ledger, modified)).toEqual([]);
  });

  it('judges no removal when the request has none it can read', () => {
    const any = [{ op: 'removed' as const, id: 'FR-1', title: GROOMERS[0]!.title, reason: 'r' }];
    expect(removalFindings('Make the whole thing simpler.', GROOMERS, any)).toEqual([]);
  });

  it("faults a definition that renames the idea's product or lists filler as a feature", () => {
    const idea = 'Pawsome is a booking tool for dog groomers that books grooming slots online.';
    const findings = definitionChecks(idea, {
      name: 'GroomHub',
      coreFeatures: ['Book grooming slots online', 'Enhance the overall user experience'],
    });
    expect(findings).toEqual([
      'the idea names the product "Pawsome": use that name, as written',
      expect.stringMatching(
        /^\/questionnaire\/coreFeatures\/1 "Enhance the overall user experience" is not a capability/,
      ),
    ]);
    expect(definitionChecks(idea, { name: 'GroomHub', coreFeatures: [] }, 'GroomHub')).toEqual([]);
    expect(
      definitionChecks(idea, { name: 'Pawsome', coreFeatures: ['Book grooming slots online'] }),
    ).toEqual([]);
  });

  it('finds a change that falls on a requirement the request does not name', () => {
    const request =
      'Email invoices as PDF instead of plain text, and rename the grooming slots to appointments.';
    const modified = (id: string, title: string) => ({
      op: 'modified' as const,
      id,
      title,
      text: title,
    });
    const renamed = (id: string, to: string) => ({ op: 'renamed' as const, id, from: 'x', to });
    const wrong = [
      modified('FR-2', "Keep a record of each dog's coat, temperament and photos"),
      renamed('FR-1', 'Book appointments online'),
    ];
    expect(changeFindings(request, GROOMERS, wrong)).toEqual([
      expect.stringMatching(
        /^FR-2 \("Keep a record of each dog's coat and temperament"\) was modified, but the request names only .*"plain text"/,
      ),
    ]);
    const right = [modified('FR-3', 'Email invoices to owners as PDF after each visit')];
    expect(changeFindings(request, GROOMERS, [...right, wrong[1]!])).toEqual([]);
    // A removal may be written as a change to the requirement that carries it.
    expect(
      changeFindings('Drop the invoices.', GROOMERS, [modified('FR-3', 'Email owners')]),
    ).toEqual([]);
  });

  it('judges no change when a clause of the request is none it can read', () => {
    expect(namedPhrasesOf('Whatever you think is best. Rename the invoices to bills.')).toBe(
      undefined,
    );
    const any = [{ op: 'renamed' as const, id: 'FR-2', from: 'x', to: 'Coat notes' }];
    expect(changeFindings('Whatever you think is best.', GROOMERS, any)).toEqual([]);
  });

  it('faults a Must requirement that carries only a wish the idea puts off', () => {
    const idea =
      'Pawsome is a booking tool for dog groomers.\n- Book grooming slots online\n- Email invoices to owners\n- v2: send SMS reminders the day before';
    const requirements = [
      { id: 'FR-1', title: 'Book grooming slots online', priority: 'must' },
      { id: 'FR-2', title: 'Email invoices to owners', priority: 'Must' },
      { id: 'FR-3', title: 'Send SMS reminders the day before', priority: 'Must' },
    ];
    expect(wishFindings(idea, requirements)).toEqual([
      expect.stringMatching(
        /^FR-3 \("Send SMS reminders the day before"\) is Must, but the idea puts "send SMS reminders" off/,
      ),
    ]);
    const could = requirements.map((r) => (r.id === 'FR-3' ? { ...r, priority: 'Could' } : r));
    expect(wishFindings(idea, could)).toEqual([]);
    expect(wishFindings(idea.replace('v2: ', ''), requirements)).toEqual([]);
  });
});
