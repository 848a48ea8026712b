/**
 * AGENTS.md of the `agents` layout: where to start, then one line per document. Built as a
 * document tree and rendered once (`@pgs/contract/document`), so a project's name, its
 * description or a document's title holding `|`, `*`, `#`, backticks or `<` is written
 * escaped and reads back as the same text.
 */
import type {
  DocumentKindName,
  ProjectCompleted,
  ProjectDocument,
  ProjectType,
} from '@pgs/contract';
import {
  heading,
  type Inline,
  inlineCode,
  list,
  paragraph,
  renderDocument,
  root,
  table,
} from '@pgs/contract/document';
import { projectPlan, safeFilename, titleOf } from './files.ts';
import { requirementGroups } from './requirements.ts';

// The design documents of each type (beyond the architecture), in the catalogue's terms: a
// misnamed kind fails the build.
export const WEB_DESIGN: readonly DocumentKindName[] = ['api-design', 'data-model'];
export const MOBILE_DESIGN: readonly DocumentKindName[] = [
  'screens',
  'navigation',
  'offline-and-permissions',
];
export const MCP_DESIGN: readonly DocumentKindName[] = [
  'mcp-tools',
  'mcp-resources-and-prompts',
  'mcp-transport-and-clients',
];

const TYPE_PHRASES: Record<ProjectType, string> = {
  web: 'a web application',
  mobile: 'a mobile app',
  mcp: 'an MCP server',
};

/** Whether the requirements' criteria are Gherkin scenarios (docs/requirement-style.md). */
const scenarios = (docs: readonly ProjectDocument[]) => {
  const requirements = docs.find((doc) => doc.type === 'product-requirements');
  return (
    requirements !== undefined &&
    requirementGroups(requirements.content).some((group) =>
      group.criteria.some((criterion) => criterion.scenario !== undefined),
    )
  );
};

/** Inline nodes joined by a separator: `a`, `b` and `c` with `', '`. */
const joined = (parts: readonly Inline[], separator: string): Inline[] =>
  parts.flatMap((part, i) => (i === 0 ? [part] : [separator, part]));

/** The numbered steps of "Where to start", each naming the documents it reads. */
function startSteps(docs: readonly ProjectDocument[]): Inline[][] {
  const path = (kind: string) => {
    const doc = docs.find((d) => d.type === kind);
    return doc ? inlineCode(`docs/${safeFilename(doc.filename)}`) : undefined;
  };
  const paths = (kinds: readonly string[]) =>
    kinds.map(path).filter((p): p is NonNullable<typeof p> => p !== undefined);
  const design = paths([...WEB_DESIGN, ...MOBILE_DESIGN, ...MCP_DESIGN]);
  const brief = path('project-brief');
  const codebase = path('codebase-overview');
  const wanted = paths(['product-requirements', 'user-stories']);
  const architecture = path('architecture');
  const plan = path('implementation-plan');
  const steps: (Inline[] | undefined)[] = [
    brief && ['Read ', brief, ' first: the problem, who it is for and what success means.'],
    codebase && [
      'The code this changes: ',
      codebase,
      ' maps the existing codebase (stack, components, routes, data) with the paths that show each fact. Check it against the code before you rely on it.',
    ],
    wanted.length > 0
      ? [
          'What to build: ',
          ...joined(wanted, ' and '),
          `. Requirements are numbered FR-n and NFR-n, stories US-n; the other documents cite these IDs, and so should your commits and tests.${scenarios(docs) ? ' Acceptance criteria FR-n.m are Given/When/Then scenarios: write each as a test named after its ID.' : ''}`,
        ]
      : undefined,
    architecture && [
      'How to build it: ',
      architecture,
      ...(design.length > 0 ? [', then ', ...joined(design, ', ')] : []),
      `. ${codebase ? 'Keep to the stack and the patterns the codebase already has, as it says.' : 'Keep to the technology it chooses.'}`,
    ],
    plan && [
      'Work through ',
      plan,
      ' in order, one task at a time, ticking its checkboxes as tasks are done.',
    ],
  ];
  return steps.filter((step): step is Inline[] => step !== undefined);
}

/**
 * AGENTS.md for a completed project.
 *
 * @example
 * agentsMd(data).split('\n')[0]; // '# AGENTS.md: Team Pulse'
 */
export function agentsMd(data: ProjectCompleted): string {
  const { project } = data;
  const docs = project.documents;
  const plan = projectPlan(project);
  const describe = (doc: ProjectDocument) => {
    const kind = plan.find((k) => k.kind === doc.type);
    if (kind === undefined) return titleOf(doc.content) ?? doc.type;
    return `${kind.title}: ${kind.sections.join(', ').toLowerCase()}.`;
  };
  const stack = project.questionnaire.techStack;
  return renderDocument(
    root([
      heading(1, `AGENTS.md: ${project.name}`),
      paragraph(project.description),
      paragraph(
        `The specification of ${project.name}, ${TYPE_PHRASES[project.type]}, written before the code by PGS. The documents in `,
        inlineCode('docs/'),
        ' agree with each other; when they seem not to, the requirements win and the question goes to a person.',
      ),
      heading(2, 'Where to start'),
      list(startSteps(docs), { ordered: true }),
      heading(2, 'Documents'),
      table(
        ['File', 'What it holds'],
        docs.map((doc) => [inlineCode(`docs/${safeFilename(doc.filename)}`), describe(doc)]),
      ),
      heading(2, 'Project'),
      list([
        `Type: ${project.type}`,
        ...(stack.length > 0 ? [`Tech stack: ${stack.join(', ')}`] : []),
        ['Name, questionnaire and generation metadata: ', inlineCode('docs/project.json')],
      ]),
    ]),
  );
}
