import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import {
  DOCUMENT_RESOURCE_TEMPLATE,
  type DocumentResource,
  documentResource,
  type ProjectStatusResponse,
  parseDocumentUri,
} from '@pgs/contract';
import { ApiError } from '../../errors.ts';
import { UnknownCursorError } from '../../projects/listing.ts';
import { ownedDocument } from '../routes/projects/reads.ts';
import { protocolFailure } from './errors.ts';
import { countAgainst, type McpCall, type McpServices } from './tools.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const unknownCursor = () =>
  new ApiError('VALIDATION_ERROR', 'The cursor is not one this server gave.', {
    details: { invalid_fields: { cursor: 'must be a nextCursor of resources/list' } },
  });

/** Completed projects whose documents one page of `resources/list` lists. */
export const PROJECTS_PER_PAGE = 10;

/**
 * The documents as resources: the template `pgs://projects/{projectId}/documents/{filename}`,
 * a listing of completed projects' documents (newest project first, {@link PROJECTS_PER_PAGE}
 * projects a page, the cursor being the last project listed), and reads. A listing counts
 * against the key's `list` limit and a read against `downloads`, as their REST operations.
 *
 * @example
 * const { contents } = await new McpResources(services).read('pgs://projects/<id>/documents/README.md', call);
 */
export class McpResources {
  readonly #services: McpServices;

  constructor(services: McpServices) {
    this.#services = services;
  }

  templates() {
    return { resourceTemplates: [DOCUMENT_RESOURCE_TEMPLATE] };
  }

  async list(cursor: string | undefined, call: McpCall) {
    try {
      await countAgainst(this.#services, 'list', call.principal);
      if (cursor !== undefined && !UUID.test(cursor)) throw unknownCursor();
      const page = await this.#services.projectReads
        .list(call.principal, {
          status: 'completed',
          limit: PROJECTS_PER_PAGE,
          startingAfter: cursor,
        })
        .catch((error: unknown) => {
          throw error instanceof UnknownCursorError ? unknownCursor() : error;
        });
      const resources: DocumentResource[] = [];
      for (const summary of page.data) {
        const view = await this.#services.statusReader.read(call.principal, summary.projectId);
        // Deleted since the page was read: nothing to list.
        if (view?.status !== 'completed') continue;
        const { data } = JSON.parse(view.body.toString('utf8')) as ProjectStatusResponse;
        if (data.status !== 'completed') continue;
        for (const doc of data.project.documents) {
          resources.push(documentResource(data.projectId, data.project.name, doc.filename));
        }
      }
      const last = page.data.at(-1);
      return {
        resources,
        ...(page.has_more && last !== undefined ? { nextCursor: last.projectId } : {}),
      };
    } catch (error) {
      throw protocolFailure(error, call.log, call.requestId);
    }
  }

  async read(uri: string, call: McpCall) {
    try {
      const named = parseDocumentUri(uri);
      if (named === undefined) {
        throw new McpError(
          ErrorCode.InvalidParams,
          `Not a PGS document: resources are ${DOCUMENT_RESOURCE_TEMPLATE.uriTemplate}.`,
          {
            code: 'VALIDATION_ERROR',
            details: {
              invalid_fields: { uri: `must match ${DOCUMENT_RESOURCE_TEMPLATE.uriTemplate}` },
            },
          },
        );
      }
      await countAgainst(this.#services, 'downloads', call.principal);
      const { projectId, filename } = named;
      const { content } = await ownedDocument(
        this.#services.projectReads,
        call.principal,
        projectId,
        filename,
      );
      return { contents: [{ uri, mimeType: 'text/markdown', text: content }] };
    } catch (error) {
      throw protocolFailure(error, call.log, call.requestId);
    }
  }
}
