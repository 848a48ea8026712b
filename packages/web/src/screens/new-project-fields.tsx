import type { ClarifyingQuestion, DetailLevel, ProjectType } from '@pgs/client';
import type { Ref } from 'preact';
import { ProblemAlert, StatusLine } from '../components.tsx';
import { DETAILS } from '../detail.ts';
import type { Problem } from '../messages.ts';
import { AnswerFields } from './answer-fields.tsx';

const TYPES: readonly { value: '' | ProjectType; label: string }[] = [
  { value: '', label: 'Automatic' },
  { value: 'web', label: 'Web' },
  { value: 'mobile', label: 'Mobile' },
  { value: 'mcp', label: 'MCP' },
];

/**
 * The idea, with what it may hold and where a codebase is given instead.
 *
 * @example
 * <IdeaField idea={idea} onInput={setIdea} />
 */
export function IdeaField({ idea, onInput }: { idea: string; onInput: (idea: string) => void }) {
  return (
    <>
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
        onInput={(event) => onInput(event.currentTarget.value)}
      />
      <p id="idea-hint" class="hint">
        Your project idea in plain words, 10 to 5,000 characters.
      </p>
      {/* The console sends no codebase: reading a working tree is the CLI's and the SDK's job. */}
      <p class="hint">
        To ground a project in an existing codebase, run <code>pgs generate "…" --repo .</code> in
        it.
      </p>
    </>
  );
}

/**
 * The project type ("Automatic" lets the idea choose) and the optional name, side by side.
 *
 * @example
 * <TypeAndName type={type} onType={setType} name={name} onName={setName} />
 */
export function TypeAndName(props: {
  type: '' | ProjectType;
  onType: (type: '' | ProjectType) => void;
  name: string;
  onName: (name: string) => void;
}) {
  const { type, onType, name, onName } = props;
  return (
    <div class="row">
      <div>
        <label for="type">Type</label>
        <select
          id="type"
          name="type"
          value={type}
          onChange={(event) => onType(event.currentTarget.value as '' | ProjectType)}
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
          onInput={(event) => onName(event.currentTarget.value)}
        />
        <p id="name-hint" class="hint">
          optional: generated when left empty
        </p>
      </div>
    </div>
  );
}

/**
 * The detail levels as radio buttons, each with its hint.
 *
 * @example
 * <DetailChoices detail={detail} onChange={setDetail} />
 */
export function DetailChoices(props: {
  detail: DetailLevel;
  onChange: (detail: DetailLevel) => void;
}) {
  const { detail, onChange } = props;
  return (
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
            onChange={() => onChange(level.value)}
            aria-describedby={`detail-${level.value}-hint`}
          />
          <label for={`detail-${level.value}`}>{level.label}</label>
          <p id={`detail-${level.value}-hint`} class="hint">
            {level.hint}
          </p>
        </div>
      ))}
    </fieldset>
  );
}

/** "Ask me first" as the form shows it: the questions asked, if any, and their answers. */
export interface Clarify {
  questions: ClarifyingQuestion[] | undefined;
  answers: Record<string, string>;
  setAnswers: (answers: Record<string, string>) => void;
  asking: boolean;
  askProblem: Problem | undefined;
  ask: () => Promise<void>;
  skip: () => void;
  /** The section's heading, which takes the focus when questions arrive. */
  heading: Ref<HTMLHeadingElement>;
}

/**
 * The "Ask me first" section: the invitation, then the questions with the recommended
 * answers filled in (or word that there is nothing to settle), Ask again and Skip.
 *
 * @example
 * <ClarifySection {...clarify} />
 */
export function ClarifySection(props: Clarify) {
  const { questions, answers, setAnswers, asking, askProblem, ask, skip, heading } = props;
  return (
    <section class="clarify" aria-labelledby="clarify-heading">
      <h2 id="clarify-heading" ref={heading} tabIndex={-1}>
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
            team's answer: a fact of every document, not an assumption. Change any of them, or empty
            a field to leave it to PGS (then assumed, listed in the brief, answerable later).
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
          <button type="button" class="secondary" onClick={skip}>
            Skip the questions
          </button>
        )}
      </div>
    </section>
  );
}
