import { stableIdsOf } from '@pgs/contract/document';
import type { RequirementSlot } from '@pgs/contract/generation';
import { describe, expect, it } from 'vitest';
import { docOf, offlineProject } from '../../test/offline-project.ts';
import { documentRequest } from '../../test/plan.ts';
import { reviseDocument } from '../documents/revise.ts';
import { readChangeRequest, writeDocument } from '../index.ts';
import { factsFor } from './facts.ts';

const CLUB =
  'A web app for sports clubs to manage members, subscriptions, payments and reports, and book courts online';
const GROUP = 'Manage members, subscriptions, payments and reports';

/** The criteria IDs a requirements document defines (`**FR-1.2**`). */
const criteriaIn = (markdown: string) =>
  [...markdown.matchAll(/\*\*(FR-\d+\.\d+)\*\*/g)].map((m) => m[1]!);

/** A `### FR-n` block of a requirements document, to the next heading. */
function block(markdown: string, id: string): string {
  const at = markdown.search(new RegExp(`^### ${id} `, 'm'));
  const rest = markdown.slice(at);
  const end = rest.slice(4).search(/^#/m);
  return end === -1 ? rest : rest.slice(0, end + 4);
}

/** The criteria a document defines that the stories never cite. */
const uncited = (requirements: string, stories: string) =>
  criteriaIn(requirements).filter(
    (id) => !new RegExp(`\\b${id.replace('.', '\\.')}\\b`).test(stories),
  );

describe('a coordination is one requirement with a criterion per object', () => {
  const project = offlineProject(CLUB, 'web');
  const features = project.definition.questionnaire.coreFeatures;
  const requirements = docOf(project, 'product-requirements');

  it('reads the comma list under one verb as one core feature, the other verb phrase as its own', () => {
    expect(features.slice(0, 2)).toEqual([GROUP, 'Book courts online']);
  });

  it('writes one FR whose criteria name each object, and keeps each object an entity', () => {
    const group = block(requirements, 'FR-1');
    expect(group).toMatch(/^### FR-1 Manage members, subscriptions, payments and reports \(/);
    for (const object of ['member', 'subscription', 'payment', 'report'])
      expect(group).toMatch(new RegExp(`\\*\\*FR-1\\.\\d+\\*\\* [^\\n]*\\b${object}\\b`));
    const facts = factsFor({
      idea: CLUB,
      definition: project.definition,
      document: documentRequest('data-model'),
      related: [],
    });
    expect(facts.entities.map((e) => e.label)).toEqual(
      expect.arrayContaining(['member', 'subscription', 'payment', 'report', 'court']),
    );
    expect(facts.requirements[0]!.parts?.map((p) => p.ent.label)).toEqual([
      'member',
      'subscription',
      'payment',
      'report',
    ]);
  });

  it('numbers the criteria without gaps and cites every one in the stories', () => {
    const ids = criteriaIn(block(requirements, 'FR-1'));
    expect(ids).toEqual(ids.map((_, i) => `FR-1.${i + 1}`));
    expect(uncited(requirements, docOf(project, 'user-stories'))).toEqual([]);
  });

  it('gives each object its endpoints in the API design', () => {
    const api = docOf(project, 'api-design');
    for (const path of ['members', 'subscriptions', 'payments', 'reports'])
      expect(api).toContain(`/v1/${path}`);
  });

  it('writes a Gherkin scenario per criterion, each of the object it tests', () => {
    const gherkin = writeDocument({
      idea: CLUB,
      definition: project.definition,
      document: documentRequest('product-requirements'),
      related: [],
      requirementStyle: 'gherkin',
    });
    const group = block(gherkin, 'FR-1');
    expect(criteriaIn(group)).toEqual(criteriaIn(block(requirements, 'FR-1')));
    expect(group).toMatch(/Scenario:[^\n]*\bpayment/);
  });
});

describe('a revision that drops one object of a coordination', () => {
  const project = offlineProject(CLUB, 'web');
  const { definition } = project;
  const features = definition.questionnaire.coreFeatures;
  const requirements = docOf(project, 'product-requirements');
  const titles = features.map((title, i) => ({ id: `FR-${i + 1}`, title }));
  const impactOf = (changeRequest: string) =>
    readChangeRequest({
      idea: CLUB,
      changeRequest,
      definition,
      requirements: titles,
      nextNumber: titles.length + 1,
    });
  const deltas = impactOf('Drop the payments.');
  const register: RequirementSlot[] = [
    ...requirements.matchAll(/^### (FR-\d+) .* \((Must|Should|Could)\)$/gm),
  ].map((m) => ({ id: m[1]!, priority: m[2] as RequirementSlot['priority'] }));
  const revised = {
    ...definition,
    questionnaire: {
      ...definition.questionnaire,
      coreFeatures: features.map((f, i) =>
        deltas[0]?.op === 'modified' && i === 0 ? deltas[0].title : f,
      ),
    },
  };
  const ids = stableIdsOf(
    docOf(project, 'user-stories'),
    docOf(project, 'implementation-plan'),
    [],
  );
  const rewrite = (kind: 'product-requirements' | 'user-stories') =>
    reviseDocument({
      idea: CLUB,
      definition: revised,
      register,
      document: documentRequest(kind),
      related: [],
      ids,
    });

  it('modifies the FR to the objects left instead of removing it', () => {
    expect(deltas).toEqual([
      {
        op: 'modified',
        id: 'FR-1',
        title: 'Manage members, subscriptions and reports',
        text: expect.any(String),
      },
    ]);
  });

  it('drops the payments from its title and criteria and keeps the other objects and FRs', () => {
    const after = rewrite('product-requirements');
    const group = block(after, 'FR-1');
    expect(group).toMatch(/^### FR-1 Manage members, subscriptions and reports \(/);
    expect(group).not.toMatch(/payment/i);
    for (const object of ['member', 'subscription', 'report']) expect(group).toMatch(object);
    expect(block(after, 'FR-2')).toBe(block(requirements, 'FR-2'));
  });

  it('stays traced: the revised stories cite every criterion the revised requirements define', () => {
    expect(uncited(rewrite('product-requirements'), rewrite('user-stories'))).toEqual([]);
  });

  it('removes the FR when every object goes', () => {
    const all = impactOf('Remove the members, the subscriptions, the payments and the reports.');
    expect(all).toEqual([expect.objectContaining({ op: 'removed', id: 'FR-1' })]);
  });
});

describe('an MCP server whose idea coordinates its verbs', () => {
  const idea = 'An MCP server that lets Claude list and summarise failing CI runs on GitHub';
  const project = offlineProject(idea, 'mcp');

  it('gives each verb its tool, and the README names the first for the requirement', () => {
    const group = project.definition.questionnaire.coreFeatures.find((f) => / and /.test(f));
    expect(group).toMatch(/^List and summarise failing CI runs/);
    const tools = docOf(project, 'mcp-tools');
    expect(tools).toMatch(/\blist_failing_runs\b/);
    expect(tools).toMatch(/\bsummarise_failing_runs\b/);
    expect(docOf(project, 'readme')).toMatch(
      /List and summarise failing CI runs[^\n]*\(FR-\d+\): the `list_failing_runs` tool/,
    );
  });
});

describe('an MCP server whose idea coordinates its objects', () => {
  const idea = 'An MCP server for Kubernetes that lets Claude read pods, logs and events';
  const project = offlineProject(idea, 'mcp');

  it('serves a resource of each object from the one requirement', () => {
    expect(project.definition.questionnaire.coreFeatures[0]).toBe('Read pods, logs and events');
    const resources = docOf(project, 'mcp-resources-and-prompts');
    for (const path of ['pods', 'logs', 'events'])
      expect(resources).toMatch(new RegExp(`\\| \`\\w+://${path}/recent\` \\|[^\\n]*\\| FR-1\\b`));
    expect(resources).not.toMatch(/changes when \./);
  });
});

describe('a phone app whose idea coordinates its objects', () => {
  const idea = 'A mobile app for beekeepers to track hives, inspections and equipment offline';
  const project = offlineProject(idea, 'mobile');

  it('lists each object on a screen of its own, and keeps each in a table the FR serves', () => {
    const screens = docOf(project, 'screens');
    expect(screens).toMatch(
      /### Inspections\n\nThis screen lists the inspections[^\n]*\n\n- Each row shows [^\n]*\n- A button opens "Track inspections"/,
    );
    expect(screens).toMatch(/\| Equipment \| `equipment` \| [^\n]* \| FR-1 \|/);
    const offline = docOf(project, 'offline-and-permissions');
    for (const table of ['hives', 'inspections', 'equipment'])
      expect(offline).toMatch(new RegExp(`\\| ${table} \\| [^\\n]*\\| FR-1\\b`));
  });
});
