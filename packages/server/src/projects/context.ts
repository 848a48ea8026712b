import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { RepositoryDigest } from '@pgs/contract';
import {
  looksBinary,
  pathProblem,
  REPOSITORY_LIMITS,
  redactSecrets,
  samePathKey,
  secretContentKind,
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
  /** Field → the path of the file it belongs to, for every named field of one file. */
  paths?: Record<string, string>;
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

/** The longest part of a path a message repeats (docs/security.md: at most 200 characters). */
const MAX_SHOWN_PATH = 200;

/**
 * A path as a message quotes it: JSON-quoted (control characters escaped), characters that
 * draw nothing or turn text around (zero-width, bidi, BOM) shown as `\uXXXX` so the user
 * sees why two paths differ, and cut at {@link MAX_SHOWN_PATH} characters.
 *
 * @example
 * shownPath('.e\u200bnv'); // '".e\\u200bnv"'
 */
export function shownPath(path: string): string {
  const cut = path.length > MAX_SHOWN_PATH ? `${path.slice(0, MAX_SHOWN_PATH)}…` : path;
  return JSON.stringify(cut).replace(
    /[\p{Cf}\p{Zl}\p{Zp}]/gu,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

const SECRET_REFUSED = 'files that hold secrets are refused; `pgs generate --repo` skips them';

/** The problems of a digest, each keyed by its field, and the path each file field belongs to. */
interface Problems {
  rules: Record<string, string>;
  paths: Record<string, string>;
}

/**
 * The file-by-file problems of a digest, each keyed by its field. Paths and sizes only: a
 * problem is never described with the file's text, which may hold what it is refused for.
 * Paths are compared in their normal form and without case, as the file systems that
 * check out a repository do: two that name one file there are one path twice.
 */
function fileProblems(files: RepositoryDigest['files']): Problems {
  const rules: Record<string, string> = {};
  const paths: Record<string, string> = {};
  let named = 0;
  const add = (field: string, rule: string, path?: string) => {
    if (named < MAX_NAMED_FIELDS && rules[field] === undefined) {
      rules[field] = rule;
      if (path !== undefined) paths[field] = path;
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
      add(`${at}.path`, problem, file.path);
      continue;
    }
    const kind = secretFileKind(file.path);
    if (kind !== undefined) {
      add(`${at}.path`, `is ${kind}: ${SECRET_REFUSED}`, file.path);
      continue;
    }
    const key = samePathKey(file.path);
    const first = seen.get(key);
    if (first === undefined) seen.set(key, i);
    else if (files[first]!.path === file.path) {
      add(`${at}.path`, `is the same path as ${FIELD}[${first}].path`, file.path);
    } else {
      const other = shownPath(files[first]!.path);
      add(
        `${at}.path`,
        `is the same path as ${FIELD}[${first}].path ${other} once case and Unicode form are ignored`,
        file.path,
      );
    }
    const content = secretContentKind(file.content);
    if (content !== undefined) {
      add(`${at}.content`, `is ${content}: ${SECRET_REFUSED}`, file.path);
      continue;
    }
    const bytes = utf8Bytes(file.content);
    if (bytes > REPOSITORY_LIMITS.maxFileBytes) {
      add(
        `${at}.content`,
        `must be at most ${REPOSITORY_LIMITS.maxFileBytes} bytes of UTF-8 text (it is ${bytes})`,
        file.path,
      );
    } else if (looksBinary(file.content)) {
      add(`${at}.content`, 'must be text, not binary content', file.path);
    }
  }
  return { rules, paths };
}

/** `field "path" rule`, or `field of "path" rule` for a file's content; the field alone without a path. */
function described(field: string, rule: string, path: string | undefined): string {
  if (path === undefined) return `${field} ${rule}`;
  return field.endsWith('.content')
    ? `${field} of ${shownPath(path)} ${rule}`
    : `${field} ${shownPath(path)} ${rule}`;
}

/**
 * Checks a digest against the rules of `@pgs/contract/repository` (the digest builder
 * applies the same ones, so a digest it made passes), then replaces the secrets in each
 * file. Refused: a path that is not relative and normalised (in any encoding or look-alike
 * form), a file that holds secrets by its name or, for a service-account key, its content,
 * the same path twice (ignoring case and Unicode form), binary content, a file over
 * `maxFileBytes` (400, naming the field and the file's path); the files over
 * `maxTotalBytes` together (413).
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
  const { rules, paths } = fileProblems(repository.files);
  const fields = Object.keys(rules);
  if (fields.length > 0) {
    const first = fields[0] as string;
    const more = fields.length > 1 ? ` (and ${fields.length - 1} more in details)` : '';
    return {
      outcome: 'refused',
      refusal: {
        status: 400,
        message: `The repository digest is not valid: ${described(first, rules[first]!, paths[first])}${more}.`,
        invalidFields: rules,
        paths,
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
