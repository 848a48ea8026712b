/**
 * The database schema, one file per room under `tables/` (drizzle-kit reads this module:
 * `npm run db:generate -w @pgs/server` writes a numbered migration after a change).
 */
export * from './tables/accounts.ts';
export * from './tables/projects.ts';
export * from './tables/tasks.ts';
export * from './tables/trackers.ts';
export * from './tables/webhooks.ts';
