import type {
  DocumentCompletedData,
  ProjectCompleted,
  ProjectFailed,
  ProjectInProgress,
} from '@pgs/client';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { PageHeading, ProblemAlert, StatusLine } from '../components.tsx';
import {
  documentTitle,
  formatTimeLeft,
  remainingMs,
  statusText,
  stoppedOnPurpose,
} from '../format.ts';
import { useNow, useProblemOf, useSession } from '../hooks.ts';
import type { Problem } from '../messages.ts';
import { watchProject } from '../watch.ts';
import { LivingProject } from './living-project.tsx';
import { StatusBadge } from './projects.tsx';

/** A project in progress as the screen follows it. */
interface Progress {
  /** The estimate and when it was read, for the countdown. */
  estimateMs: number;
  estimatedAt: number;
  /** Documents stored so far, in the order their events came. */
  documents: DocumentCompletedData[];
  /** The stage the workflow is in, from `stage.started`. */
  stage: string | undefined;
}

type View =
  | { phase: 'loading' }
  | { phase: 'in_progress'; progress: Progress }
  | { phase: 'finished'; status: ProjectCompleted | ProjectFailed };

/**
 * One project: live progress from its event stream while it runs (each document as it is
 * stored, a countdown from the estimate, Cancel), then the result. The stream is replayed
 * from its first event (`Last-Event-ID: 0`), so documents stored before the page opened are
 * listed too, and it is closed when the screen is left.
 *
 * @example
 * <ProjectScreen projectId="0b6f…" />
 */
export function ProjectScreen({ projectId }: { projectId: string }) {
  const { view, problem, liveNote, cancel, finish } = useProject(projectId);
  const status = view.phase === 'finished' ? view.status : undefined;
  const heading = status?.status === 'completed' ? status.project.name : 'Project';
  return (
    <>
      <PageHeading>{heading}</PageHeading>
      {view.phase === 'in_progress' && (
        <InProgress progress={view.progress} onCancel={cancel} liveNote={liveNote} />
      )}
      {view.phase === 'loading' && !problem && <StatusLine text="Loading the project…" />}
      {problem && <ProblemAlert problem={problem} />}
      {status?.status === 'completed' && <LivingProject status={status} onRevised={finish} />}
      {status?.status === 'failed' && <FailedProject status={status} />}
    </>
  );
}

/** The project as followed, what went wrong, the live note, Cancel, and the end of watching. */
interface ProjectWatch {
  view: View;
  problem: Problem | undefined;
  liveNote: string;
  cancel: () => Promise<void>;
  finish: (status: ProjectCompleted | ProjectFailed) => void;
}

/** Follows the project's event stream until it has finished (or the screen is left). */
function useProject(projectId: string): ProjectWatch {
  const { pgs, refreshCredits } = useSession();
  const problemOf = useProblemOf();
  const [view, setView] = useState<View>({ phase: 'loading' });
  const [problem, setProblem] = useState<Problem | undefined>(undefined);
  const [liveNote, setLiveNote] = useState('');
  const stopWatching = useRef<AbortController | undefined>(undefined);

  const finish = useCallback(
    (status: ProjectCompleted | ProjectFailed) => {
      stopWatching.current?.abort();
      setView({ phase: 'finished', status });
      setLiveNote('');
      void refreshCredits();
    },
    [refreshCredits],
  );

  useEffect(() => {
    const controller = new AbortController();
    stopWatching.current = controller;
    const fail = (error: unknown) => {
      if (!controller.signal.aborted) setProblem(problemOf(error));
    };
    watchProject(pgs, projectId, controller.signal, {
      onStatus: (status) => {
        if (status.status === 'in_progress') setView((current) => withEstimate(current, status));
        else finish(status);
      },
      onStage: (stage) => setView((current) => withStage(current, stage)),
      onDocument: (document) => setView((current) => withDocument(current, document)),
      onLiveNote: setLiveNote,
      onError: fail,
    }).catch(fail);
    return () => controller.abort();
  }, [pgs, projectId, finish, problemOf]);

  const cancel = async () => {
    setProblem(undefined);
    try {
      finish(await pgs.projects.cancel(projectId));
    } catch (error) {
      const described = problemOf(error);
      setProblem(described);
      // Already finished (409): show how it ended.
      if (described.kind === 'conflict') {
        pgs.projects.get(projectId).then(
          (status) => {
            if (status.status !== 'in_progress') finish(status);
          },
          () => {},
        );
      }
    }
  };

  return { view, problem, liveNote, cancel, finish };
}

/** The view after an in-progress status: a new estimate, what was followed so far kept. */
function withEstimate(current: View, status: ProjectInProgress): View {
  return {
    phase: 'in_progress',
    progress: {
      estimateMs: status.estimatedCompletionMs,
      estimatedAt: Date.now(),
      documents: current.phase === 'in_progress' ? current.progress.documents : [],
      stage: current.phase === 'in_progress' ? current.progress.stage : undefined,
    },
  };
}

/** The view after `stage.started`: the stage, while the project is in progress. */
function withStage(current: View, stage: string): View {
  return current.phase === 'in_progress'
    ? { ...current, progress: { ...current.progress, stage } }
    : current;
}

/** The view after a document stored: listed once, while the project is in progress. */
function withDocument(current: View, document: DocumentCompletedData): View {
  return current.phase === 'in_progress' &&
    !current.progress.documents.some((d) => d.filename === document.filename)
    ? {
        ...current,
        progress: { ...current.progress, documents: [...current.progress.documents, document] },
      }
    : current;
}

function InProgress({
  progress,
  onCancel,
  liveNote,
}: {
  progress: Progress;
  onCancel: () => void;
  liveNote: string;
}) {
  const [cancelling, setCancelling] = useState(false);
  const now = useNow(1000);
  const left = remainingMs(progress.estimateMs, progress.estimatedAt, now);
  return (
    <section class="card" aria-labelledby="progress-heading">
      <p class="status-row">
        <StatusBadge text="In progress" testId="project-status" />
        <span class="time-left">{formatTimeLeft(left)}</span>
      </p>
      <h2 id="progress-heading">Documents</h2>
      {progress.stage && <p class="stage">Working on: {documentTitle(progress.stage)}</p>}
      <ul aria-label="Documents" class="doc-progress">
        {progress.documents.map((document) => (
          <li key={document.filename}>
            <span>{documentTitle(document.type)}</span> <span class="done">done</span>
          </li>
        ))}
      </ul>
      {progress.documents.length === 0 && <p class="hint">The first document is on its way.</p>}
      <StatusLine text={liveNote} />
      <button
        type="button"
        class="danger"
        disabled={cancelling}
        onClick={() => {
          setCancelling(true);
          Promise.resolve(onCancel()).finally(() => setCancelling(false));
        }}
      >
        Cancel
      </button>
    </section>
  );
}

function FailedProject({ status }: { status: ProjectFailed }) {
  const text = statusText('failed', status.error.code);
  return (
    <section class="card">
      <p class="status-row">
        <StatusBadge text={text} testId="project-status" />
      </p>
      {stoppedOnPurpose(text) ? (
        <p>{status.error.message}</p>
      ) : (
        <p class="alert" role="alert">
          {status.error.message}
        </p>
      )}
    </section>
  );
}
