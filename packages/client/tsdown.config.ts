import { defineConfig } from 'tsdown';

// The published SDK: one ESM file and one declaration file. `platform: 'neutral'` and
// `onlyImport: []` make the build fail if the runtime code ever imports a module (a
// `node:` built-in or a package), `onlyBundle: []` if it inlines a package's code: the
// SDK must stay dependency-free for browsers, Deno and Bun. The contract's types are
// inlined into the declarations, so the SDK stands alone without @pgs/contract; `eager`
// because that source lies outside tsconfig.build.json, whose `types: []` keeps Node's
// globals out of the SDK's program.
export default defineConfig({
  entry: { index: 'src/index.ts' },
  format: 'esm',
  platform: 'neutral',
  target: 'es2022',
  outDir: 'dist',
  clean: true,
  fixedExtension: false,
  dts: { eager: true },
  tsconfig: 'tsconfig.build.json',
  deps: { onlyImport: [], onlyBundle: [], dts: { alwaysBundle: ['@pgs/contract'] } },
  checks: { bundlerTimings: false },
  exports: false,
  failOnWarn: true,
});
