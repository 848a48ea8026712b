import {
  type ClarifyingQuestion,
  type DetailLevel,
  type ProjectType,
  projectCredits,
} from '@pgs/client';
import { useEffect, useRef, useState } from 'preact/hooks';
import { answersToSend, initialAnswers } from '../clarify.ts';
import { PageHeading, ProblemAlert, StatusLine } from '../components.tsx';
import { DETAILS } from '../detail.ts';
import { useSession } from '../hooks.ts';
import { describeError, type Problem } from '../messages.ts';
import { projectHref } from '../routes.ts';
import { AnswerFields } from './answer-fields.tsx';

const TYPES: readonly { value: '' | ProjectType; label: string }[] = [
  { value: '', label: 'Automatic' },
  { value: 'web', label: 'Web' },
  { value: 'mobile', label: 'Mobile' },
  { value: 'mcp', label: 'MCP' },
];

/**
 * The new-project form. The price shown is what the server reserves: the type's price at the
 * detail level chosen (the dearest type's for "Automatic"). One Idempotency-Key per
 * submission: kept while the same request is retried (after an error, or a second click),
 * replaced when the fields change, so a double click or a retry never creates two projects
 * and an edit never reuses a key. "Ask me first" shows what the idea leaves open
 * (`ideas.clarify`, free) with the recommended answers filled in; the project is then created
 * with the answers as they stand (docs/clarify.md).
 *
 * @example
 * <NewProjectScreen />
 */
export function NewProjectScreen() {
  const { pgs, credits, refreshCredits, signOut } = useSession();
  const [idea, setIdea] = useState('');
  const [type, setType] = useState<'' | ProjectType>('');
  const [name, setName] = useState('');
  const [detail, setDetail] = useState<DetailLevel>('standard');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<Problem | undefined>(undefined);
  const submission = useRef<{ body: string; key: string } | undefined>(undefined);
  // A second click can arrive before the disabled button is rendered: this closes that gap.
  const inFlight = useRef(false);
  const price = projectCredits(type === '' ? undefined : type, detail);
  const [questions, setQuestions] = useState<ClarifyingQuestion[] | undefined>(undefined);
  const [answers, setAnswers] = useState<Record<string, string>>({});
  const [asking, setAsking] = useState(false);
  const [askProblem, setAskProblem] = useState<Problem | undefined>(undefined);
  const questionsHeading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (questions) questionsHeading.current?.focus();
  }, [questions]);

  const ask = async () => {
    if (asking) return;
    if (idea.trim().length < 10) {
      setAskProblem({ kind: 'invalid', text: 'Write the idea first: 10 to 5,000 characters.' });
      return;
    }
    setAsking(true);
    setAskProblem(undefined);
    try {
      const asked = await pgs.ideas.clarify({
        idea: idea.trim(),
        ...(type === '' ? {} : { type }),
      });
      setQuestions(asked);
      setAnswers(initialAnswers(asked));
    } catch (error) {
      const described = describeError(error);
      if (described.signOut) signOut(described);
      setAskProblem(described);
    } finally {
      setAsking(false);
    }
  };

  const submit = async (event: Event) => {
    event.preventDefault();
    if (inFlight.current) return;
    const given = questions ? answersToSend(questions, answers) : [];
    const params = {
      idea: idea.trim(),
      ...(type === '' ? {} : { type }),
      ...(name.trim() === '' ? {} : { name: name.trim() }),
      detail,
      ...(given.length > 0 ? { answers: given } : {}),
    };
    const body = JSON.stringify(params);
    if (submission.current?.body !== body) {
      submission.current = { body, key: crypto.randomUUID() };
    }
    inFlight.current = true;
    setBusy(true);
    setProblem(undefined);
    try {
      const created = await pgs.projects.create(params, {
        idempotencyKey: submission.current.key,
      });
      submission.current = undefined;
      void refreshCredits();
      window.location.hash = projectHref(created.projectId);
    } catch (error) {
      const described = describeError(error, { price, balance: credits?.balance });
      if (described.signOut) signOut(described);
      setProblem(described);
      if (described.kind === 'credits') void refreshCredits();
    } finally {
      inFlight.current = false;
      setBusy(false);
    }
  };

  return (
    <>
      <PageHeading>New project</PageHeading>
      <form class="card" onSubmit={submit}>
        <label for="idea">Idea</label>
        <textarea
          id="idea"
          name="idea"
          rows={5}
          required
          minLength={10}
          maxLength={5000}
          aria-describedby="idea-hint"
          value={idea}
          onInput={(event) => setIdea(event.currentTarget.value)}
        />
        <p id="idea-hint" class="hint">
          Your project idea in plain words, 10 to 5,000 characters.
        </p>
        {/* The console sends no codebase: reading a working tree is the CLI's and the SDK's job. */}
        <p class="hint">
          To ground a project in an existing codebase, run <code>pgs generate "…" --repo .</code> in
          it.
        </p>

        <div class="row">
          <div>
            <label for="type">Type</label>
            <select
              id="type"
              name="type"
              value={type}
              onChange={(event) => setType(event.currentTarget.value as '' | ProjectType)}
              aria-describedby="type-hint"
            >
              {TYPES.map((option) => (
                <option key={option.value} value={option.value}>
                  {option.label}
                </option>
              ))}
            </select>
            <p id="type-hint" class="hint">
              {type === ''
                ? 'Chosen from the idea; the dearest price is held, the rest released at the end.'
                : 'Web app, mobile app or MCP server.'}
            </p>
          </div>
          <div>
            <label for="name">Name</label>
            <input
              id="name"
              name="name"
              type="text"
              maxLength={80}
              autocomplete="off"
              aria-describedby="name-hint"
              value={name}
              onInput={(event) => setName(event.currentTarget.value)}
            />
            <p id="name-hint" class="hint">
              optional: generated when left empty
            </p>
          </div>
        </div>

        <fieldset class="choices">
          <legend>Detail</legend>
          {DETAILS.map((level) => (
            <div class="choice" key={level.value}>
              <input
                id={`detail-${level.value}`}
                type="radio"
                name="detail"
                value={level.value}
                checked={detail === level.value}
                onChange={() => setDetail(level.value)}
                aria-describedby={`detail-${level.value}-hint`}
              />
              <label for={`detail-${level.value}`}>{level.label}</label>
              <p id={`detail-${level.value}-hint`} class="hint">
                {level.hint}
              </p>
            </div>
          ))}
        </fieldset>

        <section class="clarify" aria-labelledby="clarify-heading">
          <h2 id="clarify-heading" ref={questionsHeading} tabIndex={-1}>
            {questions ? 'Before writing' : 'Ask me first'}
          </h2>
          {questions === undefined && (
            <p class="hint">
              PGS can ask what the idea leaves open before it writes (free, nothing is stored); your
              answers become facts of every document.
            </p>
          )}
          {questions?.length === 0 && (
            <p>The idea already says what PGS would ask: nothing to settle first.</p>
          )}
          {questions && questions.length > 0 && (
            <>
              <p class="hint">
                Each field starts with PGS's recommended answer, and what it holds is sent as your
                team's answer: a fact of every document, not an assumption. Change any of them, or
                empty a field to leave it to PGS (then assumed, listed in the brief, answerable
                later).
              </p>
              <AnswerFields
                idPrefix="clarify"
                questions={questions}
                answers={answers}
                onChange={setAnswers}
              />
            </>
          )}
          <StatusLine text={asking ? 'Reading the idea…' : ''} />
          {askProblem && <ProblemAlert problem={askProblem} />}
          <div class="button-row">
            <button type="button" class="secondary" disabled={asking} onClick={() => void ask()}>
              {questions ? 'Ask again' : 'Ask me first'}
            </button>
            {questions && (
              <button
                type="button"
                class="secondary"
                onClick={() => {
                  setQuestions(undefined);
                  setAnswers({});
                }}
              >
                Skip the questions
              </button>
            )}
          </div>
        </section>

        <p class="price" aria-live="polite">
          Price: {price} credits
        </p>
        {problem && <ProblemAlert problem={problem} />}
        <button type="submit" disabled={busy} aria-busy={busy}>
          {questions && questions.length > 0 ? 'Generate with these answers' : 'Generate'}
        </button>
      </form>
    </>
  );
}
