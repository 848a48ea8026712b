import { buffer } from 'node:stream/consumers';
import type { ProjectCompleted, ProjectType } from '@pgs/contract';
import { parseDocument } from '@pgs/contract/document';
import { strFromU8, unzipSync } from 'fflate';
import { toString as plainTextOf } from 'mdast-util-to-string';
import { describe, expect, it } from 'vitest';
import { HISTORY } from '../../test/fixtures/revision-history.ts';
import { documentPlan } from '../runs/catalogue.ts';
import { archiveDate, archiveEntries, demoteHeadings, projectJson, zipStream } from './archive.ts';
import { changelog } from './changelog.ts';
import { titleOf } from './files.ts';

const GENERATED_AT = '2026-11-22T10:00:00.000Z';

/** A completed project of the type with every document of its plan, in plan order. */
function completed(type: ProjectType, name = 'Team Pulse', grounded = false): ProjectCompleted {
  return {
    projectId: '7d0f2c8e-4a9b-4e43-9a55-0d2b8f1c6e21',
    status: 'completed',
    project: {
      name,
      description: 'A habit tracker for remote teams.',
      type,
      questionnaire: {
        targetAudience: 'Remote teams of 5 to 50 people',
        monetization: 'Per-seat subscription',
        techStack: ['TypeScript', 'PostgreSQL'],
        platforms: ['web'],
      },
      documents: documentPlan(type, { grounded }).map((kind, i) => ({
        type: kind.kind,
        filename: kind.filename,
        content: `# ${kind.title}: ${name}\n\n## ${kind.sections[0]}\n\nText of ${kind.kind}.\n`,
        generated_at: new Date(Date.parse(GENERATED_AT) + i * 1000).toISOString(),
        stage: kind.stage,
        tokens_used: 100 + i,
      })),
    },
    metadata: { creditsConsumed: 47, generationTimeMs: 48211, documentsGenerated: 9 },
  };
}

const paths = (data: ProjectCompleted, layout: Parameters<typeof archiveEntries>[1]) =>
  archiveEntries(data, layout).map((entry) => entry.path);
const contentOf = (data: ProjectCompleted, kind: string) =>
  data.project.documents.find((doc) => doc.type === kind)!.content;

describe('demoteHeadings', () => {
  it('moves ATX headings one level down, leaves code fences, level 6 and non-headings alone', () => {
    const markdown = [
      '# Title',
      '## Part',
      '###### Deepest',
      '#hashtag is no heading',
      '```md',
      '# inside a fence',
      '```',
      '~~~',
      '## also inside',
      '~~~',
      '   ### indented',
      'Text # not a heading',
    ].join('\n');
    expect(demoteHeadings(markdown).split('\n')).toEqual([
      '## Title',
      '### Part',
      '###### Deepest',
      '#hashtag is no heading',
      '```md',
      '# inside a fence',
      '```',
      '~~~',
      '## also inside',
      '~~~',
      '   #### indented',
      'Text # not a heading',
    ]);
  });

  it('moves the headings the document tree reads, in a list or a quote too, and no setext one', () => {
    expect(demoteHeadings('- # In a list\n\n> ## Quoted\n\nSetext\n===\n\n## Closed ##\n')).toBe(
      '- ## In a list\n\n> ### Quoted\n\nSetext\n===\n\n### Closed ##\n',
    );
  });
});

describe('archiveEntries', () => {
  it('plain: <slug>/ + each filename + project.json, documents unchanged', () => {
    const data = completed('web');
    const entries = archiveEntries(data, 'plain');
    expect(entries.map((e) => e.path)).toEqual([
      ...documentPlan('web').map((k) => `team-pulse/${k.filename}`),
      'team-pulse/project.json',
    ]);
    for (const doc of data.project.documents) {
      expect(entries.find((e) => e.path === `team-pulse/${doc.filename}`)?.content).toBe(
        doc.content,
      );
    }
  });

  it('project.json: the status data without the documents', () => {
    const data = completed('mobile');
    const { documents: _, ...project } = data.project;
    expect(JSON.parse(projectJson(data))).toEqual({
      projectId: data.projectId,
      ...project,
      metadata: data.metadata,
    });
  });

  it('kiro, web: steering, requirements, design, tasks, README', () => {
    const data = completed('web');
    expect(paths(data, 'kiro')).toEqual([
      '.kiro/steering/product.md',
      '.kiro/specs/team-pulse/requirements.md',
      '.kiro/specs/team-pulse/design.md',
      '.kiro/specs/team-pulse/tasks.md',
      'README.md',
      '.kiro/specs/team-pulse/project.json',
    ]);
    const entries = archiveEntries(data, 'kiro');
    const file = (path: string) => entries.find((e) => e.path === path)!.content;
    expect(file('.kiro/steering/product.md')).toBe(contentOf(data, 'project-brief'));
    expect(file('.kiro/specs/team-pulse/tasks.md')).toBe(contentOf(data, 'implementation-plan'));
    expect(file('README.md')).toBe(contentOf(data, 'readme'));
    expect(file('.kiro/specs/team-pulse/requirements.md')).toBe(
      [
        '# Requirements Document: Team Pulse\n',
        demoteHeadings(contentOf(data, 'product-requirements')),
        demoteHeadings(contentOf(data, 'user-stories')),
      ].join('\n'),
    );
    const design = file('.kiro/specs/team-pulse/design.md');
    expect(design.startsWith('# Design Document: Team Pulse\n\n## Architecture: ')).toBe(true);
    for (const kind of ['architecture', 'api-design', 'data-model']) {
      expect(design).toContain(demoteHeadings(contentOf(data, kind)));
    }
  });

  it('kiro, mobile and mcp: every design document of the type goes to design.md', () => {
    for (const [type, kinds] of [
      ['mobile', ['screens', 'navigation', 'offline-and-permissions']],
      ['mcp', ['mcp-tools', 'mcp-resources-and-prompts', 'mcp-transport-and-clients']],
    ] as const) {
      const data = completed(type);
      expect(paths(data, 'kiro')).toHaveLength(6);
      const design = archiveEntries(data, 'kiro').find((e) => e.path.endsWith('/design.md'))!;
      for (const kind of ['architecture', ...kinds]) {
        expect(design.content).toContain(demoteHeadings(contentOf(data, kind)));
      }
    }
  });

  it('spec-kit: spec, plan, data-model, contracts, tasks per type', () => {
    const spec = 'specs/001-team-pulse';
    expect(paths(completed('web'), 'spec-kit')).toEqual([
      `${spec}/spec.md`,
      `${spec}/plan.md`,
      `${spec}/data-model.md`,
      `${spec}/contracts/api-design.md`,
      `${spec}/tasks.md`,
      'README.md',
      `${spec}/project.json`,
    ]);
    expect(paths(completed('mobile'), 'spec-kit')).toEqual([
      `${spec}/spec.md`,
      `${spec}/plan.md`,
      `${spec}/tasks.md`,
      'README.md',
      `${spec}/project.json`,
    ]);
    expect(paths(completed('mcp'), 'spec-kit')).toEqual([
      `${spec}/spec.md`,
      `${spec}/plan.md`,
      `${spec}/contracts/mcp-tools.md`,
      `${spec}/contracts/mcp-resources-and-prompts.md`,
      `${spec}/tasks.md`,
      'README.md',
      `${spec}/project.json`,
    ]);
    const data = completed('mobile');
    const file = (path: string) =>
      archiveEntries(data, 'spec-kit').find((e) => e.path === path)!.content;
    expect(file(`${spec}/spec.md`)).toBe(
      [
        '# Feature Specification: Team Pulse\n',
        ...['project-brief', 'product-requirements', 'user-stories'].map((kind) =>
          demoteHeadings(contentOf(data, kind)),
        ),
      ].join('\n'),
    );
    for (const kind of ['architecture', 'screens', 'navigation', 'offline-and-permissions']) {
      expect(file(`${spec}/plan.md`)).toContain(demoteHeadings(contentOf(data, kind)));
    }
  });

  it('agents: AGENTS.md, then docs/<filename> for each document, docs/project.json', () => {
    const data = completed('mcp');
    const entries = archiveEntries(data, 'agents');
    expect(entries.map((e) => e.path)).toEqual([
      'AGENTS.md',
      ...documentPlan('mcp').map((k) => `docs/${k.filename}`),
      'docs/project.json',
    ]);
    const agents = entries[0]!.content;
    expect(agents).toMatch(/^# AGENTS\.md: Team Pulse\n/);
    expect(agents).toContain('## Where to start');
    expect(agents).toContain('1. Read `docs/PROJECT_BRIEF.md` first');
    // One table row per document, with a description.
    for (const kind of documentPlan('mcp')) {
      expect(agents).toContain(`| \`docs/${kind.filename}\` | ${kind.title}: `);
    }
    expect(agents).toContain('- Tech stack: TypeScript, PostgreSQL');
  });

  it('agents: a hostile name, description and title are escaped and read back as the same text', () => {
    const name = 'Pulse | *stars* # `ticks` <b>T-1</b>';
    const data = completed('web', name);
    data.project.description = '# Not a heading | _nor_ `code` <script>alert(1)</script> FR-2';
    data.project.documents.push({
      ...data.project.documents[0]!,
      type: 'glossary',
      filename: 'GLOSSARY.md',
      content: '# Terms | **bold** `x` <i>\n',
    });
    const agents = archiveEntries(data, 'agents')[0]!.content;
    const [title, description] = parseDocument(agents).children;
    expect(plainTextOf(title!)).toBe(`AGENTS.md: ${name}`);
    expect(plainTextOf(description!)).toBe(data.project.description);
    expect(agents).not.toContain('<script>');
    const table = parseDocument(agents).children.find((node) => node.type === 'table')!;
    const glossary = titleOf(data.project.documents.at(-1)!.content);
    expect(glossary).toContain('|');
    expect(plainTextOf(table.children.at(-1)!.children[1]!)).toBe(glossary);
  });

  it("kiro and spec-kit: a combined file's title holds a hostile name as text", () => {
    const name = 'Pulse | *stars* `ticks` <b>T-1</b>';
    const data = completed('web', name);
    const files = [
      ...archiveEntries(data, 'kiro').filter((e) => e.path.endsWith('/requirements.md')),
      ...archiveEntries(data, 'spec-kit').filter((e) => e.path.endsWith('/spec.md')),
    ];
    expect(files.map((e) => plainTextOf(parseDocument(e.content).children[0]!))).toEqual([
      `Requirements Document: ${name}`,
      `Feature Specification: ${name}`,
    ]);
    // The first document follows the title as it is written, one level down.
    expect(files[0]!.content).toContain('\n\n## ');
  });

  it('a kind no layout knows still ships, beside the spec, under a safe name', () => {
    const data = completed('web');
    data.project.documents.push({
      ...data.project.documents[0]!,
      type: 'glossary',
      filename: '../../etc/GLOSSARY.md',
    });
    expect(paths(data, 'kiro')).toContain('.kiro/specs/team-pulse/etc_GLOSSARY.md');
    expect(paths(data, 'plain')).toContain('team-pulse/etc_GLOSSARY.md');
    for (const layout of ['plain', 'kiro', 'spec-kit', 'agents'] as const) {
      for (const path of paths(data, layout)) expect(path).not.toMatch(/(^|\/)\.\.(\/|$)|^\//);
    }
  });
});

describe('archiveEntries with a history', () => {
  it('every layout: the same files, then CHANGELOG.md beside project.json', () => {
    const data = completed('web');
    for (const [layout, dir] of [
      ['plain', 'team-pulse/'],
      ['kiro', '.kiro/specs/team-pulse/'],
      ['spec-kit', 'specs/001-team-pulse/'],
      ['agents', 'docs/'],
    ] as const) {
      const without = archiveEntries(data, layout, '{}\n');
      const withHistory = archiveEntries(data, layout, '{}\n', HISTORY);
      expect(withHistory.slice(0, -1)).toEqual(without);
      expect(withHistory.at(-1)).toEqual({
        path: `${dir}CHANGELOG.md`,
        content: changelog('Team Pulse', HISTORY),
      });
    }
  });
});

describe('zipStream', () => {
  it('streams a zip that unzips to the entries, the same bytes every time', async () => {
    const data = completed('web');
    // A document larger than one chunk, with non-ASCII text.
    data.project.documents[0]!.content = `# Brief\n\n${'Équipe café ☕ '.repeat(20_000)}\n`;
    const entries = archiveEntries(data, 'plain');
    const stream = zipStream(entries, archiveDate(data));
    let chunks = 0;
    stream.on('data', () => chunks++);
    const bytes = await buffer(stream);
    expect(chunks).toBeGreaterThan(1);
    const files = unzipSync(new Uint8Array(bytes));
    expect(Object.keys(files)).toEqual(entries.map((e) => e.path));
    for (const entry of entries) expect(strFromU8(files[entry.path]!)).toBe(entry.content);
    const again = await buffer(zipStream(entries, archiveDate(data)));
    expect(again.equals(bytes)).toBe(true);
  });

  it('dates the files by the last document', () => {
    const data = completed('web');
    expect(archiveDate(data).toISOString()).toBe(data.project.documents.at(-1)!.generated_at);
  });
});

describe('a project grounded in a codebase', () => {
  const data = completed('web', 'Team Pulse', true);
  const entry = (layout: Parameters<typeof archiveEntries>[1], path: string) =>
    archiveEntries(data, layout).find((e) => e.path === path)?.content;

  it("ships the codebase overview in every layout, where each tool looks for the code's map", () => {
    const overview = contentOf(data, 'codebase-overview');
    expect(entry('plain', 'team-pulse/CODEBASE_OVERVIEW.md')).toBe(overview);
    // Kiro's steering file for the project's structure, read in every interaction.
    expect(entry('kiro', '.kiro/steering/structure.md')).toBe(overview);
    expect(entry('spec-kit', 'specs/001-team-pulse/CODEBASE_OVERVIEW.md')).toBe(overview);
    expect(entry('agents', 'docs/CODEBASE_OVERVIEW.md')).toBe(overview);
    expect(entry('openspec', 'openspec/docs/CODEBASE_OVERVIEW.md')).toBe(overview);
  });

  it('points agents and OpenSpec to it before the design, and keeps them to the existing stack', () => {
    const agents = entry('agents', 'AGENTS.md')!;
    expect(agents).toContain('`docs/CODEBASE_OVERVIEW.md` maps the existing codebase');
    expect(agents.indexOf('CODEBASE_OVERVIEW.md')).toBeLessThan(agents.indexOf('How to build it'));
    expect(agents).toContain('Keep to the stack and the patterns the codebase already has');
    expect(agents).toContain('| `docs/CODEBASE_OVERVIEW.md` | Codebase Overview: summary, stack');
    // The architecture is described with its grounded sections.
    expect(agents).toContain('| `docs/ARCHITECTURE.md` | Architecture: current system, context');
    const project = entry('openspec', 'openspec/project.md')!;
    expect(project).toContain('## Existing Codebase');
    expect(project).toContain('`openspec/docs/CODEBASE_OVERVIEW.md` maps it');
    // An ungrounded project says nothing of a codebase.
    const plain = completed('web');
    const plainAgents = archiveEntries(plain, 'agents').find((e) => e.path === 'AGENTS.md')!;
    expect(plainAgents.content).not.toContain('CODEBASE_OVERVIEW');
    expect(plainAgents.content).toContain('Keep to the technology it chooses.');
  });
});
