/**
 * Small repositories shaped like real ones, for the tests of grounded projects (issue 20):
 * a Node/Express API on PostgreSQL, a Python/FastAPI service and a Go/chi service. Each
 * carries a secret file and a secret in its source, and says what a reader of it should
 * find. Test-only data: the secrets are assembled from parts so that no scanner reading
 * this repository flags them, and none of them is real.
 */

import { EXPRESS_POSTGRES } from './repository-express.ts';
import { PYTHON_FASTAPI } from './repository-fastapi.ts';
import { GO_CHI } from './repository-go.ts';
import type { TestRepository } from './repository-shape.ts';

export { EXPRESS_POSTGRES } from './repository-express.ts';
export { PYTHON_FASTAPI } from './repository-fastapi.ts';
export { GO_CHI } from './repository-go.ts';
export type { RepositoryFiles, TestRepository } from './repository-shape.ts';

/** The three, for tests that run over each. */
export const TEST_REPOSITORIES: readonly TestRepository[] = [
  EXPRESS_POSTGRES,
  PYTHON_FASTAPI,
  GO_CHI,
];

/**
 * A digest as the server takes it (`context.repository`), made the way a careless client
 * would: every file but the ignored ones and the secret files, secrets in source left in.
 */
export function naiveDigest(repository: TestRepository): {
  name: string;
  files: { path: string; content: string }[];
} {
  const skip = new Set([...repository.ignored, ...repository.secretFiles]);
  return {
    name: repository.name,
    files: Object.entries(repository.files)
      .filter(([path]) => !skip.has(path))
      .map(([path, content]) => ({ path, content })),
  };
}
