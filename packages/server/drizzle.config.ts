import { defineConfig } from 'drizzle-kit';

// `npm run db:generate -w @pgs/server` writes a numbered migration after a schema change.
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/storage/schema.ts',
  out: './src/storage/migrations',
});
