import { REPOSITORY_LIMITS } from '@pgs/contract/repository';
import { naiveDigest, TEST_REPOSITORIES } from '@pgs/contract/testing/repositories';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CASES } from '../../test/codebase/read.cases.ts';
import { readCodebase } from './read.ts';
import type { CodebaseFacts } from './types.ts';

const facts = (name: string, files: Record<string, string>, commit: string | null = null) =>
  readCodebase({
    name,
    commit,
    files: Object.entries(files).map(([path, content]) => ({ path, content })),
  });

function expectFound(
  f: CodebaseFacts,
  expected: {
    stack: readonly string[];
    componentPaths: readonly string[];
    dataStores: readonly string[];
    externalServices: readonly string[];
    routes: readonly string[];
    entities: readonly string[];
  },
) {
  expect(f.stack.map((s) => s.name)).toEqual(expect.arrayContaining([...expected.stack]));
  expect(f.components.map((c) => c.path)).toEqual(
    expect.arrayContaining([...expected.componentPaths]),
  );
  expect(f.dataStores.map((s) => s.name)).toEqual(expect.arrayContaining([...expected.dataStores]));
  expect(f.externalServices.map((s) => s.name)).toEqual(
    expect.arrayContaining([...expected.externalServices]),
  );
  expect(f.routes.map((r) => `${r.method} ${r.path}`)).toEqual(
    expect.arrayContaining([...expected.routes]),
  );
  expect(f.entities.map((e) => e.name)).toEqual(expect.arrayContaining([...expected.entities]));
}

describe('readCodebase on the shared test repositories', () => {
  for (const repository of TEST_REPOSITORIES) {
    const digest = naiveDigest(repository);
    const f = readCodebase({ name: digest.name, commit: null, files: digest.files });

    it(`finds everything ${repository.name} is expected to show`, () => {
      expectFound(f, repository.expected);
    });

    it(`cites a file of ${repository.name}'s digest for every fact`, () => {
      const paths = new Set(digest.files.map((file) => file.path));
      for (const item of [...f.stack, ...f.dataStores, ...f.externalServices])
        expect(paths, item.name).toContain(item.evidence);
      for (const route of f.routes) expect(paths).toContain(route.file);
      for (const entity of f.entities) expect(paths).toContain(entity.file);
      for (const component of f.components)
        for (const file of component.files) expect(paths).toContain(file);
    });

    it(`keeps tests out of ${repository.name}'s components and lists them apart`, () => {
      const inComponents = f.components.flatMap((c) => c.files);
      expect(f.tests.files.length).toBeGreaterThan(0);
      for (const test of f.tests.files) expect(inComponents).not.toContain(test);
    });

    it(`reads ${repository.name} the same way twice`, () => {
      expect(readCodebase({ name: digest.name, commit: null, files: digest.files })).toEqual(f);
    });
  }

  it('reads the Express repository as its parts are named', () => {
    const digest = naiveDigest(TEST_REPOSITORIES[0]!);
    const f = readCodebase({ name: digest.name, commit: 'abc1234', files: digest.files });
    expect(f.summary).toMatch(/^Appointments for a two-vet clinic/);
    expect(f.languages).toEqual(['TypeScript']);
    expect(f.entryPoints).toEqual(['src/server.ts']);
    expect(f.manifests).toEqual(['package.json']);
    expect(f.tests).toMatchObject({ command: 'npm test', commandEvidence: 'package.json' });
    expect(f.stack.find((s) => s.name === 'Express')).toMatchObject({
      layer: 'Framework',
      version: '^4.19.2',
      evidence: 'package.json',
    });
    expect(f.stack.find((s) => s.name === 'PostgreSQL')).toMatchObject({
      layer: 'Data',
      detail: 'pg ^8.11.3',
    });
    expect(f.stack.find((s) => s.name === 'PostgreSQL')?.version).toBeUndefined();
    const role = (path: string) => f.components.find((c) => c.path === path)?.role;
    expect(role('src/services')).toBe('Stripe payments');
    expect(role('src/routes')).toBe('HTTP routes for /appointments and /owners');
    expect(role('src/db')).toBe('Database access (PostgreSQL)');
    expect(f.entities.find((e) => e.name === 'appointments')?.columns).toEqual([
      'id',
      'pet_id',
      'starts_at',
      'status',
    ]);
  });

  it('names a table found in a migration and a model once', () => {
    const digest = naiveDigest(TEST_REPOSITORIES[1]!);
    const f = readCodebase({ name: digest.name, commit: null, files: digest.files });
    expect(f.entities.filter((e) => e.name === 'invoices')).toHaveLength(1);
    expect(f.entities.find((e) => e.name === 'invoices')).toMatchObject({
      file: 'alembic/versions/0001_init.py',
      alsoIn: ['app/models.py'],
      columns: ['id', 'farm_id', 'total'],
    });
    expect(f.components.find((c) => c.path === 'app/mail.py')?.role).toBe('SendGrid email');
  });
});

describe('readCodebase on other ecosystems', () => {
  for (const c of CASES) {
    it(`finds everything ${c.name} is expected to show`, () => {
      const f = facts(c.name, c.files);
      expectFound(f, c.expected);
      if (c.expected.entryPoints) expect(f.entryPoints).toEqual([...c.expected.entryPoints]);
      if (c.expected.testCommand) expect(f.tests.command).toBe(c.expected.testCommand);
      const text = JSON.stringify(f);
      for (const name of c.absent ?? []) expect(text).not.toContain(name);
    });
  }

  it('reads the versions the manifests ask for', () => {
    const version = (f: CodebaseFacts, name: string) =>
      f.stack.find((s) => s.name === name)?.version;
    const spring = facts('s', CASES[1]!.files);
    expect(version(spring, 'Java')).toBe('21');
    expect(version(spring, 'Spring Boot')).toBe('3.2.4');
    const rust = facts('r', CASES[0]!.files);
    expect(version(rust, 'Rust')).toBe('1.75');
    expect(rust.dataStores).toEqual([
      { name: 'PostgreSQL', evidence: 'Cargo.toml', detail: 'sqlx feature postgres' },
    ]);
    expect(version(facts('g', CASES[2]!.files), 'Ruby')).toBe('3.3.0');
    expect(version(facts('p', CASES[3]!.files), 'PHP')).toBe('^8.2');
    expect(version(facts('f', CASES[4]!.files), 'Flask')).toBe('==3.0.2');
  });
});

describe('readCodebase when evidence is thin', () => {
  it('skips manifests that do not parse, and reads the rest', () => {
    const f = facts('broken', {
      'package.json': '{ "dependencies": { "express": ',
      'pyproject.toml': '[project\nname = ',
      'Cargo.toml': '[dependencies]\naxum = ',
      'pom.xml': '<project><dependencies><dependency><groupId>x',
      'composer.json': 'not json',
      'go.mod': 'module example.com/x\n\ngo 1.21\n\nrequire github.com/gin-gonic/gin v1.9.1\n',
    });
    expect(f.manifests).toEqual(['go.mod', 'pom.xml']);
    expect(f.stack.map((s) => s.name)).toEqual(['Go', 'Java', 'gin']);
  });

  it('finds a store from a URL or a container image when no package names it', () => {
    const f = facts('compose', {
      'docker-compose.yml':
        'services:\n  db:\n    image: postgres:16\n  cache:\n    image: redis:7\n',
      'worker/main.js': "const url = 'mongodb://localhost/app';\n",
    });
    expect(f.dataStores).toEqual([
      { name: 'PostgreSQL', evidence: 'docker-compose.yml', detail: 'a postgres container image' },
      { name: 'Redis', evidence: 'docker-compose.yml', detail: 'a redis container image' },
      { name: 'MongoDB', evidence: 'worker/main.js', detail: 'a mongodb:// URL' },
    ]);
  });

  it('says a relational store exists from SQL alone, without naming an engine', () => {
    const f = facts('sql-only', {
      'schema/tables.sql': 'CREATE TABLE IF NOT EXISTS billing.plans (id int, name text);\n',
    });
    expect(f.dataStores).toEqual([
      {
        name: 'A relational database (engine not named)',
        evidence: 'schema/tables.sql',
        detail: 'CREATE TABLE statements',
      },
    ]);
    expect(f.stack.map((s) => s.name)).not.toContain('PostgreSQL');
    expect(f.entities).toEqual([
      { name: 'plans', file: 'schema/tables.sql', columns: ['id', 'name'] },
    ]);
  });

  it('reads an empty digest as facts with nothing found', () => {
    const f = facts('empty', {});
    expect(f).toMatchObject({ stack: [], components: [], routes: [], entities: [], manifests: [] });
    expect(f.summary).toBeUndefined();
  });

  it('leaves vendored code and build output out', () => {
    const f = facts('vendored', {
      'package.json': '{"dependencies":{"koa":"^2.15.0"}}',
      'node_modules/express/package.json': '{"dependencies":{"mongoose":"1"}}',
      'dist/server.js': "app.get('/built', h)",
    });
    expect(f.manifests).toEqual(['package.json']);
    expect(f.stack.map((s) => s.name)).toEqual(['Node.js', 'Koa']);
    expect(f.routes).toEqual([]);
  });

  it('reads a digest at the contract limits (1,000 files, 1 MiB), adversarial files included', () => {
    const base = [
      ...TEST_REPOSITORIES.flatMap((r) => naiveDigest(r).files),
      ...CASES.flatMap((c) =>
        Object.entries(c.files).map(([path, content]) => ({ path, content })),
      ),
    ].filter((f) => f.content.length > 0);
    const files: { path: string; content: string }[] = [];
    for (let i = 0; files.length < REPOSITORY_LIMITS.maxFiles - 3; i++)
      for (const f of base.slice(0, REPOSITORY_LIMITS.maxFiles - 3 - files.length))
        files.push({
          path: `svc${i}/${f.path}`,
          content: f.content.repeat(Math.ceil(1040 / f.content.length)).slice(0, 1040),
        });
    // Files that would make a careless reader quadratic: unclosed brackets, one long line.
    files.push(
      { path: 'db/unclosed.sql', content: 'create table t (a int, b text,'.repeat(2000) },
      {
        path: 'cmd/x/main.go',
        content: `package main\nfunc main() {\n${'r.Route("/p", func(r chi.Router) {\n r.Get("/x", h)\n'.repeat(1000)}`,
      },
      {
        path: 'web/bundle.min.js',
        content: "var a=require('express')();a.use('/x',b);function f(app){app.get('/z'".repeat(
          500,
        ),
      },
    );
    expect(files.reduce((n, f) => n + f.content.length, 0)).toBeGreaterThan(1_000_000);
    // Its speed is measured by `npm run bench -- --grounded`, not asserted here; a reader
    // gone quadratic on these files shows as this test's time-out.
    const facts = readCodebase({ name: 'big', commit: null, files });
    expect(facts.paths).toHaveLength(files.length);
    expect(facts.routes.length).toBeGreaterThan(0);
    expect(facts.entities.map((e) => e.name)).toContain('appointments');
  });

  it('never throws, whatever the files hold', () => {
    const paths = [
      'package.json',
      'pyproject.toml',
      'go.mod',
      'Cargo.toml',
      'pom.xml',
      'Gemfile',
      'composer.json',
      'requirements.txt',
      'src/app.ts',
      'app/main.py',
      'main.go',
      'src/main.rs',
      'config/routes.rb',
      'routes/api.php',
      'A.java',
      'db/schema.sql',
      'schema.prisma',
      'README.md',
    ];
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(fc.constantFrom(...paths), fc.string({ unit: 'binary', maxLength: 300 })),
          { maxLength: 8 },
        ),
        (entries) => {
          const f = readCodebase({
            name: 'fuzz',
            commit: null,
            files: entries.map(([path, content]) => ({ path, content })),
          });
          expect(Array.isArray(f.routes)).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });
});
