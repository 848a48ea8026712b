import { defineConfig } from 'tsdown';

// The published CLI: one ESM file, dist/bin.js, that keeps the `#!/usr/bin/env node` line
// of src/bin.ts. It imports only Node's built-ins, @pgs/client (installed beside it, with
// its /repository entry for --repo) and gpt-tokenizer (o200k counts of --repo's files; a
// dependency, not bundled: its tables are megabytes that only --repo loads). The MCP SDK
// (`pgs mcp`) and what it needs are bundled, and the list below fails the build when the
// bundle would take in anything else.
export default defineConfig({
  entry: { bin: 'src/bin.ts' },
  format: 'esm',
  platform: 'node',
  target: 'node20',
  outDir: 'dist',
  clean: true,
  fixedExtension: false,
  dts: false,
  deps: {
    neverBundle: [/^@pgs\/client(\/|$)/, /^gpt-tokenizer(\/|$)/],
    onlyImport: ['@pgs/client', 'gpt-tokenizer'],
    alwaysBundle: [/^@modelcontextprotocol\/sdk(\/|$)/],
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
