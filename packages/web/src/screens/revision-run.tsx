import type { RequirementDelta, Revision } from '@pgs/client';
import {
  type Dispatch,
  type StateUpdater,
  useCallback,
  useEffect,
  useRef,
  useState,
} from 'preact/hooks';
import { ProblemAlert, StatusLine } from '../components.tsx';
import {
  documentTitle,
  formatTimeLeft,
  remainingMs,
  statusText,
  stoppedOnPurpose,
} from '../format.ts';
import { useNow, useProblemOf, useSession } from '../hooks.ts';
import type { Problem } from '../messages.ts';
import { watchRevision } from '../revision-watch.ts';
import { countDeltas, deltaCountsText } from '../revisions.ts';
import { StatusBadge } from './projects.tsx';
import { DeltaList } from './revise.tsx';

/** What the screen knows of a running revision besides its last read. */
interface Live {
  deltas: RequirementDelta[] | undefined;
  documents: string[];
  done: string[];
  stage: string | undefined;
  /** When the last in-progress read came, for the countdown. */
  readAt: number;
}

/**
 * One revision followed live (`watchRevision`): the change request, then its deltas and the
 * documents it rewrites as each is stored, a countdown and Cancel; once it has ended, what
 * it did (the deltas, the documents changed, the credits) or why it failed. `onEnded` is
 * called once with the final revision.
 *
 * @example
 * <RevisionRun projectId={id} revision={2} onEnded={reload} onShowChanges={() => select(2)} />
 */
export function RevisionRun({
  projectId,
  revision,
  onEnded,
  onShowChanges,
}: {
  projectId: string;
  revision: number;
  onEnded: (revision: Revision) => void;
  onShowChanges: (revision: number) => void;
}) {
  const run = useRevisionRun(projectId, revision, onEnded);
  const { current, problem } = run;
  if (current === undefined) {
    return problem ? (
      <ProblemAlert problem={problem} />
    ) : (
      <StatusLine text={`Loading revision ${revision}…`} />
    );
  }
  if (current.status !== 'in_progress') {
    return <RevisionOutcome revision={current} onShowChanges={onShowChanges} />;
  }
  return <RevisionRunning {...run} revision={revision} current={current} />;
}

/** A revision still running, as the in-progress view reads it. */
type Running = Extract<Revision, { status: 'in_progress' }>;

/** The revision as last read (`undefined` before the first read), what is live, and Cancel. */
interface Run {
  current: Revision | undefined;
  live: Live;
  liveNote: string;
  problem: Problem | undefined;
  cancelling: boolean;
  cancel: () => Promise<void>;
}

/** Follows one revision and cancels it; `onEnded` hears of the end once. */
function useRevisionRun(
  projectId: string,
  revision: number,
  onEnded: (revision: Revision) => void,
): Run {
  const { pgs } = useSession();
  const problemOf = useProblemOf('revision');
  const [current, setCurrent] = useState<Revision | undefined>(undefined);
  const [live, setLive] = useState<Live>({
    deltas: undefined,
    documents: [],
    done: [],
    stage: undefined,
    readAt: Date.now(),
  });
  const [liveNote, setLiveNote] = useState('');
  const [problem, setProblem] = useState<Problem | undefined>(undefined);
  const [cancelling, setCancelling] = useState(false);
  // The parent's latest callback, so that a new one does not restart the watch.
  const ended = useRef(onEnded);
  ended.current = onEnded;
  // The watch and Cancel may both see the end: the parent hears of it once.
  const over = useRef(false);
  const end = useCallback((final: Revision) => {
    setCurrent(final);
    setLiveNote('');
    if (over.current) return;
    over.current = true;
    ended.current(final);
  }, []);
  useRevisionWatch(projectId, revision, { end, setCurrent, setLive, setLiveNote, setProblem });

  const cancel = async () => {
    // The button is aria-disabled, not disabled, while the cancel is out: a disabled button
    // drops the focus to the body, and the outcome that replaces it could not take it over.
    if (cancelling) return;
    setCancelling(true);
    setProblem(undefined);
    try {
      const cancelled = await pgs.projects.revisions.cancel(projectId, revision);
      end(cancelled);
    } catch (error) {
      setProblem(problemOf(error));
    } finally {
      setCancelling(false);
    }
  };
  return { current, live, liveNote, problem, cancelling, cancel };
}

/** Where the watch puts what it hears; every one stable, so the watch runs once. */
interface WatchSink {
  end: (final: Revision) => void;
  setCurrent: (revision: Revision) => void;
  setLive: Dispatch<StateUpdater<Live>>;
  setLiveNote: (note: string) => void;
  setProblem: (problem: Problem) => void;
}

/** Watches the revision until it ends or the screen leaves it (`watchRevision`). */
function useRevisionWatch(projectId: string, revision: number, sink: WatchSink) {
  const { pgs } = useSession();
  const problemOf = useProblemOf('revision');
  const { end, setCurrent, setLive, setLiveNote, setProblem } = sink;
  useEffect(() => {
    const controller = new AbortController();
    const show = (next: Revision) => {
      if (controller.signal.aborted) return;
      if (next.status === 'in_progress') {
        setCurrent(next);
        setLive((before) => ({
          ...before,
          readAt: Date.now(),
          ...(next.documentsChanged.length > 0
            ? { deltas: next.deltas, documents: next.documentsChanged }
            : {}),
        }));
      } else {
        end(next);
      }
    };
    const fail = (error: unknown) => {
      if (controller.signal.aborted) return;
      setProblem(problemOf(error));
    };
    watchRevision(pgs, projectId, revision, controller.signal, {
      onRevision: show,
      onAnalysed: (deltas, documents) => setLive((before) => ({ ...before, deltas, documents })),
      onStage: (stage) => setLive((before) => ({ ...before, stage })),
      onDocument: (filename) =>
        setLive((before) =>
          before.done.includes(filename) ? before : { ...before, done: [...before.done, filename] },
        ),
      onLiveNote: setLiveNote,
      onError: fail,
    }).catch(fail);
    return () => controller.abort();
  }, [pgs, projectId, revision, problemOf, end, setCurrent, setLive, setLiveNote, setProblem]);
}

/** A revision in progress: its change request, the deltas and documents so far, and Cancel. */
function RevisionRunning(props: Run & { revision: number; current: Running }) {
  const { revision, current, live, liveNote, problem, cancelling, cancel } = props;
  return (
    <div class="revision-run">
      <p class="status-row">
        <StatusBadge text="In progress" testId="revision-status" />
        <span>Revision {revision}</span>
        <Countdown estimateMs={current.estimatedCompletionMs} readAt={live.readAt} />
      </p>
      {current.changeRequest && (
        <blockquote class="change-request">{current.changeRequest}</blockquote>
      )}
      {live.deltas === undefined ? (
        <p class="stage">Reading the change request…</p>
      ) : (
        <>
          <h3>Requirement changes</h3>
          <DeltaList deltas={live.deltas} />
        </>
      )}
      {live.documents.length > 0 && <DocumentsToRewrite live={live} />}
      <StatusLine text={liveNote} />
      {problem && <ProblemAlert problem={problem} />}
      <button type="button" class="danger" aria-disabled={cancelling} onClick={cancel}>
        Cancel revision
      </button>
    </div>
  );
}

/** The documents a running revision rewrites, the one being written, and those done. */
function DocumentsToRewrite({ live }: { live: Live }) {
  return (
    <>
      <h3>Documents to rewrite</h3>
      {live.stage && <p class="stage">Working on: {documentTitle(live.stage)}</p>}
      <ul aria-label="Documents to rewrite" class="doc-progress">
        {live.documents.map((filename) => (
          <li key={filename}>
            <span class="filename-inline">{filename}</span>{' '}
            {live.done.includes(filename) && <span class="done">done</span>}
          </li>
        ))}
      </ul>
    </>
  );
}

function Countdown({ estimateMs, readAt }: { estimateMs: number; readAt: number }) {
  const now = useNow(1000);
  return <span class="time-left">{formatTimeLeft(remainingMs(estimateMs, readAt, now))}</span>;
}

/**
 * How a revision ended: completed, with what it did (the deltas, the documents changed, the
 * credits); failed or cancelled, with the server's message (which says it was refunded).
 *
 * @example
 * <RevisionOutcome revision={done} onShowChanges={select} />
 */
export function RevisionOutcome({
  revision,
  onShowChanges,
}: {
  revision: Exclude<Revision, { status: 'in_progress' }>;
  onShowChanges: (revision: number) => void;
}) {
  if (revision.status === 'failed') {
    const text = statusText('failed', revision.error.code);
    return (
      <div class="revision-run">
        <p class="status-row">
          <StatusBadge text={text} testId="revision-status" />
          <span>Revision {revision.revision}</span>
        </p>
        {stoppedOnPurpose(text) ? (
          <p>{revision.error.message}</p>
        ) : (
          <p class="alert" role="alert">
            {revision.error.message}
          </p>
        )}
      </div>
    );
  }
  const changed = revision.documentsChanged.length;
  return (
    <div class="revision-run">
      <p class="status-row">
        <StatusBadge text="Completed" testId="revision-status" />
        <span class="meta">
          Revision {revision.revision} · {deltaCountsText(countDeltas(revision.deltas))} · {changed}{' '}
          {changed === 1 ? 'document' : 'documents'} rewritten · {revision.metadata.creditsConsumed}{' '}
          credits
        </span>
      </p>
      <h3>Requirement changes</h3>
      <DeltaList deltas={revision.deltas} />
      <h3>Documents changed</h3>
      <ul aria-label="Documents changed" class="doc-progress">
        {revision.documentsChanged.map((filename) => (
          <li key={filename}>
            <span class="filename-inline">{filename}</span>
          </li>
        ))}
      </ul>
      {revision.revision > 1 && (
        <button type="button" class="secondary" onClick={() => onShowChanges(revision.revision)}>
          Show the changes
        </button>
      )}
    </div>
  );
}
