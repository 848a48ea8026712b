import { readFileSync } from 'node:fs';
import { defineConfig } from 'tsdown';

// The published CLI: dist/bin.js, an ESM file that keeps the `#!/usr/bin/env node` line of
// src/bin.ts, and dist/repository.js, the codebase digest builder of --repo. The CLI
// imports only Node's built-ins and the packages its manifest declares: @pgs/client
// (installed beside it), gpt-tokenizer (o200k counts of --repo's files; its tables are
// megabytes that only --repo loads) and what the builder needs (`ignore`, secretlint).
// The builder itself (@pgs/repository, with the contract's rules it bundles) is bundled,
// so that installing the CLI from its tarball needs no third PGS tarball
// (docs/decisions.md); it stays a chunk of its own, loaded only by --repo. The MCP SDK
// (`pgs mcp`) and what it needs are bundled too, and the lists below fail the build when
// the bundle would take in anything else, or import a package the manifest does not declare.
const { dependencies = {} } = JSON.parse(readFileSync('package.json', 'utf8')) as {
  dependencies?: Record<string, string>;
};

export default defineConfig({
  entry: { bin: 'src/bin.ts' },
  format: 'esm',
  platform: 'node',
  target: 'node20',
  outDir: 'dist',
  clean: true,
  fixedExtension: false,
  dts: false,
  outputOptions: {
    // The builder's chunk by a stable name, for the packed test and a reader of dist/.
    chunkFileNames: (chunk) =>
      /[\\/]repository[\\/]src[\\/]index\.ts$/.test(chunk.facadeModuleId ?? '')
        ? 'repository.js'
        : '[name]-[hash].js',
  },
  deps: {
    neverBundle: [/^@pgs\/client(\/|$)/, /^gpt-tokenizer(\/|$)/],
    onlyImport: Object.keys(dependencies),
    alwaysBundle: [
      /^@modelcontextprotocol\/sdk(\/|$)/,
      /^@pgs\/repository(\/|$)/,
      /^@pgs\/contract(\/|$)/,
    ],
    onlyBundle: [
      /^@modelcontextprotocol\/sdk(\/|$)/,
      'zod',
      /^zod\//,
      'ajv',
      /^ajv\//,
      'ajv-formats',
      /^ajv-formats\//,
      'fast-deep-equal',
      'json-schema-traverse',
      'fast-uri',
    ],
  },
  checks: { bundlerTimings: false },
  exports: false,
  failOnWarn: true,
});
