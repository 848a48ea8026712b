import { describe, expect, it } from 'vitest';
import { languageOf, languagesNamedIn, platforms, serverNamedIn, techStack } from './stack.ts';

describe('techStack', () => {
  it('builds the API of a web or phone idea in the server the idea names, and only where it names one', () => {
    expect(techStack('A lab inventory built with Django', 'web', [], 's')).toContain('Django');
    const django = techStack('A lab inventory built with Django', 'web', [], 's');
    expect(django.join(' ')).not.toMatch(/Node\.js|Fastify|Drizzle/);
    expect(techStack('An iPhone app with a Python backend', 'mobile', [], 's')).toEqual([
      'Swift',
      'SwiftUI',
      'SQLite (GRDB)',
      'Python',
      'FastAPI',
      'PostgreSQL',
    ]);
    expect(serverNamedIn('Built on Flask, a booking tool')).toBe('Flask');
    // A word that names no server chooses nothing.
    expect(serverNamedIn('An app that teaches Python to kids')).toBeUndefined();
    expect(serverNamedIn('A lab tool to track flasks and reagents')).toBeUndefined();
  });

  it("builds an MCP server in a required language with that language's official SDK", () => {
    const python = techStack(
      'a server for our wiki',
      'mcp',
      ['Confluence', 'Postgres', 'AWS'],
      's',
      'Python',
    );
    expect(python.slice(0, 4)).toEqual([
      'Python',
      'MCP Python SDK (mcp, FastMCP)',
      'Pydantic',
      'pytest',
    ]);
    // The services' clients are Python's, never JavaScript's.
    expect(python).toContain('PostgreSQL (psycopg)');
    expect(python).toContain('AWS SDK for Python (boto3)');
    expect(python.join(' ')).not.toMatch(/TypeScript|Zod|node-postgres|JavaScript|Node\.js/);
    const go = techStack('a server for our wiki', 'mcp', ['Postgres'], 's', 'Go');
    expect(go).toEqual(['Go', 'MCP Go SDK', 'PostgreSQL']);
    // No language asked: TypeScript, as before.
    expect(techStack('a server for our wiki', 'mcp', ['Postgres'], 's')).toEqual([
      'TypeScript',
      '@modelcontextprotocol/sdk',
      'Node.js',
      'Zod',
      'PostgreSQL (node-postgres)',
    ]);
  });

  it('reads the language of an MCP server from the idea, and no language from a verb', () => {
    const first = (idea: string) => techStack(idea, 'mcp', [], 's')[0];
    expect(first('An MCP server written in Go to search our tickets')).toBe('Go');
    expect(first('An MCP server in Rust that reads our logs')).toBe('Rust');
    expect(first('An MCP server to go through our tickets')).toBe('TypeScript');
    expect(first('An MCP server for JavaScript projects')).toBe('TypeScript');
  });

  it('reads an MCP server in Python from the idea', () => {
    expect(techStack('An MCP server in Python to search our tickets', 'mcp', [], 's')[0]).toBe(
      'Python',
    );
  });

  it("puts a web or phone project's API in a required Python, with its framework and ORM", () => {
    for (const seed of ['a', 'b', 'c', 'd']) {
      const web = techStack('a booking tool', 'web', [], seed, 'Python');
      expect(web).toContain('FastAPI');
      expect(web).toContain('React');
      expect(web.join(' ')).not.toMatch(/Node\.js|Fastify|Drizzle/);
    }
    const phone = techStack('a running app', 'mobile', [], 'a', 'Python');
    expect(phone).toContain('FastAPI');
    expect(phone).not.toContain('Node.js');
  });

  it('builds a phone app in the toolkit the idea or the conventions name', () => {
    for (const seed of ['a', 'b', 'c', 'd']) {
      expect(techStack('A Jetpack Compose app for runners', 'mobile', [], seed)[0]).toBe('Kotlin');
      expect(techStack('A Kotlin app for iOS and Android', 'mobile', [], seed)[0]).toBe(
        'Kotlin (Jetpack Compose)',
      );
      expect(techStack('A SwiftUI app for runners', 'mobile', [], seed)[0]).toBe('Swift');
      expect(techStack('an app for runners', 'mobile', [], seed, 'Kotlin')[0]).toBe('Kotlin');
    }
    // "swift" as an English word chooses no toolkit: the seed picks as for any idea.
    const seeds = ['a', 'b', 'c', 'd', 'e', 'f'];
    const swiftWord = seeds.map(
      (s) => techStack('Swift replies for a support team', 'mobile', [], s)[0],
    );
    const plain = seeds.map((s) => techStack('Replies for a support team', 'mobile', [], s)[0]);
    expect(swiftWord).toEqual(plain);
  });

  it('runs a Kotlin app on Android only', () => {
    const stack = techStack('an app for runners', 'mobile', [], 'a', 'Jetpack Compose');
    expect(platforms('mobile', stack, undefined, 'an app for runners')).toEqual(['Android']);
  });
});

describe('languageOf', () => {
  it('names the language a required technology stands for, per project type', () => {
    expect(languageOf('Python', 'mcp')).toBe('Python');
    expect(languageOf('FastAPI', 'web')).toBe('Python');
    expect(languageOf('Go', 'mcp')).toBe('Go');
    // The engine builds no web API in Go: the conventions alone put it in the stack.
    expect(languageOf('Go', 'web')).toBeUndefined();
    expect(languageOf('Jetpack Compose', 'mobile')).toBe('Kotlin');
    expect(languageOf('SwiftUI', 'mobile')).toBe('Swift');
    expect(languageOf('PostgreSQL', 'web')).toBeUndefined();
  });

  it("reads the languages an idea names, so the idea's choice is kept", () => {
    expect(languagesNamedIn('A Jetpack Compose app for runners', 'mobile')).toEqual(['Kotlin']);
    expect(languagesNamedIn('An MCP server in TypeScript for Jira', 'mcp')).toEqual(['TypeScript']);
    expect(languagesNamedIn('A booking tool for dog groomers', 'web')).toEqual([]);
    expect(languagesNamedIn('An MCP server written in Go for our wiki', 'mcp')).toEqual(['Go']);
  });
});
