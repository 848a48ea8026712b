/**
 * The gate's revision rules (docs/revisions.md): a revised document keeps every ID of its
 * previous version unless the deltas retire it, never brings a retired ID back, and leaves
 * the text of every requirement the deltas do not touch exactly as it was.
 */
import { parseShared, visit } from '@pgs/contract/document';
import type { RequirementDelta } from '../models/deltas.ts';
import type { Finding } from './gate.ts';
import { parseDocument, requirementOf, type TraceNode } from './trace/index.ts';

const list = (ids: readonly string[]) => ids.join(', ');

/**
 * Each requirement group's block as written: the document tree's requirement section (its
 * `FR-n` heading, level 2 to 4, and what it heads, up to the next heading as high).
 */
function requirementBlocks(content: string): Map<string, string> {
  const blocks = new Map<string, string>();
  visit(parseShared(content, { defines: ['FR'] }), (node) => {
    if (node.type !== 'requirement' || node.form !== 'section') return;
    const heading = node.children[0];
    const depth = heading?.type === 'heading' ? heading.depth : 0;
    const start = node.position?.start.offset;
    const end = node.position?.end.offset;
    if (depth < 2 || depth > 4 || start === undefined || end === undefined) return;
    if (!blocks.has(node.id)) blocks.set(node.id, content.slice(start, end).trim());
    return false;
  });
  return blocks;
}

/**
 * The findings of one revised document against its previous version.
 *
 * @example
 * revisionFindings({ filename: 'REQUIREMENTS.md', previous, content, deltas, retired: [] });
 */
export function revisionFindings(input: {
  filename: string;
  previous: string;
  content: string;
  deltas: readonly RequirementDelta[];
  /** IDs removed by earlier revisions, and those this one closed (answered A-n, Q-n). */
  retired: readonly string[];
}): Finding[] {
  const before = parseDocument(input.filename, input.previous).defines;
  const after = parseDocument(input.filename, input.content).defines;
  const defined = new Set(after.map((node) => node.id));
  const removed = new Set(input.deltas.filter((d) => d.op === 'removed').map((d) => d.id));
  const retired = new Set([...input.retired, ...removed]);
  const changed = new Set(input.deltas.filter((d) => d.op !== 'added').map((d) => d.id));
  const goneWith = (node: TraceNode, gone: ReadonlySet<string>) =>
    gone.has(node.id) || gone.has(requirementOf(node.id) ?? '');
  const findings: Finding[] = [];

  // Requirements and criteria go only when REMOVED; stories and tasks only when a
  // requirement they were about was removed or changed (they are rewritten from it); an
  // assumption or question only when answered (retired by its revision).
  const dropped = before
    .filter((node) => !defined.has(node.id) && !retired.has(node.id))
    .filter((node) =>
      node.kind === 'requirement' || node.kind === 'criterion'
        ? !goneWith(node, removed)
        : !(node.kind === 'story' || node.kind === 'task'),
    )
    .map((node) => node.id);
  if (dropped.length > 0) {
    findings.push({
      rule: 'id-dropped',
      severity: 'high',
      message: `${list(dropped)} of the previous revision ${dropped.length === 1 ? 'is' : 'are'} missing; only the REMOVED requirements may go. Put ${dropped.length === 1 ? 'it' : 'them'} back with the same number and text.`,
    });
  }
  const reused = after
    .filter((node) => retired.has(node.id) || retired.has(requirementOf(node.id) ?? ''))
    .map((node) => node.id);
  if (reused.length > 0) {
    findings.push({
      rule: 'id-reused',
      severity: 'high',
      message: `${list(reused)} ${reused.length === 1 ? 'was' : 'were'} removed and must not appear again; a new requirement takes the next free number.`,
    });
  }
  const was = requirementBlocks(input.previous);
  const is = requirementBlocks(input.content);
  const altered = [...was.entries()]
    .filter(([id, text]) => !changed.has(id) && is.has(id) && is.get(id) !== text)
    .map(([id]) => id);
  if (altered.length > 0) {
    findings.push({
      rule: 'requirement-changed',
      severity: 'high',
      message: `The text of ${list(altered)} changed, but the change request does not touch ${altered.length === 1 ? 'it' : 'them'}. Keep ${altered.length === 1 ? 'its' : 'their'} heading, statement and criteria exactly as before.`,
    });
  }
  return findings;
}
