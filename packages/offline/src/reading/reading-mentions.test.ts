import { describe, expect, it } from 'vitest';
import { readIdeaNlp } from './reading.ts';
import { COMPLIANCE_REGIME } from './reading-mentions.ts';

describe('integrations read from an idea', () => {
  it('never takes a compliance regime for a service', () => {
    const ideas = [
      'A HIPAA-compliant patient portal for physiotherapy clinics that syncs appointments with Google Calendar',
      'A patient portal for clinics to book sessions. Required: HIPAA. It should sync with Stripe.',
      'A GDPR and SOC 2 ready CRM for small agencies that imports contacts from HubSpot',
      'A checkout for bakeries, PCI DSS compliant, that takes payments with Stripe',
      'An ISO 27001 audit tracker for IT teams that files issues in Jira',
      'A dashboard for fintech startups to collect evidence for SOC 2 Type II audits from AWS',
    ];
    for (const idea of ideas) {
      const found = readIdeaNlp(idea).integrations;
      expect(
        found.filter((name) => COMPLIANCE_REGIME.test(name)),
        idea,
      ).toEqual([]);
      expect(found.join(' '), idea).not.toMatch(/HIPAA|GDPR|SOC|PCI|ISO|Type II/);
      // The services beside it are still read.
      expect(found.length, idea).toBeGreaterThan(0);
    }
  });

  it('never takes what the product is built with for a service', () => {
    const found = readIdeaNlp(
      'A web app built with Django and React to track lab samples, synced with Google Sheets',
    ).integrations;
    expect(found.join(' ')).not.toMatch(/Django|React/);
    expect(found).toContain('Google Sheets');
  });

  it('knows a regime by its usual spellings, and a service is none', () => {
    for (const name of [
      'HIPAA',
      'gdpr',
      'SOC 2',
      'SOC2',
      'PCI-DSS',
      'PCI DSS',
      'ISO 27001',
      'HIPAA-compliant',
    ])
      expect(COMPLIANCE_REGIME.test(name), name).toBe(true);
    for (const name of ['Stripe', 'Google Calendar', 'Socket', 'Isolde'])
      expect(COMPLIANCE_REGIME.test(name), name).toBe(false);
  });
});
