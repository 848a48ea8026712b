import type { ProjectCompleted, Revision, RevisionSummary } from '@pgs/client';
import { type Dispatch, type StateUpdater, useCallback, useEffect, useState } from 'preact/hooks';
import { useProblemOf, useSession } from '../hooks.ts';
import type { Problem } from '../messages.ts';
import { type Pinned, ReviseCard, type Run, ShownRevision } from './living-project-parts.tsx';
import { useProvenance } from './provenance.tsx';
import { QuestionsPanel } from './questions.tsx';
import { RevisionHistory } from './revision-history.tsx';

/**
 * A completed project that lives on (docs/revisions.md): its documents (the current revision,
 * or any completed revision picked in the history), what the revision shown changed against
 * the one before it as a diff, the Revise form (or the revision running, followed live), and
 * the history. When a revision completes, the project's status is read again: it is the
 * project's new current revision, and `onRevised` tells the screen (whose heading shows the
 * name).
 *
 * @example
 * <LivingProject status={status} onRevised={setStatus} />
 */
export function LivingProject({
  status,
  onRevised,
}: {
  status: ProjectCompleted;
  onRevised: (status: ProjectCompleted) => void;
}) {
  const living = useLivingProject(status, onRevised);
  const { projectId, current, pinned, run, provenance, select, started } = living;
  return (
    <>
      <ShownRevision
        projectId={projectId}
        status={status}
        pinned={pinned}
        current={current}
        onBack={living.back}
      />
      {!pinned && (
        <QuestionsPanel
          projectId={projectId}
          type={status.project.type}
          detail={provenance?.detail}
          read={living.historyRead}
          running={run !== undefined && !run.ended}
          onStarted={started}
        />
      )}
      <ReviseCard
        projectId={projectId}
        type={status.project.type}
        detail={provenance?.detail}
        priceProblem={living.provenanceProblem}
        run={run}
        onStarted={started}
        onEnded={living.ended}
        onShowChanges={select}
        onNewRequest={living.newRequest}
      />
      <RevisionHistory
        history={living.history}
        problem={living.historyProblem}
        onRetry={living.reread}
        current={current}
        selected={pinned?.revision}
        errorCodes={living.errorCodes}
        onSelect={select}
      />
    </>
  );
}

/**
 * The living project's state: the history and the revision followed, the revision pinned,
 * the provenance (for the price), and what the user's choices and a revision's end do.
 */
function useLivingProject(status: ProjectCompleted, onRevised: (status: ProjectCompleted) => void) {
  const projectId = status.projectId;
  const focusOn = useFocusAfterRender();
  const revisions = useRevisionHistory(projectId);
  const { history, reread, setRun, setHistoryProblem } = revisions;
  const current = history?.find((summary) => summary.status === 'completed')?.revision;
  const { pinned, setPinned, select } = usePinnedRevision(projectId, current, focusOn);
  const { provenance, problem: provenanceProblem } = useProvenance(projectId);
  const { ended, errorCodes } = useRevisionEnded({
    projectId,
    onRevised,
    focusOn,
    reread,
    setRun,
    setHistoryProblem,
    setPinned,
  });

  const started = (revision: number) => {
    setRun({ revision, ended: false });
    focusOn('#revise-heading');
  };
  const back = () => {
    setPinned(undefined);
    focusOn('main h1');
  };
  const newRequest = () => {
    setRun(undefined);
    focusOn('#change-request');
  };
  return {
    ...revisions,
    projectId,
    current,
    pinned,
    select,
    provenance,
    provenanceProblem,
    ended,
    errorCodes,
    started,
    back,
    newRequest,
  };
}

/**
 * The revision pinned (picked in the history, when it is not the current one) and its read.
 * Picking the current one unpins; focus goes to what the choice shows.
 */
function usePinnedRevision(
  projectId: string,
  current: number | undefined,
  focusOn: (selector: string) => void,
) {
  const { pgs } = useSession();
  const problemOf = useProblemOf();
  const [pinned, setPinned] = useState<Pinned | undefined>(undefined);

  const select = useCallback(
    (revision: number) => {
      if (revision === current) {
        setPinned(undefined);
        focusOn(revision > 1 ? '#diff-heading' : 'main h1');
        return;
      }
      setPinned({ revision, status: undefined, problem: undefined });
      focusOn('#pinned-heading');
      pgs.projects.revisions.get(projectId, revision).then(
        (read) => {
          if (read.status !== 'completed') return;
          const { project, metadata } = read;
          setPinned((now) =>
            now?.revision === revision
              ? { ...now, status: { projectId, status: 'completed', project, metadata } }
              : now,
          );
        },
        (error) =>
          setPinned((now) =>
            now?.revision === revision ? { ...now, problem: problemOf(error) } : now,
          ),
      );
    },
    [pgs, projectId, current, problemOf, focusOn],
  );
  return { pinned, setPinned, select };
}

/**
 * What a revision's end does: the credits and the history are read again and the run marked
 * ended; a failure's code is kept for the history, and a completion reads the project's new
 * current revision and tells the screen (`onRevised`).
 */
function useRevisionEnded(deps: {
  projectId: string;
  onRevised: (status: ProjectCompleted) => void;
  focusOn: (selector: string) => void;
  reread: () => void;
  setRun: Dispatch<StateUpdater<Run | undefined>>;
  setHistoryProblem: Dispatch<StateUpdater<Problem | undefined>>;
  setPinned: Dispatch<StateUpdater<Pinned | undefined>>;
}) {
  const { projectId, onRevised, focusOn, reread, setRun, setHistoryProblem, setPinned } = deps;
  const { pgs, refreshCredits } = useSession();
  const problemOf = useProblemOf();
  const [errorCodes, setErrorCodes] = useState<ReadonlyMap<number, string>>(new Map());

  const ended = useCallback(
    (revision: Revision) => {
      void refreshCredits();
      reread();
      setRun((now) => (now?.revision === revision.revision ? { ...now, ended: true } : now));
      // Cancel revision, which may hold the focus, gives way to the outcome.
      const card = document.getElementById('revise-heading')?.closest('section');
      if (card?.contains(document.activeElement)) focusOn('#revise-heading');
      if (revision.status === 'failed') {
        setErrorCodes((codes) => new Map(codes).set(revision.revision, revision.error.code));
        return;
      }
      setPinned(undefined);
      pgs.projects.get(projectId).then(
        (next) => {
          if (next.status === 'completed') onRevised(next);
        },
        (error) => setHistoryProblem(problemOf(error)),
      );
    },
    [
      pgs,
      projectId,
      onRevised,
      refreshCredits,
      problemOf,
      focusOn,
      reread,
      setRun,
      setHistoryProblem,
      setPinned,
    ],
  );
  return { ended, errorCodes };
}

/**
 * A choice that removes the button pressed (Revise, New change request, Back, Cancel) or
 * changes the page far from it (Show, at the foot of the page) moves focus, and with it the
 * view, to what it shows once rendered; else focus falls to the body, out of sight. The
 * returned function names the element by selector and is stable.
 */
function useFocusAfterRender(): (selector: string) => void {
  const [target, setTarget] = useState<{ selector: string } | undefined>(undefined);
  useEffect(() => {
    if (target) document.querySelector<HTMLElement>(target.selector)?.focus();
  }, [target]);
  return useCallback((selector: string) => setTarget({ selector }), []);
}

/**
 * A project's revision history, read again on `reread()` (Try again, a revision ended), and
 * the revision followed in the Revise card: started here, or found running in the history;
 * once it has ended, its outcome stays until the user asks for a new change request.
 */
function useRevisionHistory(projectId: string) {
  const { pgs } = useSession();
  const problemOf = useProblemOf();
  const [history, setHistory] = useState<RevisionSummary[] | undefined>(undefined);
  const [historyProblem, setHistoryProblem] = useState<Problem | undefined>(undefined);
  const [historyRead, setHistoryRead] = useState(0);
  const [run, setRun] = useState<Run | undefined>(undefined);

  useEffect(() => {
    const controller = new AbortController();
    setHistoryProblem(undefined);
    pgs.projects.revisions.list(projectId, { signal: controller.signal }).then(
      (list) => {
        setHistory(list);
        const inProgress = list.find((summary) => summary.status === 'in_progress');
        if (inProgress) setRun((now) => now ?? { revision: inProgress.revision, ended: false });
      },
      (error) => {
        if (!controller.signal.aborted) setHistoryProblem(problemOf(error));
      },
    );
    return () => controller.abort();
  }, [pgs, projectId, problemOf, historyRead]);

  const reread = useCallback(() => setHistoryRead((n) => n + 1), []);
  return { history, historyProblem, historyRead, reread, run, setRun, setHistoryProblem };
}
