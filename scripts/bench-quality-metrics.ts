/**
 * The quality benchmark's measures, as pure functions over a project's documents and trace:
 * which of an idea's capabilities its functional requirements kept, which long lines it shares
 * with other projects, its findings by severity. bench-quality.ts runs the projects and prints.
 */

import type { ExpectedCapability } from '@pgs/offline/testing';
import type { Nodes, RootContent } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';
import { normalHeading } from '../packages/server/src/runs/trace/build.ts';
import type { Severity } from '../packages/server/src/runs/trace/types.ts';
import { contentWords, stem } from '../packages/server/src/runs/trace/words.ts';

/** The words of a node's text, cells and inline code kept apart by spaces. */
function textOf(node: Nodes): string {
  if ('value' in node && typeof node.value === 'string') return node.value;
  if ('children' in node) return node.children.map((child) => textOf(child as Nodes)).join(' ');
  return '';
}

/** Every word of a text, stemmed, stop words kept: "get" and "set" are verbs the ideas use. */
const stems = (text: string) =>
  new Set((text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).map(stem));

/**
 * The requirement units of a requirements document: the text under its `## Functional
 * requirements` heading, cut at each sub-heading (`### FR-3 Reminders` and what follows it);
 * before any sub-heading, each list item, table row or paragraph is a unit of its own. A
 * capability is kept when one unit holds all of it, as the engine must write it: its verb,
 * object and qualifiers together. Undefined when the document has no such section.
 *
 * @example
 * requirementUnits('## Functional requirements\n\n### FR-1 Send reminders by SMS\n')?.length; // 1
 */
export function requirementUnits(markdown: string): Set<string>[] | undefined {
  const root = fromMarkdown(markdown, {
    extensions: [gfm()],
    mdastExtensions: [gfmFromMarkdown()],
  });
  const start = root.children.findIndex(
    (node) =>
      node.type === 'heading' &&
      node.depth === 2 &&
      normalHeading(textOf(node)) === 'functional requirements',
  );
  if (start === -1) return undefined;
  const units: string[] = [];
  let open: { depth: number } | undefined;
  const add = (text: string) => units.push(text);
  for (const node of root.children.slice(start + 1) as RootContent[]) {
    if (node.type === 'heading') {
      if (node.depth <= 2) break;
      if (open === undefined || node.depth <= open.depth) {
        open = { depth: node.depth };
        add(textOf(node));
        continue;
      }
    }
    if (open !== undefined) units[units.length - 1] += ` ${textOf(node)}`;
    else if (node.type === 'list') for (const item of node.children) add(textOf(item));
    else if (node.type === 'table') for (const row of node.children.slice(1)) add(textOf(row));
    else add(textOf(node));
  }
  return units.map(stems);
}

/**
 * Whether one requirement unit holds an expected capability: one of its verbs, its object's key
 * word and every content word of each qualifier, compared as stems (`sending` → `send`,
 * `reminders` → `remind`), so a requirement may say "Reminder sending by SMS".
 *
 * @example
 * kept({ verb: 'send', object: 'reminders', qualifiers: ['by SMS'] }, requirementUnits(doc)!); // true
 */
export function kept(expected: ExpectedCapability, units: readonly Set<string>[]): boolean {
  const verbs = (typeof expected.verb === 'string' ? [expected.verb] : expected.verb).map(stem);
  const needed = [
    // A hyphenated object ("call-outs") is two words in a unit, as contentWords splits it.
    ...(expected.object === ''
      ? []
      : expected.object.includes('-')
        ? [...contentWords(expected.object)]
        : [stem(expected.object)]),
    ...(expected.qualifiers ?? []).flatMap((qualifier) => [...contentWords(qualifier)]),
  ];
  return units.some(
    (unit) => verbs.some((verb) => unit.has(verb)) && needed.every((word) => unit.has(word)),
  );
}

/** A markdown table's separator row: `| --- | :-: |`. */
const SEPARATOR = /^\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)*\|?$/;

/**
 * A project's long lines: every line of its documents of 40 characters or more once trimmed,
 * table separators left out, repeats kept (each counts).
 *
 * @example
 * longLines(['| --- | --- | --- | --- | --- | --- | --- | --- |\nshort']); // []
 */
export function longLines(documents: readonly string[]): string[] {
  return documents
    .flatMap((content) => content.split('\n'))
    .map((line) => line.trim())
    .filter((line) => line.length >= 40 && !SEPARATOR.test(line));
}

/**
 * The share of `lines` that also appear verbatim among `others`' lines; 0 with no lines.
 *
 * @example
 * sharedShare(['a long line'], [new Set(['a long line'])]); // 1
 */
export function sharedShare(lines: readonly string[], others: readonly Set<string>[]): number {
  if (lines.length === 0) return 0;
  return lines.filter((line) => others.some((set) => set.has(line))).length / lines.length;
}

/** Severities, worst first, as the trace orders them. */
export const SEVERITY_ORDER: readonly Severity[] = ['critical', 'high', 'medium', 'low'];

/**
 * Findings counted by severity.
 *
 * @example
 * bySeverity([{ severity: 'high' }]).high; // 1
 */
export function bySeverity(findings: readonly { severity: Severity }[]): Record<Severity, number> {
  const counts: Record<Severity, number> = { critical: 0, high: 0, medium: 0, low: 0 };
  for (const finding of findings) counts[finding.severity] += 1;
  return counts;
}

/**
 * Left-aligned columns, two spaces apart, each line indented by two.
 *
 * @example
 * columns([['a', 'bb'], ['ccc', 'd']]); // '  a    bb\n  ccc  d'
 */
export function columns(rows: readonly (readonly string[])[]): string {
  const widths: number[] = [];
  for (const row of rows)
    row.forEach((cell, i) => {
      widths[i] = Math.max(widths[i] ?? 0, cell.length);
    });
  return rows
    .map((row) => `  ${row.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join('  ')}`.trimEnd())
    .join('\n');
}

/** `0.4166` → `41.7 %`. */
export const percent = (share: number) => `${(share * 100).toFixed(1)} %`;
