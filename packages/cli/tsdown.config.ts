import { defineConfig } from 'tsdown';

// The published CLI: one ESM file, dist/bin.js, that keeps the `#!/usr/bin/env node` line
// of src/bin.ts. It imports only Node's built-ins and @pgs/client (installed beside it). The
// MCP SDK (`pgs mcp`) and what it needs are bundled: the CLI then installs with nothing but
// the SDK's tarball, offline too, and the list below fails the build when the bundle would
// take in anything else.
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
    neverBundle: ['@pgs/client'],
    onlyImport: ['@pgs/client'],
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
