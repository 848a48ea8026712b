import type { ProjectCompleted, Revision, RevisionSummary } from '@pgs/client';
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
  const [history, setHistory] = useState<RevisionSummary[] | undefined>(undefined);
  const [historyProblem, setHistoryProblem] = useState<Problem | undefined>(undefined);
  const [historyRead, setHistoryRead] = useState(0);
  // The revision followed in the Revise card: started here, or found running in the history;
  // once it has ended, its outcome stays until the user asks for a new change request.
  const [run, setRun] = useState<{ revision: number; ended: boolean } | undefined>(undefined);
  const [pinned, setPinned] = useState<Pinned | undefined>(undefined);
  const [errorCodes, setErrorCodes] = useState<ReadonlyMap<number, string>>(new Map());
  const { provenance, problem: provenanceProblem } = useProvenance(projectId);
  // A choice that removes the button pressed (Revise, New change request, Back, Cancel) or
  // changes the page far from it (Show, at the foot of the page) moves focus, and with it
  // the view, to what it shows once rendered; else focus falls to the body, out of sight.
  const [focusTarget, setFocusTarget] = useState<{ selector: string } | undefined>(undefined);
  const focusOn = useCallback((selector: string) => setFocusTarget({ selector }), []);
  useEffect(() => {
    if (focusTarget) document.querySelector<HTMLElement>(focusTarget.selector)?.focus();
  }, [focusTarget]);

  const problemOf = useProblemOf();

  // `historyRead` re-reads the history (Try again, a revision ended).
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
      setHistoryRead((n) => n + 1);
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
    [pgs, projectId, onRevised, refreshCredits, problemOf, focusOn],
  );

  return (
    <>
      {pinned && (
        <section class="card pinned" aria-labelledby="pinned-heading">
          <h2 id="pinned-heading" tabIndex={-1}>
            Revision {pinned.revision}
          </h2>
          <p>
            You are reading revision {pinned.revision}
            {current !== undefined && `; the current revision is ${current}`}.{' '}
            <button
              type="button"
              class="secondary"
              onClick={() => {
                setPinned(undefined);
                focusOn('main h1');
              }}
            >
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
          onStarted={(revision) => {
            setRun({ revision, ended: false });
            focusOn('#revise-heading');
          }}
        />
      )}
      <section class="card" aria-labelledby="revise-heading">
        <h2 id="revise-heading" tabIndex={-1}>
          Revise
        </h2>
        {run === undefined ? (
          // Priced at the project's detail level, which its provenance says.
          provenance === undefined ? (
            <StatusLine text={provenanceProblem ? provenanceProblem.text : 'Loading the price…'} />
          ) : (
            <ReviseForm
              projectId={projectId}
              type={status.project.type}
              detail={provenance.detail}
              onStarted={(revision) => {
                setRun({ revision, ended: false });
                focusOn('#revise-heading');
              }}
            />
          )
        ) : (
          <>
            <RevisionRun
              key={run.revision}
              projectId={projectId}
              revision={run.revision}
              onEnded={ended}
              onShowChanges={select}
            />
            {run.ended && (
              <button
                type="button"
                class="secondary"
                onClick={() => {
                  setRun(undefined);
                  focusOn('#change-request');
                }}
              >
                New change request
              </button>
            )}
          </>
        )}
      </section>
      <RevisionHistory
        history={history}
        problem={historyProblem}
        onRetry={() => setHistoryRead((n) => n + 1)}
        current={current}
        selected={pinned?.revision}
        errorCodes={errorCodes}
        onSelect={select}
      />
    </>
  );
}
