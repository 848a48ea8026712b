import { DETAIL_LEVELS, PROJECT_TYPES, revisableKindsOf, revisionCredits } from '@pgs/contract';
import { describe, expect, it } from 'vitest';
import type { ProjectDefinition } from '../models/context.ts';
import { documentPlan } from './catalogue.ts';
import { normaliseDeltas } from './impact.ts';
import { priceOfKinds } from './pricing.ts';
import { revisionFindings } from './revision-gate.ts';
import {
  ANALYSIS_FEE,
  affectedKinds,
  applyDeltas,
  revisableKinds,
  revisionPrice,
  withDependents,
} from './revision-plan.ts';
import { buildTrace } from './trace/index.ts';

const REQUIREMENTS = `# Product Requirements: Vetbook

## Functional requirements

### FR-1 Book appointments online (Must)

The clinic app lets owners book.

- FR-1.1 When an owner picks a free slot, the system shall book it.

### FR-2 Keep medical records for each pet (Must)

- FR-2.1 When a vet saves a visit, the system shall add it to the pet's record.

### FR-3 Send vaccine reminders by SMS (Should)

- FR-3.1 When a vaccine is due, the system shall send an SMS.

## Non-functional requirements

- NFR-1 Pages load within 2 s.
`;

const STORIES = `# User Stories: Vetbook

## Stories

### US-1 Book appointments online

Covers FR-1.1.

### US-2 Keep medical records

Covers FR-2.1.
`;

const definition: ProjectDefinition = {
  name: 'Vetbook',
  description: 'Booking for vets.',
  type: 'web',
  questionnaire: {
    targetAudience: 'Small clinics.',
    monetization: 'Subscription.',
    techStack: [],
    platforms: [],
    coreFeatures: [
      'Book appointments online',
      'Keep medical records for each pet',
      'Send vaccine reminders by SMS',
    ],
    constraints: [],
    successMetrics: [],
  },
};
const register = [
  { id: 'FR-1', priority: 'Must' as const },
  { id: 'FR-2', priority: 'Must' as const },
  { id: 'FR-3', priority: 'Should' as const },
];

describe('what a revision touches and costs', () => {
  it('rewrites the requirements and everything built on them; the brief is carried over', () => {
    const kinds = revisableKinds('web');
    expect(kinds[0]).toBe('product-requirements');
    expect(kinds).not.toContain('project-brief');
    const plan = documentPlan('web').map((d) => d.kind);
    expect(new Set([...kinds, 'project-brief'])).toEqual(new Set(plan));
    expect(revisionPrice('web')).toBe(ANALYSIS_FEE + priceOfKinds('web', kinds));
  });

  it('rewrites and reserves what the contract’s catalogue tells clients, whatever the scope', () => {
    for (const type of PROJECT_TYPES)
      for (const scope of [{}, { grounded: true }, { grounded: true, newDigest: true }]) {
        expect(revisableKinds(type, scope), `${type} ${JSON.stringify(scope)}`).toEqual(
          revisableKindsOf(type, scope),
        );
        for (const detail of DETAIL_LEVELS)
          expect(revisionPrice(type, detail, scope)).toBe(
            revisionCredits(type, detail, scope).total,
          );
      }
  });

  it('closes a set of kinds over what builds on them, in plan order', () => {
    const plan = documentPlan('mobile');
    expect(withDependents(plan, ['screens'])).toEqual(
      ['screens', 'navigation', 'offline-and-permissions', 'implementation-plan', 'readme'].filter(
        (k) => plan.some((d) => d.kind === k),
      ),
    );
  });

  it('has nothing to rewrite without deltas, and seeds from the documents citing an affected ID', () => {
    const documents = [
      { type: 'product-requirements', filename: 'PRODUCT_REQUIREMENTS.md', content: REQUIREMENTS },
      { type: 'user-stories', filename: 'USER_STORIES.md', content: STORIES },
    ];
    const trace = buildTrace(documents);
    expect(affectedKinds('web', trace, documents, [])).toEqual([]);
    const kinds = affectedKinds('web', trace, documents, [
      { op: 'removed', id: 'FR-2', title: 'Keep medical records', reason: 'Dropped.' },
    ]);
    expect(kinds).toContain('product-requirements');
    expect(kinds).toContain('user-stories');
    expect(kinds).not.toContain('project-brief');
  });

  it('applies deltas to the core features and the register, keeping every other slot', () => {
    const { definition: next, register: slots } = applyDeltas(definition, register, [
      { op: 'removed', id: 'FR-2', title: 'Keep medical records for each pet', reason: 'Dropped.' },
      {
        op: 'added',
        id: 'FR-4',
        title: 'Send SMS reminders two days before each appointment',
        text: 'x',
      },
      { op: 'renamed', id: 'FR-1', from: 'Book appointments online', to: 'Book visits online' },
    ]);
    expect(next.questionnaire.coreFeatures).toEqual([
      'Book visits online',
      'Send vaccine reminders by SMS',
      'Send SMS reminders two days before each appointment',
    ]);
    expect(slots).toEqual([
      { id: 'FR-1', priority: 'Must' },
      { id: 'FR-3', priority: 'Should' },
      { id: 'FR-4', priority: 'Should' },
    ]);
    // The input is not changed.
    expect(definition.questionnaire.coreFeatures).toHaveLength(3);
  });
});

describe('a model’s deltas, normalised', () => {
  const context = {
    task: 'impact' as const,
    idea: 'i',
    changeRequest: 'c',
    definition,
    requirements: [
      { id: 'FR-1', title: 'Book appointments online' },
      { id: 'FR-2', title: 'Keep medical records for each pet' },
    ],
    nextNumber: 5,
  };

  it('drops deltas on unknown IDs, renumbers additions and keeps one delta per ID', () => {
    const deltas = normaliseDeltas(
      {
        deltas: [
          {
            op: 'added',
            id: 'FR-1',
            title: 'Waiting list',
            text: 'A waiting list.',
            reason: '',
            from: '',
            to: '',
          },
          { op: 'removed', id: 'FR-9', title: 'Ghost', text: '', reason: 'x', from: '', to: '' },
          { op: 'removed', id: 'fr-2', title: '', text: '', reason: '', from: '', to: '' },
          {
            op: 'modified',
            id: 'FR-2',
            title: 'Twice',
            text: 'Twice.',
            reason: '',
            from: '',
            to: '',
          },
          { op: 'added', id: '', title: '', text: 'Pay online.', reason: '', from: '', to: '' },
          {
            op: 'renamed',
            id: 'FR-1',
            title: '',
            text: '',
            reason: '',
            from: 'x',
            to: 'Book visits',
          },
          { op: 'bogus', id: 'FR-1' },
        ],
      },
      context,
    );
    expect(deltas).toEqual([
      { op: 'added', id: 'FR-5', title: 'Waiting list', text: 'A waiting list.' },
      {
        op: 'removed',
        id: 'FR-2',
        title: 'Keep medical records for each pet',
        reason: 'Removed by the change request.',
      },
      { op: 'added', id: 'FR-6', title: 'Pay online.', text: 'Pay online.' },
      { op: 'renamed', id: 'FR-1', from: 'Book appointments online', to: 'Book visits' },
    ]);
  });

  it('reads no answer as no deltas', () => {
    expect(normaliseDeltas(null, context)).toEqual([]);
    expect(normaliseDeltas({ deltas: 'none' }, context)).toEqual([]);
  });
});

describe('the gate’s revision rules', () => {
  const deltas = [
    { op: 'removed' as const, id: 'FR-2', title: 'Keep medical records', reason: 'Dropped.' },
  ];
  const check = (content: string, retired: string[] = []) =>
    revisionFindings({
      filename: 'PRODUCT_REQUIREMENTS.md',
      previous: REQUIREMENTS,
      content,
      deltas,
      retired,
    }).map((f) => f.rule);
  const withoutFr2 = REQUIREMENTS.replace(/### FR-2[\s\S]*?(?=### FR-3)/, '');

  it('accepts the removal the deltas ask for, and nothing else changed', () => {
    expect(check(withoutFr2)).toEqual([]);
  });

  it('finds a requirement dropped without a REMOVED delta', () => {
    expect(check(withoutFr2.replace(/### FR-3[\s\S]*?(?=## Non)/, ''))).toContain('id-dropped');
  });

  it('finds an unaffected requirement reworded', () => {
    expect(check(withoutFr2.replace('lets owners book', 'lets owners book fast'))).toEqual([
      'requirement-changed',
    ]);
  });

  it('reads requirement blocks from the document tree, not from a code block', () => {
    expect(check(`${withoutFr2}\n\n\`\`\`md\n### FR-1 An example, reworded\n\`\`\`\n`)).toEqual([]);
  });

  it('finds a removed ID brought back', () => {
    expect(check(REQUIREMENTS)).toContain('id-reused');
    expect(check(`${withoutFr2}\n### FR-5 Old (Could)\n`, ['FR-5'])).toContain('id-reused');
  });
});

describe('a grounded project revised with a new codebase digest', () => {
  const scope = { grounded: true, newDigest: true };
  const documents = [
    { type: 'product-requirements', filename: 'PRODUCT_REQUIREMENTS.md', content: REQUIREMENTS },
    { type: 'user-stories', filename: 'USER_STORIES.md', content: STORIES },
  ];
  const deltas = [
    { op: 'removed' as const, id: 'FR-2', title: 'Keep medical records', reason: 'Dropped.' },
  ];

  it('also rewrites the codebase overview and what builds on it, and reserves for it', () => {
    const kinds = revisableKinds('web', scope);
    for (const kind of ['codebase-overview', 'architecture', 'implementation-plan'])
      expect(kinds).toContain(kind);
    expect(kinds).not.toContain('project-brief');
    expect(revisionPrice('web', 'standard', scope)).toBe(
      ANALYSIS_FEE + priceOfKinds('web', kinds, 'standard', { grounded: true }),
    );
    expect(revisionPrice('web', 'standard', scope)).toBe(
      revisionPrice('web', 'standard', { grounded: true }) + 5,
    );
    const trace = buildTrace(documents);
    expect(affectedKinds('web', trace, documents, deltas, scope)).toContain('codebase-overview');
  });

  it('leaves the overview as it is without a new digest', () => {
    expect(revisableKinds('web', { grounded: true })).not.toContain('codebase-overview');
    const trace = buildTrace(documents);
    expect(affectedKinds('web', trace, documents, deltas, { grounded: true })).not.toContain(
      'codebase-overview',
    );
    // A digest means nothing to a project planned without one.
    expect(revisableKinds('web', { newDigest: true })).toEqual(revisableKinds('web'));
  });
});
