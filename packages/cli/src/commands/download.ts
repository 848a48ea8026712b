import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { ArchiveLayout } from '@pgs/client';
import { type Command, stringValue } from '../context.ts';
import { UsageError } from '../errors.ts';
import { extractZip, readZip } from '../unzip.ts';
import { API_OPTIONS, expectPositionals, revisionValue } from './common.ts';

const NAME = 'download';

// Keyed by ArchiveLayout so that a new layout in the SDK breaks the build here until handled.
const LAYOUTS = {
  plain: true,
  kiro: true,
  'spec-kit': true,
  agents: true,
  openspec: true,
} as const satisfies Record<ArchiveLayout, true>;

/**
 * `pgs download ID`: a completed project's archive, extracted into a directory or saved as a zip.
 *
 * @example
 * pgs download 7d0f2c8e-4a9b-4e43-9a55-0d2b8f1c6e21 --layout kiro --revision 2
 */
export const download: Command = {
  name: NAME,
  summary: "Download a completed project's archive and extract it",
  usage:
    'pgs download ID [--layout plain|kiro|spec-kit|agents|openspec] [--revision N] [--out DIR | --zip FILE] [--json]',
  credential: 'api-key',
  help: `Downloads the project's archive (every document and project.json, as one zip laid out
for --layout) and extracts its files into DIR, printing each path. Files that already
exist are never overwritten, unless --force: one existing file, or a path in the archive
that would leave DIR, writes nothing at all.

Arguments:
  ID                     the project id (a completed project: in progress or failed
                         exits 12)

Options:
  --layout LAYOUT        plain (default): <slug>/<filename> and <slug>/project.json;
                         kiro: .kiro/steering and .kiro/specs/<slug>/;
                         spec-kit: specs/001-<slug>/; agents: AGENTS.md and docs/;
                         openspec: openspec/project.md, openspec/specs/ and a
                         change folder per revision under openspec/changes/.
                         kiro, spec-kit and agents are meant for a repository's root
  --revision N           the archive of revision N (pgs history ID lists them), its
                         history up to it included; default the current revision, the
                         latest completed one. One in progress or failed exits 12
  --out DIR              where to extract; default the current directory
  --zip FILE             save the zip as it is instead of extracting it
  --force                overwrite files of the same names

With --json, one line: {"projectId","layout","out","files":[...]} (or "zip" and "bytes"),
with "revision" when --revision is given.`,
  options: {
    ...API_OPTIONS,
    layout: { type: 'string' },
    revision: { type: 'string' },
    out: { type: 'string' },
    zip: { type: 'string' },
    force: { type: 'boolean' },
  },
  async run(ctx) {
    const projectId = ctx.positionals[0]?.trim();
    if (!projectId) throw new UsageError('missing the project ID', `pgs ${NAME}`);
    expectPositionals(ctx.positionals, 1, NAME);
    const rawLayout = stringValue(ctx.values, 'layout') ?? 'plain';
    if (!Object.hasOwn(LAYOUTS, rawLayout)) {
      throw new UsageError(
        `--layout must be plain, kiro, spec-kit, agents or openspec, not ${JSON.stringify(rawLayout)}`,
        `pgs ${NAME}`,
      );
    }
    const layout = rawLayout as ArchiveLayout;
    const revision = revisionValue(ctx.values, NAME);
    const out = stringValue(ctx.values, 'out');
    const zipFile = stringValue(ctx.values, 'zip');
    if (out !== undefined && zipFile !== undefined) {
      throw new UsageError('give --out DIR or --zip FILE, not both', `pgs ${NAME}`);
    }
    for (const [flag, value] of [
      ['--out', out],
      ['--zip', zipFile],
    ] as const) {
      if (value !== undefined && value.trim() === '') {
        throw new UsageError(`${flag} must not be empty`, `pgs ${NAME}`);
      }
    }
    const force = ctx.values.force === true;
    const cwd = ctx.io.cwd ?? process.cwd();
    ctx.errorContext.projectId = projectId;

    const bytes = await ctx
      .client()
      .projects.archive(projectId, { layout, revision, signal: ctx.io.signal });
    const pinned = revision === undefined ? {} : { revision };
    const what = revision === undefined ? layout : `${layout}, revision ${revision}`;
    if (zipFile !== undefined) {
      try {
        await writeFile(resolve(cwd, zipFile), bytes, { flag: force ? 'w' : 'wx' });
      } catch (error) {
        if ((error as { code?: unknown }).code === 'EEXIST') {
          throw new Error(
            `${zipFile} already exists; it was not overwritten (add --force to do so)`,
          );
        }
        throw error;
      }
      if (ctx.json) {
        ctx.print(
          JSON.stringify({ projectId, ...pinned, layout, zip: zipFile, bytes: bytes.length }),
        );
      } else {
        ctx.print(`Saved the ${what} archive (${bytes.length} bytes) to ${zipFile}`);
      }
      return;
    }
    const dir = out ?? '.';
    const paths = await extractZip(cwd, dir, readZip(bytes), { force });
    if (ctx.json) {
      ctx.print(JSON.stringify({ projectId, ...pinned, layout, out: dir, files: paths }));
      return;
    }
    ctx.print(
      `Extracted ${paths.length} file${paths.length === 1 ? '' : 's'} (${what}) to ${dir}:`,
    );
    for (const path of paths) ctx.print(`  ${path}`);
  },
};
