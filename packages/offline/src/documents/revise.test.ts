import { answerRegister, type DocumentKindName, type ProjectType } from '@pgs/contract';
import {
  applyIds,
  droppedIds,
  parseDocument,
  registerItems,
  renumber,
  stableIdsOf,
} from '@pgs/contract/document';
import type {
  ProjectDefinition,
  RequirementDelta,
  RequirementSlot,
  RevisionContext,
  StableIds,
} from '@pgs/contract/generation';
import { describe, expect, it } from 'vitest';
import { docOf, type OfflineProject, offlineProject } from '../../test/offline-project.ts';
import { documentRequest } from '../../test/plan.ts';
import { READING_IDEAS } from '../../test/reading.ideas.ts';
import { factsFor } from '../facts/facts.ts';
import { freshKeys, reviseDocument } from './revise.ts';

const VET =
  'A web app for small veterinary clinics to book appointments, keep medical records for each pet, and send vaccine reminders by SMS';
const ADDED = 'Send SMS reminders two days before each appointment';

/** The register a project's first revision holds: each FR heading's ID and priority, in order. */
function registerOf(requirements: string): RequirementSlot[] {
  return [...requirements.matchAll(/^### (FR-\d+) .* \((Must|Should|Could)\)$/gm)].map((m) => ({
    id: m[1]!,
    priority: m[2] as RequirementSlot['priority'],
  }));
}

/** The rewrite context of one document, asked the way the workflow asks (as the fixtures do). */
function revisionOf(
  idea: string,
  kind: string,
  revised: { definition: ProjectDefinition; register: RequirementSlot[] },
  previous: OfflineProject,
  deltas: RequirementDelta[],
  ids: StableIds,
): RevisionContext {
  return {
    task: 'revision',
    idea,
    definition: revised.definition,
    register: revised.register,
    document: documentRequest(kind as DocumentKindName),
    related: [],
    deltas,
    previous: docOf(previous, kind),
    ids,
  };
}

/** A `### ` block (heading to the next heading) whose heading starts with `id`. */
function block(markdown: string, id: string): string | undefined {
  const at = markdown.search(new RegExp(`^### ${id} `, 'm'));
  if (at === -1) return undefined;
  const rest = markdown.slice(at);
  const end = rest.slice(4).search(/^#/m);
  return end === -1 ? rest : rest.slice(0, end + 4);
}

/** The table row of a task. */
const row = (plan: string, id: string) =>
  plan.split('\n').find((line) => line.startsWith(`| ${id} |`));

const idsIn = (text: string, prefix: 'US' | 'T') =>
  new Set(text.match(new RegExp(`\\b${prefix}-\\d+\\b`, 'g')) ?? []);
const numberOf = (id: string) => Number(id.split('-')[1]);

describe('reviseDocument: the vet clinic, FR-2 removed and FR-4 added', () => {
  const before = offlineProject(VET, 'web');
  const requirements = docOf(before, 'product-requirements');
  const stories = docOf(before, 'user-stories');
  const plan = docOf(before, 'implementation-plan');
  const previousRegister = registerOf(requirements);
  const features = before.definition.questionnaire.coreFeatures;
  const removedAt = previousRegister.findIndex((slot) => slot.id === 'FR-2');
  const deltas: RequirementDelta[] = [
    { op: 'added', id: 'FR-4', title: ADDED, text: ADDED },
    {
      op: 'removed',
      id: 'FR-2',
      title: features[removedAt]!,
      reason: 'Medical records are kept elsewhere',
    },
  ];
  const keep = (_: unknown, i: number) => i !== removedAt;
  const revised = {
    definition: {
      ...before.definition,
      questionnaire: {
        ...before.definition.questionnaire,
        coreFeatures: [...features.filter(keep), ADDED],
      },
    },
    register: [...previousRegister.filter(keep), { id: 'FR-4', priority: 'Must' as const }],
  };
  const ids = stableIdsOf(stories, plan, ['FR-2']);
  const rewrite = (kind: string) =>
    reviseDocument(revisionOf(VET, kind, revised, before, deltas, ids));
  const after = {
    requirements: rewrite('product-requirements'),
    stories: rewrite('user-stories'),
    plan: rewrite('implementation-plan'),
  };
  const removedItems = [...ids.stories, ...ids.tasks].filter((item) =>
    item.key.split('#')[0]!.split(',').includes('FR-2'),
  );
  const keptItems = (list: StableIds['stories']) =>
    list.filter((item) => /^FR-[13](?:#|,)/.test(item.key));

  it('starts from the project the brief describes: FR-1 to FR-3, FR-2 the medical records', () => {
    expect(previousRegister.map((slot) => slot.id)).toEqual(['FR-1', 'FR-2', 'FR-3']);
    expect(features[removedAt]).toMatch(/medical records/i);
    expect(removedItems.length).toBeGreaterThan(0);
  });

  it('keeps the FR-1 and FR-3 groups and their criteria byte for byte', () => {
    for (const id of ['FR-1', 'FR-3']) {
      const was = block(requirements, id);
      expect(was).toMatch(new RegExp(`\\*\\*${id}\\.1\\*\\*`));
      expect(block(after.requirements, id)).toBe(was);
    }
  });

  it('drops FR-2 and its criteria from every rewritten document', () => {
    for (const text of Object.values(after)) expect(text).not.toMatch(/\bFR-2\b/);
    // The description still names them: the workflow's definition, not the engine, carries it.
    const functional = after.requirements.split('\n## ').find((s) => s.startsWith('Functional'));
    expect(functional).not.toMatch(/medical records/i);
  });

  it('adds FR-4 with its own criteria FR-4.1…', () => {
    const added = block(after.requirements, 'FR-4');
    expect(added).toContain(`### FR-4 ${ADDED} (Must)`);
    expect(added).toMatch(/\*\*FR-4\.1\*\* /);
    const criteria = [...added!.matchAll(/\*\*(FR-\d+\.\d+)\*\*/g)].map((m) => m[1]);
    expect(criteria).toEqual(criteria.map((_, i) => `FR-4.${i + 1}`));
    expect(after.requirements).toContain('(FR-1 to FR-4,');
  });

  it('keeps every story of FR-1 and FR-3 with its ID and text', () => {
    const kept = keptItems(ids.stories);
    expect(kept.length).toBeGreaterThanOrEqual(2);
    for (const story of kept) {
      const was = block(stories, story.id);
      expect(was).toBeDefined();
      expect(block(after.stories, story.id)).toBe(was);
    }
  });

  it('numbers the new story above every previous one and reuses no removed ID', () => {
    const revisedIds = stableIdsOf(after.stories, after.plan, []);
    const fr4 = revisedIds.stories.filter((s) => s.key.startsWith('FR-4#'));
    expect(fr4.length).toBeGreaterThan(0);
    const maxBefore = Math.max(...ids.stories.map((s) => numberOf(s.id)));
    for (const story of fr4) expect(numberOf(story.id)).toBeGreaterThan(maxBefore);
    const maxTask = Math.max(...ids.tasks.map((t) => numberOf(t.id)));
    for (const task of revisedIds.tasks.filter((t) => t.key.startsWith('FR-4#')))
      expect(numberOf(task.id)).toBeGreaterThan(maxTask);
    for (const { id } of removedItems)
      for (const text of Object.values(after)) expect(text).not.toMatch(new RegExp(`\\b${id}\\b`));
  });

  it('cites in the plan only the stories the revised stories define', () => {
    const defined = new Set(stableIdsOf(after.stories, undefined, []).stories.map((s) => s.id));
    expect(defined.size).toBeGreaterThan(0);
    for (const id of idsIn(after.plan, 'US')) expect(defined).toContain(id);
    for (const id of idsIn(after.stories, 'US')) expect(defined).toContain(id);
  });

  it('keeps the tasks of FR-1 and FR-3 with their IDs and rows', () => {
    const kept = keptItems(ids.tasks);
    expect(kept.length).toBeGreaterThanOrEqual(4);
    const revisedTasks = new Map(
      stableIdsOf(undefined, after.plan, []).tasks.map((t) => [t.key, t.id]),
    );
    for (const task of kept) {
      expect(revisedTasks.get(task.key)).toBe(task.id);
      expect(row(after.plan, task.id)).toBe(row(plan, task.id));
    }
  });

  it('cites in the plan only tasks the plan defines', () => {
    const defined = new Set(stableIdsOf(undefined, after.plan, []).tasks.map((t) => t.id));
    for (const id of idsIn(after.plan, 'T')) expect(defined).toContain(id);
  });

  it('reports the IDs it drops, to be retired with the revision', () => {
    const dropped = droppedIds(ids, stableIdsOf(after.stories, after.plan, []));
    expect(dropped.sort()).toEqual(removedItems.map((item) => item.id).sort());
  });

  it('reproduces the revised documents when revised again with no delta', () => {
    const dropped = droppedIds(ids, stableIdsOf(after.stories, after.plan, []));
    const next = stableIdsOf(after.stories, after.plan, ['FR-2', ...dropped]);
    const revision2: OfflineProject = {
      definition: revised.definition,
      documents: [
        { kind: 'product-requirements', content: after.requirements },
        { kind: 'user-stories', content: after.stories },
        { kind: 'implementation-plan', content: after.plan },
      ],
    };
    for (const doc of revision2.documents)
      expect(reviseDocument(revisionOf(VET, doc.kind, revised, revision2, [], next))).toBe(
        doc.content,
      );
  });
});

/** A project revised with no delta: its own definition, the positional register. */
function unchanged(idea: string, type: ProjectType) {
  const project = offlineProject(idea, type);
  const register = registerOf(docOf(project, 'product-requirements'));
  const ids = stableIdsOf(
    docOf(project, 'user-stories'),
    project.documents.find((d) => d.kind === 'implementation-plan')?.content,
    [],
  );
  const revised = { definition: project.definition, register };
  return { project, ids, revised };
}

const SAMPLES: { idea: string; type: ProjectType }[] = [
  { idea: VET, type: 'web' },
  ...READING_IDEAS.map(({ idea, type }) => ({ idea, type })),
];

describe('reviseDocument with no delta', () => {
  it.each(SAMPLES)('reproduces every document byte for byte: $idea', ({ idea, type }) => {
    const { project, ids, revised } = unchanged(idea, type);
    expect(revised.register.length).toBe(project.definition.questionnaire.coreFeatures.length);
    for (const doc of project.documents)
      expect(reviseDocument(revisionOf(idea, doc.kind, revised, project, [], ids))).toBe(
        doc.content,
      );
  });

  it.each(SAMPLES)(
    'reads the same keys from the markdown as from the facts: $idea',
    ({ idea, type }) => {
      const { project, ids, revised } = unchanged(idea, type);
      const f = factsFor(revisionOf(idea, 'user-stories', revised, project, [], ids));
      const fresh = freshKeys(f);
      expect(ids.stories).toEqual(fresh.stories);
      expect(ids.tasks).toEqual(fresh.tasks);
      expect(new Set(ids.stories.map((s) => s.key)).size).toBe(ids.stories.length);
      expect(new Set(ids.tasks.map((t) => t.key)).size).toBe(ids.tasks.length);
    },
  );
});

describe('renumber and applyIds', () => {
  const ids: StableIds = {
    stories: [
      { id: 'US-1', key: 'FR-1#0' },
      { id: 'US-3', key: 'FR-3#0' },
    ],
    tasks: [
      { id: 'T-1', key: '#0' },
      { id: 'T-4', key: 'FR-3#0' },
    ],
    retired: ['FR-2', 'US-2', 'US-7', 'T-2'],
  };

  it('keeps known keys and numbers new items above every previous and retired ID', () => {
    const map = renumber(
      {
        stories: [
          { id: 'US-1', key: 'FR-1#0' },
          { id: 'US-2', key: 'FR-3#0' },
          { id: 'US-3', key: 'FR-4#0' },
          { id: 'US-4', key: 'FR-4#1' },
        ],
        tasks: [
          { id: 'T-1', key: '#0' },
          { id: 'T-2', key: 'FR-3#0' },
          { id: 'T-3', key: 'FR-4#0' },
        ],
      },
      ids,
    );
    expect(Object.fromEntries(map)).toEqual({
      'US-1': 'US-1',
      'US-2': 'US-3',
      'US-3': 'US-8',
      'US-4': 'US-9',
      'T-1': 'T-1',
      'T-2': 'T-4',
      'T-3': 'T-5',
    });
  });

  it('never gives a retired ID back, even to a key it once had', () => {
    const map = renumber(
      { stories: [{ id: 'US-1', key: 'FR-1#0' }], tasks: [] },
      { stories: [{ id: 'US-1', key: 'FR-1#0' }], tasks: [], retired: ['US-1'] },
    );
    expect(map.get('US-1')).toBe('US-2');
  });

  it('replaces in one pass, so a replaced ID is not replaced again', () => {
    const map = new Map([
      ['T-2', 'T-4'],
      ['T-4', 'T-9'],
      ['US-1', 'US-10'],
    ]);
    expect(applyIds('T-2 then T-4 (US-1, US-10, TT-2, T-20)', map)).toBe(
      'T-4 then T-9 (US-10, US-10, TT-2, T-20)',
    );
  });

  it('replaces only what the document reads as IDs: not code, not escaped user text', () => {
    const map = new Map([['T-2', 'T-4']]);
    const markdown = 'T-2 runs `T-2`.\n\n```text\nT-2\n```\n\nThe idea said "T\\-2 visas".\n';
    expect(applyIds(markdown, map)).toBe(markdown.replace('T-2 runs', 'T-4 runs'));
  });

  it('reads stories and tasks from the documents, not from their code blocks', () => {
    const stories = [
      '### US-1 Book (Must)',
      'Criteria: FR-1.1',
      '```text\nFR-9.1 is only an example\n```',
    ].join('\n\n');
    const plan = [
      '| ID | Task | Implements | Depends on | Estimate |',
      '| --- | --- | --- | --- | --- |',
      '| T-1 | Build | FR-1 | none | 1 d |',
      '',
      '```markdown',
      '| T-7 | An example row | FR-9 | none | 1 d |',
      '```',
    ].join('\n');
    expect(stableIdsOf(stories, plan, [])).toEqual({
      stories: [{ id: 'US-1', key: 'FR-1#0' }],
      tasks: [{ id: 'T-1', key: 'FR-1#0' }],
      retired: [],
    });
  });
});

describe('reviseDocument: answers to the brief (docs/clarify.md#answer-later)', () => {
  it('closes the answered entries as decisions D-n, and the others keep their IDs', () => {
    const before = offlineProject(VET, 'web');
    const brief = docOf(before, 'project-brief');
    const q = before.definition.questionnaire;
    expect(q.assumptions!.length).toBeGreaterThan(1);
    const { definition } = answerRegister(before.definition, [
      { id: 'A-1', question: q.assumptions![0]!, answer: 'Clinics of two to five vets' },
      ...(q.openQuestions!.length > 0
        ? [{ id: 'Q-1', question: q.openQuestions![0]!, answer: 'Twilio' }]
        : []),
    ]);
    const register = registerOf(docOf(before, 'product-requirements'));
    const ids = stableIdsOf(
      docOf(before, 'user-stories'),
      docOf(before, 'implementation-plan'),
      [],
    );
    const after = reviseDocument(
      revisionOf(VET, 'project-brief', { definition, register }, before, [], ids),
    );
    const entries = (markdown: string) =>
      registerItems(parseDocument(markdown, { filename: 'PROJECT_BRIEF.md' })).map((e) => e.id);
    expect(entries(after)).toEqual(entries(brief).filter((id) => id !== 'A-1' && id !== 'Q-1'));
    expect(after).toContain('### Decisions');
    // The closed ID is text in the decision, not a citation of an ID no document defines.
    expect(after).toMatch(/\*\*D-1\*\* \(answers A\\-1, ".*"\): Clinics of two to five vets/);
    expect(after).toContain('Clinics of two to five vets');
  });
});
