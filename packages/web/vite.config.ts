// `npm run build -w @pgs/web` (vite build) reads this; `npm start` builds through
// scripts/ensure-built.ts with the same configuration.
import { defineConfig } from 'vite';
import { consoleViteConfig } from './scripts/vite-config.ts';

export default defineConfig(consoleViteConfig());
