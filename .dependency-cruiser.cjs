/**
 * The direction of imports (the house style guide, restated in docs/architecture.md), checked
 * by dependency-cruiser over product code: packages/<name>/src without tests (`*.test.ts`,
 * test/ folders), whose imports of each other's helpers are not the architecture.
 *
 * `npm run lint:imports` (part of `npm test`) fails on any of them: every rule is an error, and
 * there is no list of exceptions. A rule holds for every file it names.
 */

const SERVER = '^packages/server/src/';
// The composition root wires every room together.
const ROOT = `${SERVER}(main|runtime|app|app-deps|app-services|banner)[.]ts$`;
const TOP_LEVEL = `${SERVER}[^/]+[.]tsx?$`;
const ROOM = `${SERVER}[^/]+/`;
const EDGE = `${SERVER}api/`;
const DOMAIN = `${SERVER}(projects|runs|export|tasks|trackers|conformance)/`;
const SERVICES = `${SERVER}(models|events|credits|queue|accounts|webhooks|limits|metrics)/`;
const STORAGE = `${SERVER}storage/`;
// The database drivers: node-postgres, PGlite, and drizzle's adapters over them (drizzle's
// query builder, used by storage/sql/, is not a driver).
const DATABASE_DRIVER =
  '^node_modules/(pg|@types/pg|@electric-sql/pglite)/|^node_modules/drizzle-orm/(node-postgres|pglite)/';
const AI_SDK = '^node_modules/(ai|@ai-sdk/[^/]+)/';
// The trackers' official SDKs (docs/trackers.md).
const TRACKER_SDK = '^node_modules/(@octokit/[^/]+|@linear/sdk|jira[.]js)/';

/** @type {import('dependency-cruiser').IForbiddenRuleType[]} */
const packages = [
  {
    name: 'contract-imports-nothing-of-ours',
    comment: 'The contract is the root of every package: it imports no other package of ours.',
    severity: 'error',
    from: { path: '^packages/contract/' },
    to: { path: '^packages/', pathNot: '^packages/contract/' },
  },
  {
    name: 'sdk-and-engines-import-only-contract',
    comment:
      'The SDK, the digest builder and the offline engine import only the contract (and themselves).',
    severity: 'error',
    from: { path: '^packages/(client|repository|offline)/' },
    to: { path: '^packages/', pathNot: '^packages/(contract|$1)/' },
  },
  {
    name: 'cli-imports-only-client',
    comment:
      'The CLI talks to the server through the SDK; @pgs/repository (--repo) is the exception decisions.md records.',
    severity: 'error',
    from: { path: '^packages/cli/' },
    to: { path: '^packages/', pathNot: '^packages/(cli|client|repository)/' },
  },
  {
    name: 'web-imports-only-client',
    comment: 'The console talks to the server through the SDK.',
    severity: 'error',
    from: { path: '^packages/web/' },
    to: { path: '^packages/', pathNot: '^packages/(web|client)/' },
  },
  {
    name: 'server-imports-only-contract-and-engine',
    comment: 'The server imports only the contract and the offline engine of our packages.',
    severity: 'error',
    from: { path: '^packages/server/' },
    to: { path: '^packages/', pathNot: '^packages/(server|contract|offline)/' },
  },
  {
    name: 'server-reaches-the-engine-through-models',
    comment:
      'The offline engine is a model like any other: only models/ imports it, so runs and the rest see it through the model interface (models/sdk/offline-model.ts).',
    severity: 'error',
    from: { path: '^packages/server/', pathNot: `${SERVER}models/` },
    to: { path: '^packages/offline/' },
  },
  {
    name: 'only-the-engine-entry',
    comment:
      "The engine's rooms (reading/, documents/, codebase/…) are its own: other packages import its one public entry, src/index.ts.",
    severity: 'error',
    from: { pathNot: '^packages/offline/' },
    to: { path: '^packages/offline/', pathNot: '^packages/offline/src/index[.]ts$' },
  },
  {
    name: 'nothing-imports-the-server',
    comment: 'Nothing outside the server imports it: clients reach it over HTTP.',
    severity: 'error',
    from: { pathNot: '^packages/server/' },
    to: { path: '^packages/server/' },
  },
];

/** @type {import('dependency-cruiser').IForbiddenRuleType[]} */
const server = [
  {
    name: 'every-room-has-a-row',
    comment:
      'A folder of the server that is in none of the rows below (EDGE, DOMAIN, SERVICES, STORAGE) would escape their rules: add it to its row.',
    severity: 'error',
    from: { path: ROOM, pathNot: [EDGE, DOMAIN, SERVICES, STORAGE] },
    to: {},
  },
  {
    name: 'leaves-import-no-room',
    comment:
      'Top-level files other than the composition root (config.ts, errors.ts, database-unavailable.ts, ids.ts, price-table.ts) are leaves every room may read: they import no room.',
    severity: 'error',
    from: { path: TOP_LEVEL, pathNot: ROOT },
    to: { path: [ROOM, ROOT] },
  },
  {
    name: 'nothing-imports-the-composition-root',
    comment:
      'main.ts, runtime.ts, app.ts (with app-deps.ts and app-services.ts) and banner.ts wire the rooms; no room imports them.',
    severity: 'error',
    from: { path: ROOM },
    to: { path: ROOT },
  },
  {
    name: 'domain-does-not-import-api',
    comment: 'projects, runs and export sit below the edge (api).',
    severity: 'error',
    from: { path: DOMAIN },
    to: { path: EDGE },
  },
  {
    name: 'services-do-not-import-up',
    comment:
      'models, events, credits, queue, accounts, webhooks, limits and metrics sit below the domain and the edge.',
    severity: 'error',
    from: { path: SERVICES },
    to: { path: [EDGE, DOMAIN] },
  },
  {
    name: 'storage-imports-no-room',
    comment: 'storage is the bottom room: it imports no other room.',
    severity: 'error',
    from: { path: STORAGE },
    to: { path: [EDGE, DOMAIN, SERVICES] },
  },
  {
    name: 'only-config-reads-the-environment',
    comment:
      "Only config.ts reads the environment: node:process's env here, process.env by Biome's noProcessEnv (biome.json).",
    severity: 'error',
    from: { path: SERVER, pathNot: `${SERVER}config[.]ts$` },
    to: { path: '^(node:)?process$' },
  },
  {
    name: 'api-does-not-import-storage',
    comment:
      'The edge reaches storage only through the services below it (ProjectReads, CreditReads, IdempotencyKeys, WebhookEndpoints, Tasks, the event reads and broadcast), handed to it by app.ts: never the database, nor a type of storage.',
    severity: 'error',
    from: { path: EDGE },
    to: { path: STORAGE },
  },
  {
    name: 'runs-do-not-import-projects',
    comment:
      'projects starts and ends runs; runs end them through the ports of runs/ports.ts (CreationEnds, RevisionEnds), so the two do not import each other.',
    severity: 'error',
    from: { path: `${SERVER}runs/` },
    to: { path: `${SERVER}projects/` },
  },
  {
    name: 'runs-see-storage-through-ports',
    comment:
      'runs see the store only through small interfaces (runs/ports.ts: a run store, an event sink), which projects/run-store.ts implements and runtime.ts wires.',
    severity: 'error',
    from: { path: `${SERVER}runs/` },
    to: { path: STORAGE },
  },
  {
    name: 'only-db-touches-the-database-driver',
    comment:
      'Only storage/db.ts and what it is made of (storage/driver/: LISTEN/NOTIFY, PGlite turns) import pg, PGlite or a drizzle driver.',
    severity: 'error',
    from: { pathNot: [`${SERVER}storage/db[.]ts$`, `${SERVER}storage/driver/`] },
    to: { path: DATABASE_DRIVER },
  },
  {
    name: 'only-tracker-adapters-touch-a-tracker-sdk',
    comment: 'Only trackers/providers/ imports Octokit, @linear/sdk or jira.js.',
    severity: 'error',
    from: { pathNot: `${SERVER}trackers/providers/` },
    to: { path: TRACKER_SDK },
  },
  {
    name: 'only-the-provider-adapter-touches-an-ai-sdk',
    comment:
      'Only the provider adapter, models/sdk/ (the providers, the offline engine as a model, the two ways a model is called, its API errors), imports the AI SDK (ai, @ai-sdk/*), types included.',
    severity: 'error',
    from: { pathNot: `${SERVER}models/sdk/` },
    to: { path: AI_SDK },
  },
];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...packages,
    ...server,
    {
      name: 'no-circular',
      comment: 'No import circle in product code: no module needs, at run time, one that needs it.',
      severity: 'error',
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
    {
      name: 'no-circular-through-types',
      comment: 'No circle either when type-only imports are counted: a type belongs below both.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-unresolvable',
      comment:
        'An import the cruiser cannot resolve would escape every rule above, so it fails instead.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    // Third-party code is a leaf: its own imports are not ours to check, and following them
    // would cost most of the run.
    doNotFollow: { path: '^node_modules/' },
    exclude: { path: ['^packages/[^/]+/(dist|test)/', '[.]test[.]tsx?$'] },
    // Type-only imports count: an arrow the compiler erases is still an arrow a reader follows.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.d.ts', '.json'],
    },
  },
};
