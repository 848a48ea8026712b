/**
 * Readers of dependency manifests: what a repository declares it depends on, the language and
 * runtime versions it asks for, and how it runs its tests. A manifest that does not parse is
 * skipped (the digest may hold a template or a half-edited file), never thrown.
 */
import { parse as parseToml } from 'smol-toml';
import type { Ecosystem } from './known-packages.ts';

/** One declared dependency. */
export interface Dependency {
  ecosystem: Ecosystem;
  name: string;
  /** The version as written: `^4.19.2`, `>=0.111`, `v5.0.12`. */
  version?: string;
  /** Declared for development or tests only. */
  dev: boolean;
  /** Cargo features and Python extras, which sometimes name the database (`sqlx` + `postgres`). */
  features?: readonly string[];
}

/** What one manifest says. */
export interface ManifestRead {
  path: string;
  ecosystem: Ecosystem;
  dependencies: Dependency[];
  /** The language it is written for, with the version it asks for. */
  language?: { name: string; version?: string };
  runtime?: { name: string; version?: string };
  /** The command that runs the tests, when the manifest says or implies one. */
  test?: string;
  /** Files it names as where the program starts (`main`, `bin`). */
  entries: string[];
}

type Reader = (path: string, content: string) => ManifestRead | undefined;

const basename = (path: string) => path.slice(path.lastIndexOf('/') + 1);
const dirname = (path: string) => (path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '');
const inDir = (dir: string, file: string) =>
  (dir ? `${dir}/${file}` : file).replace(/\/\.\//g, '/').replace(/^\.\//, '');

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function stringRecord(value: unknown): [string, string][] {
  if (!isRecord(value)) return [];
  return Object.entries(value).map(([k, v]) => [
    k,
    typeof v === 'string' ? v : isRecord(v) && typeof v.version === 'string' ? v.version : '',
  ]);
}

function dep(
  ecosystem: Ecosystem,
  name: string,
  version: string | undefined,
  dev: boolean,
  features?: readonly string[],
): Dependency {
  const out: Dependency = { ecosystem, name, dev };
  if (version?.trim() && version.trim() !== '*') out.version = version.trim();
  if (features && features.length > 0) out.features = features;
  return out;
}

const PLACEHOLDER_TEST = /no test specified/;

const packageJson: Reader = (path, content) => {
  const json: unknown = JSON.parse(content);
  if (!isRecord(json)) return undefined;
  const dependencies = [
    ...stringRecord(json.dependencies).map(([n, v]) => dep('npm', n, v, false)),
    ...stringRecord(json.devDependencies).map(([n, v]) => dep('npm', n, v, true)),
    ...stringRecord(json.optionalDependencies).map(([n, v]) => dep('npm', n, v, false)),
  ];
  const scripts = isRecord(json.scripts) ? json.scripts : {};
  const engines = isRecord(json.engines) ? json.engines : {};
  const typescript = dependencies.find((d) => d.name === 'typescript');
  const bin = typeof json.bin === 'string' ? [json.bin] : stringRecord(json.bin).map(([, v]) => v);
  const main = typeof json.main === 'string' ? [json.main] : [];
  const out: ManifestRead = {
    path,
    ecosystem: 'npm',
    dependencies,
    runtime:
      typeof engines.node === 'string'
        ? { name: 'Node.js', version: engines.node }
        : { name: 'Node.js' },
    entries: [...main, ...bin].map((file) => inDir(dirname(path), file)),
  };
  if (typescript)
    out.language = {
      name: 'TypeScript',
      ...(typescript.version ? { version: typescript.version } : {}),
    };
  if (typeof scripts.test === 'string' && !PLACEHOLDER_TEST.test(scripts.test))
    out.test = 'npm test';
  return out;
};

/** A PEP 508 requirement: `uvicorn[standard]>=0.29 ; python_version > "3.8"`. */
function pep508(spec: string, dev: boolean): Dependency | undefined {
  const match =
    /^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(?:\[([^\]]*)\])?\s*(?:\(([^)]*)\)|([^;@#]*))?/.exec(spec);
  if (!match) return undefined;
  const extras = match[2]
    ?.split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  return dep('pypi', match[1]!, (match[3] ?? match[4] ?? '').replace(/\s+/g, ''), dev, extras);
}

const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];

const pyproject: Reader = (path, content) => {
  const toml = parseToml(content) as Record<string, unknown>;
  const project = isRecord(toml.project) ? toml.project : {};
  const tool = isRecord(toml.tool) ? toml.tool : {};
  const poetry = isRecord(tool.poetry) ? tool.poetry : {};
  const groups = isRecord(poetry.group) ? Object.values(poetry.group) : [];
  const optional = isRecord(project['optional-dependencies'])
    ? Object.values(project['optional-dependencies'])
    : [];
  const dependencyGroups = isRecord(toml['dependency-groups'])
    ? Object.values(toml['dependency-groups'])
    : [];
  const poetryDeps = (table: unknown, dev: boolean) =>
    stringRecord(table)
      .filter(([name]) => name.toLowerCase() !== 'python')
      .map(([name, version]) => dep('pypi', name, version, dev));
  const dependencies = [
    ...strings(project.dependencies).flatMap((s) => pep508(s, false) ?? []),
    ...optional.flatMap((list) => strings(list).flatMap((s) => pep508(s, true) ?? [])),
    ...dependencyGroups.flatMap((list) => strings(list).flatMap((s) => pep508(s, true) ?? [])),
    ...poetryDeps(poetry.dependencies, false),
    ...poetryDeps(poetry['dev-dependencies'], true),
    ...groups.flatMap((g) => (isRecord(g) ? poetryDeps(g.dependencies, true) : [])),
  ];
  const poetryPython = stringRecord(poetry.dependencies).find(
    ([n]) => n.toLowerCase() === 'python',
  )?.[1];
  const version =
    typeof project['requires-python'] === 'string' ? project['requires-python'] : poetryPython;
  const out: ManifestRead = {
    path,
    ecosystem: 'pypi',
    dependencies,
    language: version ? { name: 'Python', version } : { name: 'Python' },
    entries: [],
  };
  if (dependencies.some((d) => d.name.toLowerCase() === 'pytest') || isRecord(tool.pytest))
    out.test = 'pytest';
  return out;
};

const requirements: Reader = (path, content) => {
  const dev = /dev|test/i.test(basename(path));
  const dependencies = content
    .split('\n')
    .map((line) => line.replace(/#.*/, '').trim())
    .filter((line) => line && !line.startsWith('-') && !/^[a-z+]+:\/\//i.test(line))
    .flatMap((line) => pep508(line, dev) ?? []);
  const out: ManifestRead = {
    path,
    ecosystem: 'pypi',
    dependencies,
    language: { name: 'Python' },
    entries: [],
  };
  if (dependencies.some((d) => d.name.toLowerCase() === 'pytest')) out.test = 'pytest';
  return out;
};

const pipfile: Reader = (path, content) => {
  const toml = parseToml(content) as Record<string, unknown>;
  const requires = isRecord(toml.requires) ? toml.requires : {};
  const dependencies = [
    ...stringRecord(toml.packages).map(([n, v]) => dep('pypi', n, v, false)),
    ...stringRecord(toml['dev-packages']).map(([n, v]) => dep('pypi', n, v, true)),
  ];
  const version = typeof requires.python_version === 'string' ? requires.python_version : undefined;
  const out: ManifestRead = {
    path,
    ecosystem: 'pypi',
    dependencies,
    language: version ? { name: 'Python', version } : { name: 'Python' },
    entries: [],
  };
  if (dependencies.some((d) => d.name.toLowerCase() === 'pytest')) out.test = 'pytest';
  return out;
};

const goMod: Reader = (path, content) => {
  const version = /^go\s+(\d+(?:\.\d+)*)\s*$/m.exec(content)?.[1];
  const dependencies: Dependency[] = [];
  // Both `require x v1` lines and `require ( … )` blocks; indirect requirements are someone
  // else's dependencies and say nothing about this code.
  const lines = content.split('\n');
  let inBlock = false;
  for (const raw of lines) {
    const line = raw.trim();
    if (/^require\s*\($/.test(line)) inBlock = true;
    else if (inBlock && line === ')') inBlock = false;
    const spec = inBlock ? line : /^require\s+(.+)$/.exec(line)?.[1];
    const match = spec ? /^(\S+)\s+(v\S+)(.*)$/.exec(spec) : null;
    if (match && !/\/\/\s*indirect/.test(match[3]!))
      dependencies.push(dep('go', match[1]!, match[2], false));
  }
  return {
    path,
    ecosystem: 'go',
    dependencies,
    language: version ? { name: 'Go', version } : { name: 'Go' },
    test: 'go test ./...',
    entries: [],
  };
};

const cargo: Reader = (path, content) => {
  const toml = parseToml(content) as Record<string, unknown>;
  const table = (value: unknown, dev: boolean) =>
    isRecord(value)
      ? Object.entries(value).map(([name, v]) =>
          typeof v === 'string'
            ? dep('cargo', name, v, dev)
            : isRecord(v)
              ? dep(
                  'cargo',
                  typeof v.package === 'string' ? v.package : name,
                  typeof v.version === 'string' ? v.version : undefined,
                  dev,
                  strings(v.features),
                )
              : dep('cargo', name, undefined, dev),
        )
      : [];
  const workspace = isRecord(toml.workspace) ? toml.workspace : {};
  const pkg = isRecord(toml.package) ? toml.package : {};
  const version = typeof pkg['rust-version'] === 'string' ? pkg['rust-version'] : undefined;
  return {
    path,
    ecosystem: 'cargo',
    dependencies: [
      ...table(toml.dependencies, false),
      ...table(workspace.dependencies, false),
      ...table(toml['dev-dependencies'], true),
    ],
    language: version ? { name: 'Rust', version } : { name: 'Rust' },
    test: 'cargo test',
    entries: [],
  };
};

/** The text of the first `<tag>` in an XML fragment. */
const xmlText = (xml: string, tag: string) =>
  new RegExp(`<${tag}>\\s*([^<]*?)\\s*</${tag}>`).exec(xml)?.[1];

const pom: Reader = (path, content) => {
  // A regex reader: a pom's dependencies are flat, well-formed blocks, and a full XML parser
  // would add a dependency to read three tags. Comments are removed first so that a
  // commented-out dependency is not read.
  const xml = content.replace(/<!--[\s\S]*?-->/g, '');
  const properties = /<properties>([\s\S]*?)<\/properties>/.exec(xml)?.[1] ?? '';
  const property = (name: string) => xmlText(properties, name.replace(/\./g, '\\.'));
  const resolve = (value: string | undefined) =>
    value?.replace(/\$\{([^}]+)\}/g, (whole, name: string) => property(name) ?? whole);
  const parent = /<parent>([\s\S]*?)<\/parent>/.exec(xml)?.[1] ?? '';
  const dependencies = [...xml.matchAll(/<dependency>([\s\S]*?)<\/dependency>/g)].flatMap((m) => {
    const group = xmlText(m[1]!, 'groupId');
    const artifact = xmlText(m[1]!, 'artifactId');
    if (!group || !artifact) return [];
    const dev = xmlText(m[1]!, 'scope') === 'test';
    return [dep('maven', `${group}:${artifact}`, resolve(xmlText(m[1]!, 'version')), dev)];
  });
  const boot =
    xmlText(parent, 'artifactId') === 'spring-boot-starter-parent'
      ? xmlText(parent, 'version')
      : undefined;
  if (boot)
    for (const d of dependencies)
      if (d.name.startsWith('org.springframework.boot:') && !d.version) d.version = boot;
  const java =
    property('java.version') ??
    property('maven.compiler.release') ??
    property('maven.compiler.source');
  const kotlin = dependencies.some((d) => d.name.startsWith('org.jetbrains.kotlin:'));
  return {
    path,
    ecosystem: 'maven',
    dependencies,
    language: kotlin
      ? { name: 'Kotlin' }
      : java
        ? { name: 'Java', version: java }
        : { name: 'Java' },
    test: 'mvn test',
    entries: [],
  };
};

const gradle: Reader = (path, content) => {
  const dependencies = [
    ...content.matchAll(
      /\b(implementation|api|compileOnly|runtimeOnly|testImplementation|testRuntimeOnly)\s*\(?\s*['"]([^:'"\s]+):([^:'"\s]+)(?::([^'"\s]+))?['"]/g,
    ),
  ].map((m) => dep('maven', `${m[2]}:${m[3]}`, m[4], m[1]!.startsWith('test')));
  const kotlin = path.endsWith('.kts') || /kotlin\(|org\.jetbrains\.kotlin/.test(content);
  return {
    path,
    ecosystem: 'maven',
    dependencies,
    language: { name: kotlin ? 'Kotlin' : 'Java' },
    test: 'gradle test',
    entries: [],
  };
};

const gemfile: Reader = (path, content) => {
  const dependencies: Dependency[] = [];
  let devDepth = 0;
  let depth = 0;
  for (const raw of content.split('\n')) {
    const line = raw.replace(/#.*/, '').trim();
    if (/^group\b.*\bdo\b/.test(line)) {
      depth++;
      if (/:(?:test|development)\b/.test(line) && devDepth === 0) devDepth = depth;
      continue;
    }
    if (/\bdo(\s*\|[^|]*\|)?$/.test(line)) depth++;
    if (line === 'end') {
      if (depth === devDepth) devDepth = 0;
      depth = Math.max(0, depth - 1);
      continue;
    }
    const gem = /^gem\s+['"]([^'"]+)['"](?:\s*,\s*['"]([^'"]+)['"])?/.exec(line);
    if (gem) dependencies.push(dep('gem', gem[1]!, gem[2], devDepth > 0));
  }
  const ruby = /^\s*ruby\s+['"]([^'"]+)['"]/m.exec(content)?.[1];
  const has = (name: string) => dependencies.some((d) => d.name === name);
  const out: ManifestRead = {
    path,
    ecosystem: 'gem',
    dependencies,
    language: ruby ? { name: 'Ruby', version: ruby } : { name: 'Ruby' },
    entries: [],
  };
  if (has('rspec') || has('rspec-rails')) out.test = 'bundle exec rspec';
  else if (has('rails')) out.test = 'bin/rails test';
  else if (has('minitest')) out.test = 'bundle exec rake test';
  return out;
};

const composer: Reader = (path, content) => {
  const json: unknown = JSON.parse(content);
  if (!isRecord(json)) return undefined;
  const platform = (name: string) => name === 'php' || name.startsWith('ext-');
  const dependencies = [
    ...stringRecord(json.require)
      .filter(([n]) => !platform(n))
      .map(([n, v]) => dep('composer', n, v, false)),
    ...stringRecord(json['require-dev'])
      .filter(([n]) => !platform(n))
      .map(([n, v]) => dep('composer', n, v, true)),
  ];
  const php = stringRecord(json.require).find(([n]) => n === 'php')?.[1];
  const scripts = isRecord(json.scripts) ? json.scripts : {};
  const out: ManifestRead = {
    path,
    ecosystem: 'composer',
    dependencies,
    language: php ? { name: 'PHP', version: php } : { name: 'PHP' },
    entries: [],
  };
  if (scripts.test !== undefined) out.test = 'composer test';
  else if (dependencies.some((d) => d.name === 'pestphp/pest')) out.test = 'vendor/bin/pest';
  else if (dependencies.some((d) => d.name === 'phpunit/phpunit')) out.test = 'vendor/bin/phpunit';
  return out;
};

function readerFor(path: string): Reader | undefined {
  const name = basename(path);
  if (name === 'package.json') return packageJson;
  if (name === 'pyproject.toml') return pyproject;
  if (
    /^(?:[\w-]*requirements[\w-]*|requirements\/[\w-]+)\.txt$/i.test(name) ||
    /(^|\/)requirements\/[\w.-]+\.txt$/.test(path)
  )
    return requirements;
  if (name === 'Pipfile') return pipfile;
  if (name === 'go.mod') return goMod;
  if (name === 'Cargo.toml') return cargo;
  if (name === 'pom.xml') return pom;
  if (name === 'build.gradle' || name === 'build.gradle.kts') return gradle;
  if (name === 'Gemfile') return gemfile;
  if (name === 'composer.json') return composer;
  return undefined;
}

/** Folders whose manifests belong to someone else's code. */
const VENDORED = /(^|\/)(node_modules|vendor|\.venv|venv|site-packages|dist|build|target)\//;

/**
 * Whether a path is a manifest this reader understands.
 *
 * @example
 * isManifest('services/api/go.mod'); // true
 */
export function isManifest(path: string): boolean {
  return !VENDORED.test(path) && readerFor(path) !== undefined;
}

/**
 * Reads one manifest; undefined when it is not one or does not parse.
 *
 * @example
 * readManifest('go.mod', 'module x\n\ngo 1.22\n')?.language; // { name: 'Go', version: '1.22' }
 */
export function readManifest(path: string, content: string): ManifestRead | undefined {
  const reader = isManifest(path) ? readerFor(path) : undefined;
  if (!reader) return undefined;
  try {
    return reader(path, content);
  } catch {
    return undefined;
  }
}
