import { defineConfig } from 'tsdown';

// The published SDK: dist/index.js (ESM) and its declarations. `platform: 'neutral'` and
// `onlyImport: []` make the build fail if the runtime code ever imports a module (a `node:`
// built-in or a package), `onlyBundle: []` if it inlines a package's code: the SDK must
// stay dependency-free for browsers, Deno and Bun. The contract's types are inlined into
// the declarations, so the SDK stands alone without @pgs/contract; `eager` because that
// source lies outside tsconfig.build.json, whose `types: []` keeps Node's globals out of
// the SDK's program. The codebase digest builder, which needs Node and packages, is a
// package of its own (@pgs/repository, docs/decisions.md).
export default defineConfig({
  entry: { index: 'src/index.ts' },
  format: 'esm',
  target: 'es2022',
  outDir: 'dist',
  clean: true,
  fixedExtension: false,
  platform: 'neutral',
  dts: { eager: true },
  tsconfig: 'tsconfig.build.json',
  deps: { onlyImport: [], onlyBundle: [], dts: { alwaysBundle: ['@pgs/contract'] } },
  checks: { bundlerTimings: false },
  exports: false,
  failOnWarn: true,
});
