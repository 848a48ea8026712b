import { revisionCredits } from '@pgs/client';
import { useEffect, useRef, useState } from 'preact/hooks';
import { ProblemAlert, ProblemRetry, StatusLine } from '../components.tsx';
import { useProblemOf, useSession } from '../hooks.ts';
import type { Problem } from '../messages.ts';
import {
  answersBody,
  type ProjectQuestion,
  questionLabel,
  questionsSummary,
} from '../questions.ts';
import { AnswerFields } from './answer-fields.tsx';
import { runningRevision } from './revise.tsx';

/** What the panel is given: the project, its price inputs, when to read again, and the follow. */
interface QuestionsProps {
  projectId: string;
  type: Parameters<typeof revisionCredits>[0];
  detail: Parameters<typeof revisionCredits>[1] | undefined;
  /** Changes when the questions may have changed (a revision ended). */
  read: number;
  /** A revision is running: answers wait for it. */
  running: boolean;
  onStarted: (revision: number) => void;
}

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
export function QuestionsPanel(props: QuestionsProps) {
  const panel = useQuestions(props);
  const { questions, problem } = panel;
  return (
    <section class="card questions" aria-labelledby="questions-heading">
      <h2 id="questions-heading">Questions</h2>
      <StatusLine text={questions === undefined && !problem ? 'Loading the questions…' : ''} />
      {questions && <p data-testid="questions-summary">{questionsSummary(questions)}</p>}
      {questions && questions.length > 0 && (
        <AnswersForm {...panel} questions={questions} running={props.running} />
      )}
      {problem && questions === undefined && (
        <ProblemRetry problem={problem} onRetry={panel.reload} />
      )}
    </section>
  );
}

/** The questions as read (`undefined` until then), the answers given, and the submission. */
interface Questions {
  questions: ProjectQuestion[] | undefined;
  answers: Record<string, string>;
  setAnswers: (answers: Record<string, string>) => void;
  /** How many questions are answered. */
  count: number;
  price: ReturnType<typeof revisionCredits> | undefined;
  problem: Problem | undefined;
  busy: boolean;
  reload: () => void;
  submit: (event: Event) => Promise<void>;
}

/** Reads the questions, and posts the answers: one key per submission, one request in flight. */
function useQuestions(props: QuestionsProps): Questions {
  const { projectId, type, detail, read, running, onStarted } = props;
  const { pgs, credits, refreshCredits } = useSession();
  const [questions, setQuestions] = useState<ProjectQuestion[] | undefined>(undefined);
  const [answers, setAnswers] = useState<Record<string, string>>({});
  const [problem, setProblem] = useState<Problem | undefined>(undefined);
  const [reads, setReads] = useState(0);
  const [busy, setBusy] = useState(false);
  const submission = useRef<{ body: string; key: string } | undefined>(undefined);
  const inFlight = useRef(false);
  const problemOf = useProblemOf('revision');

  useEffect(() => {
    const controller = new AbortController();
    setProblem(undefined);
    pgs.projects
      .questions(projectId, { signal: controller.signal })
      .then(setQuestions, (error: unknown) => {
        if (!controller.signal.aborted) setProblem(problemOf(error));
      });
    return () => controller.abort();
  }, [pgs, projectId, problemOf, read, reads]);

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
      const found = problemOf(error, { price: price?.total, balance: credits?.balance });
      setProblem(found);
      if (found.kind === 'credits') void refreshCredits();
    } finally {
      inFlight.current = false;
      setBusy(false);
    }
  };

  const reload = () => setReads((n) => n + 1);
  return { questions, answers, setAnswers, count, price, problem, busy, reload, submit };
}

/** The answers' form: what answering does and costs, a field per question, and the button. */
function AnswersForm(props: Questions & { questions: ProjectQuestion[]; running: boolean }) {
  const { questions, answers, setAnswers, count, price, problem, busy, running, submit } = props;
  return (
    <form onSubmit={submit} aria-labelledby="questions-heading">
      <p class="hint">
        Answer what you can; a question left empty stays open. The answers are a change request: the
        documents they touch are revised, each answered question is recorded as a decision, and it
        costs what a revision costs
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
  );
}
