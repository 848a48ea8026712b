import {
  DETAIL_LEVELS,
  DOCUMENT_KINDS,
  type DocumentKindName,
  documentKindsOf,
  GROUNDED_ARCHITECTURE_SECTIONS,
  PROJECT_TYPES,
  type ProjectType,
  projectCredits,
} from '@pgs/contract';
import { describe, expect, it } from 'vitest';
import {
  ancestors,
  CODEBASE_OVERVIEW_KIND,
  contextOrder,
  documentPlan,
  inferProjectType,
} from './catalogue.ts';
import { creditsOf, priceOf, priceOfKinds, priceWithoutType } from './pricing.ts';

const IDEAS: Record<ProjectType, readonly string[]> = {
  mobile: [
    'A medication reminder for elderly parents',
    'A language-exchange app that pairs learners for video calls',
    'An app for beekeepers to log hive inspections',
    'A step counter that turns daily walks into a game with friends',
    "A sleep tracker that uses the phone's microphone to detect snoring",
    'Log meals by scanning the barcode on food packaging',
    'A habit tracker with streaks and push notifications',
    'Find nearby dog parks and other dog owners using GPS',
    'A workout companion for Apple Watch that counts reps',
    'A React Native app for field technicians to record repairs offline',
    'Scan receipts with the camera and split bills with roommates',
    'An Android app for farmers to identify crop diseases from a photo',
  ],
  mcp: [
    'An MCP server that lets Claude run read-only queries on a SQLite database',
    'An MCP server for Kubernetes: pods, logs and events',
    'An MCP server for a SQLite database',
    'Tools for Claude to search our Confluence wiki and create Jira tickets',
    'Let an LLM query our Postgres analytics warehouse',
    'A Model Context Protocol server exposing GitHub issues and pull requests',
    'Give ChatGPT read access to our Stripe payments and refunds',
    'A tool server for AI assistants to read Figma files and comments',
    'Let AI agents book meeting rooms in our Google Calendar',
    'Expose our Notion workspace to Cursor and Copilot as tools',
  ],
  web: [
    'A mentoring marketplace with booking and payouts',
    'A web dashboard for medication stock in care homes',
    'A SaaS for small agencies to send invoices and track time',
    'An admin portal for managing school enrolments',
    'An internal tool for support staff to triage refund requests',
    'A CRM for real-estate agents',
    'A website where local farmers sell vegetables to restaurants',
    'An analytics dashboard for Shopify store owners',
    'A browser-based whiteboard for remote design workshops',
    'A web app for landlords to collect rent and track repairs',
    'A dashboard of what our team spends on ChatGPT and Claude each month',
    'An online booking system for a yoga studio',
  ],
};

const CASES = (Object.entries(IDEAS) as [ProjectType, readonly string[]][]).flatMap(
  ([type, ideas]) => ideas.map((idea) => ({ idea, type })),
);

describe('inferProjectType', () => {
  it.each(CASES)('reads "$idea" as $type', ({ idea, type }) => {
    expect(inferProjectType(idea)).toBe(type);
  });

  it('lets an explicit word outweigh the domain vocabulary of another type', () => {
    expect(inferProjectType('A medication reminder')).toBe('mobile');
    expect(inferProjectType('A web dashboard for medication reminders')).toBe('web');
    expect(inferProjectType('A dashboard for SQLite databases')).toBe('web');
    expect(inferProjectType('An iPhone app with an admin dashboard')).toBe('mobile');
  });

  it('weighs the whole idea: a work setting balances personal tracking, and web wins a tie', () => {
    expect(inferProjectType('A habit tracker')).toBe('mobile');
    expect(inferProjectType('A habit tracker for remote teams')).toBe('web');
    expect(inferProjectType('A workout app for sports teams')).toBe('mobile');
  });

  it('falls back to web when nothing hints at a type', () => {
    expect(inferProjectType('Something for tracking board game scores')).toBe('web');
    expect(inferProjectType('')).toBe('web');
  });
});

describe('documentPlan', () => {
  it('plans, names and prices what the contract’s catalogue tells clients', () => {
    for (const type of PROJECT_TYPES)
      for (const grounded of [false, true]) {
        const plan = documentPlan(type, { grounded });
        expect(plan.map((d) => d.kind)).toEqual(documentKindsOf(type, { grounded }));
        for (const doc of plan) {
          const { title, filename, stage, credits, sections } =
            DOCUMENT_KINDS[doc.kind as DocumentKindName];
          const expected =
            grounded && doc.kind === 'architecture' ? GROUNDED_ARCHITECTURE_SECTIONS : sections;
          expect(doc).toMatchObject({ title, filename, stage, credits, sections: expected });
        }
        for (const detail of DETAIL_LEVELS)
          expect(priceOf(type, detail, { grounded })).toBe(
            projectCredits(type, detail, { grounded }),
          );
      }
  });
});

describe('contextOrder', () => {
  it.each(['web', 'mobile', 'mcp'] as const)(
    'lists the %s documents most documents read first, every document once',
    (type) => {
      const plan = documentPlan(type);
      const order = contextOrder(plan);
      expect(new Set(order.map((d) => d.kind))).toEqual(new Set(plan.map((d) => d.kind)));
      const readers = (kind: string) => plan.filter((d) => ancestors(plan, d).has(kind)).length;
      const counts = order.map((d) => readers(d.kind));
      expect(counts).toEqual([...counts].sort((a, b) => b - a));
      expect(order.slice(0, 2).map((d) => d.kind)).toEqual([
        'project-brief',
        'product-requirements',
      ]);
    },
  );

  it('gives every document of a plan its ancestors as a prefix-sharing list: a later reader extends an earlier one', () => {
    const plan = documentPlan('web');
    const order = contextOrder(plan);
    const read = (kind: string) => {
      const doc = plan.find((d) => d.kind === kind)!;
      const inputs = ancestors(plan, doc);
      return order.filter((d) => inputs.has(d.kind)).map((d) => d.kind);
    };
    // The data model reads the architecture's context and the architecture; the API design
    // the data model's and the data model; the plan starts with the API design's.
    expect(read('data-model')).toEqual([...read('architecture'), 'architecture']);
    expect(read('api-design')).toEqual([...read('data-model'), 'data-model']);
    expect(read('implementation-plan').slice(0, read('api-design').length)).toEqual(
      read('api-design'),
    );
  });
});

describe('detail levels', () => {
  it('scale each document price, rounded up to a whole credit, at least 1', () => {
    for (const type of ['web', 'mobile', 'mcp'] as const) {
      const plan = documentPlan(type);
      expect(priceOf(type, 'standard')).toBe(priceOf(type));
      expect(priceOf(type, 'brief')).toBe(
        plan.reduce((sum, d) => sum + Math.max(1, Math.ceil(d.credits / 2)), 0),
      );
      expect(priceOf(type, 'deep')).toBe(
        plan.reduce((sum, d) => sum + Math.ceil(d.credits * 1.5), 0),
      );
      expect(priceOf(type, 'brief')).toBeLessThan(priceOf(type));
      expect(priceOf(type, 'deep')).toBeGreaterThan(priceOf(type));
      expect(
        priceOfKinds(
          type,
          plan.map((d) => d.kind),
          'brief',
        ),
      ).toBe(priceOf(type, 'brief'));
    }
    expect(creditsOf({ credits: 3 }, 'brief')).toBe(2);
    expect(creditsOf({ credits: 1 }, 'brief')).toBe(1);
    expect(priceWithoutType('deep')).toBe(
      Math.max(...(['web', 'mobile', 'mcp'] as const).map((t) => priceOf(t, 'deep'))),
    );
  });
});

describe('grounded plans', () => {
  const grounded = { grounded: true };

  it.each(['web', 'mobile', 'mcp'] as const)(
    'add the codebase overview to the %s plan, which the architecture and the plan build on',
    (type) => {
      const plain = documentPlan(type);
      const plan = documentPlan(type, grounded);
      expect(plan.map((d) => d.kind)).toEqual([
        'project-brief',
        CODEBASE_OVERVIEW_KIND,
        ...plain.slice(1).map((d) => d.kind),
      ]);
      const overview = plan[1]!;
      expect(overview).toMatchObject({
        title: 'Codebase Overview',
        filename: 'CODEBASE_OVERVIEW.md',
        credits: 5,
        weight: 4,
        dependsOn: [],
      });
      const kind = (k: string) => plan.find((d) => d.kind === k)!;
      expect(kind('architecture').dependsOn).toContain(CODEBASE_OVERVIEW_KIND);
      expect(kind('architecture').sections).toEqual([
        'Current system',
        ...plain.find((d) => d.kind === 'architecture')!.sections,
      ]);
      expect(kind('implementation-plan').dependsOn).toContain(CODEBASE_OVERVIEW_KIND);
      // Every other kind is the plain plan's, unchanged.
      for (const doc of plain.filter(
        (d) => !['architecture', 'implementation-plan'].includes(d.kind),
      ))
        expect(kind(doc.kind)).toEqual(doc);
      // Every kind comes after what it builds on.
      for (const [i, doc] of plan.entries())
        for (const dep of doc.dependsOn)
          expect(plan.findIndex((d) => d.kind === dep)).toBeLessThan(i);
      expect(documentPlan(type, { grounded: false })).toBe(plain);
    },
  );

  it('read the overview after the brief and the requirements, before the architecture', () => {
    const plan = documentPlan('web', grounded);
    expect(
      contextOrder(plan)
        .map((d) => d.kind)
        .slice(0, 4),
    ).toEqual(['project-brief', 'product-requirements', CODEBASE_OVERVIEW_KIND, 'architecture']);
    const readme = plan.find((d) => d.kind === 'readme')!;
    expect(ancestors(plan, readme).has(CODEBASE_OVERVIEW_KIND)).toBe(true);
  });

  it('price the overview on top of the plain plan, at every detail level', () => {
    for (const type of ['web', 'mobile', 'mcp'] as const) {
      expect(priceOf(type, 'standard', grounded)).toBe(priceOf(type) + 5);
      expect(priceOf(type, 'brief', grounded)).toBe(priceOf(type, 'brief') + 3);
      expect(priceOf(type, 'deep', grounded)).toBe(priceOf(type, 'deep') + 8);
      // Only a grounded plan has the overview to charge for.
      expect(priceOfKinds(type, [CODEBASE_OVERVIEW_KIND])).toBe(0);
      expect(priceOfKinds(type, [CODEBASE_OVERVIEW_KIND], 'standard', grounded)).toBe(5);
    }
    expect(priceWithoutType('standard', grounded)).toBe(priceWithoutType() + 5);
  });
});
