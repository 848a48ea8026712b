import { extname } from 'node:path';
import { type ConventionsParams, type HouseConventions, NotFoundError } from '@pgs/client';
import type { Command } from '../context.ts';
import { requireString } from '../context.ts';
import { UsageError } from '../errors.ts';
import { API_OPTIONS, expectPositionals, readOptionFile } from './common.ts';

/** The conventions as lines for a person: each member set, the free markdown last. */
export function conventionsLines(conventions: HouseConventions): string[] {
  const { version, createdAt, markdown, stack, sections, ...rest } = conventions;
  const lines = [`House conventions, version ${version} (${createdAt})`];
  const list = (label: string, items: readonly string[] | undefined) => {
    if (items !== undefined && items.length > 0) lines.push(`  ${label}: ${items.join(', ')}`);
  };
  list('Required stack', stack?.required);
  list('Forbidden', stack?.forbidden);
  list('Compliance', rest.compliance);
  if (rest.language !== undefined) lines.push(`  Language: ${rest.language}`);
  if (rest.requirementStyle !== undefined)
    lines.push(`  Requirement style: ${rest.requirementStyle}`);
  if (rest.detail !== undefined) lines.push(`  Detail: ${rest.detail}`);
  list('Naming', rest.naming);
  list(
    'Sections',
    sections?.map((s) => s.title),
  );
  if (markdown !== undefined && markdown.trim() !== '') lines.push('', markdown.trimEnd());
  return lines;
}

/**
 * `pgs conventions get`: the current house conventions of the key's account and mode.
 *
 * @example
 * pgs conventions get --json
 */
export const conventionsGet: Command = {
  name: 'conventions get',
  summary: 'Show the house conventions every new project follows',
  usage: 'pgs conventions get [--version N] [--json]',
  credential: 'api-key',
  help: `Shows the house conventions of the API key's account in the key's mode: the
stack every project uses or avoids, the compliance standards its documents address, the
language they are written in, the requirement style and detail level, naming rules,
extra sections and the team's own rules in markdown (docs/conventions.md).

Options:
  --version N  an earlier version (a project's provenance names the one it used)

Exits 4 (not found) while no conventions are set. With --json, prints the version as
the API returns it, on one line.`,
  options: { ...API_OPTIONS, version: { type: 'string' } },
  async run(ctx) {
    expectPositionals(ctx.positionals, 0, 'conventions get');
    const raw = ctx.values.version;
    let version: number | undefined;
    if (typeof raw === 'string') {
      version = Number(raw);
      if (!Number.isInteger(version) || version < 1)
        throw new UsageError('--version must be a whole number from 1', 'pgs conventions get');
    }
    const options = { signal: ctx.io.signal };
    const conventions =
      version === undefined
        ? await ctx.client().conventions.get(options)
        : await ctx.client().conventions.version(version, options);
    if (ctx.json) {
      ctx.print(JSON.stringify(conventions));
      return;
    }
    for (const line of conventionsLines(conventions)) ctx.print(line);
  },
};

/** A markdown file: only `--file`'s extension says whether the current version is needed. */
const isMarkdownFile = (path: string) => extname(path).toLowerCase() !== '.json';

/**
 * The body `--file` holds: a `.json` file is the structured body as the API takes it; any
 * other file (`.md`) is the team's rules in markdown, put into the `current` version's
 * members (a PUT replaces the whole version, so the stack, compliance… must be sent again).
 */
export function conventionsBody(
  path: string,
  text: string,
  current?: HouseConventions,
): ConventionsParams {
  if (isMarkdownFile(path)) {
    const { version: _version, createdAt: _createdAt, ...members } = current ?? {};
    return { ...members, markdown: text };
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    throw new UsageError(
      `${path} is not valid JSON: ${(error as Error).message}`,
      'pgs conventions set',
    );
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    throw new UsageError(`${path} must hold one JSON object`, 'pgs conventions set');
  return body as ConventionsParams;
}

/**
 * `pgs conventions set --file conventions.md|conventions.json`: writes a new version.
 *
 * @example
 * pgs conventions set --file conventions.json
 */
export const conventionsSet: Command = {
  name: 'conventions set',
  summary: 'Set the house conventions (a new version)',
  usage: 'pgs conventions set --file conventions.md|conventions.json [--json]',
  credential: 'api-key',
  help: `Writes a new version of the house conventions of the API key's account in the
key's mode; every project created afterwards follows it and records its version.

  --file conventions.json  the structured conventions, as PUT /api/v1/conventions takes
                           them: { "stack": { "required": [...], "forbidden": [...] },
                           "compliance": [...], "language": "de", "requirementStyle":
                           "ears"|"gherkin", "detail": "brief"|"standard"|"deep",
                           "naming": [...], "sections": [{ "title", "content" }],
                           "markdown": "..." }
  --file conventions.md    the team's rules in markdown: the current version with its
                           "markdown" replaced (the other members stay in force)

A JSON file's version holds exactly what the file says: a member it leaves out is no
longer in force. The same conventions again keep the current version (docs/conventions.md).`,
  options: { ...API_OPTIONS, file: { type: 'string' } },
  async run(ctx) {
    expectPositionals(ctx.positionals, 0, 'conventions set');
    const path = requireString(ctx.values, 'file', 'pgs conventions set');
    const text = await readOptionFile(ctx, path, 'conventions set');
    const pgs = ctx.client();
    const options = { signal: ctx.io.signal };
    const current = isMarkdownFile(path)
      ? await pgs.conventions.get(options).catch((error: unknown) => {
          if (error instanceof NotFoundError) return undefined;
          throw error;
        })
      : undefined;
    const written = await pgs.conventions.put(conventionsBody(path, text, current), options);
    if (ctx.json) {
      ctx.print(JSON.stringify(written));
      return;
    }
    ctx.print(`House conventions are now version ${written.version}.`);
  },
};
