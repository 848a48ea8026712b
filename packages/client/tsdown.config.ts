import { defineConfig } from 'tsdown';

// The published SDK: two ESM files and their declaration files.
//
// dist/index.js, the SDK: `platform: 'neutral'` and `onlyImport: []` make the build fail if
// the runtime code ever imports a module (a `node:` built-in or a package), `onlyBundle: []`
// if it inlines a package's code: the SDK must stay dependency-free for browsers, Deno and
// Bun. The contract's types are inlined into the declarations, so the SDK stands alone
// without @pgs/contract; `eager` because that source lies outside tsconfig.build.json,
// whose `types: []` keeps Node's globals out of the SDK's program.
//
// dist/repository.js, `@pgs/client/repository` (Node only): the digest builder. It may
// import Node's built-ins and the three packages it declares as dependencies (`ignore`,
// secretlint's core and recommended rules); the rules it shares with the server
// (`@pgs/contract/repository`, a private workspace package) are bundled into it. Its own
// tsconfig has Node's types.
const common = {
  format: 'esm',
  target: 'es2022',
  outDir: 'dist',
  // tsdown empties dist/ once, before either build starts.
  clean: true,
  fixedExtension: false,
  checks: { bundlerTimings: false },
  exports: false,
  failOnWarn: true,
} as const;

export default defineConfig([
  {
    ...common,
    entry: { index: 'src/index.ts' },
    platform: 'neutral',
    dts: { eager: true },
    tsconfig: 'tsconfig.build.json',
    deps: { onlyImport: [], onlyBundle: [], dts: { alwaysBundle: ['@pgs/contract'] } },
  },
  {
    ...common,
    entry: { repository: 'src/repository/index.ts' },
    platform: 'node',
    dts: { eager: true },
    tsconfig: 'tsconfig.build.repository.json',
    deps: {
      alwaysBundle: [/^@pgs\/contract(\/|$)/],
      onlyImport: ['ignore', '@secretlint/core', '@secretlint/secretlint-rule-preset-recommend'],
      onlyBundle: [],
      dts: { alwaysBundle: [/^@pgs\/contract(\/|$)/] },
    },
  },
]);
