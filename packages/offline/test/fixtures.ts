/**
 * `@pgs/offline/testing`: the engine's benchmark data for the server's tests and the bench
 * scripts, which read the engine's output against it. Data, not code the engine runs.
 *
 * @example
 * import { READING_IDEAS } from '@pgs/offline/testing';
 * READING_IDEAS.length; // 12
 */
export {
  type BenchmarkIdea,
  type ExpectedCapability,
  READING_IDEAS,
} from './reading.ideas.ts';
