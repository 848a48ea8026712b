import type { RevisionSummary } from '@pgs/client';
import type { Command } from '../context.ts';
import { integerValue } from '../context.ts';
import { UsageError } from '../errors.ts';
import { colourDiff, useColour } from '../output.ts';
import { API_OPTIONS, projectIdArgument } from './common.ts';

const NAME = 'diff';

/** The newest completed revision (below `below` when given), or undefined when none is. */
function latestCompleted(
  revisions: readonly RevisionSummary[],
  below = Number.POSITIVE_INFINITY,
): number | undefined {
  return revisions
    .filter((r) => r.status === 'completed' && r.revision < below)
    .reduce<number | undefined>(
      (max, r) => (max === undefined || r.revision > max ? r.revision : max),
      undefined,
    );
}

/**
 * `pgs diff ID`: what a revision changed, or what changed between two revisions.
 *
 * @example
 * pgs diff 7d0f2c8e-4a9b-4e43-9a55-0d2b8f1c6e21 --from 1 --to 3
 */
export const diff: Command = {
  name: NAME,
  summary: 'Show what a revision changed, as a unified diff',
  usage: 'pgs diff ID [--to M] [--from N] [--json]',
  credential: 'api-key',
  help: `Prints a git-style unified diff of the documents that changed ("diff --git a/F b/F",
"--- a/F", "+++ b/F", hunks with 3 lines of context; /dev/null for a document added or
removed). Documents carried over unchanged are left out; when nothing changed, nothing is
printed (a terminal says so). On a terminal, with NO_COLOR unset, additions are green and
removals red. The output applies with git apply.

Arguments:
  ID                     the project id

Options:
  --to M                 the revision to show; default the latest completed one
  --from N               compare against revision N (below M) instead of the revision
                         M was made from

Without --from, revision M against the revision it was made from (M-1, or the
completed one before it when M-1 failed; revision 1 adds every document). With --from N,
every change from revision N to M as one diff, as the server computes it (?from=N); a
document changed and changed back in between does not show. Both must be completed
revisions (exit 12 otherwise).

With --json, one line: {"projectId","revision":M,"base":N,"files":[{"filename",
"status":"added|modified|removed","additions","deletions","patch"}]}.

Examples:
  pgs diff "$ID"                   what the latest revision changed
  pgs diff "$ID" --to 2            what revision 2 changed
  pgs diff "$ID" --from 1 --to 3   everything revisions 2 and 3 changed, as one diff
  pgs diff "$ID" | git apply       apply it to a checkout of the documents`,
  options: { ...API_OPTIONS, from: { type: 'string' }, to: { type: 'string' } },
  async run(ctx) {
    const projectId = projectIdArgument(ctx.positionals, NAME);
    const from = integerValue(ctx.values, 'from', NAME, { min: 1 });
    const to = integerValue(ctx.values, 'to', NAME, { min: 1 });
    if (from !== undefined && to !== undefined && from >= to) {
      throw new UsageError(
        `--from must be below --to, and ${from} is not below ${to}`,
        `pgs ${NAME}`,
      );
    }
    const pgs = ctx.client();
    const signal = ctx.io.signal;
    const revisions = await pgs.projects.revisions.list(projectId, { signal });
    // Without --to: the current revision (the latest completed one). None yet: the newest,
    // whose diff the server refuses with the reason.
    const target = to ?? latestCompleted(revisions) ?? revisions[0]?.revision ?? 1;
    if (from !== undefined && from >= target) {
      throw new UsageError(
        `--from must be below the revision shown, and ${from} is not below ${target} ` +
          '(the latest completed revision)',
        `pgs ${NAME}`,
      );
    }
    if (ctx.json) {
      const data = await pgs.projects.revisions.diff(projectId, target, {
        format: 'json',
        from,
        signal,
      });
      ctx.print(JSON.stringify(data));
      return;
    }
    const text = await pgs.projects.revisions.diff(projectId, target, { from, signal });
    const out = ctx.io.stdout;
    if (text === '') {
      if (out.isTTY === true) ctx.print('No document changed.');
      return;
    }
    out.write(useColour(out, ctx.io.env) ? colourDiff(text) : text);
  },
};
