import { renderDocument, root } from '@pgs/contract/document';
import {
  EXPRESS_POSTGRES,
  GO_CHI,
  naiveDigest,
  PYTHON_FASTAPI,
  TEST_REPOSITORIES,
  type TestRepository,
} from '@pgs/contract/testing/repositories';
import { describe, expect, it } from 'vitest';
import { type FlowContent, table } from '../text/nodes.ts';
import { readCodebase } from './read.ts';
import {
  CODEBASE_OVERVIEW_SECTIONS,
  codebaseOverview,
  currentSystem,
  EXISTING_STACK_HEADERS,
  existingStack,
} from './render.ts';
import type { CodebaseFacts } from './types.ts';

/** Blocks as the document they go into writes them. */
const markdown = (blocks: readonly FlowContent[]) => renderDocument(root(blocks));

const renderCodebaseOverview = (
  facts: CodebaseFacts,
  context: { idea: string; terms: readonly string[] },
) =>
  new Map(
    [...codebaseOverview(facts, context)].map(([title, blocks]) => [title, markdown(blocks)]),
  );

const renderCurrentSystem = (facts: CodebaseFacts) => markdown(currentSystem(facts));

const factsOf = (repository: TestRepository, commit: string | null = null) => {
  const digest = naiveDigest(repository);
  return readCodebase({ name: digest.name, commit, files: digest.files });
};

const overview = (repository: TestRepository, terms: readonly string[] = ['reminders']) =>
  renderCodebaseOverview(factsOf(repository), { idea: 'Add reminders', terms });

/** Every `code span` that looks like a path: it must be a file (or a folder) of the digest. */
function citedPaths(markdown: string): string[] {
  return [...markdown.matchAll(/`([^`\s]+)`/g)]
    .map((m) => m[1]!)
    .filter((text) => /^[\w.-]+(?:\/[\w.[\]-]+)+$|^[\w-]+\.\w+$/.test(text));
}

describe('codebaseOverview', () => {
  for (const repository of TEST_REPOSITORIES) {
    it(`writes every section for ${repository.name}, citing only paths of its digest`, () => {
      const sections = overview(repository);
      expect([...sections.keys()]).toEqual([...CODEBASE_OVERVIEW_SECTIONS]);
      const digest = naiveDigest(repository).files.map((f) => f.path);
      const folders = new Set(
        digest.flatMap((p) =>
          p
            .split('/')
            .slice(0, -1)
            .map((_, i, parts) => parts.slice(0, i + 1).join('/')),
        ),
      );
      for (const [title, body] of sections) {
        expect(body.trim(), title).not.toBe('');
        for (const path of citedPaths(body))
          expect(digest.includes(path) || folders.has(path), `${title}: ${path}`).toBe(true);
      }
    });

    it(`names ${repository.name}'s real stack, components and routes`, () => {
      const text = [...overview(repository).values()].join('\n');
      for (const name of repository.expected.stack) expect(text).toContain(name);
      for (const path of repository.expected.componentPaths) expect(text).toContain(`\`${path}\``);
      for (const route of repository.expected.routes) {
        const [method, path] = route.split(' ');
        expect(text).toContain(`| ${method} | \`${path}\` |`);
      }
    });
  }

  it('never names a technology the digest does not show', () => {
    const go = [...overview(GO_CHI).values(), renderCurrentSystem(factsOf(GO_CHI))].join('\n');
    for (const absent of [
      'Express',
      'Node.js',
      'TypeScript',
      'Python',
      'Stripe',
      'SendGrid',
      'MySQL',
      'MongoDB',
    ])
      expect(go).not.toContain(absent);
    const python = [...overview(PYTHON_FASTAPI).values()].join('\n');
    for (const absent of ['Express', 'Node.js', 'Go', 'chi', 'Slack', 'Stripe'])
      expect(python).not.toMatch(new RegExp(`\\b${absent}\\b`));
  });

  it('says "not found in the digest" rather than guessing', () => {
    const sections = renderCodebaseOverview(
      readCodebase({
        name: 'bare',
        commit: null,
        files: [{ path: 'notes.txt', content: 'hello' }],
      }),
      {
        idea: 'Add billing',
        terms: ['billing'],
      },
    );
    for (const title of CODEBASE_OVERVIEW_SECTIONS.filter((t) => t !== 'Summary'))
      expect(sections.get(title), title).toContain('not found in the digest');
    expect(sections.get('Summary')).toContain('(no commit given)');
  });

  it('points the change at the files that match its words', () => {
    const body = overview(EXPRESS_POSTGRES, ['appointment reminders']).get('Where a change lands')!;
    expect(body).toContain(
      '| `src/routes/appointments.ts` | its name says appointment; route GET /appointments',
    );
    expect(body).not.toContain('owners.ts');
    expect(body).toContain('No file, route or table names "reminders": not found in the digest.');
  });
});

describe('currentSystem', () => {
  it('tables the components with paths and roles, then stores, services and entry points', () => {
    const body = renderCurrentSystem(factsOf(EXPRESS_POSTGRES, '9f8e7d6'));
    expect(body).toContain('at commit `9f8e7d6`');
    expect(body).toContain('| Services | `src/services` | Stripe payments |');
    expect(body).toContain('| Routes | `src/routes` | HTTP routes for /appointments and /owners |');
    expect(body).toContain('Data stores: PostgreSQL, from `package.json` (pg ^8.11.3).');
    expect(body).toContain('External services: Stripe, from `package.json` (stripe ^14.21.0).');
    expect(body).toContain('Entry points: `src/server.ts`.');
  });

  it('says what is not found', () => {
    const body = renderCurrentSystem(readCodebase({ name: 'bare', commit: null, files: [] }));
    expect(body).toContain('Components: not found in the digest.');
    expect(body).toContain('External services: not found in the digest.');
  });
});

describe('existingStack', () => {
  it('gives layer, technology, version and evidence rows from what exists', () => {
    expect(EXISTING_STACK_HEADERS).toEqual(['Layer', 'Technology', 'Version', 'Evidence']);
    const rows = markdown([table(EXISTING_STACK_HEADERS, existingStack(factsOf(GO_CHI)))])
      .trimEnd()
      .split('\n')
      .slice(2);
    expect(rows).toEqual([
      '| Language | Go | 1.22 | `go.mod` |',
      '| Framework | chi | v5.0.12 | `go.mod` (github.com/go-chi/chi/v5) |',
      '| Data | PostgreSQL | — | `go.mod` (github.com/jackc/pgx/v5 v5.5.5) |',
      '| Cache | Redis | — | `go.mod` (github.com/redis/go-redis/v9 v9.5.1) |',
      '| Testing | go test | — | `internal/vehicles/handler_test.go` |',
      '| Library | Slack | — | `go.mod` (github.com/slack-go/slack v0.12.5) |',
    ]);
  });
});
