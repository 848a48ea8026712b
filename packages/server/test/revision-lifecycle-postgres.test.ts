import { describe, it } from 'vitest';
import { postgresUnavailable } from './helpers/services.ts';
import { revisionLifecycle } from './revision-lifecycle.cases.ts';

// The PGlite run is revision-lifecycle.test.ts; under CI=true PostgreSQL is required, and
// postgresUnavailable() throws rather than skip.
const unavailable = await postgresUnavailable();
if (unavailable === undefined) revisionLifecycle('postgres');
else describe.skip(`revision lifecycle on PostgreSQL: ${unavailable}`, () => it('is skipped'));
