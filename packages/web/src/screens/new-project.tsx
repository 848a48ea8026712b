import {
  type ClarifyingQuestion,
  type DetailLevel,
  type ProjectType,
  projectCredits,
} from '@pgs/client';
import { useEffect, useRef, useState } from 'preact/hooks';
import { answersToSend, initialAnswers } from '../clarify.ts';
import { PageHeading, ProblemAlert } from '../components.tsx';
import { useProblemOf, useSession } from '../hooks.ts';
import type { Problem } from '../messages.ts';
import { projectHref } from '../routes.ts';
import {
  type Clarify,
  ClarifySection,
  DetailChoices,
  IdeaField,
  TypeAndName,
} from './new-project-fields.tsx';

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
  const form = useNewProject();
  const { clarify, price, problem, busy } = form;
  return (
    <>
      <PageHeading>New project</PageHeading>
      <form class="card" onSubmit={form.submit}>
        <IdeaField idea={form.idea} onInput={form.setIdea} />
        <TypeAndName
          type={form.type}
          onType={form.setType}
          name={form.name}
          onName={form.setName}
        />
        <DetailChoices detail={form.detail} onChange={form.setDetail} />
        <ClarifySection {...clarify} />
        <p class="price" aria-live="polite">
          Price: {price} credits
        </p>
        {problem && <ProblemAlert problem={problem} />}
        <button type="submit" disabled={busy} aria-busy={busy}>
          {clarify.questions && clarify.questions.length > 0
            ? 'Generate with these answers'
            : 'Generate'}
        </button>
      </form>
    </>
  );
}

/** The form's fields as edited, its price, and the submission with its outcome. */
interface NewProject {
  idea: string;
  setIdea: (idea: string) => void;
  type: '' | ProjectType;
  setType: (type: '' | ProjectType) => void;
  name: string;
  setName: (name: string) => void;
  detail: DetailLevel;
  setDetail: (detail: DetailLevel) => void;
  clarify: Clarify;
  price: number;
  problem: Problem | undefined;
  busy: boolean;
  submit: (event: Event) => Promise<void>;
}

/** The fields, and the create: one key per submission, one request in flight. */
function useNewProject(): NewProject {
  const { pgs, credits, refreshCredits } = useSession();
  const problemOf = useProblemOf();
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
  const clarify = useClarify(idea, type);

  const submit = async (event: Event) => {
    event.preventDefault();
    if (inFlight.current) return;
    const { questions, answers } = clarify;
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
      const described = problemOf(error, { price, balance: credits?.balance });
      setProblem(described);
      if (described.kind === 'credits') void refreshCredits();
    } finally {
      inFlight.current = false;
      setBusy(false);
    }
  };

  return {
    idea,
    setIdea,
    type,
    setType,
    name,
    setName,
    detail,
    setDetail,
    clarify,
    price,
    problem,
    busy,
    submit,
  };
}

/** "Ask me first": the questions the idea leaves open, read on demand, and their answers. */
function useClarify(idea: string, type: '' | ProjectType): Clarify {
  const { pgs } = useSession();
  const problemOf = useProblemOf();
  const [questions, setQuestions] = useState<ClarifyingQuestion[] | undefined>(undefined);
  const [answers, setAnswers] = useState<Record<string, string>>({});
  const [asking, setAsking] = useState(false);
  const [askProblem, setAskProblem] = useState<Problem | undefined>(undefined);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (questions) heading.current?.focus();
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
      setAskProblem(problemOf(error));
    } finally {
      setAsking(false);
    }
  };

  const skip = () => {
    setQuestions(undefined);
    setAnswers({});
  };
  return { questions, answers, setAnswers, asking, askProblem, ask, skip, heading };
}
