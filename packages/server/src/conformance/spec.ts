/**
 * The spec a conformance check reads (docs/conformance.md), from one revision's documents:
 * the requirements with their criteria and tasks (the trace), the tasks with their files (the
 * plan), and the text that describes each requirement (its definition and the design pieces
 * citing it or its criteria), against which code is matched by name.
 */
import { documentRole } from '@pgs/contract/document';
import { buildTrace } from '../runs/trace/build.ts';
import { DocumentExcerpts } from '../runs/trace/excerpts.ts';
import { plannedTasks } from '../tasks/plan.ts';

/** A stored document, as much of it as a check needs. */
export interface SpecDocument {
  filename: string;
  content: string;
  /** `design` for the architecture and the other design documents. */
  stage: string;
}

/** One functional requirement group and what describes it. */
export interface SpecRequirement {
  id: string;
  title: string;
  criteria: readonly string[];
  tasks: readonly string[];
  /** Its definition and every design or plan piece citing it or its criteria, as markdown. */
  text: string;
}

/** One task of the plan and the files it names (` (new)` removed). */
export interface SpecTask {
  id: string;
  title: string;
  requirements: readonly string[];
  criteria: readonly string[];
  files: readonly string[];
}

/** What a check compares the code with. */
export interface SpecView {
  requirements: readonly SpecRequirement[];
  tasks: readonly SpecTask[];
  /**
   * All the text that describes the system: every requirement's and the design documents'
   * (the architecture's current system, the API, the data model, the screens). The codebase
   * overview is left out: it lists what the code has, so it would cover everything.
   */
  described: string;
}

/**
 * The spec of one revision as a check reads it.
 *
 * @example
 * const spec = specView(await listDocuments(tx, projectId, revision));
 * spec.requirements[0]; // { id: 'FR-1', title: 'Book an appointment', criteria: ['FR-1.1'], … }
 */
export function specView(documents: readonly SpecDocument[]): SpecView {
  const read = documents.filter((doc) => documentRole(doc.filename) !== 'codebase');
  const trace = buildTrace(read.map(({ filename, content }) => ({ filename, content })));
  const excerpts = read.map((doc) => new DocumentExcerpts(doc.filename, doc.content));
  const requirementsDoc = excerpts.find((doc) => documentRole(doc.document) === 'requirements');
  const requirements = trace.coverage.requirements.map((coverage) => {
    const ids = new Set([coverage.id, ...coverage.criteria]);
    const definitions = [...ids].flatMap((id) => requirementsDoc?.definition(id) ?? []);
    const citing = excerpts.flatMap((doc) => doc.citing(ids).map((piece) => piece.markdown));
    return {
      id: coverage.id,
      title: coverage.title,
      criteria: coverage.criteria,
      tasks: coverage.tasks,
      text: [...new Set([...definitions, ...citing])].join('\n\n'),
    };
  });
  const tasks = plannedTasks(read).map((task) => ({
    id: task.taskId,
    title: task.title,
    requirements: task.requirements,
    criteria: task.criteria,
    files: task.files.map((file) => file.replace(/\s*\(new\)$/, '')),
  }));
  const design = read.filter((doc) => doc.stage === 'design').map((doc) => doc.content);
  return {
    requirements,
    tasks,
    described: [...requirements.map((r) => r.text), ...design].join('\n\n'),
  };
}
