import type { ProjectContext } from '@pgs/contract';
import { ApiError } from '../../../errors.ts';
import { type PreparedRepository, prepareRepository } from '../../../projects/context.ts';

/**
 * The request's `context`, checked and redacted, ready to store with the project or the
 * revision; undefined without one. A digest that breaks a rule is answered 400 (or 413 for
 * its total size) VALIDATION_ERROR naming each field and its file's path (`details.field`,
 * `details.path` for the one the message names, `details.paths` for all), never quoting a
 * file's text.
 *
 * @example
 * const repository = await preparedContext(request.body.context);
 */
export async function preparedContext(
  context: ProjectContext | undefined,
): Promise<PreparedRepository | undefined> {
  if (context === undefined) return undefined;
  const prepared = await prepareRepository(context.repository);
  if (prepared.outcome === 'prepared') return prepared.repository;
  const { status, message, invalidFields, maxBytes, paths = {} } = prepared.refusal;
  // The field the message names, and its file's path: with hundreds of files, the index
  // alone does not say which one to fix. `paths` does the same for every field named.
  const field = Object.keys(invalidFields)[0];
  const path = field === undefined ? undefined : paths[field];
  throw new ApiError('VALIDATION_ERROR', message, {
    status,
    details: {
      invalid_fields: invalidFields,
      ...(path === undefined ? {} : { field, path, paths }),
      ...(maxBytes === undefined ? {} : { max_bytes: maxBytes }),
    },
  });
}
