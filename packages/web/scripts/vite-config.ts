import path from 'node:path';
import type { InlineConfig } from 'vite';

/** The web package's directory (this file sits in its `scripts/`). */
export const WEB_DIR = path.resolve(import.meta.dirname, '..');

/**
 * Vite's configuration of the console, shared by `vite build` (through `vite.config.ts`)
 * and `ensureBuilt()` (which passes it inline, so no config file is bundled at start).
 *
 * @example
 * await build({ ...consoleViteConfig(outDir), configFile: false });
 */
export function consoleViteConfig(outDir = path.join(WEB_DIR, 'dist')): InlineConfig {
  return {
    root: WEB_DIR,
    base: '/',
    logLevel: 'warn',
    // Vite 8 transforms TSX with oxc: the automatic runtime imports Preact's jsx-runtime,
    // so no plugin (and no `h` import in every file) is needed.
    oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
    build: {
      outDir,
      emptyOutDir: true,
      target: 'es2022',
      // The polyfill is an inline-free module, but every browser the console supports
      // (ES2022, `AbortSignal.any`) already has modulepreload: no need to ship it.
      modulePreload: { polyfill: false },
      assetsInlineLimit: 0,
      sourcemap: false,
      reportCompressedSize: false,
    },
  };
}
