import { describe, expect, it } from 'vitest';
import { definitionChecks } from './definition-check.ts';
import { removalFindings, removalsOf } from './impact-check.ts';

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
});
