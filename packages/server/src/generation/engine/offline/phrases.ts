/** Phrases the offline section writers share. */
import { type Facts, isWrite } from './facts.ts';
import { decapitalize, listing } from './words.ts';

/** Writes the body of one `## ` section. */
export type SectionWriter = (facts: Facts) => string;

export function lower(feature: string): string {
  return decapitalize(feature);
}

/** The first action, or the first feature when the idea names no action. */
export function lead(f: Facts): string {
  return f.actions[0] ?? f.features[0]!;
}

/** How a user performs a feature: directly, or by asking their assistant. */
export function perform(f: Facts, feature: string): string {
  const action = f.actions.includes(feature) ? lower(feature) : `use ${lower(feature)}`;
  return f.type === 'mcp' ? `ask the assistant to ${action}` : action;
}

/** What a user sees when a feature works, by whether it reads or writes. */
export function outcome(f: Facts, feature: string): string {
  if (f.type === 'mcp')
    return isWrite(feature)
      ? 'the client asks for confirmation, the change is made once, and the answer links to it'
      : 'the answer arrives within two seconds and quotes only data the configured credentials may read';
  return isWrite(feature)
    ? 'the change is saved, visible to the people it concerns within five seconds, and recorded in the history'
    : 'the results load within two seconds and show only what the user may see';
}

/** Where the first-release work stops, by project type. */
export function laterScope(f: Facts): string[] {
  if (f.type === 'mcp')
    return [
      'A hosted multi-tenant edition with single sign-on',
      `Write tools beyond ${listing(f.tools.filter((t) => t.write).map((t) => t.name)) || 'the read-only first release'}`,
      'Sampling and elicitation requests back to the client',
    ];
  if (f.type === 'mobile')
    return [
      'A tablet layout',
      'Wearable companion app',
      `Sharing ${f.main.plural} with people who do not have the app`,
    ];
  return [
    'Native mobile apps (the web app is responsive first)',
    'Public API keys for third-party integrations',
    'Single sign-on with SAML',
  ];
}
