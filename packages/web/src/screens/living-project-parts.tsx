import type { DetailLevel, ProjectCompleted, Revision } from '@pgs/client';
import { ProblemAlert, StatusLine } from '../components.tsx';
import type { Problem } from '../messages.ts';
import { CompletedProject } from './completed.tsx';
import { ReviseForm } from './revise.tsx';
import { RevisionDiff } from './revision-diff.tsx';
import { RevisionRun } from './revision-run.tsx';

/** The revision shown when it is not the current one: its number and, once read, its body. */
export interface Pinned {
  revision: number;
  status: ProjectCompleted | undefined;
  problem: Problem | undefined;
}

/** The revision followed in the Revise card, and whether it has ended. */
export type Run = { revision: number; ended: boolean };

/**
 * The documents of the revision shown (the one pinned, once read, else the current one) and
 * what it changed against the one before it (from revision 2 on).
 *
 * @example
 * <ShownRevision projectId={id} status={status} pinned={pinned} current={3} onBack={back} />
 */
export function ShownRevision(props: {
  projectId: string;
  status: ProjectCompleted;
  pinned: Pinned | undefined;
  current: number | undefined;
  onBack: () => void;
}) {
  const { projectId, status, pinned, current } = props;
  // The revision whose changes are shown: the one picked, else the current one (from 2 on).
  const shown = pinned?.revision ?? current;
  return (
    <>
      {pinned && <PinnedBanner pinned={pinned} current={current} onBack={props.onBack} />}
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
    </>
  );
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
 *
 * @example
 * <ReviseCard projectId={id} type="web" detail="standard" run={run} onStarted={follow} … />
 */
export function ReviseCard(props: {
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
