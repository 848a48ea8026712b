import type { ProjectCompleted } from '@pgs/contract';
import { LRUCache } from 'lru-cache';
import { parse as parseYaml } from 'yaml';
import { buildTrace } from './build.ts';
import { checkTrace } from './check.ts';
import type { RequirementStyle } from './scenarios.ts';
import type { Finding, Trace } from './types.ts';

/** The trace as the API serves it: the graph, its coverage and every finding. */
export type ProjectTrace = Pick<Trace, 'nodes' | 'edges' | 'coverage'> & { findings: Finding[] };

/**
 * The trace of a completed project's documents, checked: the graph from the stored markdown,
 * and the findings of every rule (the core features come from the questionnaire).
 *
 * @example
 * const { coverage, findings } = await projectTrace(completed.project);
 */
export async function projectTrace(
  project: Pick<ProjectCompleted['project'], 'documents' | 'questionnaire'>,
  /** IDs removed by revisions (docs/revisions.md): gaps in the numbering on purpose. */
  retired: readonly string[] = [],
  /** The project's stored requirement style; absent (no project), read from the criteria. */
  requirementStyle?: RequirementStyle,
): Promise<ProjectTrace> {
  const trace = buildTrace(
    project.documents.map((doc) => ({ filename: doc.filename, content: doc.content })),
  );
  const features = (project.questionnaire as { coreFeatures?: unknown }).coreFeatures;
  const coreFeatures = Array.isArray(features)
    ? features.filter((f): f is string => typeof f === 'string')
    : [];
  const findings = await checkTrace(trace, {
    coreFeatures,
    parseYaml,
    retired,
    ...(requirementStyle === undefined ? {} : { requirementStyle }),
  });
  return { nodes: trace.nodes, edges: trace.edges, coverage: trace.coverage, findings };
}

/**
 * Serialized traces of completed projects by their status body's ETag (which changes with
 * any document): parsing every document costs tens of milliseconds, and a completed
 * project's documents never change, so each is traced once per process while it is asked for.
 *
 * @example
 * const cache = new TraceCache(); const body = await cache.get(etag, () => projectTrace(project));
 */
export class TraceCache {
  readonly #bodies: LRUCache<string, Promise<string>>;
  constructor(max = 500) {
    this.#bodies = new LRUCache({ max });
  }

  /** The response body (`{"success":true,"data":…}`) for `key`, made once. */
  get(key: string, make: () => Promise<ProjectTrace>): Promise<string> {
    let body = this.#bodies.get(key);
    if (body === undefined) {
      body = make().then((data) => JSON.stringify({ success: true, data }));
      // A failure is not kept: the next request tries again.
      body.catch(() => this.#bodies.delete(key));
      this.#bodies.set(key, body);
    }
    return body;
  }
}
