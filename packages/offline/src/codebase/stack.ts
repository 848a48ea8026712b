/**
 * The stack of a repository digest, and the data stores and external services in it: the
 * languages the files are written in, what the manifests declare (runtimes, dependencies),
 * then what the source shows by itself (imports, URLs, container images). Each is named once,
 * with the first evidence found, and the stack is ordered by layer.
 */
import { type Known, knownPackage, normalisePackage } from './known-packages.ts';
import type { ManifestRead } from './manifests.ts';
import { evidenceInText, languageOf } from './source.ts';
import type { Found, StackItem } from './types.ts';

type File = { path: string; content: string };

/** A language of the digest, with how many files are written in it and the first of them. */
export interface Language {
  name: string;
  count: number;
  first: string;
}

/** What the stack is read from: the digest's files, those that are no tests, and the manifests. */
export interface StackSource {
  files: readonly File[];
  sources: readonly File[];
  manifests: readonly ManifestRead[];
  languages: readonly Language[];
  /** The packages each source file imports. */
  known: ReadonlyMap<string, readonly Known[]>;
  /** The test files, by path. */
  tests: readonly string[];
}

/** The stack in layer order, the data stores and the external services, each found once. */
export interface StackRead {
  stack: StackItem[];
  dataStores: Found[];
  externalServices: Found[];
}

const LAYER: Record<Known['kind'], StackItem['layer']> = {
  framework: 'Framework',
  store: 'Data',
  cache: 'Cache',
  orm: 'Data',
  migrations: 'Data',
  service: 'Library',
  testing: 'Testing',
  build: 'Build',
  runtime: 'Runtime',
  library: 'Library',
};

const LAYER_ORDER: StackItem['layer'][] = [
  'Language',
  'Runtime',
  'Framework',
  'Data',
  'Cache',
  'Testing',
  'Build',
  'Library',
];

/** Databases a Cargo feature names (`sqlx` with `postgres`). */
const FEATURE_STORES: Record<string, string> = {
  postgres: 'PostgreSQL',
  mysql: 'MySQL',
  sqlite: 'SQLite',
};

const RELATIONAL = ['PostgreSQL', 'MySQL', 'SQLite', 'H2', 'SQL Server', 'Oracle'];

/** Collects stack items, stores and services once each, first evidence kept. */
class Collector {
  readonly stack: StackItem[] = [];
  readonly dataStores: Found[] = [];
  readonly externalServices: Found[] = [];
  private readonly seen = new Set<string>();

  add(item: StackItem, kind?: Known['kind']): void {
    const id = `${item.layer}:${item.name}`;
    if (!this.seen.has(id)) {
      this.seen.add(id);
      this.stack.push(item);
    }
    const found: Found = {
      name: item.name,
      evidence: item.evidence,
      ...(item.detail ? { detail: item.detail } : {}),
    };
    if (
      (kind === 'store' || kind === 'cache') &&
      !this.dataStores.some((s) => s.name === item.name)
    )
      this.dataStores.push(found);
    if (kind === 'service' && !this.externalServices.some((s) => s.name === item.name))
      this.externalServices.push(found);
  }

  known(known: Known, evidence: string, detail?: string, version?: string): void {
    const client = known.kind === 'store' || known.kind === 'cache' || known.kind === 'service';
    const item: StackItem = { name: known.name, layer: LAYER[known.kind], evidence };
    if (detail) item.detail = detail;
    if (version && !client) item.version = version;
    this.add(item, known.kind);
  }
}

/**
 * The languages of the files, the most used first (ties by name).
 *
 * @example
 * languagesOf([{ path: 'main.go', content: '' }]); // [{ name: 'Go', count: 1, first: 'main.go' }]
 */
export function languagesOf(files: readonly File[]): Language[] {
  const counts = new Map<string, { count: number; first: string }>();
  for (const file of files) {
    const language = languageOf(file.path);
    if (!language) continue;
    const entry = counts.get(language);
    if (entry) entry.count++;
    else counts.set(language, { count: 1, first: file.path });
  }
  return [...counts]
    .map(([name, { count, first }]) => ({ name, count, first }))
    .sort((a, b) => b.count - a.count || (a.name < b.name ? -1 : 1));
}

/**
 * Reads the stack, stores and services of a digest, in the order the evidence is trusted:
 * languages, the manifests' runtimes and dependencies, then the source's imports and text.
 *
 * @example
 * readStack({ files, sources, manifests, languages: languagesOf(files), known, tests }).stack[0]?.layer; // 'Language'
 */
export function readStack(from: StackSource): StackRead {
  const out = new Collector();
  addLanguages(out, from);
  addDeclared(out, from.manifests);
  addImported(out, from);
  const goTest = from.tests.find((t) => t.endsWith('_test.go'));
  if (goTest) out.add({ name: 'go test', layer: 'Testing', evidence: goTest });
  addUnnamedRelational(out, from.files);
  return {
    stack: inLayerOrder(out.stack),
    dataStores: out.dataStores,
    externalServices: out.externalServices,
  };
}

/** Each language, its evidence the manifest that claims it, a tsconfig, or its first file. */
function addLanguages(out: Collector, { languages, manifests, files }: StackSource): void {
  for (const language of languages) {
    const claim = manifests.find((m) => m.language?.name === language.name);
    const tsconfig =
      language.name === 'TypeScript'
        ? files.find((f) => /(?:^|\/)tsconfig\.json$/.test(f.path))
        : undefined;
    const item: StackItem = {
      name: language.name,
      layer: 'Language',
      evidence: claim?.path ?? tsconfig?.path ?? language.first,
    };
    if (claim?.language?.version) item.version = claim.language.version;
    out.add(item);
  }
  for (const manifest of manifests) {
    if (manifest.language && languages.length === 0)
      out.add({
        name: manifest.language.name,
        layer: 'Language',
        evidence: manifest.path,
        ...(manifest.language.version ? { version: manifest.language.version } : {}),
      });
    if (manifest.runtime)
      out.add({
        name: manifest.runtime.name,
        layer: 'Runtime',
        evidence: manifest.path,
        ...(manifest.runtime.version ? { version: manifest.runtime.version } : {}),
      });
  }
}

/** The known packages the manifests depend on, and the stores a Cargo feature names. */
function addDeclared(out: Collector, manifests: readonly ManifestRead[]): void {
  // Dependencies the program runs with come before the ones it is built and tested with.
  for (const dev of [false, true])
    for (const manifest of manifests)
      for (const dependency of manifest.dependencies.filter((d) => d.dev === dev)) {
        const pinned = [dependency.name, dependency.version].filter(Boolean).join(' ');
        for (const k of knownPackage(dependency.ecosystem, dependency.name)) {
          // A driver's or an SDK's version is not the store's or the service's: it goes in the
          // detail. A framework's package is the framework: its version is the item's.
          const client = k.kind === 'store' || k.kind === 'cache' || k.kind === 'service';
          const same =
            normalisePackage(dependency.ecosystem, k.name) ===
            normalisePackage(dependency.ecosystem, dependency.name);
          out.known(
            k,
            manifest.path,
            client ? pinned : same ? undefined : dependency.name,
            dependency.version,
          );
        }
        for (const feature of dependency.features ?? [])
          if (dependency.ecosystem === 'cargo' && FEATURE_STORES[feature])
            out.known(
              { name: FEATURE_STORES[feature]!, kind: 'store' },
              manifest.path,
              `${dependency.name} feature ${feature}`,
            );
      }
}

/** What the source shows by itself: the packages it imports, then URLs and images in its text. */
function addImported(out: Collector, { known, sources }: StackSource): void {
  for (const [path, items] of known)
    for (const k of items)
      if (k.kind !== 'testing' && k.kind !== 'build') out.known(k, path, 'imported in the source');
  for (const file of sources)
    for (const { known: k, detail } of evidenceInText(file.path, file.content))
      out.known(k, file.path, detail);
}

/** SQL alone does not say which engine runs it: name the kind of store, not a product. */
function addUnnamedRelational(out: Collector, files: readonly File[]): void {
  const ddl = files.find((f) => f.path.endsWith('.sql') && /\bcreate\s+table\b/i.test(f.content));
  if (ddl && !out.dataStores.some((s) => RELATIONAL.includes(s.name)))
    out.dataStores.push({
      name: 'A relational database (engine not named)',
      evidence: ddl.path,
      detail: 'CREATE TABLE statements',
    });
}

/** The stack by layer, in the order found within one. */
function inLayerOrder(stack: readonly StackItem[]): StackItem[] {
  const layerIndex = (item: StackItem) => LAYER_ORDER.indexOf(item.layer);
  return stack
    .map((item, index) => ({ item, index }))
    .sort((a, b) => layerIndex(a.item) - layerIndex(b.item) || a.index - b.index)
    .map(({ item }) => item);
}
