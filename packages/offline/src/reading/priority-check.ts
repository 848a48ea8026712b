/**
 * The offline reading's priority test applied to anyone's requirements (issue 29, item 4): a
 * capability the idea puts off ("later", "maybe", "nice to have", "v2", as reading-structure.ts
 * reads them) is never Must. The requirement that carries it is found as a change request's
 * phrase is (impact-terms.ts's targetOf): none, or two alike, and nothing is judged. A
 * requirement that also carries a capability the idea does not put off may stay Must.
 */
import { targetOf } from './impact-terms.ts';
import { readIdeaOnce } from './reading-once.ts';

/** A requirement as a document defines it: its ID, title and MoSCoW priority when stated. */
export interface PrioritisedRequirement {
  id: string;
  title: string;
  /** "Must", "must", "Should", …; absent when the document states none. */
  priority?: string | undefined;
}

/**
 * What is wrong with requirements' priorities as the offline reading sees the idea, in words a
 * model can act on: each Must requirement that carries only capabilities the idea puts off.
 * Empty when none does, or the idea puts nothing off.
 *
 * @example
 * wishFindings('A habit tracker.\n- Log daily habits\n- v2: export reports as PDF',
 *   [{ id: 'FR-2', title: 'Export reports as PDF', priority: 'must' }]);
 * // ['FR-2 ("Export reports as PDF") is Must, but the idea puts "export reports as PDF" off …']
 */
export function wishFindings(
  idea: string,
  requirements: readonly PrioritisedRequirement[],
): string[] {
  if (!requirements.some((r) => r.priority?.toLowerCase() === 'must')) return [];
  const capabilities = readIdeaOnce(idea).capabilities;
  if (!capabilities.some((c) => c.priority === 'Could')) return [];
  const refs = requirements.map(({ id, title }) => ({ id, title }));
  const wanted = new Set<string>();
  const wished = new Map<string, string[]>();
  for (const capability of capabilities) {
    const target = targetOf(capability.text, refs);
    if (!target) continue;
    if (capability.priority !== 'Could') wanted.add(target.id);
    else wished.set(target.id, [...(wished.get(target.id) ?? []), capability.text]);
  }
  const findings: string[] = [];
  for (const requirement of requirements) {
    const wishes = wished.get(requirement.id);
    if (!wishes || wanted.has(requirement.id)) continue;
    if (requirement.priority?.toLowerCase() !== 'must') continue;
    const named = wishes.map((w) => `"${w}"`).join(', ');
    findings.push(
      `${requirement.id} ("${requirement.title}") is Must, but the idea puts ${named} off (later, maybe, nice to have, v2): make it Could, keeping its number, title and criteria`,
    );
  }
  return findings;
}
