/**
 * The document requests of a project type as the workflow asks for them, made from the
 * contract's catalogue (the server's plan adds only the order it writes them in and what each
 * builds on, which the engine's documents do not depend on). For the engine's own tests.
 */
import {
  DOCUMENT_KINDS,
  type DocumentKindName,
  documentKindsOf,
  GROUNDED_ARCHITECTURE_SECTIONS,
  type ProjectType,
} from '@pgs/contract';
import type { DocumentRequest } from '@pgs/contract/generation';

/**
 * The request for one kind: its title, file, stage and sections (a grounded architecture
 * opens with the current system).
 *
 * @example
 * documentRequest('user-stories').sections; // ['Epics', 'Stories', 'Edge cases']
 */
export function documentRequest(kind: DocumentKindName, grounded = false): DocumentRequest {
  const info = DOCUMENT_KINDS[kind];
  return {
    kind,
    title: info.title,
    filename: info.filename,
    stage: info.stage,
    sections: grounded && kind === 'architecture' ? GROUNDED_ARCHITECTURE_SECTIONS : info.sections,
  };
}

/**
 * Every document request of a project type, in the catalogue's order.
 *
 * @example
 * documentRequests('mcp').map((d) => d.kind).includes('mcp-tools'); // true
 */
export function documentRequests(type: ProjectType, grounded = false): DocumentRequest[] {
  return documentKindsOf(type, { grounded }).map((kind) => documentRequest(kind, grounded));
}
