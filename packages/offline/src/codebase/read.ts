/**
 * The reader of a repository digest: manifests first (what the code declares), then what the
 * source shows by itself (imports, URLs, container images; stack.ts), then routes, schemas and
 * the components they sit in. Deterministic: the same digest always gives the same facts, in the
 * same order, and nothing is named that no file of the digest shows.
 */
import { readComponents } from './components.ts';
import { isManifest, type ManifestRead, readManifest } from './manifests.ts';
import { readmeSummary } from './readme-summary.ts';
import { readRoutes } from './routes.ts';
import { readEntities } from './schemas.ts';
import { isTestPath, knownInFile, languageOf } from './source.ts';
import { languagesOf, readStack } from './stack.ts';
import type { CodebaseFacts, Found, RepositorySource } from './types.ts';

type File = { path: string; content: string };

/** Someone else's code or a build's output: never part of the system described. */
const VENDORED =
  /(^|\/)(?:node_modules|vendor|\.venv|venv|site-packages|__pycache__|dist|build|target|\.git|\.next|coverage)\//;

const depth = (path: string) => path.split('/').length;
/** Development manifests (`requirements-dev.txt`) after the ones the program runs with. */
const devManifest = (path: string) =>
  /(?:^|[-_/])(?:dev|test)s?[-_.]|[-_](?:dev|test)s?\.txt$/.test(path) ? 1 : 0;
const byDepth = (a: File, b: File) =>
  depth(a.path) - depth(b.path) ||
  devManifest(a.path) - devManifest(b.path) ||
  (a.path < b.path ? -1 : 1);

/** A path pattern, then patterns its content must all match. */
const ENTRY_RULES: [RegExp, ...RegExp[]][] = [
  [
    /\.[cm]?[jt]sx?$/,
    /\.listen\s*\(|\bcreateServer\s*\(|\bcreateRoot\s*\(|ReactDOM\.render\s*\(|\bcreateApp\s*\([^)]*\)\s*\.mount\s*\(|\bserve\s*\(\s*\{/,
  ],
  [
    /\.py$/,
    /^\s*\w+\s*=\s*(?:FastAPI|Flask|Starlette|Quart|Sanic)\s*\(|^if\s+__name__\s*==\s*['"]__main__['"]/m,
  ],
  [/\.go$/, /^package\s+main\b/m, /^func\s+main\s*\(\s*\)/m],
  [/(?:^|\/)src\/(?:main|bin\/\w+)\.rs$/, /\bfn\s+main\s*\(/],
  [
    /\.(?:java|kt)$/,
    /@SpringBootApplication|\bpublic\s+static\s+void\s+main\s*\(|^fun\s+main\s*\(/m,
  ],
];
const ENTRY_FILES =
  /(?:^|\/)(?:manage\.py|config\.ru|artisan|public\/index\.php|bin\/(?:rails|console))$/;

function entryPointsOf(files: readonly File[], manifests: readonly ManifestRead[]): string[] {
  const paths = new Set(files.map((f) => f.path));
  const out = new Set<string>();
  for (const manifest of manifests)
    for (const entry of manifest.entries) {
      // `main: dist/server.js` is built from `src/server.ts`: name the source when it is there.
      const source = entry
        .replace(/(^|\/)(?:dist|build|lib)\//, '$1src/')
        .replace(/\.[cm]?js$/, '.ts');
      if (paths.has(entry)) out.add(entry);
      else if (paths.has(source)) out.add(source);
    }
  for (const file of files) {
    if (ENTRY_FILES.test(file.path)) out.add(file.path);
    else if (
      ENTRY_RULES.some(
        ([path, ...content]) => path.test(file.path) && content.every((c) => c.test(file.content)),
      )
    )
      out.add(file.path);
  }
  return [...out].sort();
}

const CONVENTIONS: [RegExp, string, RegExp?][] = [
  [/(?:^|\/)tsconfig\.json$/, 'TypeScript strict mode', /"strict"\s*:\s*true/],
  [/(?:^|\/)biome\.jsonc?$/, 'Biome (lint and format)'],
  [/(?:^|\/)(?:\.eslintrc(?:\.\w+)?|eslint\.config\.[cm]?[jt]s)$/, 'ESLint'],
  [/(?:^|\/)(?:\.prettierrc(?:\.\w+)?|prettier\.config\.[cm]?js)$/, 'Prettier'],
  [/(?:^|\/)\.editorconfig$/, 'EditorConfig'],
  [/(?:^|\/)(?:ruff\.toml|\.ruff\.toml)$/, 'Ruff'],
  [/(?:^|\/)pyproject\.toml$/, 'Ruff', /^\[tool\.ruff/m],
  [/(?:^|\/)pyproject\.toml$/, 'Black', /^\[tool\.black\]/m],
  [/(?:^|\/)(?:mypy\.ini|pyproject\.toml)$/, 'mypy', /^\[(?:tool\.)?mypy\]/m],
  [/(?:^|\/)\.golangci\.ya?ml$/, 'golangci-lint'],
  [/(?:^|\/)rustfmt\.toml$/, 'rustfmt'],
  [/(?:^|\/)\.rubocop\.yml$/, 'RuboCop'],
  [/(?:^|\/)phpstan\.neon(?:\.dist)?$/, 'PHPStan'],
  [/(?:^|\/)\.pre-commit-config\.yaml$/, 'pre-commit hooks'],
  [/^\.github\/workflows\/[^/]+\.ya?ml$/, 'CI on GitHub Actions'],
  [/^\.gitlab-ci\.yml$/, 'CI on GitLab'],
  [/(?:^|\/)Dockerfile$/, 'Docker image'],
  [/(?:^|\/)(?:docker-)?compose\.ya?ml$/, 'Docker Compose'],
  [/(?:^|\/)package\.json$/, 'ES modules', /"type"\s*:\s*"module"/],
];

function conventionsOf(files: readonly File[]): Found[] {
  const out: Found[] = [];
  for (const [path, name, content] of CONVENTIONS) {
    const file = files.find((f) => path.test(f.path) && (!content || content.test(f.content)));
    if (file && !out.some((c) => c.name === name)) out.push({ name, evidence: file.path });
  }
  return out;
}

/** What the top README says of the repository (readme-summary.ts). */
function summaryOf(files: readonly File[]): string | undefined {
  const readme = files
    .filter((f) => /(?:^|\/)readme(?:\.(?:md|markdown|rst|txt))?$/i.test(f.path))
    .sort(byDepth)[0];
  return readme ? readmeSummary(readme.content) : undefined;
}

function testCommand(
  manifests: readonly ManifestRead[],
  paths: ReadonlySet<string>,
  files: readonly File[],
) {
  const manifest = manifests.find((m) => m.test);
  if (manifest) {
    let command = manifest.test!;
    const dir = manifest.path.includes('/')
      ? manifest.path.slice(0, manifest.path.lastIndexOf('/') + 1)
      : '';
    if (command === 'npm test' && paths.has(`${dir}pnpm-lock.yaml`)) command = 'pnpm test';
    if (command === 'npm test' && paths.has(`${dir}yarn.lock`)) command = 'yarn test';
    if (command === 'mvn test' && paths.has(`${dir}mvnw`)) command = './mvnw test';
    if (command === 'gradle test' && paths.has(`${dir}gradlew`)) command = './gradlew test';
    return { command, commandEvidence: manifest.path };
  }
  const pytest = files.find((f) => /(?:^|\/)(?:pytest\.ini|conftest\.py|tox\.ini)$/.test(f.path));
  if (pytest) return { command: 'pytest', commandEvidence: pytest.path };
  return {};
}

/**
 * Reads a digest's manifests, routes, schemas and folders into facts, deterministically.
 *
 * @example
 * readCodebase({ name: 'api', commit: null, files: [{ path: 'go.mod', content: 'module x\n\ngo 1.22\n' }] })
 *   .stack[0]; // { name: 'Go', layer: 'Language', version: '1.22', evidence: 'go.mod' }
 */
export function readCodebase(source: RepositorySource): CodebaseFacts {
  const files = source.files.filter((f) => !VENDORED.test(f.path));
  const manifests = files
    .filter((f) => isManifest(f.path))
    .sort(byDepth)
    .flatMap((f) => readManifest(f.path, f.content) ?? []);
  const sources = files.filter((f) => !isTestPath(f.path));
  const known = new Map(sources.map((f) => [f.path, knownInFile(f.path, f.content)]));
  const languages = languagesOf(files);
  const tests = files.filter((f) => isTestPath(f.path) && languageOf(f.path)).map((f) => f.path);
  const stack = readStack({ files, sources, manifests, languages, known, tests });
  const routes = readRoutes(files);
  const entities = readEntities(files);
  const entryPoints = entryPointsOf(sources, manifests);
  const components = readComponents({ files: sources, routes, entities, entryPoints, known });
  const summary = summaryOf(files);
  const paths = new Set(files.map((f) => f.path));
  return {
    name: source.name,
    commit: source.commit,
    ...(summary ? { summary } : {}),
    languages: languages.map((l) => l.name),
    stack: stack.stack,
    components,
    dataStores: stack.dataStores,
    externalServices: stack.externalServices,
    routes,
    entities,
    entryPoints,
    manifests: manifests.map((m) => m.path),
    tests: { files: tests, ...testCommand(manifests, paths, files) },
    conventions: conventionsOf(files),
    paths: source.files.map((f) => f.path),
  };
}
