import type { RevisionDiffFile } from '@pgs/client';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { ProblemRetry, StatusLine } from '../components.tsx';
import { useSession } from '../hooks.ts';
import { describeError, type Problem } from '../messages.ts';
import { type DiffLine, fileStatusLabel, lineCountsText, parsePatch } from '../revisions.ts';

/** What `revisions.diff(…, { format: 'json' })` answers: the base compared with, and the files. */
interface Diff {
  base: number;
  files: RevisionDiffFile[];
}

/**
 * What a completed revision changed against the one before it
 * (`revisions.diff(projectId, n, { format: 'json' })`), one collapsible file at a time. An
 * added line is an `<ins>` marked "+", a removed one a `<del>` marked "−", each also named
 * in words for screen readers, so nothing rests on colour. Read once: a completed revision
 * never changes.
 *
 * @example
 * <RevisionDiff projectId={id} revision={2} />
 */
export function RevisionDiff({ projectId, revision }: { projectId: string; revision: number }) {
  const { pgs, signOut } = useSession();
  const [diff, setDiff] = useState<Diff | undefined>(undefined);
  const [problem, setProblem] = useState<Problem | undefined>(undefined);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    setDiff(undefined);
    setProblem(undefined);
    pgs.projects.revisions
      .diff(projectId, revision, { format: 'json', signal: controller.signal })
      .then(setDiff, (error: unknown) => {
        if (controller.signal.aborted) return;
        const described = describeError(error, { subject: 'revision' });
        if (described.signOut) signOut(described);
        setProblem(described);
      });
    return () => controller.abort();
  }, [pgs, projectId, revision, signOut, attempt]);

  return (
    <section class="card" aria-labelledby="diff-heading">
      <h2 id="diff-heading" tabIndex={-1}>
        Changes in revision {revision}
      </h2>
      <StatusLine
        text={diff === undefined && problem === undefined ? 'Loading the changes…' : ''}
      />
      {problem && <ProblemRetry problem={problem} onRetry={() => setAttempt((n) => n + 1)} />}
      {diff && (
        <>
          <p class="hint">
            Against revision {diff.base}:{' '}
            {diff.files.length === 0
              ? 'no document changed.'
              : `${diff.files.length} ${diff.files.length === 1 ? 'document' : 'documents'} changed; the others were carried over as they were. Added lines are marked +, removed lines −.`}
          </p>
          {diff.files.map((file, index) => (
            <DiffFile key={file.filename} file={file} initiallyOpen={index === 0} />
          ))}
        </>
      )}
    </section>
  );
}

function DiffFile({ file, initiallyOpen }: { file: RevisionDiffFile; initiallyOpen: boolean }) {
  // Only the first file starts open: seven open patches would push the page's other cards
  // thousands of pixels down.
  const [open, setOpen] = useState(initiallyOpen);
  // A closed file's lines are not rendered: a long document's diff costs nothing folded.
  const lines = useMemo(() => (open ? parsePatch(file.patch) : []), [open, file.patch]);
  const counts = lineCountsText(file.additions, file.deletions);
  return (
    <details
      class="diff-file"
      open={open}
      onToggle={(event) => setOpen((event.currentTarget as HTMLDetailsElement).open)}
    >
      <summary>
        <span class="diff-filename">{file.filename}</span>{' '}
        <span class={`diff-status diff-status-${file.status}`}>{fileStatusLabel(file.status)}</span>{' '}
        <span class="diff-counts">
          <span aria-hidden="true">
            <span class="diff-count-add">+{file.additions}</span>{' '}
            <span class="diff-count-del">−{file.deletions}</span>
          </span>
          <span class="sr-only">{counts}</span>
        </span>
      </summary>
      {open && (
        // A long line scrolls inside its file, not the page; the region is reachable by keyboard.
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be focusable.
        <section class="diff-scroll" aria-label={`Changes to ${file.filename}`} tabIndex={0}>
          <pre class="diff">
            {/* A patch's lines have no identity but their place. */}
            {lines.map((line, index) => (
              <Line key={index} line={line} />
            ))}
          </pre>
        </section>
      )}
    </details>
  );
}

function Line({ line }: { line: DiffLine }) {
  const text = line.text === '' ? '\u00a0' : line.text;
  switch (line.kind) {
    case 'hunk':
      return <span class="diff-line diff-hunk">{line.text}</span>;
    case 'add':
      return (
        <ins class="diff-line diff-add">
          <span class="diff-marker" aria-hidden="true">
            +
          </span>
          <span class="sr-only">Added: </span>
          {text}
        </ins>
      );
    case 'del':
      return (
        <del class="diff-line diff-del">
          <span class="diff-marker" aria-hidden="true">
            −
          </span>
          <span class="sr-only">Removed: </span>
          {text}
        </del>
      );
    case 'context':
      return (
        <span class="diff-line">
          <span class="diff-marker" aria-hidden="true">
            {' '}
          </span>
          {text}
        </span>
      );
  }
}
