import { describe, expect, it } from 'vitest';
import { docOf, offlineProject } from '../../test/offline-project.ts';
import { regimesRequiredIn } from './compliance.ts';

describe('the compliance an idea requires', () => {
  it('reads a regime the idea states as its own requirement, and no other', () => {
    expect(
      regimesRequiredIn('A patient portal. Required: HIPAA compliance and an audit log.'),
    ).toEqual(['HIPAA']);
    expect(regimesRequiredIn('A GDPR-compliant CRM that is SOC 2 certified')).toEqual([
      'GDPR',
      'SOC 2',
    ]);
    expect(regimesRequiredIn('A checkout that complies with PCI DSS')).toEqual(['PCI DSS']);
    expect(regimesRequiredIn('AuditTrail. Required: SOC 2 Type II.')).toEqual(['SOC 2']);
    // The domain it works in, or a regime ruled out, is no requirement of its own.
    expect(regimesRequiredIn('A dashboard to collect evidence for SOC 2 controls')).toEqual([]);
    expect(regimesRequiredIn('A notes app for therapists, no HIPAA compliance needed')).toEqual([]);
  });

  it('meets it in every document, as its idea requires, never as an answer nobody gave', () => {
    const project = offlineProject(
      'Clinicly (a patient portal for physiotherapy clinics). It must book sessions online. Required: HIPAA compliance. It should share exercise plans with patients.',
      'web',
    );
    expect(project.definition.questionnaire.constraints).toContain(
      'Compliance: HIPAA (required by the idea)',
    );
    const requirements = docOf(project, 'product-requirements');
    const nfr =
      /\*\*(NFR-\d+)\*\* \(Compliance\) Every read and change of protected health information/.exec(
        requirements,
      );
    expect(nfr).not.toBeNull();
    const architecture = docOf(project, 'architecture');
    expect(architecture).toContain('The standards Clinicly must meet, as required by its idea,');
    expect(architecture).toMatch(/^### HIPAA$/m);
    expect(architecture).toContain(`It is checked as ${nfr![1]}.`);
    for (const { kind, content } of project.documents)
      expect(content, kind).not.toMatch(/team's answers|through HIPAA|HIPAA account/);
  });

  it('adds nothing to an idea that requires no regime', () => {
    const project = offlineProject(
      'A dashboard for fintech teams to collect evidence for SOC 2 controls',
      'web',
    );
    expect(project.definition.questionnaire.constraints.join(' ')).not.toMatch(/Compliance/);
    expect(docOf(project, 'architecture')).not.toMatch(/^## Compliance$/m);
  });
});
