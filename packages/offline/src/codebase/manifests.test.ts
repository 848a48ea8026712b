import { describe, expect, it } from 'vitest';
import { isManifest, readManifest } from './manifests.ts';

describe('readManifest', () => {
  it('reads Poetry groups, the Python version and extras', () => {
    const read = readManifest(
      'pyproject.toml',
      [
        '[tool.poetry.dependencies]',
        'python = "^3.12"',
        'django = { version = "^5.0", extras = ["argon2"] }',
        '[tool.poetry.group.test.dependencies]',
        'pytest = "^8"',
      ].join('\n'),
    );
    expect(read).toMatchObject({
      language: { name: 'Python', version: '^3.12' },
      dependencies: [
        { name: 'django', version: '^5.0', dev: false },
        { name: 'pytest', version: '^8', dev: true },
      ],
      test: 'pytest',
    });
  });

  it('leaves indirect Go requirements and the npm placeholder test script out', () => {
    const go = readManifest(
      'go.mod',
      'module x\n\ngo 1.22\n\nrequire (\n\tgithub.com/lib/pq v1.10.9\n\tgolang.org/x/sys v0.1.0 // indirect\n)\nrequire github.com/gin-gonic/gin v1.9.1\n',
    );
    expect(go?.dependencies.map((d) => d.name)).toEqual([
      'github.com/lib/pq',
      'github.com/gin-gonic/gin',
    ]);
    const npm = readManifest(
      'web/package.json',
      JSON.stringify({
        main: 'dist/index.js',
        scripts: { test: 'echo "Error: no test specified" && exit 1' },
      }),
    );
    expect(npm?.test).toBeUndefined();
    expect(npm?.entries).toEqual(['web/dist/index.js']);
  });

  it('reads Gradle, Pipfile and requirements files with options and URLs', () => {
    expect(
      readManifest(
        'build.gradle.kts',
        'dependencies {\n  implementation("org.springframework.boot:spring-boot-starter-web:3.2.0")\n  testImplementation("org.junit.jupiter:junit-jupiter")\n}\n',
      )?.dependencies,
    ).toEqual([
      {
        ecosystem: 'maven',
        name: 'org.springframework.boot:spring-boot-starter-web',
        version: '3.2.0',
        dev: false,
      },
      { ecosystem: 'maven', name: 'org.junit.jupiter:junit-jupiter', dev: true },
    ]);
    expect(
      readManifest('Pipfile', '[packages]\nflask = "*"\n[requires]\npython_version = "3.11"\n'),
    ).toMatchObject({
      dependencies: [{ name: 'flask', dev: false }],
      language: { version: '3.11' },
    });
    expect(
      readManifest(
        'requirements/base.txt',
        '--index-url https://example.org/simple\n-e .\nhttps://example.org/pkg.whl\nredis[hiredis]==5.0.1 ; python_version >= "3.8"\n',
      )?.dependencies,
    ).toEqual([
      { ecosystem: 'pypi', name: 'redis', version: '==5.0.1', dev: false, features: ['hiredis'] },
    ]);
  });

  it('knows which files are manifests, and never reads vendored ones', () => {
    expect(isManifest('services/api/Cargo.toml')).toBe(true);
    expect(isManifest('requirements-dev.txt')).toBe(true);
    expect(isManifest('vendor/acme/lib/composer.json')).toBe(false);
    expect(isManifest('node_modules/x/package.json')).toBe(false);
    expect(isManifest('docs/notes.txt')).toBe(false);
    expect(readManifest('Gemfile', 'not { ruby ((')).toMatchObject({ dependencies: [] });
    expect(readManifest('Cargo.toml', '[dependencies\naxum = ')).toBeUndefined();
  });
});
