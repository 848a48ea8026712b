import type { DetailLevel, ProjectCompleted, Revision, RevisionSummary } from '@pgs/client';
import { useCallback, useEffect, useState } from 'preact/hooks';
import { ProblemAlert, StatusLine } from '../components.tsx';
import { useProblemOf, useSession } from '../hooks.ts';
import type { Problem } from '../messages.ts';
import { CompletedProject } from './completed.tsx';
import { useProvenance } from './provenance.tsx';
import { QuestionsPanel } from './questions.tsx';
import { ReviseForm } from './revise.tsx';
import { RevisionDiff } from './revision-diff.tsx';
import { RevisionHistory } from './revision-history.tsx';
import { RevisionRun } from './revision-run.tsx';

/** The revision shown when it is not the current one: its number and, once read, its body. */
interface Pinned {
  revision: number;
  status: ProjectCompleted | undefined;
  problem: Problem | undefined;
}

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
  const { pgs, refreshCredits } = useSession();
  const projectId = status.projectId;
  const problemOf = useProblemOf();
  const focusOn = useFocusAfterRender();
  const { history, historyProblem, historyRead, reread, run, setRun, setHistoryProblem } =
    useRevisionHistory(projectId);
  const [pinned, setPinned] = useState<Pinned | undefined>(undefined);
  const [errorCodes, setErrorCodes] = useState<ReadonlyMap<number, string>>(new Map());
  const { provenance, problem: provenanceProblem } = useProvenance(projectId);

  const current = history?.find((summary) => summary.status === 'completed')?.revision;
  // The revision whose changes are shown: the one picked, else the current one (from 2 on).
  const shown = pinned?.revision ?? current;

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
    ],
  );

  const started = (revision: number) => {
    setRun({ revision, ended: false });
    focusOn('#revise-heading');
  };

  return (
    <>
      {pinned && (
        <PinnedBanner
          pinned={pinned}
          current={current}
          onBack={() => {
            setPinned(undefined);
            focusOn('main h1');
          }}
        />
      )}
      {pinned?.status ? (
        <CompletedProject
          key={`revision-${pinned.revision}`}
          status={pinned.status}
          revision={pinned.revision}
        />
      ) : (
        !pinned && <CompletedProject key={`current-${current ?? 1}`} status={status} />
      )}
      {shown !== undefined && shown > 1 && (
        <RevisionDiff key={shown} projectId={projectId} revision={shown} />
      )}
      {!pinned && (
        <QuestionsPanel
          projectId={projectId}
          type={status.project.type}
          detail={provenance?.detail}
          read={historyRead}
          running={run !== undefined && !run.ended}
          onStarted={started}
        />
      )}
      <ReviseCard
        projectId={projectId}
        type={status.project.type}
        detail={provenance?.detail}
        priceProblem={provenanceProblem}
        run={run}
        onStarted={started}
        onEnded={ended}
        onShowChanges={select}
        onNewRequest={() => {
          setRun(undefined);
          focusOn('#change-request');
        }}
      />
      <RevisionHistory
        history={history}
        problem={historyProblem}
        onRetry={reread}
        current={current}
        selected={pinned?.revision}
        errorCodes={errorCodes}
        onSelect={select}
      />
    </>
  );
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

/** The revision followed in the Revise card, and whether it has ended. */
type Run = { revision: number; ended: boolean };

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

/** Says which revision is being read instead of the current one, with the way back. */
function PinnedBanner(props: { pinned: Pinned; current: number | undefined; onBack: () => void }) {
  const { pinned, current, onBack } = props;
  return (
    <section class="card pinned" aria-labelledby="pinned-heading">
      <h2 id="pinned-heading" tabIndex={-1}>
        Revision {pinned.revision}
      </h2>
      <p>
        You are reading revision {pinned.revision}
        {current !== undefined && `; the current revision is ${current}`}.{' '}
        <button type="button" class="secondary" onClick={onBack}>
          Back to the current revision
        </button>
      </p>
      <StatusLine
        text={
          pinned.status === undefined && pinned.problem === undefined
            ? `Loading revision ${pinned.revision}…`
            : ''
        }
      />
      {pinned.problem && <ProblemAlert problem={pinned.problem} />}
    </section>
  );
}

/**
 * The Revise card: the change-request form, priced at the project's detail level (which its
 * provenance says), or the revision running, followed live, with its outcome once ended.
 */
function ReviseCard(props: {
  projectId: string;
  type: ProjectCompleted['project']['type'];
  detail: DetailLevel | undefined;
  priceProblem: Problem | undefined;
  run: Run | undefined;
  onStarted: (revision: number) => void;
  onEnded: (revision: Revision) => void;
  onShowChanges: (revision: number) => void;
  onNewRequest: () => void;
}) {
  const { projectId, type, detail, priceProblem, run } = props;
  return (
    <section class="card" aria-labelledby="revise-heading">
      <h2 id="revise-heading" tabIndex={-1}>
        Revise
      </h2>
      {run === undefined ? (
        detail === undefined ? (
          <StatusLine text={priceProblem ? priceProblem.text : 'Loading the price…'} />
        ) : (
          <ReviseForm
            projectId={projectId}
            type={type}
            detail={detail}
            onStarted={props.onStarted}
          />
        )
      ) : (
        <>
          <RevisionRun
            key={run.revision}
            projectId={projectId}
            revision={run.revision}
            onEnded={props.onEnded}
            onShowChanges={props.onShowChanges}
          />
          {run.ended && (
            <button type="button" class="secondary" onClick={props.onNewRequest}>
              New change request
            </button>
          )}
        </>
      )}
    </section>
  );
}
