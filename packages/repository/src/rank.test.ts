import { describe, expect, it } from 'vitest';
import { classify, type FileCategory, rankPaths } from './rank.ts';

describe('classify', () => {
  it.each<[string, FileCategory]>([
    ['package.json', 'manifest'],
    ['services/billing/pyproject.toml', 'manifest'],
    ['requirements-dev.txt', 'manifest'],
    ['build.gradle.kts', 'manifest'],
    ['Gemfile', 'manifest'],
    ['README.md', 'docs'],
    ['docs/adr/0001-postgres.md', 'docs'],
    ['ARCHITECTURE.md', 'docs'],
    ['CHANGELOG.md', 'other'],
    ['api/openapi.yaml', 'api-schema'],
    ['schema/swagger.json', 'api-schema'],
    ['graph/schema.graphql', 'api-schema'],
    ['proto/fleet.proto', 'api-schema'],
    ['db/schema.sql', 'database'],
    ['migrations/001_init.sql', 'database'],
    ['alembic/versions/0001_init.py', 'database'],
    ['prisma/schema.prisma', 'database'],
    ['db/migrate/20240101_create_users.rb', 'database'],
    ['app/models.py', 'database'],
    ['src/server.ts', 'entry-point'],
    ['app/main.py', 'entry-point'],
    ['cmd/server/main.go', 'entry-point'],
    ['main.go', 'entry-point'],
    ['src/routes/appointments.ts', 'routes'],
    ['src/routes/index.ts', 'routes'],
    ['app/routers/invoices.py', 'routes'],
    ['internal/vehicles/handler.go', 'routes'],
    ['shop/urls.py', 'routes'],
    ['Dockerfile', 'config'],
    ['docker-compose.yml', 'config'],
    ['.github/workflows/ci.yml', 'config'],
    ['vite.config.ts', 'config'],
    ['src/services/payments.ts', 'source'],
    ['internal/store/postgres.go', 'source'],
    ['src/deep/a/b/c/main.ts', 'source'],
    ['public/logo.svg', 'other'],
    ['test/appointments.test.ts', 'test'],
    ['src/payments.spec.ts', 'test'],
    ['tests/test_invoices.py', 'test'],
    ['internal/vehicles/handler_test.go', 'test'],
    ['src/__tests__/routes/index.ts', 'test'],
    ['spec/models/user_spec.rb', 'test'],
  ])('%s is %s', (path, category) => {
    expect(classify(path).category).toBe(category);
  });
});

describe('rankPaths', () => {
  it('orders by category, then the root before the depths; a package README is one', () => {
    const ranked = rankPaths([
      'test/app.test.ts',
      'src/lib/util.ts',
      'src/index.ts',
      'services/api/package.json',
      'docs/setup.md',
      'README.md',
      'package.json',
      'services/api/README.md',
    ]);
    expect(ranked.map((r) => r.path)).toEqual([
      'package.json',
      'services/api/package.json',
      'README.md',
      'services/api/README.md',
      'docs/setup.md',
      'src/index.ts',
      'src/lib/util.ts',
      'test/app.test.ts',
    ]);
  });

  it('samples source across folders: the first file of each, then the second of each', () => {
    const ranked = rankPaths([
      'src/billing/a.ts',
      'src/billing/b.ts',
      'src/billing/c.ts',
      'src/users/a.ts',
      'src/users/b.ts',
      'lib/x.ts',
    ]).map((r) => r.path);
    expect(ranked).toEqual([
      'lib/x.ts',
      'src/billing/a.ts',
      'src/users/a.ts',
      'src/billing/b.ts',
      'src/users/b.ts',
      'src/billing/c.ts',
    ]);
  });

  it('judges a path from the package that holds it in a monorepo', () => {
    const ranked = rankPaths([
      'packages/server/src/db/pool.ts',
      'packages/server/src/main.ts',
      'packages/server/src/api/plugins/auth.ts',
      'packages/server/src/api/routes/projects.ts',
      'packages/server/package.json',
      'packages/web/vite.config.ts',
      'packages/web/package.json',
      'package.json',
    ]);
    expect(ranked).toEqual([
      { path: 'package.json', category: 'manifest' },
      { path: 'packages/server/package.json', category: 'manifest' },
      { path: 'packages/web/package.json', category: 'manifest' },
      { path: 'packages/server/src/main.ts', category: 'entry-point' },
      // A routes/ folder before the rest of api/.
      { path: 'packages/server/src/api/routes/projects.ts', category: 'routes' },
      { path: 'packages/server/src/api/plugins/auth.ts', category: 'routes' },
      { path: 'packages/web/vite.config.ts', category: 'config' },
      { path: 'packages/server/src/db/pool.ts', category: 'source' },
    ]);
  });

  it('does not depend on the order the paths come in', () => {
    const paths = ['b/x.py', 'a/y.py', 'README.md', 'a/x.py', 'go.mod', 'tests/t_test.go'];
    const once = rankPaths(paths);
    expect(rankPaths([...paths].reverse())).toEqual(once);
  });
});
