import { revisionCredits } from '@pgs/client';
import { useEffect, useRef, useState } from 'preact/hooks';
import { ProblemAlert, ProblemRetry, StatusLine } from '../components.tsx';
import { useProblemOf, useSession } from '../hooks.ts';
import { describeError, type Problem } from '../messages.ts';
import {
  answersBody,
  type ProjectQuestion,
  questionLabel,
  questionsSummary,
} from '../questions.ts';
import { AnswerFields } from './answer-fields.tsx';
import { runningRevision } from './revise.tsx';

/**
 * A completed project's open questions `Q-n` and the assumptions `A-n` one may overrule
 * (docs/clarify.md, "Answer later"), each with its recommended answer. Answering posts the
 * answers given (one Idempotency-Key per submission, as on the Revise form) and starts a
 * revision, which the Revise card follows (`onStarted`); a revision already running is
 * followed instead. Read again when `read` changes (after a revision ends).
 *
 * @example
 * <QuestionsPanel projectId={id} type="web" detail="standard" read={n} onStarted={follow} />
 */
export function QuestionsPanel({
  projectId,
  type,
  detail,
  read,
  running,
  onStarted,
}: {
  projectId: string;
  type: Parameters<typeof revisionCredits>[0];
  detail: Parameters<typeof revisionCredits>[1] | undefined;
  /** Changes when the questions may have changed (a revision ended). */
  read: number;
  /** A revision is running: answers wait for it. */
  running: boolean;
  onStarted: (revision: number) => void;
}) {
  const { pgs, credits, refreshCredits, signOut } = useSession();
  const [questions, setQuestions] = useState<ProjectQuestion[] | undefined>(undefined);
  const [answers, setAnswers] = useState<Record<string, string>>({});
  const [problem, setProblem] = useState<Problem | undefined>(undefined);
  const [reads, setReads] = useState(0);
  const [busy, setBusy] = useState(false);
  const submission = useRef<{ body: string; key: string } | undefined>(undefined);
  const inFlight = useRef(false);

  const described = useProblemOf('revision');

  useEffect(() => {
    const controller = new AbortController();
    setProblem(undefined);
    pgs.projects
      .questions(projectId, { signal: controller.signal })
      .then(setQuestions, (error: unknown) => {
        if (!controller.signal.aborted) setProblem(described(error));
      });
    return () => controller.abort();
  }, [pgs, projectId, described, read, reads]);

  const body = questions ? answersBody(questions, answers) : { answers: {} };
  const count = Object.keys(body.answers).length;
  const price = detail === undefined ? undefined : revisionCredits(type, detail);

  const submit = async (event: Event) => {
    event.preventDefault();
    if (inFlight.current || running) return;
    if (count === 0) {
      setProblem({ kind: 'invalid', text: 'Answer at least one question first.' });
      return;
    }
    const text = JSON.stringify(body);
    if (submission.current?.body !== text) {
      submission.current = { body: text, key: crypto.randomUUID() };
    }
    inFlight.current = true;
    setBusy(true);
    setProblem(undefined);
    try {
      const started = await pgs.projects.answer(projectId, body.answers, {
        idempotencyKey: submission.current.key,
      });
      submission.current = undefined;
      setAnswers({});
      void refreshCredits();
      onStarted(started.revision);
    } catch (error) {
      const already = runningRevision(error);
      if (already !== undefined) {
        onStarted(already);
        return;
      }
      const found = describeError(error, {
        subject: 'revision',
        price: price?.total,
        balance: credits?.balance,
      });
      if (found.signOut) signOut(found);
      setProblem(found);
      if (found.kind === 'credits') void refreshCredits();
    } finally {
      inFlight.current = false;
      setBusy(false);
    }
  };

  return (
    <section class="card questions" aria-labelledby="questions-heading">
      <h2 id="questions-heading">Questions</h2>
      <StatusLine text={questions === undefined && !problem ? 'Loading the questions…' : ''} />
      {questions && <p data-testid="questions-summary">{questionsSummary(questions)}</p>}
      {questions && questions.length > 0 && (
        <form onSubmit={submit} aria-labelledby="questions-heading">
          <p class="hint">
            Answer what you can; a question left empty stays open. The answers are a change request:
            the documents they touch are revised, each answered question is recorded as a decision,
            and it costs what a revision costs
            {price ? ` (up to ${price.total} credits)` : ''}.
          </p>
          <AnswerFields
            idPrefix="project"
            questions={questions.map((question) => ({
              ...question,
              label: questionLabel(question),
            }))}
            answers={answers}
            onChange={setAnswers}
          />
          {running && <p class="hint">A revision is running: answer once it has ended.</p>}
          {problem && <ProblemAlert problem={problem} />}
          <button type="submit" disabled={busy || running} aria-busy={busy}>
            {count === 0
              ? 'Answer and revise'
              : `Answer ${count} ${count === 1 ? 'question' : 'questions'} and revise`}
          </button>
        </form>
      )}
      {problem && questions === undefined && (
        <ProblemRetry problem={problem} onRetry={() => setReads((n) => n + 1)} />
      )}
    </section>
  );
}
