/**
 * The digest a conformance check takes, checked and redacted like a grounded project's
 * (prepareRepository), and its citations too: a citation's path obeys the rules of a file's,
 * and its line is scanned for secrets, so what the report quotes was redacted server-side
 * whatever the client did.
 */
import type { RepositoryCitation, RepositoryDigest } from '@pgs/contract';
import { pathProblem, redactSecrets, secretFileKind } from '@pgs/contract/repository';
import { DomainError } from '../errors.ts';
import { type PreparedRepository, prepareRepository } from '../projects/context.ts';
import { MAX_TEXT } from './report.ts';

/** A digest ready for a check: its files prepared, its citations checked and redacted. */
export interface CheckedDigest {
  repository: PreparedRepository;
  citations: RepositoryCitation[];
}

/** At most this many fields are named in one refusal. */
const MAX_NAMED_FIELDS = 20;

/**
 * The digest checked and redacted; DomainError VALIDATION_ERROR naming each field (and the
 * file's path) otherwise, 413 when its files pass the total size. Never quotes a file's text.
 *
 * @example
 * const { repository, citations } = await checkedDigest(body.context.repository);
 */
export async function checkedDigest(digest: RepositoryDigest): Promise<CheckedDigest> {
  const prepared = await prepareRepository(digest);
  if (prepared.outcome === 'refused') {
    const { status, message, invalidFields, maxBytes, paths = {} } = prepared.refusal;
    const field = Object.keys(invalidFields)[0];
    const path = field === undefined ? undefined : paths[field];
    throw new DomainError(
      'VALIDATION_ERROR',
      message,
      {
        invalid_fields: invalidFields,
        ...(path === undefined ? {} : { field, path, paths }),
        ...(maxBytes === undefined ? {} : { max_bytes: maxBytes }),
      },
      { tooLarge: status === 413 },
    );
  }
  const given = digest.citations ?? [];
  const invalid: Record<string, string> = {};
  for (const [i, citation] of given.entries()) {
    if (Object.keys(invalid).length >= MAX_NAMED_FIELDS) break;
    const problem = pathProblem(citation.path);
    const kind = problem === undefined ? secretFileKind(citation.path) : undefined;
    if (problem !== undefined || kind !== undefined) {
      invalid[`context.repository.citations[${i}].path`] =
        problem ?? `is ${kind}: files that hold secrets are refused`;
    }
  }
  const first = Object.keys(invalid)[0];
  if (first !== undefined) {
    throw new DomainError(
      'VALIDATION_ERROR',
      `The repository digest is not valid: ${first} ${invalid[first]}.`,
      { invalid_fields: invalid, field: first },
    );
  }
  // One scan for all the cited lines: each is one line, so the lines come back in order.
  const lines = given.map((c) => c.text.replace(/[\r\n]+/g, ' ').slice(0, MAX_TEXT));
  const redacted = lines.length === 0 ? [] : await redactAll(lines);
  const citations = given.map((citation, i) => ({ ...citation, text: redacted[i] ?? '' }));
  return { repository: prepared.repository, citations };
}

async function redactAll(lines: string[]): Promise<string[]> {
  const joined = (await redactSecrets('citations.txt', lines.join('\n'))).content.split('\n');
  if (joined.length === lines.length) return joined;
  // A rule that spans lines changed their count: redact each line alone.
  return Promise.all(lines.map(async (line) => (await redactSecrets('c.txt', line)).content));
}

const isString = (value: unknown): value is string => typeof value === 'string';
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The shape of a digest sent where no route schema checked it (an MCP tool's argument): the
 * contract's `RepositoryDigest`, field by field; DomainError VALIDATION_ERROR naming the
 * first field that breaks it. The rules of content (paths, secrets, sizes) follow in
 * {@link checkedDigest}.
 *
 * @example
 * const repository = digestArgument(args.repository, 'repository');
 */
export function digestArgument(value: unknown, field: string): RepositoryDigest {
  const refuse = (at: string, rule: string): never => {
    throw new DomainError('VALIDATION_ERROR', `${at} ${rule}.`, {
      invalid_fields: { [at]: rule },
      field: at,
    });
  };
  if (!isObject(value)) return refuse(field, 'must be an object { name, files, citations? }');
  const { name, commit, files, citations, ...rest } = value;
  const extra = Object.keys(rest)[0];
  if (extra !== undefined) refuse(`${field}.${extra}`, 'is not a field of a digest');
  if (!isString(name) || name.trim() === '' || name.length > 200) {
    refuse(`${field}.name`, 'must be a string of 1 to 200 characters');
  }
  if (commit !== undefined && !(isString(commit) && /^[0-9a-f]{7,64}$/.test(commit))) {
    refuse(`${field}.commit`, 'must be a commit hash (7 to 64 hexadecimal digits)');
  }
  if (!Array.isArray(files) || files.length === 0) {
    return refuse(`${field}.files`, 'must be an array of at least one { path, content }');
  }
  for (const [i, file] of files.entries()) {
    if (!isObject(file) || !isString(file.path) || !isString(file.content)) {
      refuse(`${field}.files[${i}]`, 'must be { path, content }, both strings');
    }
  }
  if (citations !== undefined) {
    if (!Array.isArray(citations) || citations.length > 2_000) {
      refuse(`${field}.citations`, 'must be an array of at most 2000 citations');
    }
    for (const [i, c] of (citations as unknown[]).entries()) {
      const ok =
        isObject(c) &&
        isString(c.id) &&
        /^(FR-\d{1,4}(\.\d{1,4})?|NFR-\d{1,4}|T-\d{1,4})$/.test(c.id) &&
        isString(c.path) &&
        Number.isSafeInteger(c.line) &&
        (c.line as number) >= 1 &&
        isString(c.text) &&
        c.text.length <= 200;
      if (!ok)
        refuse(`${field}.citations[${i}]`, 'must be { id: FR-n[.m]|NFR-n|T-n, path, line, text }');
    }
  }
  return value as unknown as RepositoryDigest;
}
