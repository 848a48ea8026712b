import type { DetailLevel, ProjectType, RequirementDelta } from '@pgs/client';
import { ConflictError, revisionCredits } from '@pgs/client';
import type { Ref } from 'preact';
import { useRef, useState } from 'preact/hooks';
import { ProblemAlert } from '../components.tsx';
import { useProblemOf, useSession } from '../hooks.ts';
import type { Problem } from '../messages.ts';
import { CHANGE_REQUEST_MAX, checkChangeRequest, deltaLine } from '../revisions.ts';

/** The project revised, its price inputs, and what follows a revision started. */
interface ReviseProps {
  projectId: string;
  type: ProjectType;
  /** The project's detail level (its provenance says it): revisions are priced at it. */
  detail: DetailLevel;
  onStarted: (revision: number) => void;
}

/**
 * The Revise form of a completed project: the price first (what is reserved: the analysis
 * fee plus every document the revision may rewrite), the change request with its counter,
 * and the button. One Idempotency-Key per submission, kept while the same request is sent
 * again (a double click, a retry), as on the new-project form. A revision already running
 * (409 REVISION_IN_PROGRESS) is followed instead.
 *
 * @example
 * <ReviseForm projectId={id} type="web" onStarted={(n) => follow(n)} />
 */
export function ReviseForm(props: ReviseProps) {
  const form = useRevise(props);
  const { price, problem, busy } = form;
  return (
    <form onSubmit={form.submit} aria-labelledby="revise-heading">
      <p class="price" id="revise-price">
        Price: up to {price.total} credits
      </p>
      <p class="hint">
        {price.fee} credits to read the request, and up to {price.documents} for the documents it
        may rewrite: only the documents it rewrites are charged, the rest is released when it ends.
        A revision that fails or is cancelled is refunded whole, and the current documents stay as
        they are.
      </p>
      <ChangeRequestField {...form} />
      {problem && <ProblemAlert problem={problem} />}
      <button type="submit" disabled={busy} aria-busy={busy}>
        Revise
      </button>
    </form>
  );
}

/** The change request as typed, its check and price, and the submission with its outcome. */
interface Revise {
  text: string;
  setText: (text: string) => void;
  check: ReturnType<typeof checkChangeRequest>;
  price: ReturnType<typeof revisionCredits>;
  field: Ref<HTMLTextAreaElement>;
  problem: Problem | undefined;
  busy: boolean;
  submit: (event: Event) => Promise<void>;
}

/** The change request and the create: one key per submission, one request in flight. */
function useRevise(props: ReviseProps): Revise {
  const { projectId, type, detail, onStarted } = props;
  const { pgs, credits, refreshCredits } = useSession();
  const problemOf = useProblemOf('revision');
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<Problem | undefined>(undefined);
  const submission = useRef<{ body: string; key: string } | undefined>(undefined);
  // A second click can arrive before the disabled button is rendered: this closes that gap.
  const inFlight = useRef(false);
  const field = useRef<HTMLTextAreaElement>(null);
  const price = revisionCredits(type, detail);
  const check = checkChangeRequest(text);

  const submit = async (event: Event) => {
    event.preventDefault();
    if (inFlight.current) return;
    if (!check.ok) {
      setProblem({
        kind: 'invalid',
        text:
          check.count === 0
            ? 'Say what to change first.'
            : 'The change request must be 1 to 4,000 characters.',
      });
      field.current?.focus();
      return;
    }
    const changeRequest = text.trim();
    if (submission.current?.body !== changeRequest) {
      submission.current = { body: changeRequest, key: crypto.randomUUID() };
    }
    inFlight.current = true;
    setBusy(true);
    setProblem(undefined);
    try {
      const created = await pgs.projects.revisions.create(
        projectId,
        { changeRequest },
        { idempotencyKey: submission.current.key },
      );
      submission.current = undefined;
      setText('');
      void refreshCredits();
      onStarted(created.revision);
    } catch (error) {
      const running = runningRevision(error);
      if (running !== undefined) {
        onStarted(running);
        return;
      }
      const described = problemOf(error, { price: price.total, balance: credits?.balance });
      setProblem(described);
      if (described.kind === 'credits') void refreshCredits();
    } finally {
      inFlight.current = false;
      setBusy(false);
    }
  };

  return { text, setText, check, price, field, problem, busy, submit };
}

/** The change request's field, its hint and its counter (over the limit, it says so). */
function ChangeRequestField(props: Pick<Revise, 'field' | 'text' | 'setText' | 'check'>) {
  const { field, text, setText, check } = props;
  return (
    <>
      <label for="change-request">Change request</label>
      <textarea
        ref={field}
        id="change-request"
        name="changeRequest"
        rows={4}
        aria-describedby="change-request-hint change-request-count"
        aria-invalid={check.count > CHANGE_REQUEST_MAX}
        value={text}
        onInput={(event) => setText(event.currentTarget.value)}
      />
      <p id="change-request-hint" class="hint">
        What to change, in plain words, for example "Add SMS reminders two days before each
        appointment; drop the medical records". Only the documents it touches are rewritten, and
        every requirement, story and task keeps its ID.
      </p>
      <p
        id="change-request-count"
        class={check.count > CHANGE_REQUEST_MAX ? 'hint counter over' : 'hint counter'}
      >
        {check.text}
      </p>
    </>
  );
}

/** The revision a 409 REVISION_IN_PROGRESS names, to follow it instead. */
export function runningRevision(error: unknown): number | undefined {
  if (!(error instanceof ConflictError) || error.code !== 'REVISION_IN_PROGRESS') return undefined;
  const revision = error.details?.revision;
  return typeof revision === 'number' && Number.isSafeInteger(revision) ? revision : undefined;
}

/**
 * A revision's requirement deltas, one per line: the kind as a word, the ID, the title (a
 * rename "old → new") and a removal's reason.
 *
 * @example
 * <DeltaList deltas={revision.deltas} />
 */
export function DeltaList({ deltas }: { deltas: readonly RequirementDelta[] }) {
  if (deltas.length === 0) return <p>No requirement changed.</p>;
  return (
    <ul class="deltas" aria-label="Requirement changes">
      {deltas.map((delta) => {
        const line = deltaLine(delta);
        return (
          <li key={`${delta.op}-${delta.id}`}>
            <span class={`delta delta-${delta.op}`}>{line.label}</span>{' '}
            <span class="trace-id">{line.id}</span> {line.title}
            {line.note && <span class="delta-note">: {line.note}</span>}
          </li>
        );
      })}
    </ul>
  );
}
