/**
 * The document model (`@pgs/contract/document`) on real documents: whole projects written by
 * the offline engine, each document parsed, rendered and parsed again. The contract cannot
 * import the server, so this check of the two together lives here.
 */
import {
  componentsOf,
  definitionsOf,
  parseDocument,
  renderDocument,
  withoutPositions,
} from '@pgs/contract/document';
import { describe, expect, it } from 'vitest';
import { offlineProject } from './helpers/offline-fixtures.ts';

const PROJECTS = [
  offlineProject(
    'A habit tracker for remote teams to build routines together and celebrate streaks',
    'web',
  ),
  offlineProject('An iPhone app for runners to log runs offline', 'mobile'),
  offlineProject(
    'An MCP server that lets Claude run read-only queries on a SQLite database',
    'mcp',
  ),
];

/**
 * The IDs a document defines, read line by line as the offline engine writes them: an
 * oracle independent of the parser (`### FR-n`, `**FR-n.m**`, `| T-n |`).
 */
function writtenIds(markdown: string): string[] {
  const found: string[] = [];
  for (const line of markdown.split('\n')) {
    const id =
      /^#{2,4} ((?:FR|US)-\d+)\b/.exec(line)?.[1] ??
      /^\*\*((?:FR-\d+\.\d+|NFR-\d+))\*\*/.exec(line)?.[1] ??
      /^\| ((?:T|G|R|A|Q)-\d+) \|/.exec(line)?.[1];
    if (id) found.push(id);
  }
  return found;
}

describe('the document model on the offline engine’s documents', () => {
  const documents = PROJECTS.flatMap((project) => project.documents);

  it('reads every document back the same after rendering it', () => {
    for (const doc of documents) {
      const tree = parseDocument(doc.content, { filename: doc.filename });
      const again = parseDocument(renderDocument(tree), { filename: doc.filename });
      expect(withoutPositions(again), doc.filename).toEqual(withoutPositions(tree));
    }
  });

  it('finds every requirement, criterion, NFR, story, task and register entry', () => {
    let total = 0;
    for (const doc of documents) {
      const tree = parseDocument(doc.content, { filename: doc.filename });
      const expected = writtenIds(doc.content);
      expect(
        definitionsOf(tree).map((node) => node.id),
        doc.filename,
      ).toEqual(expected);
      total += expected.length;
    }
    expect(total).toBeGreaterThan(100);
  });

  it('reads the plan’s task rows and the architecture’s components', () => {
    for (const project of PROJECTS) {
      const plan = project.documents.find((doc) => doc.kind === 'implementation-plan')!;
      const tasks = definitionsOf(parseDocument(plan.content, { filename: plan.filename }), 'task');
      expect(tasks.length).toBeGreaterThan(3);
      for (const task of tasks) {
        expect(task.form).toBe('row');
        expect(task.estimate).toMatch(/\d/);
        for (const dep of task.dependsOn) expect(tasks.map((t) => t.id)).toContain(dep);
      }
      const architecture = project.documents.find((doc) => doc.kind === 'architecture')!;
      const components = componentsOf(
        parseDocument(architecture.content, { filename: architecture.filename }),
      );
      expect(components.length).toBeGreaterThan(1);
      expect(components.every((c) => c.implements.some((id) => id.startsWith('FR-')))).toBe(true);
    }
  });
});
