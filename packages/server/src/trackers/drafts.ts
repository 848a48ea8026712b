/**
 * What a synced issue says (docs/trackers.md, "Pushing a project"): one issue per task and,
 * with the `requirements` or `all` scope, one parent issue per FR group. A draft is built from
 * the task rows and the requirements document only, so the same plan gives the same drafts
 * byte for byte, and its digest decides whether the issue needs writing again.
 */
import { createHash } from 'node:crypto';
import {
  type Criterion,
  definitionsOf,
  type FlowContent,
  paragraph,
  parseDocument as parseTree,
  renderDocument,
  root,
} from '@pgs/contract/document';
import { documentRole, parseDocument, requirementOf } from '../runs/trace/parse.ts';
import { type IssueDraft, itemMarker } from './providers/provider.ts';

/** What a sync pushes: tasks only, or FR parents with their tasks as children. */
export type SyncScope = 'tasks' | 'requirements' | 'all';

/** A task as a draft needs it (the contract's `Task`, narrowed). */
export interface DraftTask {
  id: string;
  title: string;
  phase: string;
  requirements: string[];
  criteria: string[];
  dependsOn: string[];
  files: string[];
  status: 'todo' | 'in_progress' | 'blocked' | 'done' | 'obsolete';
}

/** An FR group as the requirements document states it. */
export interface RequirementText {
  id: string;
  title: string;
  /** Its criteria in document order, each as one line of markdown (`**FR-2.1** WHEN …`). */
  criteria: { id: string; markdown: string }[];
}

/** The requirements of one revision, read once per sync. */
export interface ProjectSpec {
  /** FR groups in document order. */
  requirements: RequirementText[];
  /** Every criterion's one-line markdown, by ID. */
  criteria: Map<string, string>;
}

/** A document as stored, as much of it as the spec needs. */
export interface SpecDocument {
  filename: string;
  content: string;
}

/**
 * A criterion as one checklist line, rendered from its node: a tracker's checklist item ends
 * at the first line break, and a criterion defined as a list item is its item's content, not
 * `- [ ] - **FR-3.1** …`.
 */
function oneLine(node: Criterion): string {
  const blocks: FlowContent[] =
    node.form === 'paragraph'
      ? [paragraph(...node.children)]
      : node.form === 'row'
        ? [
            paragraph(
              ...node.children.flatMap((cell, i) => [...(i > 0 ? [' | '] : []), ...cell.children]),
            ),
          ]
        : node.children;
  return renderDocument(root(blocks)).replace(/\s+/g, ' ').trim();
}

/** The first node defining each criterion of a document, by ID. */
function criterionNodes(doc: SpecDocument): Map<string, Criterion> {
  const nodes = new Map<string, Criterion>();
  for (const node of definitionsOf(parseTree(doc.content, { filename: doc.filename }), 'criterion'))
    if (!nodes.has(node.id)) nodes.set(node.id, node);
  return nodes;
}

/**
 * The FR groups and criteria of a revision's requirements document; empty without one.
 *
 * @example
 * readSpec(documents).requirements[0]; // { id: 'FR-1', title: 'Keep communities', criteria: [...] }
 */
export function readSpec(documents: readonly SpecDocument[]): ProjectSpec {
  const spec: ProjectSpec = { requirements: [], criteria: new Map() };
  const doc = documents.find((d) => documentRole(d.filename) === 'requirements');
  if (doc === undefined) return spec;
  const criteria = criterionNodes(doc);
  const byId = new Map<string, RequirementText>();
  for (const node of parseDocument(doc.filename, doc.content).defines) {
    if (node.kind === 'requirement' && node.id.startsWith('FR-') && !byId.has(node.id)) {
      const requirement = { id: node.id, title: node.title, criteria: [] };
      byId.set(node.id, requirement);
      spec.requirements.push(requirement);
    } else if (node.kind === 'criterion' && !spec.criteria.has(node.id)) {
      const written = criteria.get(node.id);
      const markdown = written ? oneLine(written) : `**${node.id}** ${node.title}`;
      spec.criteria.set(node.id, markdown);
      byId.get(requirementOf(node.id) ?? '')?.criteria.push({ id: node.id, markdown });
    }
  }
  return spec;
}

/** What every draft of one sync shares. */
export interface DraftContext {
  projectId: string;
  scope: SyncScope;
  spec: ProjectSpec;
  /** The project's page for people (console or API), or undefined when none is configured. */
  projectUrl: string | undefined;
  /** The external id of an item already on the tracker (for parents and blockers). */
  externalIdOf(itemId: string): string | undefined;
  /** What people call it on the tracker (`#12`), for the body's dependency line. */
  keyOf(itemId: string): string | undefined;
}

/** Whether a scope pushes FR groups as parent issues. */
export const withParents = (scope: SyncScope) => scope !== 'tasks';

/**
 * The FR group a task goes under: the first of its requirements that the spec has as an FR
 * group (a task serving several FRs goes under its first); undefined for the `tasks` scope.
 */
export function parentOf(task: DraftTask, context: Pick<DraftContext, 'scope' | 'spec'>) {
  if (!withParents(context.scope)) return undefined;
  const groups = new Set(context.spec.requirements.map((r) => r.id));
  return task.requirements.find((id) => groups.has(id));
}

const list = (ids: readonly string[]) => (ids.length === 0 ? 'none' : ids.join(', '));

function backLink(context: DraftContext, itemId: string): string[] {
  if (context.projectUrl === undefined) return [];
  return ['', `[${itemId} in PGS](${context.projectUrl})`];
}

/**
 * A task's issue: `T-3 <title>`; the task's phase, requirements, dependencies and files; its
 * criteria as a checklist with their full text, ticked once the task is done (a closed issue
 * should not read as work left); a link back; and the item's marker.
 *
 * @example
 * taskDraft(task, context).title; // 'T-3 Build the booking form'
 */
export function taskDraft(task: DraftTask, context: DraftContext): IssueDraft {
  const dependencies = task.dependsOn.map((id) => {
    const key = context.keyOf(id);
    return key === undefined ? id : `${id} (${key})`;
  });
  const tick = task.status === 'done' ? 'x' : ' ';
  const criteria = task.criteria.map(
    (id) => `- [${tick}] ${context.spec.criteria.get(id) ?? `**${id}**`}`,
  );
  const body = [
    `**Phase:** ${task.phase || 'none'}`,
    `**Requirements:** ${list(task.requirements)}`,
    `**Depends on:** ${list(dependencies)}`,
    ...(task.files.length === 0
      ? []
      : [`**Files:** ${task.files.map((f) => `\`${f}\``).join(', ')}`]),
    '',
    '### Acceptance criteria',
    '',
    ...(criteria.length === 0 ? ['None stated for this task.'] : criteria),
    ...backLink(context, task.id),
    '',
    itemMarker(context.projectId, task.id),
  ].join('\n');
  const parent = parentOf(task, context);
  const parentId = parent === undefined ? undefined : context.externalIdOf(parent);
  const blockedBy = task.dependsOn.flatMap((id) => {
    const externalId = context.externalIdOf(id);
    return externalId === undefined ? [] : [externalId];
  });
  return {
    itemId: task.id,
    title: `${task.id} ${task.title}`,
    body,
    labels: ['pgs', ...task.requirements.filter((id) => id.startsWith('FR-'))],
    ...(parentId === undefined ? {} : { parent: parentId }),
    blockedBy,
  };
}

/**
 * An FR group's parent issue: `FR-2 <title>`, its criteria as a checklist, a link back and
 * the marker. Its children are the tasks that name it first.
 *
 * @example
 * requirementDraft(requirement, context).labels; // ['pgs', 'FR-2']
 */
export function requirementDraft(requirement: RequirementText, context: DraftContext): IssueDraft {
  const criteria = requirement.criteria.map((c) => `- [ ] ${c.markdown}`);
  const body = [
    `The requirement ${requirement.id} of the project's spec; its tasks are its sub-issues.`,
    '',
    '### Acceptance criteria',
    '',
    ...(criteria.length === 0 ? ['None stated.'] : criteria),
    ...backLink(context, requirement.id),
    '',
    itemMarker(context.projectId, requirement.id),
  ].join('\n');
  return {
    itemId: requirement.id,
    title: `${requirement.id} ${requirement.title}`,
    body,
    labels: ['pgs', requirement.id],
    blockedBy: [],
  };
}

/**
 * The sha256 of a draft, over every field a write sends (labels and blockers as sets): equal
 * digests mean the issue already says this, so the item is `unchanged`.
 *
 * @example
 * draftDigest(draft); // 'sha256:9f2c…'
 */
export function draftDigest(draft: IssueDraft): string {
  const canonical = JSON.stringify([
    draft.itemId,
    draft.title,
    draft.body,
    [...draft.labels].sort(),
    draft.parent ?? null,
    [...draft.blockedBy].sort(),
  ]);
  return `sha256:${createHash('sha256').update(canonical).digest('hex')}`;
}
