import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { RepositoryDigest } from '@pgs/contract';
import {
  looksBinary,
  pathProblem,
  REPOSITORY_LIMITS,
  redactSecrets,
  secretFileKind,
  utf8Bytes,
} from '@pgs/contract/repository';
import type { StoredContextFile } from '../storage/sql/contexts.ts';

/** A digest checked and redacted, as it is stored (`project_contexts`). */
export interface PreparedRepository {
  name: string;
  commit: string | null;
  /** In the order sent; `content` redacted, `bytes` its UTF-8 size. */
  files: StoredContextFile[];
  /** The files' `bytes` added up. */
  totalBytes: number;
  /** Secrets replaced, all files together (see {@link prepareRepository}). */
  redactions: number;
}

/** Why a digest is refused: what the API answers as VALIDATION_ERROR (400 or 413). */
export interface RepositoryRefusal {
  status: 400 | 413;
  message: string;
  /** Field (`context.repository.files[3].path`) → rule; never a file's content. */
  invalidFields: Record<string, string>;
  /** The limit passed, for a 413. */
  maxBytes?: number;
}

export type PrepareOutcome =
  | { outcome: 'prepared'; repository: PreparedRepository }
  | { outcome: 'refused'; refusal: RepositoryRefusal };

const FIELD = 'context.repository.files';
/** At most this many fields are named, so a digest full of problems does not make a huge answer. */
const MAX_NAMED_FIELDS = 20;
/** A marker the digest builder's own pass left (`[redacted:github-token]`). */
const BUILDER_MARKER = /\[redacted:[\w./@-]+\]/g;

/**
 * The file-by-file problems of a digest, each keyed by its field. Paths and sizes only: a
 * problem is never described with the file's text, which may hold what it is refused for.
 */
function fileProblems(files: RepositoryDigest['files']): Record<string, string> {
  const problems: Record<string, string> = {};
  let named = 0;
  const add = (field: string, rule: string) => {
    if (named < MAX_NAMED_FIELDS && problems[field] === undefined) {
      problems[field] = rule;
      named++;
    }
  };
  if (files.length > REPOSITORY_LIMITS.maxFiles) {
    add(FIELD, `must hold at most ${REPOSITORY_LIMITS.maxFiles} files`);
  }
  const seen = new Map<string, number>();
  for (const [i, file] of files.entries()) {
    const at = `${FIELD}[${i}]`;
    const problem = pathProblem(file.path);
    if (problem !== undefined) {
      add(`${at}.path`, problem);
      continue;
    }
    const kind = secretFileKind(file.path);
    if (kind !== undefined) {
      add(
        `${at}.path`,
        `is ${kind}: files that hold secrets are refused; \`pgs generate --repo\` skips them`,
      );
      continue;
    }
    const first = seen.get(file.path);
    if (first !== undefined) add(`${at}.path`, `is the same path as ${FIELD}[${first}].path`);
    else seen.set(file.path, i);
    const bytes = utf8Bytes(file.content);
    if (bytes > REPOSITORY_LIMITS.maxFileBytes) {
      add(
        `${at}.content`,
        `must be at most ${REPOSITORY_LIMITS.maxFileBytes} bytes of UTF-8 text (it is ${bytes})`,
      );
    } else if (looksBinary(file.content)) {
      add(`${at}.content`, 'must be text, not binary content');
    }
  }
  return problems;
}

/**
 * Checks a digest against the rules of `@pgs/contract/repository` (the digest builder
 * applies the same ones, so a digest it made passes), then replaces the secrets in each
 * file. Refused: a path that is not relative and normalised, a file that holds secrets by
 * its nature, the same path twice, binary content, a file over `maxFileBytes` (400); the
 * files over `maxTotalBytes` together (413).
 *
 * `redactions` counts the secrets replaced here and the markers the builder's own pass
 * left (this pass finds nothing in a digest the builder made): the number of secrets kept
 * out of storage, whichever side replaced them.
 *
 * @example
 * const prepared = await prepareRepository(request.body.context.repository);
 * if (prepared.outcome === 'refused') throw refusedContext(prepared.refusal);
 */
export async function prepareRepository(repository: RepositoryDigest): Promise<PrepareOutcome> {
  const problems = fileProblems(repository.files);
  const fields = Object.keys(problems);
  if (fields.length > 0) {
    const first = fields[0] as string;
    const more = fields.length > 1 ? ` (and ${fields.length - 1} more in details)` : '';
    return {
      outcome: 'refused',
      refusal: {
        status: 400,
        message: `The repository digest is not valid: ${first} ${problems[first]}${more}.`,
        invalidFields: problems,
      },
    };
  }
  let received = 0;
  for (const file of repository.files) received += utf8Bytes(file.content);
  if (received > REPOSITORY_LIMITS.maxTotalBytes) {
    const max = REPOSITORY_LIMITS.maxTotalBytes;
    return {
      outcome: 'refused',
      refusal: {
        status: 413,
        message: `The repository digest's files hold ${received} bytes of text; at most ${max} are accepted. Send fewer files (\`pgs generate --repo\` picks them within the limit).`,
        invalidFields: { [FIELD]: `must hold at most ${max} bytes of text in all` },
        maxBytes: max,
      },
    };
  }
  const files: StoredContextFile[] = [];
  let totalBytes = 0;
  let redactions = 0;
  for (const file of repository.files) {
    const builderMarks = file.content.match(BUILDER_MARKER)?.length ?? 0;
    const redacted = await redactSecrets(file.path, file.content);
    const bytes = utf8Bytes(redacted.content);
    const count = builderMarks + redacted.redactions;
    files.push({ path: file.path, content: redacted.content, bytes, redactions: count });
    totalBytes += bytes;
    redactions += count;
    // A megabyte takes about 50 ms of CPU to scan: let other requests (polls) in between files.
    await yieldToLoop();
  }
  return {
    outcome: 'prepared',
    repository: {
      name: repository.name,
      commit: repository.commit ?? null,
      files,
      totalBytes,
      redactions,
    },
  };
}
