/**
 * Python's manifests: pyproject.toml (PEP 621 and Poetry), requirements files and Pipfile.
 * pytest among the dependencies (or configured) is how the tests run.
 */
import { parse as parseToml } from 'smol-toml';
import {
  basename,
  type Dependency,
  dep,
  isRecord,
  type ManifestRead,
  type Reader,
  stringRecord,
  strings,
} from './manifest-read.ts';

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

/** pyproject.toml: `[project]`, its optional dependencies and groups, or Poetry's tables. */
export const pyproject: Reader = (path, content) => {
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

/** requirements.txt and its siblings; a name with dev or test in it lists dev dependencies. */
export const requirements: Reader = (path, content) => {
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

/** Pipenv's Pipfile. */
export const pipfile: Reader = (path, content) => {
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
