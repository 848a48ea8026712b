import { revisionLifecycle } from './revision-lifecycle.cases.ts';

// PostgreSQL's run of the same suites is revision-lifecycle-postgres.test.ts.
revisionLifecycle('pglite');
