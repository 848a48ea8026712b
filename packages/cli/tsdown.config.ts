import { defineConfig } from 'tsdown';

// The published CLI: one ESM file, dist/bin.js, that keeps the `#!/usr/bin/env node` line
// of src/bin.ts. It imports only Node's built-ins, @pgs/client and the MCP SDK (`pgs mcp`),
// dependencies installed beside it (never bundled); the build fails if anything else is
// imported.
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
    neverBundle: ['@pgs/client', /^@modelcontextprotocol\/sdk(\/|$)/],
    onlyImport: ['@pgs/client', /^@modelcontextprotocol\/sdk(\/|$)/],
    onlyBundle: [],
  },
  checks: { bundlerTimings: false },
  exports: false,
  failOnWarn: true,
});
