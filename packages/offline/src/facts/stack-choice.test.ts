import type { Conventions, ProjectType } from '@pgs/contract';
import { describe, expect, it } from 'vitest';
import { docOf, type OfflineProject, offlineProject } from '../../test/offline-project.ts';

/** The documents of a project that name one of the words, with the first word found. */
function naming(project: OfflineProject, words: RegExp): string[] {
  return project.documents.flatMap(({ kind, content }) => {
    const found = words.exec(content);
    return found ? [`${kind}: ${found[0]}`] : [];
  });
}

const python: Conventions = { stack: { required: ['Python'] } };
const CONFLUENCE =
  'An MCP server that lets AI assistants search Confluence pages and read Postgres tables';

describe('a language the house conventions require', () => {
  const mcp = offlineProject(CONFLUENCE, 'mcp', { conventions: python });

  it('builds an MCP server in Python with the Python SDK, Pydantic and pytest, naming no TypeScript tool', () => {
    expect(mcp.definition.questionnaire.techStack.slice(0, 4)).toEqual([
      'Python',
      'MCP Python SDK (mcp, FastMCP)',
      'Pydantic',
      'pytest',
    ]);
    expect(
      naming(
        mcp,
        /TypeScript|\bZod\b|@modelcontextprotocol\/sdk|\bnpx\b|\bnpm\b|Node\.js|\w\.ts\b|node-postgres/,
      ),
    ).toEqual([]);
  });

  it('writes the commands and files of Python: uv, uvx, the SDK’s Inspector, snake_case modules', () => {
    const readme = docOf(mcp, 'readme');
    expect(readme).toContain('Python 3.12 or later and uv');
    expect(readme).toMatch(/uv sync\n(?:export .+\n)*uv run mcp dev src\/server\.py/);
    expect(readme).toMatch(/tools\/\w+\.py/);
    expect(readme).toMatch(/tests\/tools\/test_\w+\.py/);
    const transport = docOf(mcp, 'mcp-transport-and-clients');
    expect(transport).toContain('"command": "uvx"');
    expect(transport).toContain('`uv run mcp dev src/server.py`');
    expect(docOf(mcp, 'mcp-tools')).toMatch(/Each tool's input is a Pydantic model/);
    const architecture = docOf(mcp, 'architecture');
    expect(architecture).toContain('| MCP Python SDK (mcp, FastMCP) | the MCP protocol for');
    expect(architecture).toContain('| PostgreSQL (psycopg) |');
    expect(architecture).toContain('ships as a Python package on PyPI');
    expect(docOf(mcp, 'implementation-plan')).toContain('Set up the Python repository');
  });

  it("keeps the idea's own language: the conventions never overrule the client", () => {
    const named = offlineProject(`${CONFLUENCE}, written in TypeScript`, 'mcp', {
      conventions: python,
    });
    expect(named.definition.questionnaire.techStack).toContain('@modelcontextprotocol/sdk');
  });

  it("puts a web project's API in Python: FastAPI, SQLAlchemy and uv, the React client with npm", () => {
    const web = offlineProject('A booking tool for dog groomers to schedule appointments', 'web', {
      conventions: python,
    });
    const stack = web.definition.questionnaire.techStack;
    expect(stack).toContain('FastAPI');
    expect(stack).toContain('React');
    expect(stack.join(' ')).not.toMatch(/Node\.js|Fastify/);
    const readme = docOf(web, 'readme');
    expect(readme).toContain('uv run alembic upgrade head');
    expect(readme).toContain('npm install --prefix web');
    const architecture = docOf(web, 'architecture');
    expect(architecture).toContain('| FastAPI | schema-checked routes');
    // TypeScript is the web client's language only: no "checked end to end" across Python.
    expect(architecture).toMatch(/\| TypeScript \| the language of the web client/);
  });
});

describe('a native phone toolkit', () => {
  const cases: [string, string, Conventions | undefined][] = [
    [
      'the idea names Jetpack Compose',
      'A Jetpack Compose app for runners to log their runs',
      undefined,
    ],
    [
      'the conventions require Kotlin',
      'A phone app for runners to log their runs',
      { stack: { required: ['Kotlin'] } },
    ],
  ];

  it.each(cases)(
    '%s: Gradle in the README, and no React Native or Expo anywhere',
    (_, idea, conventions) => {
      const project = offlineProject(
        idea,
        'mobile' as ProjectType,
        conventions ? { conventions } : {},
      );
      expect(project.definition.questionnaire.techStack[0]).toBe('Kotlin');
      expect(project.definition.questionnaire.platforms).toEqual(['Android']);
      const readme = docOf(project, 'readme');
      expect(readme).toContain('./gradlew assembleDebug');
      expect(readme).toContain('./gradlew test');
      expect(
        naming(project, /React Native|\bExpo\b|expo start|expo-sqlite|\bnpx\b|TypeScript/),
      ).toEqual([]);
    },
  );

  it("builds a Flutter app with Flutter's tool and Dart routes, naming no npm or Expo", () => {
    const flutter = offlineProject('A Flutter app for runners to log their runs offline', 'mobile');
    expect(docOf(flutter, 'readme')).toMatch(/flutter pub get\nflutter run\nflutter test/);
    expect(docOf(flutter, 'navigation')).toContain('```dart\nenum AppRoute {');
    expect(naming(flutter, /React Native|\bExpo\b|expo start|\bnpx\b|\bnpm\b|```ts\b/)).toEqual([]);
  });

  it('builds an app named for both phones with Gradle and Xcode', () => {
    const both = offlineProject('A Kotlin and Swift app for runners on iOS and Android', 'mobile');
    const readme = docOf(both, 'readme');
    expect(readme).toContain('./gradlew assembleDebug');
    expect(readme).toMatch(/open \w+\.xcodeproj/);
    expect(naming(both, /React Native|\bExpo\b|expo start|\bnpx\b/)).toEqual([]);
  });
});
