import { readFileSync } from 'node:fs';
import { defineConfig } from 'tsdown';

// The published builder: dist/index.js (ESM, Node only) and its declarations. It imports
// Node's built-ins and the packages it declares as dependencies, nothing else: the rules it
// shares with the server (`@pgs/contract/repository`, a private workspace package) are
// bundled into it, declarations included, and the list below fails the build when they
// import a package this manifest does not declare (add it to `dependencies` then, and to
// @pgs/cli's, which bundles this package). `eager` because the contract's source lies outside
// tsconfig.build.json; its `types: []` keeps @types/node out of the declaration build, which
// it made twice as slow: the public declarations name no Node type (the packed test compiles
// a consumer of them with `types: []`), and `tsc -p tsconfig.json` at the root checks the
// source with Node's types.
const { dependencies = {} } = JSON.parse(readFileSync('package.json', 'utf8')) as {
  dependencies?: Record<string, string>;
};

export default defineConfig({
  entry: { index: 'src/index.ts' },
  format: 'esm',
  platform: 'node',
  target: 'es2022',
  outDir: 'dist',
  clean: true,
  fixedExtension: false,
  dts: { eager: true },
  tsconfig: 'tsconfig.build.json',
  deps: {
    alwaysBundle: [/^@pgs\/contract(\/|$)/],
    onlyImport: Object.keys(dependencies),
    onlyBundle: [],
    dts: { alwaysBundle: [/^@pgs\/contract(\/|$)/] },
  },
  checks: { bundlerTimings: false },
  exports: false,
  failOnWarn: true,
});
