import { type ProjectCompleted, projectSlug } from '@pgs/contract';
import {
  criterion,
  heading,
  parseDocument,
  renderDocument,
  requirement,
  root,
  visit,
} from '@pgs/contract/document';
import { toString as plainTextOf } from 'mdast-util-to-string';
import { describe, expect, it } from 'vitest';
import { offlineProject } from '../../test/helpers/offline-fixtures.ts';
import { archiveEntries } from './archive.ts';
import type { RevisionRecord } from './changelog.ts';
import { changeName, openspecEntries } from './openspec.ts';
import { requirementGroups } from './requirements.ts';

const IDEA = 'A habit tracker for remote teams to build routines together and celebrate streaks';
const AT = '2026-11-22T10:00:00.000Z';

/**
 * The offline engine's project as revision 3 holds it: revision 2 added FR-4 and removed
 * FR-2, revision 3 renamed FR-3 and rewrote FR-1's statement.
 */
function revisedProject(): ProjectCompleted {
  const { definition, documents } = offlineProject(IDEA, 'web');
  const revised = documents.map((doc) =>
    doc.kind !== 'product-requirements'
      ? doc
      : {
          ...doc,
          content: doc.content
            .replace(/### FR-2 [\s\S]*?(?=### FR-3 )/, '')
            .replace(/(### FR-3 )View and search routines/, '$1Find routines')
            .replace(
              /(### FR-1 .+\n\n).+\n/,
              '$1RoutineFlow lets remote teams build and archive routines together.\n',
            )
            .replace(
              '## Non-functional requirements',
              '### FR-4 Send reminders (Could)\n\nRoutineFlow reminds remote teams of their routines.\n\n**FR-4.1** WHEN a routine is due THE SYSTEM SHALL send a reminder to its team.\n\n## Non-functional requirements',
            ),
        },
  );
  return {
    projectId: '7d0f2c8e-4a9b-4e43-9a55-0d2b8f1c6e21',
    status: 'completed',
    project: {
      name: definition.name,
      description: definition.description,
      type: definition.type,
      questionnaire: definition.questionnaire,
      documents: revised.map((doc) => ({
        type: doc.kind,
        filename: doc.filename,
        content: doc.content,
        generated_at: AT,
        stage: 'requirements',
        tokens_used: 100,
      })),
    },
    metadata: { creditsConsumed: 12, generationTimeMs: 2000, documentsGenerated: 2 },
  };
}

const data = revisedProject();
const slug = projectSlug(data.project.name);
const history: RevisionRecord[] = [
  {
    revision: 1,
    changeRequest: null,
    createdAt: AT,
    completedAt: AT,
    deltas: [],
    documentsChanged: data.project.documents.map((d) => d.filename),
  },
  {
    revision: 2,
    changeRequest: 'Add reminders before each routine; stop celebrating streaks.',
    createdAt: '2026-11-23T09:00:00.000Z',
    completedAt: '2026-11-23T09:01:00.000Z',
    deltas: [
      { op: 'added', id: 'FR-4', title: 'Send reminders', text: 'Reminders are sent.' },
      { op: 'removed', id: 'FR-2', title: 'Celebrate streaks', reason: 'streaks are dropped' },
    ],
    documentsChanged: ['PRODUCT_REQUIREMENTS.md', 'USER_STORIES.md'],
  },
  {
    revision: 3,
    changeRequest:
      'Rename view and search routines to find routines, and let teams archive routines',
    createdAt: '2026-11-24T09:00:00.000Z',
    completedAt: '2026-11-24T09:01:00.000Z',
    deltas: [
      { op: 'renamed', id: 'FR-3', from: 'View and search routines', to: 'Find routines' },
      { op: 'modified', id: 'FR-1', title: 'Build routines together', text: 'Archive too.' },
    ],
    documentsChanged: ['PRODUCT_REQUIREMENTS.md'],
  },
];
const entries = archiveEntries(data, 'openspec', '{"nodes":[]}\n', history);
const file = (path: string) => entries.find((e) => e.path === path)?.content;
const requirementsDoc = data.project.documents.find((d) => d.type === 'product-requirements')!;
const change2 = `openspec/changes/2-add-reminders-before-each-routine-stop`;
const change3 = `openspec/changes/3-rename-view-and-search-routines-to`;

/** The `### Requirement:` blocks of a spec, each to the next `###` or `##`. */
const blocks = (spec: string) => spec.split(/\n(?=###? )/).filter((b) => b.startsWith('### '));

describe('the openspec layout', () => {
  it('places its own files, the changes, then every document as it is, project.json, trace.json, CHANGELOG.md', () => {
    const docs = data.project.documents.filter((d) => d.type !== 'readme');
    expect(entries.map((e) => e.path)).toEqual([
      'openspec/project.md',
      `openspec/specs/${slug}/spec.md`,
      `${change2}/proposal.md`,
      `${change2}/specs/${slug}/spec.md`,
      `${change3}/proposal.md`,
      `${change3}/specs/${slug}/spec.md`,
      'README.md',
      ...docs.map((d) => `openspec/docs/${d.filename}`),
      'openspec/docs/project.json',
      'openspec/docs/trace.json',
      'openspec/docs/CHANGELOG.md',
    ]);
    for (const doc of docs) expect(file(`openspec/docs/${doc.filename}`)).toBe(doc.content);
    expect(file('README.md')).toBe(
      data.project.documents.find((d) => d.type === 'readme')!.content,
    );
  });

  it('project.md: name, description, type, audience, stack, and paths that are in the zip', () => {
    const project = file('openspec/project.md')!;
    const { name, description, questionnaire } = data.project;
    expect(project).toMatch(new RegExp(`^# Project Context: ${name}\n\n## Purpose\n\n`));
    expect(project).toContain(description);
    expect(project).toContain('- Type: web application (`web`)');
    expect(project).toContain(`- Audience: ${questionnaire.targetAudience}`);
    expect(project).toContain(
      `## Tech Stack\n\n${questionnaire.techStack.map((t) => `- ${t}`).join('\n')}\n`,
    );
    expect(project).toContain('The brief is `openspec/docs/PROJECT_BRIEF.md`');
    const paths = [...project.matchAll(/`((?:openspec\/|README)[^`]*)`/g)].map((m) => m[1]!);
    expect(paths.length).toBeGreaterThan(data.project.documents.length);
    for (const path of paths) expect(entries.map((e) => e.path)).toContain(path);
  });

  it('spec.md: each FR group a requirement with a SHALL, each criterion a WHEN/THEN scenario', () => {
    const spec = file(`openspec/specs/${slug}/spec.md`)!;
    const groups = requirementGroups(requirementsDoc.content);
    expect(groups.map((g) => g.id)).toEqual(['FR-1', 'FR-3', 'FR-4']);
    expect(spec).toMatch(
      new RegExp(
        `^# ${data.project.name} Specification\n\n## Purpose\n\n[^#]+\n## Requirements\n\n### `,
      ),
    );
    expect(spec.match(/^### .+$/gm)).toEqual(
      groups.map((g) => `### Requirement: ${g.id} ${g.title}`),
    );
    expect(spec).toContain('### Requirement: FR-3 Find routines\n');
    expect(blocks(spec)).toHaveLength(groups.length);
    for (const [i, block] of blocks(spec).entries()) {
      const group = groups[i]!;
      // OpenSpec's reading: the text before the first scenario says SHALL or MUST.
      expect(block.split('\n#### ')[0]).toMatch(/\b(SHALL|MUST)\b/);
      expect(block).toContain(`**Priority**: ${group.priority}`);
      expect(block.match(/^#### Scenario: .+$/gm)).toEqual(
        group.criteria.map((c) => `#### Scenario: ${c.id}`),
      );
    }
    expect(spec).toContain(
      '#### Scenario: FR-4.1\n\n- **WHEN** a routine is due\n- **THEN** the system SHALL send a reminder to its team.\n',
    );
    // Every criterion of the offline engine splits: no scenario is left a bare sentence.
    for (const scenario of spec.split('\n#### Scenario: ').slice(1)) {
      expect(scenario).toMatch(/^FR-\d+\.\d+\n\n(- \*\*(WHEN|GIVEN|AND)\*\* .+\n)*- \*\*THEN\*\* /);
    }
  });

  it('a change: proposal with why, what (removals BREAKING) and impact; delta spec with ADDED and REMOVED only', () => {
    expect(file(`${change2}/proposal.md`)).toBe(
      [
        `# Change: Revision 2 of ${data.project.name}\n`,
        '## Why\n',
        `Revision 2 of ${data.project.name}, asked for on 2026-11-23:\n`,
        '> Add reminders before each routine; stop celebrating streaks.\n',
        '## What Changes\n',
        '- Added FR-4: Send reminders',
        '- **BREAKING** Removed FR-2: Celebrate streaks (streaks are dropped)\n',
        '## Impact\n',
        `- Affected specs: \`${slug}\``,
        '- Documents changed: `openspec/docs/PRODUCT_REQUIREMENTS.md`, `openspec/docs/USER_STORIES.md`',
        '',
      ].join('\n'),
    );
    const spec = file(`${change2}/specs/${slug}/spec.md`)!;
    expect(spec.match(/^## .+$/gm)).toEqual(['## ADDED Requirements', '## REMOVED Requirements']);
    // ADDED: the full text from the archived requirements (no later revision touched FR-4).
    const current = blocks(file(`openspec/specs/${slug}/spec.md`)!);
    expect(spec).toContain(current.find((b) => b.startsWith('### Requirement: FR-4 '))!);
    expect(spec).not.toContain('Reminders are sent.');
    expect(
      spec.endsWith(
        '## REMOVED Requirements\n\n### Requirement: FR-2 Celebrate streaks\n\n**Reason**: streaks are dropped\n',
      ),
    ).toBe(true);
  });

  it('a change with MODIFIED and RENAMED: the full new text, and FROM/TO headers', () => {
    const spec = file(`${change3}/specs/${slug}/spec.md`)!;
    expect(spec.match(/^## .+$/gm)).toEqual([
      '## MODIFIED Requirements',
      '## RENAMED Requirements',
    ]);
    expect(spec).toContain(
      'RoutineFlow lets remote teams build and archive routines together.'.replace(
        'RoutineFlow',
        data.project.name,
      ),
    );
    expect(spec).toContain('#### Scenario: FR-1.1\n');
    expect(spec).toContain(
      '## RENAMED Requirements\n\n- FROM: `### Requirement: FR-3 View and search routines`\n- TO: `### Requirement: FR-3 Find routines`\n',
    );
  });

  it("takes the delta's text for a requirement a later revision changed again", () => {
    const later: RevisionRecord = {
      ...history[2]!,
      revision: 4,
      changeRequest: 'Drop reminders',
      deltas: [{ op: 'removed', id: 'FR-4', title: 'Send reminders', reason: 'unused' }],
    };
    const files = openspecEntries(data, [...history, later]);
    const spec = files.find((e) => e.path === `${change2}/specs/${slug}/spec.md`)!.content;
    expect(spec).toContain('### Requirement: FR-4 Send reminders\n\nReminders are sent.\n');
    expect(files.map((e) => e.path)).toContain('openspec/changes/4-drop-reminders/proposal.md');
  });

  it('without history: no changes and no CHANGELOG.md', () => {
    const paths = archiveEntries(data, 'openspec').map((e) => e.path);
    expect(
      paths.filter((p) => p.startsWith('openspec/changes/') || p.endsWith('CHANGELOG.md')),
    ).toEqual([]);
    expect(paths.slice(0, 3)).toEqual([
      'openspec/project.md',
      `openspec/specs/${slug}/spec.md`,
      'README.md',
    ]);
  });
});

describe('changeName', () => {
  it.each([
    [
      2,
      'Add reminders before each meeting, by email and push',
      '2-add-reminders-before-each-meeting-by',
    ],
    [3, 'Café: ne plus exporter!', '3-cafe-ne-plus-exporter'],
    [4, '日本語', '4-change'],
    [5, null, '5-change'],
  ])('%i %j → %j', (revision, request, name) => {
    expect(changeName(revision, request)).toBe(name);
  });
});

describe('hostile text in the OpenSpec layout', () => {
  it('a requirement title and a project name are escaped and read back as the same text', () => {
    const title = 'Pipes | *stars* # `ticks` <b>bold</b> and US-1 text';
    const name = 'Flow | `x` <i>';
    const requirements = renderDocument(
      root([
        heading(1, 'Product requirements'),
        heading(2, 'Functional requirements'),
        requirement({
          id: 'FR-1',
          title,
          priority: 'must',
          body: [criterion('FR-1.1', 'WHEN a routine is due THE SYSTEM SHALL send a reminder.')],
        }),
      ]),
    );
    const hostile = structuredClone(data);
    hostile.project.name = name;
    hostile.project.documents = hostile.project.documents.map((doc) =>
      doc.type === 'product-requirements' ? { ...doc, content: requirements } : doc,
    );
    const spec = openspecEntries(hostile).find((e) => e.path.endsWith('/spec.md'))!.content;
    const headings = parseDocument(spec).children.filter((node) => node.type === 'heading');
    expect(plainTextOf(headings[0]!)).toBe(`${name} Specification`);
    expect(headings.map((node) => plainTextOf(node))).toContain(`Requirement: FR-1 ${title}`);
    expect(spec).not.toContain('<b>');
    const project = openspecEntries(hostile)[0]!.content;
    expect(plainTextOf(parseDocument(project).children[0]!)).toBe(`Project Context: ${name}`);
  });

  it('REMOVED and RENAMED entries read back as the titles, reasons and headers they name', () => {
    const titles = ['Pipes | `ticks` <b>x</b>', 'Quotes T-9 *stars* [a](b)', 'Plain'];
    const record: RevisionRecord = {
      ...history[1]!,
      deltas: [
        { op: 'removed', id: 'FR-2', title: titles[0]!, reason: 'Dropped *now* | <i>T-1</i>' },
        { op: 'renamed', id: 'FR-3', from: titles[1]!, to: titles[2]! },
        { op: 'renamed', id: 'FR-1', from: titles[2]!, to: titles[0]! },
      ],
    };
    const spec = openspecEntries(data, [record]).find((e) =>
      e.path.startsWith(`${change2}/specs/`),
    )!.content;
    const tree = parseDocument(spec, { defines: [] });
    expect(tree.children.map((node) => `${node.type}: ${plainTextOf(node)}`)).toEqual([
      'heading: REMOVED Requirements',
      `heading: Requirement: FR-2 ${titles[0]}`,
      'paragraph: Reason: Dropped *now* | <i>T-1</i>',
      'heading: RENAMED Requirements',
      expect.stringMatching(/^list: /),
    ]);
    const headers: string[] = [];
    visit(tree, (node) => {
      if (node.type === 'inlineCode') headers.push(node.value);
    });
    expect(headers).toEqual([
      `### Requirement: FR-3 ${titles[1]}`,
      `### Requirement: FR-3 ${titles[2]}`,
      `### Requirement: FR-1 ${titles[2]}`,
      `### Requirement: FR-1 ${titles[0]}`,
    ]);
    // The FROM/TO lines stay one per line, as OpenSpec reads them.
    expect(spec.split('\n').filter((line) => /^- (FROM|TO): `/.test(line))).toHaveLength(4);
  });
});
